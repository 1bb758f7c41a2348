// libFuzzer target for the wheel and sdist reader (src/source/archive_reader.h) and what is read from an
// artifact (src/source/python_artifact.h).
//
// Input: one selector byte (bit 0: zip or .tar.gz), then the archive's bytes. Limits are small (8 MiB in
// total, 1 MiB per member, 2000 members) so that every input finishes fast. Invariants checked:
// - the reader never crashes, leaks or hangs, on any bytes;
// - an accepted archive has only safe, UTF-8, unique member paths, directories without content, kept
//   content exactly as long as the member, and stays within the limits;
// - a refused archive gives one line of error and no members;
// - names and versions read from any kept metadata are valid, and a wheel member's installed path is safe.
//
// Build and run: fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_set>

#include "source/archive_reader.h"
#include "source/python_artifact.h"
#include "source/source.h"
#include "util/utf8.h"

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "archive_fuzzer: invariant violated: %s\n", what);
  std::abort();
}

bool KeepAll(const std::string& path) { return path.size() % 2 == 0 || path.find("METADATA") != std::string::npos; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const errdex::ArchiveFormat format = (data[0] & 1) != 0 ? errdex::ArchiveFormat::kTarGz : errdex::ArchiveFormat::kZip;
  const std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  errdex::ArchiveLimits limits;
  limits.max_total_bytes = 8 << 20;
  limits.max_member_bytes = 1 << 20;
  limits.max_members = 2000;
  limits.ratio_floor_bytes = 1 << 20;
  std::vector<errdex::ArchiveMember> members;
  std::string error;
  const bool ok = errdex::ReadArchiveMemory(bytes, format, limits, KeepAll, &members, &error);
  if (!ok) {
    if (error.empty() || error.find('\n') != std::string::npos) Fail("a refusal is not one line");
    if (!members.empty()) Fail("a refused archive handed out members");
    return 0;
  }
  if (members.size() > limits.max_members) Fail("more members than the limit");
  std::unordered_set<std::string> seen;
  uint64_t total = 0;
  for (const errdex::ArchiveMember& m : members) {
    if (!errdex::IsSafeRelativePath(m.path)) Fail("an unsafe member path");
    if (!errdex::IsValidUtf8(m.path)) Fail("a member path that is not UTF-8");
    if (!seen.insert(m.path).second) Fail("a duplicate member path");
    if (m.directory && (m.size != 0 || m.kept)) Fail("a directory with content");
    if (m.kept && m.content.size() != m.size) Fail("kept content of another size");
    if (!m.kept && !m.content.empty()) Fail("content kept that was not asked for");
    if (m.size > limits.max_member_bytes) Fail("a member over its limit");
    total += m.size;
    if (m.kept) {
      if (auto name = errdex::ArtifactNameFromMetadata(m.content)) {
        if (!errdex::IsValidDistributionName(name->name) || !errdex::IsValidVersionText(name->version))
          Fail("an invalid name or version read from metadata");
      }
    }
    if (auto installed = errdex::WheelInstalledPath(m.path); installed && !errdex::IsSafeRelativePath(*installed))
      Fail("an unsafe installed path");
  }
  if (total > limits.max_total_bytes) Fail("more bytes than the total limit");
  return 0;
}
