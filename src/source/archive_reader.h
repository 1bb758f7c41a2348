// Reads the members of a released Python artifact (a wheel's zip, an sdist's .tar.gz or .zip) with
// libarchive, entirely in memory, and refuses hostile archives (docs/environments.md, "Wheels and source
// archives"): every member is checked before its content is kept, every byte inflated is counted against
// limits, so a zip bomb, a path that escapes the root, a link, a duplicate or non-UTF-8 name, or a corrupt
// or truncated archive ends the read with one line saying why, in bounded time and memory.
//
// Threading: ReadArchive() is reentrant; it switches the calling thread's locale to C.UTF-8 while it
// reads (libarchive converts member names through the thread's locale) and restores it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace errdex {

// The bounds of one read. The defaults fit every pure-Python wheel and sdist of PyPI's most downloaded
// projects with a wide margin; the bombs of tests/fixtures and the fuzzer stop far below them.
struct ArchiveLimits {
  uint64_t max_archive_bytes = uint64_t{1} << 30;   // the archive file itself
  uint64_t max_total_bytes = uint64_t{1} << 30;     // all members inflated (and a tar stream's bytes)
  uint64_t max_member_bytes = uint64_t{256} << 20;  // one member inflated
  uint64_t max_members = 100000;                    // entries, directories included
  // Inflated bytes per byte of archive file, checked once more than RATIO_FLOOR_BYTES were inflated: real
  // source compresses 3-10x, a deflate bomb ~1000x.
  uint64_t max_ratio = 100;
  uint64_t ratio_floor_bytes = uint64_t{32} << 20;
  size_t max_name_bytes = 1024;  // one member's path
};

enum class ArchiveFormat { kZip, kTarGz };

struct ArchiveMember {
  std::string path;  // as stored: '/'-separated, safe (no '..', not absolute), no trailing '/'
  bool directory = false;
  uint64_t size = 0;  // bytes inflated
  bool kept = false;  // CONTENT holds the member (the KEEP callback said so)
  std::string content;
};

// Reads the archive at PATH as FORMAT (nothing else is recognized: a .whl that is not a zip is refused).
// KEEP(path) says which regular members' content to keep in memory; the others are still inflated and
// counted, then dropped. Fills *MEMBERS in archive order and returns true, or returns false with *ERROR
// set to one line ("member 'x/../y' has a '..' component", "inflates to more than 100 times the archive's
// size: a zip bomb?"). Refused: absolute paths, '.', '..' or empty components, backslashes, names over
// the limit or not UTF-8, duplicates, symbolic and hard links, devices, FIFOs, sparse or encrypted
// members, and any read error of libarchive (truncated, corrupt, unrecognized).
bool ReadArchive(const std::string& path, ArchiveFormat format, const ArchiveLimits& limits,
                 const std::function<bool(const std::string&)>& keep, std::vector<ArchiveMember>* members,
                 std::string* error);

// The same on an archive in memory (the fuzzer, tests): DATA is borrowed for the call.
bool ReadArchiveMemory(const std::string& data, ArchiveFormat format, const ArchiveLimits& limits,
                       const std::function<bool(const std::string&)>& keep, std::vector<ArchiveMember>* members,
                       std::string* error);

}  // namespace errdex
