#include "analysis/flow_program.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>
#include <set>

#include "analysis/call_graph.h"

// XXH3 inlined: names are short, and a call per name would cost about as much as the hash.
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace errdex {

namespace {

constexpr int kMaxParseDepth = 200;

// TEXT as a decimal int, as std::from_chars reads it (an optional '-', digits, nothing else, no overflow). Written
// out: the general from_chars was most of the cost of reading the numbers of the records.
bool ToInt(std::string_view text, int* out) {
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  if (text.empty()) return false;
  uint64_t value = 0;
  for (char c : text) {
    const unsigned digit = static_cast<unsigned>(static_cast<unsigned char>(c)) - '0';
    if (digit > 9) return false;
    value = value * 10 + digit;
    if (value > uint64_t{INT32_MAX} + 1) return false;  // also ends a long run of digits
  }
  if (!negative && value > uint64_t{INT32_MAX}) return false;
  *out = negative ? static_cast<int>(-static_cast<int64_t>(value)) : static_cast<int>(value);
  return true;
}

std::string Unescape(std::string_view text) {
  if (text == "%") return {};
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    // The text up to the next '%' as it is, at once.
    const size_t percent = std::min(text.find('%', i), text.size());
    out.append(text.data() + i, percent - i);
    i = percent;
    if (i == text.size()) break;
    if (i + 2 < text.size()) {
      int value = 0;
      auto r = std::from_chars(text.data() + i + 1, text.data() + std::min(text.size(), i + 3), value, 16);
      if (r.ec == std::errc()) {
        out += static_cast<char>(value);
        i += 3;
        continue;
      }
    }
    out += '%';
    ++i;
  }
  return out;
}

}  // namespace

// The space-separated tokens of one record, read in turn: the parse walks a record once, in order, so no list
// of its tokens is made (empty tokens, of repeated spaces, are skipped). Between calls, the reader stands at the
// start of a token or at the end.
class FlowProgram::Tokens {
 public:
  explicit Tokens(std::string_view line) : begin_(line.data()), at_(begin_), end_(begin_ + line.size()) {
    SkipSpaces();
  }

  // The next token; an empty view when none is left.
  std::string_view Next() {
    // Locals, not the members: a char read may alias them, which would reload them at every byte.
    const char* const start = at_;
    const char* const end = end_;
    const char* const token_end = FindSpace(start, end);
    const char* p = token_end;
    while (p != end && *p == ' ') ++p;
    at_ = p;
    return {start, static_cast<size_t>(token_end - start)};
  }
  bool AtEnd() const { return at_ == end_; }
  // The record's count of tokens (counted when asked: only a malformed record needs it).
  size_t Total() const {
    size_t total = 0;
    for (const char* p = begin_; p != end_; ++p) {
      if (*p != ' ' && (p + 1 == end_ || p[1] == ' ')) ++total;
    }
    return total;
  }
  // A bound of the tokens left, for reserving: each takes at least one byte.
  size_t BytesLeft() const { return static_cast<size_t>(end_ - at_); }

 private:
  // The first space in [P, END), or END: eight bytes at a time (a byte-wise loop was a fifth of the parse;
  // tokens are short, so most are found in the first word).
  static const char* FindSpace(const char* p, const char* end) {
    static_assert(std::endian::native == std::endian::little, "the first byte read is the word's lowest");
    constexpr uint64_t kOnes = 0x0101010101010101u, kSpaces = 0x2020202020202020u, kHighs = 0x8080808080808080u;
    while (end - p >= 8) {
      uint64_t word = 0;
      std::memcpy(&word, p, 8);
      const uint64_t x = word ^ kSpaces;  // a zero byte where a space was
      // The lowest byte flagged is the first zero byte (a flag above a zero byte may be false; none below).
      const uint64_t zero = (x - kOnes) & ~x & kHighs;
      if (zero != 0) return p + std::countr_zero(zero) / 8;
      p += 8;
    }
    while (p != end && *p != ' ') ++p;
    return p;
  }
  void SkipSpaces() {
    while (at_ != end_ && *at_ == ' ') ++at_;
  }
  const char* begin_;
  const char* at_;
  const char* end_;
};

size_t FlowProgram::NameHash::operator()(std::string_view text) const {
  return static_cast<size_t>(XXH3_64bits(text.data(), text.size()));
}

std::string ModuleNameOfPath(const std::string& path) {
  std::string name = path;
  if (name.size() >= 3 && name.compare(name.size() - 3, 3, ".py") == 0) name.resize(name.size() - 3);
  if (name == "__init__") return "";
  if (name.size() >= 9 && name.compare(name.size() - 9, 9, "/__init__") == 0) name.resize(name.size() - 9);
  std::replace(name.begin(), name.end(), '/', '.');
  return name;
}

int FlowProgram::Intern(std::string_view text) {
  // One probe: the key string is made only when TEXT is new.
  const auto [it, inserted] = name_ids_.try_emplace(text, static_cast<int>(names_.size()));
  if (inserted) names_.emplace_back(text);
  return it->second;
}

int FlowProgram::FindName(std::string_view text) const {
  auto it = name_ids_.find(text);
  return it == name_ids_.end() ? -1 : it->second;
}

int FlowProgram::ParseExpr(Tokens& tokens, int scope, int depth) {
  if (tokens.AtEnd() || depth > kMaxParseDepth) return -1;
  std::string_view tag = tokens.Next();
  FlowExpr e;
  e.tag = tag.empty() ? '?' : tag[0];
  e.scope = scope;
  auto next = [&]() { return tokens.Next(); };
  auto kid = [&]() {
    int k = ParseExpr(tokens, scope, depth + 1);
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
      e.kids.reserve(std::min(static_cast<size_t>(count), tokens.BytesLeft()));
      for (int i = 0; i < count; ++i) kid();
      break;
    case 'D':
      if (!ToInt(next(), &count) || count < 0) return -1;
      e.kids.reserve(std::min(2 * static_cast<size_t>(count), tokens.BytesLeft()));
      for (int i = 0; i < 2 * count; ++i) kid();
      break;
    case 'C': {
      int npos = 0, nkw = 0;
      if (!ToInt(next(), &e.line) || !ToInt(next(), &e.col) || !ToInt(next(), &npos) || !ToInt(next(), &nkw)) {
        return -1;
      }
      e.npos = npos;
      if (npos >= 0 && nkw >= 0) {
        e.kids.reserve(std::min(1 + static_cast<size_t>(npos) + static_cast<size_t>(nkw), tokens.BytesLeft()));
        e.kw.reserve(std::min(static_cast<size_t>(nkw), tokens.BytesLeft()));
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

void FlowProgram::ParseScope(Tokens& t, int module, std::vector<int>* local_scopes) {
  int local = 0, parent_local = 0, line_no = 0, end_line = 0;
  const std::string_view local_text = t.Next(), parent_text = t.Next(), kind = t.Next(), name = t.Next(),
                         line_text = t.Next(), end_text = t.Next();
  if (end_text.empty() || !ToInt(local_text, &local) || !ToInt(parent_text, &parent_local) ||
      !ToInt(line_text, &line_no) || !ToInt(end_text, &end_line) || parent_local < 0 ||
      static_cast<size_t>(parent_local) >= local_scopes->size() || static_cast<size_t>(local) != local_scopes->size()) {
    return;
  }
  FlowScope s;
  s.module = module;
  s.parent = (*local_scopes)[static_cast<size_t>(parent_local)];
  s.kind = kind[0];
  s.name = Intern(name);
  s.line = line_no;
  s.end_line = end_line;
  const FlowScope& parent = scopes[static_cast<size_t>(s.parent)];
  s.full_name = parent.full_name.empty() ? std::string(name) : parent.full_name + "." + std::string(name);
  std::string own = s.kind == 'l' ? "<lambda>" : std::string(name);
  s.qualname = parent.kind == 'm' ? own : parent.qualname + (parent.kind == 'c' ? "." : ".<locals>.") + own;
  const int id = static_cast<int>(scopes.size());
  local_scopes->push_back(id);
  scopes.push_back(std::move(s));
  if (scopes.back().kind != 'l') {
    scopes[static_cast<size_t>(scopes.back().parent)].bound_names.push_back(scopes.back().name);
    statements.push_back({'d', scopes.back().parent, line_no, id, -1, t.Next() == "1"});
  }
}

void FlowProgram::ParseRecord(std::string_view line, int module, std::vector<int>* local_scopes) {
  Tokens t(line);
  const std::string_view kind_text = t.Next();
  if (kind_text.size() != 1 || t.AtEnd()) return;
  char kind = kind_text[0];
  if (kind == 's') return ParseScope(t, module, local_scopes);
  const bool straight = kind == 'A' || kind == 'E';
  if (kind == 'A') kind = 'a';
  if (kind == 'E') kind = 'e';
  int local = 0;
  if (!ToInt(t.Next(), &local) || local < 0 || static_cast<size_t>(local) >= local_scopes->size()) return;
  const int scope = (*local_scopes)[static_cast<size_t>(local)];
  FlowScope* s = &scopes[static_cast<size_t>(scope)];
  const int parent = s->parent < 0 ? scope : s->parent;
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
    FlowParam p;
    const std::string_view name = t.Next(), param_kind = t.Next();
    if (param_kind.empty()) return;
    p.name = Intern(name);
    p.kind = param_kind == "*" ? '*' : param_kind == "**" ? 'k' : 'n';
    p.annotation = ParseExpr(t, parent, 0);
    p.default_value = ParseExpr(t, parent, 0);
    if (p.annotation >= 0 && exprs[static_cast<size_t>(p.annotation)].tag == '?') p.annotation = -1;
    if (p.default_value >= 0 && exprs[static_cast<size_t>(p.default_value)].tag == '?') p.default_value = -1;
    s->params.push_back(p);
    s->bound_names.push_back(p.name);
  } else if (kind == 'd' || kind == 'b' || kind == 'R') {
    const int e = ParseExpr(t, parent, 0);
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
    if (!ToInt(t.Next(), &g.line) || !ToInt(t.Next(), &g.first) || !ToInt(t.Next(), &g.last)) return;
    const std::string_view negated = t.Next(), in_loop = t.Next(), text = t.Next();
    if (text.empty()) return;
    g.negated = negated == "1";
    g.in_loop = in_loop == "1";
    g.text = Unescape(text);
    guards.push_back(std::move(g));
  } else if (kind == 'k') {
    if (!ParseCatch(t, scope)) return;
  } else if (kind == 'g') {
    const std::string_view name = t.Next();
    if (!name.empty()) s->global_names.push_back(Intern(name));
  } else if (kind == 'i') {
    const std::string_view line_text = t.Next(), name = t.Next(), path = t.Next();
    if (path.empty()) return;
    FlowStatement st{'i', scope, 0, Intern(name), Intern(path)};
    ToInt(line_text, &st.line);
    if (name == "*") {
      st.kind = 'x';
    } else {
      s->bound_names.push_back(st.a);
    }
    statements.push_back(st);
  } else if (kind == 'a' || kind == 't' || kind == 'r' || kind == 'e' || kind == 'w' || kind == 'f' || kind == 'z') {
    FlowStatement st{kind, scope, 0, -1, -1, straight};
    if (!ToInt(t.Next(), &st.line) || t.AtEnd()) return;
    st.a = ParseExpr(t, scope, 0);
    if (kind != 'r' && kind != 'e' && kind != 'z') st.b = ParseExpr(t, scope, 0);
    if (kind == 'a' || kind == 't') BindTarget(st.a, scope);
    if (kind == 'f') BindTarget(st.a, scope);
    if (kind == 'w') BindTarget(st.b, scope);
    statements.push_back(st);
  }
  remap_lambdas(first_expr);
}

bool FlowProgram::ParseCatch(Tokens& t, int scope) {
  FlowCatch c;
  c.scope = scope;
  int count = 0;
  if (!ToInt(t.Next(), &c.line) || !ToInt(t.Next(), &c.first) || !ToInt(t.Next(), &c.last)) return false;
  const std::string_view form = t.Next();
  if (form.size() != 1 || (form[0] != 'e' && form[0] != 'r' && form[0] != 's') || t.AtEnd()) return false;
  c.form = form[0];
  if (c.form == 's' && (c.callee = ParseExpr(t, scope, 0)) < 0) return false;
  // A count over the record's tokens is malformed: the record is skipped before any type is read.
  if (t.AtEnd() || !ToInt(t.Next(), &count) || count < 0 || static_cast<size_t>(count) > t.Total()) return false;
  for (int i = 0; i < count; ++i) {
    const int e = ParseExpr(t, scope, 0);
    if (e < 0) return false;
    c.types.push_back(e);
  }
  catches.push_back(std::move(c));
  return true;
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
