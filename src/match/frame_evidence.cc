#include "match/frame_evidence.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "match/type_agreement.h"
#include "python/installed_path.h"

namespace errdex {

int CommonSuffix(std::string_view frame_path, std::string_view site_path) {
  auto a = PathComponents(frame_path);
  auto b = PathComponents(site_path);
  int n = 0;
  while (n < static_cast<int>(a.size()) && n < static_cast<int>(b.size()) &&
         a[a.size() - 1 - static_cast<size_t>(n)] == b[b.size() - 1 - static_cast<size_t>(n)]) {
    ++n;
  }
  return n;
}

bool SameFunction(std::string_view frame_function, std::string_view site_function) {
  if (frame_function.empty()) return false;
  if (frame_function == site_function) return true;
  if (frame_function.find('.') == std::string_view::npos) return LastComponent(site_function) == frame_function;
  return site_function.size() > frame_function.size() &&
         site_function.substr(site_function.size() - frame_function.size()) == frame_function &&
         site_function[site_function.size() - frame_function.size() - 1] == '.';
}

int FrameInSiteFile(const TracebackFrame& frame, const SiteRow& site) {
  // A site of installed code (it has a version) is in the frame's file only when the frame's path below
  // site-packages or the stdlib is the site's path: "requests/adapters.py" is not pip's vendored copy.
  if (site.version && InstalledPathOf(frame.path)) return SameInstalledFile(frame.path, site.path) ? 1000 : 0;
  return CommonSuffix(frame.path, site.path);
}

FrameEvidence JudgeFrames(const std::vector<TracebackFrame>& frames, const SiteRow& site) {
  FrameEvidence best;
  bool innermost_file = false;
  size_t consulted = std::min(frames.size(), kFramesConsulted);
  for (size_t k = 0; k < consulted; ++k) {
    const TracebackFrame& f = frames[frames.size() - 1 - k];
    const int in_file = FrameInSiteFile(f, site);
    if (in_file == 0) continue;
    bool function = SameFunction(f.function, site.function);
    bool line = f.line == site.line;
    // At the installed version the line is exact: the frame's line is the site's, whatever function.
    const bool installed_line = in_file >= 1000 && line;
    FrameEvidence e;
    std::string where = fmt::format("{}:{} in {}", f.path, f.line, f.function);
    if (in_file >= 1000 && k == 0 && !line) {
      // The installed file at the traceback's version: the raise was at the frame's line, not here.
      e.points = 2;
      e.why = fmt::format("innermost traceback frame ({}) is in this site's installed file, another line", where);
    } else if (installed_line && k == 0) {
      // The very line at the very version: stronger evidence than a text match elsewhere.
      e.points = 75;
      e.pinned = true;
      e.exact_line = true;
      e.why = fmt::format("innermost traceback frame ({}) is this site's line in the installed {}", where, site.path);
    } else if (function && k == 0) {
      e.points = 30 + (line ? 5 : 0);
      e.pinned = true;
      e.line_distance = std::abs(f.line - site.line);
      e.why = fmt::format("innermost traceback frame ({}) is this site's file and function{}", where,
                          line ? ", same line" : "");
    } else if (function) {
      e.points = 12 + (line ? 3 : 0);
      e.why = fmt::format("traceback frame {} is this site's file and function", where);
    } else if (k == 0) {
      e.points = 4;
      e.why = fmt::format("innermost traceback frame ({}) is in this site's file", where);
    }
    if (e.points > best.points) best = e;
    if (k == 0 && in_file >= 2) innermost_file = true;
  }
  best.innermost_file = innermost_file;
  return best;
}

}  // namespace errdex
