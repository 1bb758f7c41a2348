#include "analysis/flow_program.h"

#include <algorithm>
#include <charconv>
#include <set>

#include "analysis/call_graph.h"

namespace errdex {

namespace {

constexpr int kMaxParseDepth = 200;

bool ToInt(std::string_view text, int* out) {
  auto result = std::from_chars(text.data(), text.data() + text.size(), *out);
  return result.ec == std::errc() && result.ptr == text.data() + text.size();
}

std::string Unescape(std::string_view text) {
  if (text == "%") return {};
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      int value = 0;
      auto r = std::from_chars(text.data() + i + 1, text.data() + std::min(text.size(), i + 3), value, 16);
      if (r.ec == std::errc()) {
        out += static_cast<char>(value);
        i += 2;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

// The space-separated tokens of LINE into *TOKENS (cleared first: one buffer serves every record).
void Split(std::string_view line, std::vector<std::string_view>* tokens_out) {
  std::vector<std::string_view>& tokens = *tokens_out;
  tokens.clear();
  size_t start = 0;
  while (start <= line.size()) {
    size_t end = line.find(' ', start);
    if (end == std::string_view::npos) end = line.size();
    if (end > start) tokens.push_back(line.substr(start, end - start));
    start = end + 1;
  }
}

}  // namespace

std::string ModuleNameOfPath(const std::string& path) {
  std::string name = path;
  if (name.size() >= 3 && name.compare(name.size() - 3, 3, ".py") == 0) name.resize(name.size() - 3);
  if (name == "__init__") return "";
  if (name.size() >= 9 && name.compare(name.size() - 9, 9, "/__init__") == 0) name.resize(name.size() - 9);
  std::replace(name.begin(), name.end(), '/', '.');
  return name;
}

int FlowProgram::Intern(std::string_view text) {
  auto it = name_ids_.find(text);
  if (it != name_ids_.end()) return it->second;
  const int id = static_cast<int>(names_.size());
  names_.emplace_back(text);
  name_ids_.emplace(std::string(text), id);
  return id;
}

int FlowProgram::FindName(std::string_view text) const {
  auto it = name_ids_.find(text);
  return it == name_ids_.end() ? -1 : it->second;
}

int FlowProgram::ParseExpr(std::vector<std::string_view>& tokens, size_t* pos, int scope, int depth) {
  if (*pos >= tokens.size() || depth > kMaxParseDepth) return -1;
  std::string_view tag = tokens[(*pos)++];
  FlowExpr e;
  e.tag = tag.empty() ? '?' : tag[0];
  e.scope = scope;
  auto next = [&]() -> std::string_view { return *pos < tokens.size() ? tokens[(*pos)++] : std::string_view(); };
  auto kid = [&]() {
    int k = ParseExpr(tokens, pos, scope, depth + 1);
    e.kids.push_back(k);
    return k;
  };
  int count = 0;
  switch (e.tag) {
    case 'N':
      e.name = Intern(next());
      break;
    case 'A':
      e.name = Intern(next());
      e.kids.reserve(1);
      kid();
      break;
    case 'Q': {
      const std::string_view text = next();
      // Most strings have no escape: their token is their text.
      e.name = text.find('%') == std::string_view::npos ? Intern(text) : Intern(Unescape(text));
      break;
    }
    case 'K':
      scratch_.assign("i:");
      scratch_ += next();
      e.name = Intern(scratch_);
      break;
    case 'O':
      e.name = Intern(next());
      e.kids.reserve(2);
      kid();
      kid();
      break;
    case 'V':  // None, True or False
      e.name = Intern(next());
      break;
    case 'X':
      e.kids.reserve(2);
      kid();
      kid();
      break;
    case 'P':  // a slice: lower bound, upper bound, step
      e.kids.reserve(3);
      kid();
      kid();
      kid();
      break;
    case 'S':
    case 'W':
    case 'Y':
    case 'G':
      e.kids.reserve(1);
      kid();
      break;
    case 'F': {
      int local = 0;
      if (!ToInt(next(), &local)) return -1;
      e.scope = local;  // mapped to the global scope by the caller
      break;
    }
    case 'L':
    case 'U':
    case 'M':
      if (!ToInt(next(), &count) || count < 0) return -1;
      e.kids.reserve(std::min(static_cast<size_t>(count), tokens.size()));
      for (int i = 0; i < count; ++i) kid();
      break;
    case 'D':
      if (!ToInt(next(), &count) || count < 0) return -1;
      e.kids.reserve(std::min(2 * static_cast<size_t>(count), tokens.size()));
      for (int i = 0; i < 2 * count; ++i) kid();
      break;
    case 'C': {
      int npos = 0, nkw = 0;
      if (!ToInt(next(), &e.line) || !ToInt(next(), &e.col) || !ToInt(next(), &npos) || !ToInt(next(), &nkw)) {
        return -1;
      }
      e.npos = npos;
      if (npos >= 0 && nkw >= 0) {
        e.kids.reserve(std::min(1 + static_cast<size_t>(npos) + static_cast<size_t>(nkw), tokens.size()));
        e.kw.reserve(std::min(static_cast<size_t>(nkw), tokens.size()));
      }
      kid();
      for (int i = 0; i < npos; ++i) kid();
      for (int i = 0; i < nkw; ++i) {
        e.kw.push_back(Intern(next()));
        kid();
      }
      break;
    }
    default:
      e.tag = e.tag == 'I' ? 'I' : '?';
      break;
  }
  const int id = static_cast<int>(exprs.size());
  if (e.tag == 'C') {
    e.call = static_cast<int>(call_exprs.size());
    call_exprs.push_back(id);
  }
  exprs.push_back(std::move(e));
  return id;
}

void FlowProgram::BindTarget(int expr, int scope) {
  if (expr < 0) return;
  const FlowExpr& e = exprs[static_cast<size_t>(expr)];
  if (e.tag == 'N') {
    scopes[static_cast<size_t>(scope)].bound_names.push_back(e.name);
  } else if (e.tag == 'L' || e.tag == 'S') {
    std::vector<int> kids = e.kids;
    for (int k : kids) BindTarget(k, scope);
  }
}

void FlowProgram::ParseRecord(std::string_view line, int module, std::vector<int>* local_scopes) {
  std::vector<std::string_view>& t = tokens_;
  Split(line, &t);
  if (t.size() < 2 || t[0].size() != 1) return;
  char kind = t[0][0];
  const bool straight = kind == 'A' || kind == 'E';
  if (kind == 'A') kind = 'a';
  if (kind == 'E') kind = 'e';
  int local = 0;
  if (!ToInt(t[1], &local) || local < 0 || static_cast<size_t>(local) >= local_scopes->size()) {
    if (kind != 's') return;
  }
  if (kind == 's') {
    int parent_local = 0, line_no = 0, end_line = 0;
    if (t.size() < 7 || !ToInt(t[1], &local) || !ToInt(t[2], &parent_local) || !ToInt(t[5], &line_no) ||
        !ToInt(t[6], &end_line) || parent_local < 0 || static_cast<size_t>(parent_local) >= local_scopes->size() ||
        static_cast<size_t>(local) != local_scopes->size()) {
      return;
    }
    FlowScope s;
    s.module = module;
    s.parent = (*local_scopes)[static_cast<size_t>(parent_local)];
    s.kind = t[3][0];
    s.name = Intern(t[4]);
    s.line = line_no;
    s.end_line = end_line;
    const FlowScope& parent = scopes[static_cast<size_t>(s.parent)];
    s.full_name = parent.full_name.empty() ? std::string(t[4]) : parent.full_name + "." + std::string(t[4]);
    std::string own = s.kind == 'l' ? "<lambda>" : std::string(t[4]);
    s.qualname = parent.kind == 'm' ? own : parent.qualname + (parent.kind == 'c' ? "." : ".<locals>.") + own;
    const int id = static_cast<int>(scopes.size());
    local_scopes->push_back(id);
    scopes.push_back(std::move(s));
    if (scopes.back().kind != 'l') {
      scopes[static_cast<size_t>(scopes.back().parent)].bound_names.push_back(scopes.back().name);
      statements.push_back({'d', scopes.back().parent, line_no, id, -1, t.size() >= 8 && t[7] == "1"});
    }
    return;
  }
  const int scope = (*local_scopes)[static_cast<size_t>(local)];
  FlowScope* s = &scopes[static_cast<size_t>(scope)];
  const int parent = s->parent < 0 ? scope : s->parent;
  size_t pos = 2;
  auto remap_lambdas = [&](size_t from) {
    for (size_t i = from; i < exprs.size(); ++i) {
      if (exprs[i].tag == 'F') {
        exprs[i].scope = exprs[i].scope >= 0 && static_cast<size_t>(exprs[i].scope) < local_scopes->size()
                             ? (*local_scopes)[static_cast<size_t>(exprs[i].scope)]
                             : -1;
        if (exprs[i].scope >= 0 && scopes[static_cast<size_t>(exprs[i].scope)].kind != 'l') exprs[i].scope = -1;
        if (exprs[i].scope < 0) exprs[i].tag = '?';
      }
    }
  };
  const size_t first_expr = exprs.size();
  if (kind == 'p') {
    if (t.size() < 4) return;
    FlowParam p;
    p.name = Intern(t[2]);
    p.kind = t[3] == "*" ? '*' : t[3] == "**" ? 'k' : 'n';
    pos = 4;
    p.annotation = ParseExpr(t, &pos, parent, 0);
    p.default_value = ParseExpr(t, &pos, parent, 0);
    if (p.annotation >= 0 && exprs[static_cast<size_t>(p.annotation)].tag == '?') p.annotation = -1;
    if (p.default_value >= 0 && exprs[static_cast<size_t>(p.default_value)].tag == '?') p.default_value = -1;
    s->params.push_back(p);
    s->bound_names.push_back(p.name);
  } else if (kind == 'd' || kind == 'b' || kind == 'R') {
    const int e = ParseExpr(t, &pos, parent, 0);
    s = &scopes[static_cast<size_t>(scope)];
    if (e < 0) return;
    if (kind == 'b') s->bases.push_back(e);
    if (kind == 'R') s->return_annotation = e;
    if (kind == 'd') {
      const FlowExpr& d = exprs[static_cast<size_t>(e)];
      const std::string& n = d.name >= 0 ? NameOf(d.name) : std::string();
      if (d.tag == 'N' && n == "staticmethod") s->is_static = true;
      if (d.tag == 'N' && n == "classmethod") s->is_classmethod = true;
      if (d.tag == 'N' && (n == "property" || n == "cached_property")) s->is_property = true;
      if (d.tag == 'A' && (n == "cached_property")) s->is_property = true;
      if (d.tag == 'A' && (n == "setter" || n == "deleter") && !d.kids.empty() && d.kids[0] >= 0 &&
          exprs[static_cast<size_t>(d.kids[0])].tag == 'N') {
        s->setter_of = n == "setter" ? exprs[static_cast<size_t>(d.kids[0])].name : -2;
      }
      s->decorators.push_back(e);
    }
  } else if (kind == 'h') {
    FlowGuard g;
    g.scope = scope;
    if (t.size() < 8 || !ToInt(t[2], &g.line) || !ToInt(t[3], &g.first) || !ToInt(t[4], &g.last)) return;
    g.negated = t[5] == "1";
    g.in_loop = t[6] == "1";
    g.text = Unescape(t[7]);
    guards.push_back(std::move(g));
  } else if (kind == 'k') {
    FlowCatch c;
    c.scope = scope;
    int count = 0;
    if (t.size() < 7 || !ToInt(t[2], &c.line) || !ToInt(t[3], &c.first) || !ToInt(t[4], &c.last) || t[5].size() != 1 ||
        (t[5][0] != 'e' && t[5][0] != 'r' && t[5][0] != 's')) {
      return;
    }
    c.form = t[5][0];
    pos = 6;
    if (c.form == 's' && (c.callee = ParseExpr(t, &pos, scope, 0)) < 0) return;
    if (pos >= t.size() || !ToInt(t[pos++], &count) || count < 0 || static_cast<size_t>(count) > t.size()) return;
    for (int i = 0; i < count; ++i) {
      const int e = ParseExpr(t, &pos, scope, 0);
      if (e < 0) return;
      c.types.push_back(e);
    }
    catches.push_back(std::move(c));
  } else if (kind == 'g') {
    if (t.size() >= 3) s->global_names.push_back(Intern(t[2]));
  } else if (kind == 'i') {
    if (t.size() < 5) return;
    FlowStatement st{'i', scope, 0, Intern(t[3]), Intern(t[4])};
    ToInt(t[2], &st.line);
    if (t[3] == "*") {
      st.kind = 'x';
    } else {
      s->bound_names.push_back(st.a);
    }
    statements.push_back(st);
  } else if (kind == 'a' || kind == 't' || kind == 'r' || kind == 'e' || kind == 'w' || kind == 'f' || kind == 'z') {
    FlowStatement st{kind, scope, 0, -1, -1, straight};
    if (t.size() < 4 || !ToInt(t[2], &st.line)) return;
    pos = 3;
    st.a = ParseExpr(t, &pos, scope, 0);
    if (kind != 'r' && kind != 'e' && kind != 'z') st.b = ParseExpr(t, &pos, scope, 0);
    if (kind == 'a' || kind == 't') BindTarget(st.a, scope);
    if (kind == 'f') BindTarget(st.a, scope);
    if (kind == 'w') BindTarget(st.b, scope);
    statements.push_back(st);
  }
  remap_lambdas(first_expr);
}

void FlowProgram::AddFile(const std::string& path, const std::string& flow) {
  FlowModule m;
  m.path = path;
  m.name = ModuleNameOfPath(path);
  m.is_package =
      path == "__init__.py" || (path.size() >= 12 && path.compare(path.size() - 12, 12, "/__init__.py") == 0);
  m.scope = static_cast<int>(scopes.size());
  const int module = static_cast<int>(modules.size());
  modules.push_back(m);
  FlowScope s;
  s.module = module;
  s.kind = 'm';
  s.full_name = m.name;
  s.qualname = "<module>";
  scopes.push_back(s);
  std::vector<int> local_scopes{m.scope};
  size_t start = 0;
  while (start < flow.size()) {
    size_t end = flow.find('\n', start);
    if (end == std::string::npos) end = flow.size();
    ParseRecord(std::string_view(flow).substr(start, end - start), module, &local_scopes);
    start = end + 1;
  }
}

void FlowProgram::Finish() {
  std::set<std::string> package_dirs;
  for (const FlowModule& m : modules) {
    if (m.is_package) {
      const size_t slash = m.path.rfind('/');
      package_dirs.insert(slash == std::string::npos ? "" : m.path.substr(0, slash));
    }
  }
  for (FlowModule& m : modules) {
    // The import name drops the leading directories that are not packages ("src/pkg/a.py" -> "pkg.a").
    std::string dir = m.path;
    std::string kept = m.path;
    size_t slash = dir.rfind('/');
    size_t cut = std::string::npos;
    while (slash != std::string::npos) {
      dir.resize(slash);
      if (!package_dirs.count(dir)) {
        cut = slash;
        break;
      }
      slash = dir.rfind('/');
    }
    if (cut != std::string::npos) kept = m.path.substr(cut + 1);
    m.import_name = ModuleNameOfPath(kept);
  }
  for (FlowScope& s : scopes) {
    std::sort(s.bound_names.begin(), s.bound_names.end());
    s.bound_names.erase(std::unique(s.bound_names.begin(), s.bound_names.end()), s.bound_names.end());
  }
}

}  // namespace errdex
