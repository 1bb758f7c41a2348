#include "web/site_paths.h"

#include <fmt/format.h>

#include <charconv>

#include "web/html.h"

namespace errdex::web {

namespace {

bool IsSlugByte(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

void AppendSlugComponent(std::string& out, std::string_view component) {
  for (size_t i = 0; i < component.size(); ++i) {
    const char c = component[i];
    if (IsSlugByte(c) && !(i == 0 && c == '.')) {
      out.push_back(c);
    } else {
      AppendPercentByte(out, static_cast<unsigned char>(c));
    }
  }
}

}  // namespace

std::string RepoSlug(std::string_view name) {
  std::string out;
  bool empty_component = name.empty();
  for (size_t start = 0; start <= name.size() && !empty_component;) {
    size_t end = name.find('/', start);
    if (end == std::string_view::npos) end = name.size();
    if (end == start) empty_component = true;
    start = end + 1;
  }
  if (empty_component) {
    AppendSlugComponent(out, name);  // '/' is not a slug byte: encoded
    if (out.empty()) out = "%00";    // never an empty path; decodes to a name no repository has
    return out;
  }
  size_t start = 0;
  while (true) {
    size_t end = name.find('/', start);
    if (end == std::string_view::npos) end = name.size();
    AppendSlugComponent(out, name.substr(start, end - start));
    if (end == name.size()) break;
    out.push_back('/');
    start = end + 1;
  }
  return out;
}

std::optional<std::string> RepoNameFromSlug(std::string_view slug) {
  std::string out;
  bool component_start = true;
  for (size_t i = 0; i < slug.size(); ++i) {
    const char c = slug[i];
    if (c == '/') {
      if (component_start) return std::nullopt;  // empty component
      out.push_back('/');
      component_start = true;
      continue;
    }
    if (c == '%') {
      if (i + 2 >= slug.size()) return std::nullopt;
      const int hi = HexDigitValue(slug[i + 1]), lo = HexDigitValue(slug[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else if (IsSlugByte(c) && !(component_start && c == '.')) {
      out.push_back(c);
    } else {
      return std::nullopt;
    }
    component_start = false;
  }
  if (component_start) return std::nullopt;  // empty, or ends with '/'
  return out;
}

std::string RootPrefix(std::string_view path) {
  if (!path.empty() && path.front() == '/') path.remove_prefix(1);
  std::string out;
  for (char c : path) {
    if (c == '/') out += "../";
  }
  return out.empty() ? "./" : out;
}

std::string HomeHref(std::string_view root) { return std::string(root) + "index.html"; }

std::string ErrorHref(std::string_view root, std::string_view id) { return std::string(root) + ErrorPagePath(id); }

std::string ErrorJsonHref(std::string_view root, std::string_view id) { return std::string(root) + ErrorJsonPath(id); }

std::string RepoHref(std::string_view root, std::string_view name, int page) {
  // The file name holds '%' literally: in a URL it is %25.
  return std::string(root) + PercentEncode(RepoPagePath(name, page), /*keep_slash=*/true);
}

std::string StaticHref(std::string_view root, std::string_view file) { return fmt::format("{}static/{}", root, file); }

std::string ErrorPagePath(std::string_view id) { return fmt::format("errors/{}.html", id); }
std::string ErrorJsonPath(std::string_view id) { return fmt::format("api/errors/{}.json", id); }

std::string RepoPagePath(std::string_view name, int page) {
  std::string out = fmt::format("repos/{}", RepoSlug(name));
  if (page > 1) out += fmt::format("/page-{}", page);
  return out + ".html";
}

namespace {

std::string LabelSlug(std::string_view label) {
  std::string out;
  AppendSlugComponent(out, label);
  return out.empty() ? "%00" : out;
}

std::string DiffPath(std::string_view name, std::string_view from, std::string_view to) {
  return fmt::format("repos/{}/diff/{}..{}", RepoSlug(name), LabelSlug(from), LabelSlug(to));
}

}  // namespace

std::string DiffPagePath(std::string_view name, std::string_view from, std::string_view to) {
  return DiffPath(name, from, to) + ".html";
}

std::string DiffJsonPath(std::string_view name, std::string_view from, std::string_view to) {
  return "api/" + DiffPath(name, from, to) + ".json";
}

std::string DiffHref(std::string_view root, std::string_view name, std::string_view from, std::string_view to) {
  return std::string(root) + PercentEncode(DiffPagePath(name, from, to), /*keep_slash=*/true);
}

std::optional<DiffRouteParts> ReadDiffRoute(std::string_view rest) {
  const size_t slash = rest.rfind('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const std::string_view pair = rest.substr(slash + 1);
  std::string_view repo = rest.substr(0, slash);
  constexpr std::string_view kDiff = "/diff";
  if (repo.size() <= kDiff.size() || repo.substr(repo.size() - kDiff.size()) != kDiff) return std::nullopt;
  repo.remove_suffix(kDiff.size());
  const size_t dots = pair.find("..");
  if (dots == std::string_view::npos || pair.find("..", dots + 1) != std::string_view::npos) return std::nullopt;
  std::optional<std::string> name = RepoNameFromSlug(repo);
  std::optional<std::string> from = RepoNameFromSlug(pair.substr(0, dots));
  std::optional<std::string> to = RepoNameFromSlug(pair.substr(dots + 2));
  if (!name || !from || !to) return std::nullopt;
  return DiffRouteParts{std::move(*name), std::move(*from), std::move(*to)};
}

std::vector<std::pair<std::string, int>> RepoRouteCandidates(std::string_view rest) {
  std::vector<std::pair<std::string, int>> out;
  if (auto name = RepoNameFromSlug(rest)) out.emplace_back(std::move(*name), 1);
  const size_t slash = rest.rfind('/');
  if (slash != std::string_view::npos) {
    std::string_view last = rest.substr(slash + 1);
    if (last.size() > 5 && last.size() <= 14 && last.substr(0, 5) == "page-" && last[5] != '0') {
      int page = 0;
      auto [ptr, ec] = std::from_chars(last.data() + 5, last.data() + last.size(), page);
      if (ec == std::errc() && ptr == last.data() + last.size() && page >= 2) {
        if (auto name = RepoNameFromSlug(rest.substr(0, slash))) out.emplace_back(std::move(*name), page);
      }
    }
  }
  return out;
}

bool IsErrorId(std::string_view text) {
  if (text.size() != 16) return false;
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace errdex::web
