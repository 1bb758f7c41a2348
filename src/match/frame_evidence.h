// What a traceback's frames say about a site: whether a frame is in the site's file (by path suffix,
// whatever the install prefix or the OS's separators) and function (tracebacks print the code object's
// name, sites keep the qualified one), and how strongly that pins the site (docs/matching.md).
//
// Threading: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "match/pasted_error.h"
#include "util/path_components.h"  // PathComponents, used with CommonSuffix

namespace errdex {

// Only the innermost frames are consulted: the outer ones are the caller's code.
inline constexpr size_t kFramesConsulted = 4;

struct FrameEvidence {
  int points = 0;  // 75 innermost frame at this installed site's line, 30 (+5 same line) innermost frame in the site's
                   // function, 12 (+3) another frame, 4 innermost frame in the file only, 0 none
  bool pinned = false;      // the innermost frame is this site's file and function
  bool exact_line = false;  // the innermost frame is at this site's line in the installed file
  int line_distance = 0;    // of the pinning frame's line to the site's: breaks ties between twins
  // The innermost frame is in the site's file, whatever function or line: the installed file itself, or at
  // least the last two path components (`_pytest/python.py`).
  bool innermost_file = false;
  std::string why;  // "" when no frame says anything
};

// Whether FRAME is in SITE's file: 0 when not; for a site of installed code (a version) and a frame below
// site-packages or the stdlib, 1000 when the relative paths are equal (the very file); else the number of
// trailing path components they share.
int FrameInSiteFile(const TracebackFrame& frame, const SiteRow& site);

FrameEvidence JudgeFrames(const std::vector<TracebackFrame>& frames, const SiteRow& site);

// How many trailing path components FRAME_PATH and SITE_PATH share.
int CommonSuffix(std::string_view frame_path, std::string_view site_path);
// "_request" and "ClientSession._request" name the same function; so do "Cls.m" and "pkg.Cls.m".
bool SameFunction(std::string_view frame_function, std::string_view site_function);

}  // namespace errdex
