#include "web/error_page.h"

#include <fmt/format.h>

#include <array>
#include <optional>
#include <utility>

#include "catalog/permalink.h"
#include "python/python_builtins.h"
#include "util/json_fields.h"
#include "web/html.h"
#include "web/layout.h"
#include "web/site_paths.h"
#include "web/versions_section.h"

namespace errdex::web {

namespace {

using nlohmann::json;

// ---- reading the report, whatever shape a field turns out to have ----

std::optional<int> OptInt(const json& j, const char* key) {
  const json* v = Get(j, key);
  if (v == nullptr || !v->is_number_integer()) return std::nullopt;
  const auto n = v->get<int64_t>();
  if (n < 0 || n > 100'000'000) return std::nullopt;
  return static_cast<int>(n);
}

// True when V holds something to show: a non-empty string, a number, true, or a container holding one.
bool HasData(const json* v, int depth = 0) {
  if (v == nullptr || v->is_null() || depth > 16) return false;
  if (v->is_string()) return !v->get_ref<const std::string&>().empty();
  if (v->is_boolean()) return v->get<bool>();
  if (v->is_number()) return true;
  for (const json& item : *v) {
    if (HasData(&item, depth + 1)) return true;
  }
  return false;
}

std::string ShortSha(const std::string& sha) { return sha.substr(0, 10); }

bool IsHexSha(const std::string& sha) {
  return sha.size() == 40 &&
         std::all_of(sha.begin(), sha.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// ---- facts of the explanation, rendered by shape ----

struct FactContext {
  std::string root;
  std::optional<std::string> url;  // the repository's web URL
  std::optional<std::string> rev;  // the commit of the shown site
  std::string default_path;        // the shown site's path, for facts that only give a line
};

constexpr int kMaxFactDepth = 8;
constexpr size_t kMaxListItems = 200;

// Text fields of a fact shown as prose, in this order, without a label.
constexpr std::array<const char*, 12> kProseKeys = {"summary", "text",   "description", "message",   "reason", "advice",
                                                    "passage", "detail", "note",        "docstring", "title",  "why"};
// Fields a fact shows in its head line or that are not for reading.
constexpr std::array<const char*, 10> kHeadKeys = {"path", "line",    "function", "code",     "permalink",
                                                   "kind", "negated", "id",       "end_line", "col"};

bool IsOneOf(const std::string& key, const auto& keys) {
  for (const char* k : keys) {
    if (key == k) return true;
  }
  return false;
}

std::string Humanize(std::string_view key) {
  std::string out(key);
  for (char& c : out) {
    if (c == '_') c = ' ';
  }
  if (!out.empty() && out[0] >= 'a' && out[0] <= 'z') out[0] = static_cast<char>(out[0] - 'a' + 'A');
  return out;
}

void AppendFact(const json& value, const FactContext& ctx, std::string& out, int depth);

// TEXT escaped, with `backticked` spans (as messages, summaries and docs write code) set as <code>.
void AppendWithCode(std::string& out, std::string_view text) {
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t open = text.find('`', pos);
    const size_t close = open == std::string_view::npos ? open : text.find('`', open + 1);
    if (close == std::string_view::npos) {
      AppendEscaped(out, text.substr(pos));
      return;
    }
    AppendEscaped(out, text.substr(pos, open - pos));
    out += "<code>";
    AppendEscaped(out, text.substr(open + 1, close - open - 1));
    out += "</code>";
    pos = close + 1;
  }
}

void AppendProse(std::string& out, const std::string& text) {
  out += "<p class=\"prose\">";
  AppendWithCode(out, text);
  out += "</p>\n";
}

void AppendScalar(std::string& out, const json& v) {
  if (v.is_string()) {
    AppendEscaped(out, v.get_ref<const std::string&>());
  } else if (v.is_boolean()) {
    out += v.get<bool>() ? "yes" : "no";
  } else if (v.is_number()) {
    AppendEscaped(out, v.dump());
  }
}

// An object with an error id: a link to that error's page with its type, template and reason.
void AppendErrorRef(const json& v, const FactContext& ctx, std::string& out) {
  const std::string id = Str(v, "id");
  out += "<a class=\"error-ref\" href=\"";
  AppendEscaped(out, ErrorHref(ctx.root, id));
  out += "\">";
  const std::string type = Str(v, "type");
  if (!type.empty()) {
    out += "<span class=\"type\">";
    AppendEscaped(out, type);
    out += "</span> ";
  }
  out += TemplateHtml(OptStr(v, "template"));
  out += "</a>";
  const std::string reason = Str(v, "reason");
  if (!reason.empty()) {
    out += " <span class=\"reason\">";
    AppendEscaped(out, reason);
    out += "</span>";
  }
}

void AppendObjectFact(const json& v, const FactContext& ctx, std::string& out, int depth) {
  const std::optional<int> line = OptInt(v, "line");
  std::optional<std::string> path = OptStr(v, "path");
  const std::optional<std::string> code = OptStr(v, "code");
  if (!path && line && code && !ctx.default_path.empty()) path = ctx.default_path;
  const bool located = path && line;
  if (!located && IsErrorId(Str(v, "id"))) {
    AppendErrorRef(v, ctx, out);
    return;
  }
  out += "<div class=\"fact\">";
  if (located || Get(v, "function") != nullptr || Get(v, "kind") != nullptr) {
    out += "<div class=\"fact-head\">";
    const std::string kind = Str(v, "kind");
    if (!kind.empty()) {
      out += "<span class=\"kind\">";
      AppendEscaped(out, kind);
      out += "</span> ";
    }
    if (located) {
      std::optional<std::string> permalink = OptStr(v, "permalink");
      if (!permalink) permalink = Permalink(ctx.url, ctx.rev, *path, *line);
      out += LocationHtml(*path, *line, permalink);
    }
    const std::string function = Str(v, "function");
    if (!function.empty()) {
      out += located ? " in <code>" : "<code>";
      AppendEscaped(out, function);
      out += "</code>";
    }
    if (const json* negated = Get(v, "negated"); negated != nullptr && negated->is_boolean() && negated->get<bool>()) {
      out += " <span class=\"neg\">(runs when this is false)</span>";
    }
    out += "</div>\n";
  }
  for (const char* key : kProseKeys) {
    if (const json* p = Get(v, key); p != nullptr && p->is_string() && !p->get_ref<const std::string&>().empty()) {
      AppendProse(out, p->get<std::string>());
    }
  }
  if (code && !code->empty()) {
    out += CodeBlockHtml(*code, line.value_or(1), -1, -1);
  }
  for (const auto& [key, item] : v.items()) {
    if (IsOneOf(key, kProseKeys) || IsOneOf(key, kHeadKeys) || !HasData(&item)) continue;
    if (item.is_primitive()) {
      out += "<p class=\"field\"><span class=\"label\">";
      AppendEscaped(out, Humanize(key));
      out += "</span> ";
      AppendScalar(out, item);
      out += "</p>\n";
    } else {
      out += "<div class=\"label\">";
      AppendEscaped(out, Humanize(key));
      out += "</div>\n";
      AppendFact(item, ctx, out, depth + 1);
    }
  }
  out += "</div>\n";
}

void AppendFact(const json& value, const FactContext& ctx, std::string& out, int depth) {
  if (depth > kMaxFactDepth || !HasData(&value)) return;
  if (value.is_string()) {
    AppendProse(out, value.get<std::string>());
  } else if (value.is_primitive()) {
    out += "<p class=\"prose\">";
    AppendScalar(out, value);
    out += "</p>\n";
  } else if (value.is_array()) {
    out += "<ul class=\"facts\">\n";
    size_t n = 0;
    for (const json& item : value) {
      if (!HasData(&item)) continue;
      if (++n > kMaxListItems) {
        out += fmt::format("<li class=\"more\">and {} more (see the JSON)</li>\n", value.size() - kMaxListItems);
        break;
      }
      out += "<li>";
      AppendFact(item, ctx, out, depth + 1);
      out += "</li>\n";
    }
    out += "</ul>\n";
  } else {
    AppendObjectFact(value, ctx, out, depth);
  }
}

void AppendSubsection(std::string& out, const char* heading, const json* value, const FactContext& ctx) {
  if (!HasData(value)) return;
  out += "<h3>";
  out += heading;
  out += "</h3>\n";
  AppendFact(*value, ctx, out, 0);
}

// A location in code as a link to its pinned permalink (or plain text without one).
std::string FactLocation(const json& fact, const FactContext& ctx) {
  const std::optional<std::string> path = OptStr(fact, "path");
  const std::optional<int> line = OptInt(fact, "line");
  if (!path || !line) return "";
  std::optional<std::string> permalink = OptStr(fact, "permalink");
  if (!permalink) permalink = Permalink(ctx.url, ctx.rev, *path, *line);
  return LocationHtml(*path, *line, permalink);
}

void AppendInCode(std::string& out, const std::string& function) {
  if (function.empty()) return;
  out += " in <code>";
  AppendEscaped(out, function);
  out += "</code>";
}

// "Where the state comes from": each attribute or name a condition reads, the places that write it and the
// module-level statements that install those writers at import time.
void AppendState(std::string& out, const json* state, const FactContext& ctx) {
  if (!HasData(state) || !state->is_array()) return;
  out += "<h3>Where the state comes from</h3>\n<ul class=\"state\">\n";
  size_t n = 0;
  for (const json& origin : *state) {
    if (!origin.is_object() || ++n > kMaxListItems) break;
    const json* read = Get(origin, "read");
    if (read == nullptr || !read->is_object()) continue;
    const std::string target = Str(*read, "target"), name = Str(*read, "name");
    out += "<li><p><code>";
    AppendEscaped(out, target.empty() ? name : target + "." + name);
    out += "</code>, read by the condition at ";
    out += FactLocation(origin, ctx);
    const json* writers = Get(origin, "writers");
    const size_t more = static_cast<size_t>(OptInt(origin, "more").value_or(0));
    const bool listed = writers != nullptr && writers->is_array() && !writers->empty();
    if (listed) {
      out += ", is written at:</p>\n<ul>\n";
    } else if (more > 0) {
      out += fmt::format(", is written at {} places, too many to say which.</p>\n<ul>\n", more);
    } else {
      out += ", is written nowhere in the repository.</p>\n<ul>\n";
    }
    if (writers != nullptr && writers->is_array()) {
      for (const json& w : *writers) {
        if (!w.is_object()) continue;
        out += "<li>";
        out += FactLocation(w, ctx);
        AppendInCode(out, Str(w, "function"));
        if (Get(w, "is_test") != nullptr && w["is_test"].is_boolean() && w["is_test"].get<bool>()) {
          out += " <span class=\"tag\">test</span>";
        }
        if (const std::string code = Str(w, "code"); !code.empty()) {
          out += CodeBlockHtml(code, OptInt(w, "line").value_or(1), -1, -1);
        }
        if (const json* installs = Get(w, "installed_by"); installs != nullptr && installs->is_array()) {
          for (const json& i : *installs) {
            if (!i.is_object()) continue;
            out += "<p class=\"install\">installed at import time by ";
            out += FactLocation(i, ctx);
            out += ":</p>\n";
            if (const std::string code = Str(i, "code"); !code.empty()) {
              out += CodeBlockHtml(code, OptInt(i, "line").value_or(1), -1, -1);
            }
          }
        }
        out += "</li>\n";
      }
    }
    if (more > 0 && listed) out += fmt::format("<li class=\"more\">and {} more places</li>\n", more);
    out += "</ul></li>\n";
  }
  out += "</ul>\n";
}

// Call paths from the public API: the chain of functions, then each call with its line.
void AppendCallPaths(std::string& out, const json* paths, const FactContext& ctx) {
  if (!HasData(paths) || !paths->is_array()) return;
  out += "<h3>Call paths from the public API</h3>\n<ol class=\"call-paths\">\n";
  size_t n = 0;
  for (const json& path : *paths) {
    const json* frames = Get(path, "frames");
    if (frames == nullptr || !frames->is_array() || frames->empty() || ++n > kMaxListItems) continue;
    out += "<li><p class=\"chain\">";
    bool first = true;
    for (const json& f : *frames) {
      out += first ? "<code>" : " → <code>";
      AppendEscaped(out, Str(f, "function"));
      out += "</code>";
      first = false;
    }
    if (Get(path, "certain") != nullptr && path["certain"].is_boolean() && !path["certain"].get<bool>()) {
      out += " <span class=\"tag\">through calls resolved by name only</span>";
    }
    out += "</p>\n";
    for (const json& f : *frames) {
      out += "<div class=\"frame\">";
      out += FactLocation(f, ctx);
      AppendInCode(out, Str(f, "function"));
      if (const std::string code = Str(f, "code"); !code.empty()) {
        out += CodeBlockHtml(code, OptInt(f, "line").value_or(1), -1, -1);
      }
      out += "</div>\n";
    }
    out += "</li>\n";
  }
  out += "</ol>\n";
}

// ---- the sections ----

struct ShownSite {
  const json* site = nullptr;  // from report.sites
  std::string path;
  int line = 0;
  std::optional<std::string> rev, permalink;
};

ShownSite PickShownSite(const json& report) {
  ShownSite shown;
  const json* sites = Get(report, "sites");
  const json* snippet = Get(report, "snippet");
  if (sites == nullptr || !sites->is_array() || sites->empty()) return shown;
  const std::string snippet_path = snippet != nullptr ? Str(*snippet, "path") : std::string();
  const std::optional<int> snippet_line = snippet != nullptr ? OptInt(*snippet, "line") : std::nullopt;
  for (int pass = 0; pass < 3 && shown.site == nullptr; ++pass) {
    for (const json& s : *sites) {
      const bool is_test = Get(s, "is_test") != nullptr && s["is_test"].is_boolean() && s["is_test"].get<bool>();
      if (pass == 0 && !(snippet_line && Str(s, "path") == snippet_path && OptInt(s, "line") == snippet_line)) continue;
      if (pass == 1 && is_test) continue;
      shown.site = &s;
      break;
    }
  }
  if (shown.site != nullptr) {
    shown.path = Str(*shown.site, "path");
    shown.line = OptInt(*shown.site, "line").value_or(0);
    shown.rev = OptStr(*shown.site, "rev");
    shown.permalink = OptStr(*shown.site, "permalink");
  }
  return shown;
}

void AppendMeaning(const json& report, const json* explanation, const FactContext& ctx, std::string& out) {
  std::string body;
  if (const json* meaning = explanation != nullptr ? Get(*explanation, "meaning") : nullptr;
      meaning != nullptr && meaning->is_object()) {
    // The summary, then the raising function's docstring; the exception class has its own paragraph below.
    if (const std::string summary = Str(*meaning, "summary"); !summary.empty()) AppendProse(body, summary);
    if (const json* function = Get(*meaning, "function"); function != nullptr && function->is_object()) {
      const std::string doc = Str(*function, "docstring");
      const std::optional<std::string> path = OptStr(*function, "path");
      const std::optional<int> line = OptInt(*function, "line");
      if (!doc.empty() && path && line) {
        body += "<p>The raising function <code>";
        AppendEscaped(body, Str(*function, "function"));
        body += "</code>, defined at ";
        body += LocationHtml(*path, *line, Permalink(ctx.url, ctx.rev, *path, *line));
        body += ", documents itself as:</p>\n<blockquote class=\"doc\">";
        AppendEscaped(body, doc);
        body += "</blockquote>\n";
      }
    }
  }
  if (const json* cls = Get(report, "exception_class"); cls != nullptr && cls->is_object()) {
    const std::string qualified = Str(*cls, "qualified_name");
    const std::optional<int> line = OptInt(*cls, "line");
    const std::optional<std::string> path = OptStr(*cls, "path");
    if (path && line) {
      body += "<p>The exception class <code>";
      AppendEscaped(body, qualified);
      body += "</code> is defined at ";
      body += LocationHtml(*path, *line, Permalink(ctx.url, ctx.rev, *path, *line));
      if (const json* bases = Get(*cls, "bases"); bases != nullptr && bases->is_array() && !bases->empty()) {
        body += " and derives from ";
        bool first = true;
        for (const json& b : *bases) {
          if (!b.is_string()) continue;
          body += first ? "<code>" : ", <code>";
          AppendEscaped(body, b.get<std::string>());
          body += "</code>";
          first = false;
        }
      }
      body += ".</p>\n";
      const std::string doc = Str(*cls, "docstring");
      if (!doc.empty()) {
        body += "<blockquote class=\"doc\">";
        AppendEscaped(body, doc);
        body += "</blockquote>\n";
      }
    } else if (!qualified.empty()) {
      const std::string_view name = std::string_view(qualified).substr(qualified.rfind('.') + 1);
      body += "<p><code>";
      AppendEscaped(body, name);
      body += "</code> is a built-in Python exception";
      if (const char* base = BuiltinExceptionBase(name); base != nullptr && *base != '\0') {
        body += ", a subclass of <code>";
        AppendEscaped(body, base);
        body += "</code>";
      }
      body += ".";
      const std::string_view doc = BuiltinExceptionDoc(name);
      if (!doc.empty()) {
        body += " Python describes it as “";
        AppendEscaped(body, doc);
        body += "”";
      }
      body += "</p>\n";
    }
  }
  if (explanation != nullptr) {
    AppendSubsection(body, "When the raise runs", Get(*explanation, "conditions"), ctx);
    AppendState(body, Get(*explanation, "state"), ctx);
  }
  if (body.empty()) return;
  out += "<section id=\"meaning\">\n<h2>What it means</h2>\n";
  out += body;
  out += "</section>\n";
}

void AppendSource(const json& report, const ShownSite& shown, const FactContext& ctx, std::string& out) {
  if (shown.site == nullptr) return;
  const json& site = *shown.site;
  out += "<section id=\"source\">\n<h2>Source</h2>\n<p class=\"thrown\">";
  out += Str(report, "kind") == "warn" ? "Warned at " : "Thrown at ";
  out += LocationHtml(shown.path, shown.line, shown.permalink);
  const std::string function = Str(site, "function");
  if (!function.empty()) {
    out += " in <code>";
    AppendEscaped(out, function);
    out += "</code>";
  }
  out += "</p>\n";
  if (const std::string via = Str(site, "via"); !via.empty()) {
    out += "<p class=\"via\">The message is written at <code>";
    AppendEscaped(out, via);
    out += "</code> and raised by the helper above.</p>\n";
  }
  if (const json* snippet = Get(report, "snippet"); snippet != nullptr && snippet->is_object()) {
    const std::string text = Str(*snippet, "text");
    const int start = OptInt(*snippet, "start_line").value_or(1);
    const int first = OptInt(*snippet, "line").value_or(0);
    const int last = std::max(first, OptInt(*snippet, "end_line").value_or(first));
    if (!text.empty()) out += CodeBlockHtml(text, start, first, last);
  }
  if (shown.permalink && shown.rev) {
    if (std::optional<std::string> href = SafeExternalUrl(*shown.permalink)) {
      out += "<p class=\"permalink\"><a href=\"";
      AppendEscaped(out, *href);
      out += "\">View on ";
      AppendEscaped(out, ForgeName(ctx.url.value_or("")));
      out += " (pinned to ";
      AppendEscaped(out, ShortSha(*shown.rev));
      out += ")</a></p>\n";
    }
  }
  // The other places that raise it.
  const json* sites = Get(report, "sites");
  if (sites != nullptr && sites->is_array() && sites->size() > 1) {
    out += "<h3>Also raised at</h3>\n<ul class=\"sites\">\n";
    size_t n = 0;
    for (const json& s : *sites) {
      if (&s == shown.site) continue;
      if (++n > kMaxListItems) {
        out += fmt::format("<li class=\"more\">and {} more (see the JSON)</li>\n", sites->size() - 1 - kMaxListItems);
        break;
      }
      out += "<li>";
      out += LocationHtml(Str(s, "path"), OptInt(s, "line").value_or(0), OptStr(s, "permalink"));
      if (const std::string f = Str(s, "function"); !f.empty()) {
        out += " in <code>";
        AppendEscaped(out, f);
        out += "</code>";
      }
      if (const std::optional<std::string> rev = OptStr(s, "rev")) {
        out += " <span class=\"rev\">@";
        AppendEscaped(out, ShortSha(*rev));
        out += "</span>";
      }
      if (Get(s, "is_test") != nullptr && s["is_test"].is_boolean() && s["is_test"].get<bool>()) {
        out += " <span class=\"tag\">test</span>";
      }
      out += "</li>\n";
    }
    out += "</ul>\n";
  }
  out += "</section>\n";
}

// What the indexed revisions say of the error's history (report/error_history.h): since which release it is
// worded so, and its earlier wordings with where each was raised.
void AppendIndexedHistory(const json& history, std::string& out) {
  const std::string since = Str(history, "wording_since");
  if (since.empty()) return;
  const json* reaches = Get(history, "reaches_oldest");
  const bool oldest = reaches != nullptr && reaches->is_boolean() && reaches->get<bool>();
  out += "<p class=\"history-releases\">";
  out += oldest ? "Worded like this in every indexed release since <code>" : "Worded like this since <code>";
  AppendEscaped(out, since);
  out += oldest ? "</code>, the oldest indexed." : "</code>.";
  const json* earlier = Get(history, "earlier");
  if (earlier != nullptr && earlier->is_array() && !earlier->empty()) {
    out += " Before:</p>\n<ul class=\"history-releases\">\n";
    size_t n = 0;
    for (const json& e : *earlier) {
      if (!e.is_object() || ++n > kMaxListItems) break;
      out += "<li><q>";
      AppendEscaped(out, Str(e, "template"));
      out += "</q> in <code>";
      AppendEscaped(out, Str(e, "from"));
      out += "</code>";
      if (Str(e, "to") != Str(e, "from")) {
        out += " to <code>";
        AppendEscaped(out, Str(e, "to"));
        out += "</code>";
      }
      out += ", raised at <code>";
      AppendEscaped(out, Str(e, "path"));
      const json* line = Get(e, "line");
      if (line != nullptr && line->is_number_integer()) {
        out += ':';
        out += std::to_string(line->get<int64_t>());
      }
      out += "</code></li>\n";
    }
    out += "</ul>\n";
  } else {
    out += "</p>\n";
  }
}

void AppendSolutions(const json* explanation, const FactContext& ctx, std::string& out) {
  if (explanation == nullptr) return;
  const json* solutions = Get(*explanation, "solutions");
  const json* history = Get(*explanation, "history");
  if (!HasData(solutions) && !HasData(history)) return;
  out += "<section id=\"solutions\">\n<h2>Solutions</h2>\n";
  if (HasData(solutions) && solutions->is_array()) {
    out += "<ol class=\"solutions\">\n";
    size_t n = 0;
    for (const json& sol : *solutions) {
      if (!sol.is_object() || ++n > kMaxListItems) break;
      out += "<li>";
      if (Str(sol, "kind") == "advice") {
        out += "<p>The message itself says: ";
        AppendWithCode(out, Str(sol, "text"));
        out += "</p>";
      } else {
        out += "<p>";
        out += FactLocation(sol, ctx);
        out += Str(sol, "mentions") == "function" ? " mentions the function:" : " mentions the message:";
        out += "</p>\n<blockquote class=\"doc\">";
        AppendWithCode(out, Str(sol, "passage"));
        out += "</blockquote>";
      }
      out += "</li>\n";
    }
    out += "</ol>\n";
  } else if (HasData(solutions)) {
    AppendFact(*solutions, ctx, out, 0);
  }
  if (HasData(history) && history->is_object()) out += "<h3>History</h3>\n";
  if (HasData(history) && history->is_object()) AppendIndexedHistory(*history, out);
  if (HasData(history) && history->is_object() && !Str(*history, "commit").empty()) {
    out += "<p class=\"history\">";
    const bool bounded =
        Get(*history, "bounded") != nullptr && (*history)["bounded"].is_boolean() && (*history)["bounded"].get<bool>();
    out += bounded ? "The message is older than commit " : "The message was introduced by commit ";
    const std::string commit = Str(*history, "commit");
    std::optional<std::string> href;
    if (ctx.url && IsHexSha(commit)) href = SafeExternalUrl(*ctx.url + "/commit/" + commit);
    if (href) {
      out += "<a href=\"";
      AppendEscaped(out, *href);
      out += "\">";
    }
    out += "<code>";
    AppendEscaped(out, ShortSha(commit));
    out += "</code>";
    if (href) out += "</a>";
    if (const std::string date = Str(*history, "committed_at"); !date.empty()) {
      out += " (";
      AppendEscaped(out, date);
      out += ")";
    }
    if (const std::string author = Str(*history, "author"); !author.empty()) {
      out += " by ";
      AppendEscaped(out, author);
    }
    if (const std::string summary = Str(*history, "summary"); !summary.empty()) {
      out += ": “";
      AppendEscaped(out, summary);
      out += "”";
    }
    out += bounded ? ", where the search of the history stopped.</p>\n" : ".</p>\n";
  }
  out += "</section>\n";
}

const json* TriggerPart(const json* explanation, const char* key) {
  if (explanation == nullptr) return nullptr;
  const json* triggers = Get(*explanation, "triggers");
  return triggers != nullptr ? Get(*triggers, key) : nullptr;
}

void AppendExample(const json* explanation, const FactContext& ctx, std::string& out) {
  const json* tests = TriggerPart(explanation, "tests");
  if (tests == nullptr || !tests->is_array()) return;
  for (const json& test : *tests) {
    const std::string code = Str(test, "code");
    if (code.empty()) continue;
    out += "<section id=\"example\">\n<h2>Example</h2>\n<p>A test of the repository that provokes it";
    const std::optional<std::string> path = OptStr(test, "path");
    const std::optional<int> line = OptInt(test, "line");
    if (path && line) {
      out += ", at ";
      std::optional<std::string> permalink = OptStr(test, "permalink");
      if (!permalink) permalink = Permalink(ctx.url, ctx.rev, *path, *line);
      out += LocationHtml(*path, *line, permalink);
    }
    if (const std::string f = Str(test, "function"); !f.empty()) {
      out += " in <code>";
      AppendEscaped(out, f);
      out += "</code>";
    }
    out += ":</p>\n";
    out += CodeBlockHtml(code, line.value_or(1), -1, -1);
    out += "</section>\n";
    return;
  }
}

void AppendWhen(const json* explanation, const FactContext& ctx, std::string& out) {
  const json* paths = TriggerPart(explanation, "call_paths");
  const json* tests = TriggerPart(explanation, "tests");
  if (!HasData(paths) && !HasData(tests)) return;
  out += "<section id=\"when\">\n<h2>When it happens</h2>\n";
  AppendCallPaths(out, paths, ctx);
  if (HasData(tests) && tests->is_array()) {
    out += "<h3>Tests that provoke it</h3>\n<ul class=\"tests\">\n";
    size_t n = 0;
    for (const json& t : *tests) {
      if (++n > kMaxListItems) break;
      out += "<li>";
      const std::optional<std::string> path = OptStr(t, "path");
      const std::optional<int> line = OptInt(t, "line");
      if (path && line) {
        std::optional<std::string> permalink = OptStr(t, "permalink");
        if (!permalink) permalink = Permalink(ctx.url, ctx.rev, *path, *line);
        out += LocationHtml(*path, *line, permalink);
      }
      if (const std::string f = Str(t, "function"); !f.empty()) {
        out += " in <code>";
        AppendEscaped(out, f);
        out += "</code>";
      }
      if (const std::string kind = Str(t, "kind"); !kind.empty()) {
        out += " <span class=\"kind\">";
        AppendEscaped(out, kind);
        out += "</span>";
      }
      if (const std::string match = Str(t, "match"); !match.empty()) {
        out += " <span class=\"label\">match</span> <code>";
        AppendEscaped(out, match);
        out += "</code>";
      }
      // The raise it reaches, one of the error's sites (an error may group several).
      if (const json* reaches = Get(t, "reaches"); reaches != nullptr && reaches->is_object()) {
        const std::optional<std::string> at = OptStr(*reaches, "path");
        const std::optional<int> at_line = OptInt(*reaches, "line");
        if (at && at_line) {
          out += " <span class=\"label\">reaches</span> ";
          out += LocationHtml(*at, *at_line, Permalink(ctx.url, ctx.rev, *at, *at_line));
        }
      }
      out += "</li>\n";
    }
    out += "</ul>\n";
  } else if (HasData(tests)) {
    AppendSubsection(out, "Tests that provoke it", tests, ctx);
  }
  out += "</section>\n";
}

void AppendRelated(const json& report, const FactContext& ctx, std::string& out) {
  const json* related = Get(report, "related");
  if (!HasData(related) || !related->is_array()) return;
  out += "<section id=\"related\">\n<h2>Related errors</h2>\n<ul class=\"related\">\n";
  size_t n = 0;
  for (const json& r : *related) {
    if (!IsErrorId(Str(r, "id"))) continue;
    if (++n > kMaxListItems) break;
    out += "<li>";
    AppendErrorRef(r, ctx, out);
    out += "</li>\n";
  }
  out += "</ul>\n</section>\n";
}

// What the error's sites catch and raise again with, linked to where the caught exception is raised in
// other repositories (docs/environments.md, "Wrapping sites").
void AppendWraps(const json& report, const FactContext& ctx, std::string& out) {
  const json* wraps = Get(report, "wraps");
  if (!HasData(wraps) || !wraps->is_array()) return;
  out += "<section id=\"wraps\">\n<h2>What it wraps</h2>\n<ul class=\"wraps\">\n";
  size_t n = 0;
  for (const json& w : *wraps) {
    if (!w.is_object() || ++n > kMaxListItems) break;
    out += "<li>raised while handling <code>";
    AppendEscaped(out, Str(w, "type"));
    out += "</code> at <code>";
    AppendEscaped(out, Str(w, "at"));
    out += w.value("passes", false) ? "</code>, which it is given" : "</code>";
    const json* raised = Get(w, "raised_at");
    if (raised != nullptr && raised->is_array() && !raised->empty()) {
      out += "; raised at:\n<ul>\n";
      for (const json& r : *raised) {
        if (!IsErrorId(Str(r, "id"))) continue;
        out += "<li><a class=\"error-ref\" href=\"";
        AppendEscaped(out, ErrorHref(ctx.root, Str(r, "id")));
        out += "\">";
        AppendEscaped(out, Str(r, "path") + ":" + std::to_string(r.value("line", 0)));
        out += "</a> in <code>";
        AppendEscaped(out, Str(r, "function"));
        out += "</code> (";
        AppendEscaped(out, Str(r, "repo") + (Str(r, "rev").empty() ? "" : " @ " + Str(r, "rev")));
        out += ")</li>\n";
      }
      out += "</ul>\n";
    }
    out += "</li>\n";
  }
  out += "</ul>\n</section>\n";
}

void AppendFooter(const json& report, const ShownSite& shown, const FactContext& ctx, std::string& out) {
  const std::string repo = Str(report, "repo");
  const std::string id = Str(report, "id");
  out += "<footer class=\"error-footer\">\n<p>Analysed repository: <a href=\"";
  AppendEscaped(out, RepoHref(ctx.root, repo));
  out += "\">";
  AppendEscaped(out, repo);
  out += "</a>";
  const json* revisions = Get(report, "revisions");
  if (shown.rev && !IsHexSha(*shown.rev)) {
    out += " at version <code>";  // an installed distribution or the stdlib (docs/catalog.md, "Revisions")
    AppendEscaped(out, *shown.rev);
    out += "</code>";
  } else if (shown.rev) {
    out += " at commit <code>";
    AppendEscaped(out, ShortSha(*shown.rev));
    out += "</code>";
  } else {
    out += " (a directory, no commit)";
  }
  if (revisions != nullptr && revisions->is_array()) {
    for (const json& r : *revisions) {
      if (OptStr(r, "rev") != shown.rev) continue;
      if (const std::string date = Str(r, "committed_at"); !date.empty()) {
        out += ", committed ";
        AppendEscaped(out, date);
      }
      if (const std::string date = Str(r, "indexed_at"); !date.empty()) {
        out += ", indexed ";
        AppendEscaped(out, date);
      }
      break;
    }
    if (revisions->size() > 1) {
      out += fmt::format(". Present in {} indexed revisions:", revisions->size());
      for (const json& r : *revisions) {
        const std::optional<std::string> rev = OptStr(r, "rev");
        out += " <code>";
        AppendEscaped(out, rev ? ShortSha(*rev) : std::string("work tree"));
        out += "</code>";
      }
    }
  }
  out += ".</p>\n<p>Data as JSON: <a href=\"";
  AppendEscaped(out, ErrorJsonHref(ctx.root, id));
  out += "\">/api/errors/";
  AppendEscaped(out, id);
  out += "</a> · Error id <code>";
  AppendEscaped(out, id);
  out += "</code></p>\n</footer>\n";
}

}  // namespace

std::string RenderErrorPage(const json& report, std::string_view root) {
  const std::string repo = Str(report, "repo");
  const std::string kind = Str(report, "kind");
  const std::optional<std::string> type = OptStr(report, "type");
  const std::optional<std::string> template_text = OptStr(report, "template");
  const json* explanation = Get(report, "explanation");
  if (explanation != nullptr && !explanation->is_object()) explanation = nullptr;
  const ShownSite shown = PickShownSite(report);
  FactContext ctx;
  ctx.root = std::string(root);
  ctx.url = OptStr(report, "url");
  ctx.rev = shown.rev;
  ctx.default_path = shown.path;

  const std::string shown_type = type.value_or("(re-raised)");
  std::string main = "<article class=\"error\">\n<p class=\"title-line\"><a href=\"";
  AppendEscaped(main, RepoHref(root, repo));
  main += "\">";
  AppendEscaped(main, repo);
  main += "</a> · ";
  main += kind == "warn" ? "warning" : "error";
  main += " · <span class=\"type\">";
  AppendEscaped(main, shown_type);
  main += "</span></p>\n<h1 class=\"headline\">";
  AppendEscaped(
      main, template_text && !template_text->empty() ? ShortenText(*template_text, 80) : shown_type + " (no message)");
  main += "</h1>\n<section id=\"message\">\n<h2>Error message</h2>\n<p class=\"template\">";
  main += TemplateHtml(template_text);
  main += "</p>\n";
  if (const std::optional<std::string> qualified = OptStr(report, "type_qualified"); qualified && qualified != type) {
    main += "<p class=\"qualified\">Type <code>";
    AppendEscaped(main, *qualified);
    main += "</code></p>\n";
  }
  main += "</section>\n";
  AppendMeaning(report, explanation, ctx, main);
  AppendSource(report, shown, ctx, main);
  AppendSolutions(explanation, ctx, main);
  AppendExample(explanation, ctx, main);
  AppendWhen(explanation, ctx, main);
  AppendWraps(report, ctx, main);
  AppendRelated(report, ctx, main);
  if (const json* versions = Get(report, "versions")) AppendVersionsSection(*versions, main);
  AppendFooter(report, shown, ctx, main);
  main += "</article>\n";
  std::string title = repo + " · " + shown_type;
  if (template_text && !template_text->empty()) title += fmt::format(": {}", ShortenText(*template_text, 60));
  return RenderPage({title, std::string(root), false}, main);
}

}  // namespace errdex::web
