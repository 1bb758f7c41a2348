#include "match/user_code_route.h"

#include <optional>

#include "match/frame_evidence.h"
#include "python/installed_path.h"
#include "util/utf8.h"

namespace errdex {

namespace {

constexpr size_t kPieceBytes = 120;

// "requests/adapters.py" + "send" → "requests.adapters.send"; "json/__init__.py" + "loads" → "json.loads".
std::string LibraryCallName(const std::string& relative, const std::string& function) {
  std::string module = relative;
  if (module.size() > 3 && module.compare(module.size() - 3, 3, ".py") == 0) module.resize(module.size() - 3);
  if (module == "__init__") module.clear();
  const std::string init = "/__init__";
  if (module.size() > init.size() && module.compare(module.size() - init.size(), init.size(), init) == 0) {
    module.resize(module.size() - init.size());
  }
  for (char& c : module) {
    if (c == '/') c = '.';
  }
  return module.empty() ? function : module + "." + function;
}

std::string UserFrame(const TracebackFrame& f) {
  std::vector<std::string_view> parts = PathComponents(f.path);
  std::string out = CutUtf8(parts.empty() ? std::string_view(f.path) : parts.back(), kPieceBytes);
  if (f.line > 0) {
    out += ':';
    out += std::to_string(f.line);
  }
  return out;
}

}  // namespace

std::string UserCodeRoute(const std::vector<TracebackFrame>& frames) {
  std::vector<std::string> user, library;
  std::string innermost_where;
  for (const TracebackFrame& f : frames) {
    std::optional<InstalledPath> installed = InstalledPathOf(f.path);
    if (!installed) {
      if (!library.empty()) break;  // a callback into user code: the route ends at the library
      user.push_back(UserFrame(f));
      continue;
    }
    library.push_back(CutUtf8(LibraryCallName(installed->relative, f.function), kPieceBytes));
    innermost_where = CutUtf8(installed->relative, kPieceBytes) + ":" + std::to_string(f.line);
  }
  if (user.empty() || library.empty()) return "";
  std::string out = "your code: ";
  const size_t first_user = user.size() > 3 ? user.size() - 3 : 0;
  if (first_user > 0) out += "… → ";
  for (size_t i = first_user; i < user.size(); ++i) out += user[i] + " → ";
  for (size_t i = 0; i < library.size(); ++i) {
    if (library.size() > 4 && i == 2) {
      out += "… → ";
      i = library.size() - 3;
      continue;
    }
    out += library[i] + (i + 1 < library.size() ? " → " : "");
  }
  return out + " (" + innermost_where + ")";
}

}  // namespace errdex
