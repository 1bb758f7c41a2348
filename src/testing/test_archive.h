// Test helper: builds zip and .tar.gz archives in memory with libarchive's writer, so that the archive
// tests need no binary fixtures. Members may be regular files, directories, symbolic and hard links,
// FIFOs; names are written as given (raw bytes), so hostile names can be built too.
//
// Threading: an instance is used by one thread. Header-only; link a stage that links libarchive.
#pragma once

#include <archive.h>
#include <archive_entry.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace errdex::testing {

struct TestMember {
  enum class Type { kFile, kDirectory, kSymlink, kHardlink, kFifo };
  TestMember(std::string p, std::string c = "", Type t = Type::kFile, std::string l = "")
      : path(std::move(p)), content(std::move(c)), type(t), link(std::move(l)) {}
  std::string path;
  std::string content;
  Type type;
  std::string link;  // target of a link
};

enum class TestArchiveFormat { kZip, kZipStored, kTarGz, kTar };

// The archive of MEMBERS in FORMAT, as bytes.
inline std::string BuildArchive(const std::vector<TestMember>& members, TestArchiveFormat format) {
  archive* a = archive_write_new();
  int rc = ARCHIVE_OK;
  if (format == TestArchiveFormat::kZip || format == TestArchiveFormat::kZipStored) {
    rc = archive_write_set_format_zip(a);
    if (format == TestArchiveFormat::kZipStored) archive_write_set_format_option(a, "zip", "compression", "store");
  } else {
    rc = archive_write_set_format_pax_restricted(a);
    if (format == TestArchiveFormat::kTarGz) archive_write_add_filter_gzip(a);
  }
  if (rc != ARCHIVE_OK) throw std::runtime_error("libarchive writer: no such format");
  archive_write_set_bytes_in_last_block(a, 1);
  std::vector<char> buffer(size_t{64} << 20);
  size_t used = 0;
  if (archive_write_open_memory(a, buffer.data(), buffer.size(), &used) != ARCHIVE_OK) {
    throw std::runtime_error(archive_error_string(a));
  }
  for (const TestMember& m : members) {
    archive_entry* e = archive_entry_new();
    archive_entry_copy_pathname(e, m.path.c_str());
    archive_entry_set_perm(e, 0644);
    archive_entry_set_mtime(e, 1700000000, 0);
    switch (m.type) {
      case TestMember::Type::kFile:
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_size(e, static_cast<la_int64_t>(m.content.size()));
        break;
      case TestMember::Type::kDirectory:
        archive_entry_set_filetype(e, AE_IFDIR);
        archive_entry_set_perm(e, 0755);
        break;
      case TestMember::Type::kSymlink:
        archive_entry_set_filetype(e, AE_IFLNK);
        archive_entry_copy_symlink(e, m.link.c_str());
        break;
      case TestMember::Type::kHardlink:
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_copy_hardlink(e, m.link.c_str());
        break;
      case TestMember::Type::kFifo:
        archive_entry_set_filetype(e, AE_IFIFO);
        break;
    }
    if (archive_write_header(a, e) < ARCHIVE_WARN) throw std::runtime_error(archive_error_string(a));
    if (m.type == TestMember::Type::kFile && !m.content.empty()) {
      archive_write_data(a, m.content.data(), m.content.size());
    }
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
  return std::string(buffer.data(), used);
}

// Rewrites the uncompressed size of every member of ZIP (local headers and the central directory) to
// SIZE: a zip whose members claim to be small and inflate to more (a lying bomb).
inline std::string WithDeclaredZipSizes(std::string zip, uint32_t size) {
  const auto put = [&](size_t at) {
    for (int i = 0; i < 4; ++i) zip[at + static_cast<size_t>(i)] = static_cast<char>((size >> (8 * i)) & 0xff);
  };
  for (size_t at = zip.find("PK\x01\x02"); at != std::string::npos; at = zip.find("PK\x01\x02", at + 4)) {
    if (at + 28 <= zip.size()) put(at + 24);
  }
  for (size_t at = zip.find("PK\x03\x04"); at != std::string::npos; at = zip.find("PK\x03\x04", at + 4)) {
    if (at + 26 <= zip.size()) put(at + 22);
  }
  return zip;
}

}  // namespace errdex::testing
