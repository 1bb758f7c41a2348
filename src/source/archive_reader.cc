#include "source/archive_reader.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <locale.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <unordered_set>

#include "util/utf8.h"

namespace errdex {
namespace {

// libarchive converts member names from the archive's charset (UTF-8 for a zip's flagged names and for
// pax headers) to the locale's. The process may run in the "C" locale, where every non-ASCII name fails to
// convert; C.UTF-8 (built into glibc) keeps UTF-8 names as they are. Switched for this thread only.
class Utf8ThreadLocale {
 public:
  Utf8ThreadLocale() : locale_(newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(nullptr))) {
    if (locale_ != static_cast<locale_t>(nullptr)) previous_ = uselocale(locale_);
  }
  ~Utf8ThreadLocale() {
    if (locale_ == static_cast<locale_t>(nullptr)) return;
    uselocale(previous_);
    freelocale(locale_);
  }
  Utf8ThreadLocale(const Utf8ThreadLocale&) = delete;
  Utf8ThreadLocale& operator=(const Utf8ThreadLocale&) = delete;

 private:
  locale_t locale_;
  locale_t previous_ = static_cast<locale_t>(nullptr);
};

// NAME for a one-line message: control characters and bytes that are not UTF-8 as \xNN, cut at 200 bytes.
std::string Shown(std::string_view name) {
  std::string out = "'";
  for (size_t i = 0; i < name.size() && out.size() < 200;) {
    const size_t n = Utf8SequenceLength(name, i);
    const auto byte = static_cast<unsigned char>(name[i]);
    if (n == 0 || byte < 0x20 || byte == 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
      ++i;
      continue;
    }
    out.append(name.substr(i, n));
    i += n;
  }
  if (out.size() >= 200) out += "...";
  return out + "'";
}

// Why the member name RAW (a trailing '/' already removed) is refused, or "" when it is a safe path.
std::string NameProblem(std::string_view raw, size_t max_bytes) {
  if (raw.empty()) return "has an empty name";
  if (raw.size() > max_bytes) return "has a name longer than " + std::to_string(max_bytes) + " bytes";
  if (!IsValidUtf8(raw)) return "has a name that is not UTF-8";
  if (raw.front() == '/') return "has an absolute path";
  if (raw.find('\\') != std::string_view::npos) return "has a backslash in its name";
  if (raw.size() >= 2 && raw[1] == ':') return "has a drive letter";
  for (const char c : raw) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return "has a control character in its name";
  }
  std::string_view rest = raw;
  while (true) {
    const size_t slash = rest.find('/');
    const std::string_view part = rest.substr(0, slash);
    if (part == "..") return "has a '..' component";
    if (part.empty() || part == ".") return "has an empty or '.' component";
    if (slash == std::string_view::npos) return "";
    rest.remove_prefix(slash + 1);
  }
}

std::string LibarchiveError(archive* a) {
  const char* text = archive_error_string(a);
  std::string message = text != nullptr ? text : "unknown error";
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  const std::string shown = Shown(message);
  return shown.substr(1, shown.size() - 2);  // without the quotes
}

class Reader {
 public:
  Reader(archive* a, const ArchiveLimits& limits, uint64_t archive_bytes,
         const std::function<bool(const std::string&)>& keep)
      : a_(a), limits_(limits), archive_bytes_(archive_bytes), keep_(keep) {}

  bool ReadAll(ArchiveFormat format, std::vector<ArchiveMember>* members, std::string* error) {
    if (format == ArchiveFormat::kTarGz && archive_filter_code(a_, 0) != ARCHIVE_FILTER_GZIP) {
      *error = "not gzip-compressed";
      return false;
    }
    archive_entry* entry = nullptr;
    while (true) {
      const int rc = archive_read_next_header(a_, &entry);
      if (rc == ARCHIVE_EOF) return CheckStream(error);
      if (rc != ARCHIVE_OK) {  // ARCHIVE_WARN included: a name that did not convert, a bad checksum
        const std::string message = LibarchiveError(a_);
        // libarchive's words for a name flagged UTF-8 (a zip's bit 11, a pax header) that is not.
        const bool name_not_utf8 = message.find("annot be converted") != std::string::npos ||
                                   message.find("can't be converted") != std::string::npos;
        *error = name_not_utf8 ? "a member's name is not UTF-8 (" + message + ")" : "unreadable archive: " + message;
        return false;
      }
      if (members->size() >= limits_.max_members) {
        *error = "more than " + std::to_string(limits_.max_members) + " members";
        return false;
      }
      ArchiveMember member;
      if (!ReadMember(entry, &member, error) || !CheckStream(error)) return false;
      members->push_back(std::move(member));
    }
  }

 private:
  bool ReadMember(archive_entry* entry, ArchiveMember* member, std::string* error) {
    const char* name = archive_entry_pathname(entry);
    std::string path = name != nullptr ? name : "";
    const auto type = archive_entry_filetype(entry);
    member->directory = type == AE_IFDIR;
    while (path.size() > 1 && path.back() == '/') {
      path.pop_back();
      member->directory = member->directory || type == AE_IFREG;  // a zip directory is a name ending in '/'
    }
    if (const std::string problem = NameProblem(path, limits_.max_name_bytes); !problem.empty()) {
      *error = "member " + Shown(path) + " " + problem;
      return false;
    }
    const std::string shown = "member " + Shown(path);
    if (!seen_.insert(path).second) return Fail(shown + " appears twice", error);
    if (archive_entry_hardlink(entry) != nullptr) return Fail(shown + " is a hard link", error);
    if (type == AE_IFLNK || archive_entry_symlink(entry) != nullptr) return Fail(shown + " is a symbolic link", error);
    if (type != AE_IFREG && type != AE_IFDIR) return Fail(shown + " is not a regular file or directory", error);
    if (archive_entry_is_encrypted(entry)) return Fail(shown + " is encrypted", error);
    if (archive_entry_sparse_count(entry) > 0) return Fail(shown + " is a sparse file", error);
    if (archive_entry_size_is_set(entry) && archive_entry_size(entry) > 0 &&
        static_cast<uint64_t>(archive_entry_size(entry)) > limits_.max_member_bytes) {
      return Fail(shown + " is larger than " + std::to_string(limits_.max_member_bytes) + " bytes", error);
    }
    member->path = std::move(path);
    member->kept = !member->directory && keep_(member->path);
    return ReadData(shown, member, error);
  }

  // Inflates the member block by block, counting every byte against the limits before keeping it.
  bool ReadData(const std::string& shown, ArchiveMember* member, std::string* error) {
    std::array<char, 65536> buffer{};
    while (true) {
      const la_ssize_t n = archive_read_data(a_, buffer.data(), buffer.size());
      if (n == 0) return true;
      if (n < 0) return Fail(shown + ": unreadable: " + LibarchiveError(a_), error);
      if (member->directory) return Fail(shown + " is a directory with content", error);
      member->size += static_cast<uint64_t>(n);
      total_ += static_cast<uint64_t>(n);
      if (member->size > limits_.max_member_bytes) {
        return Fail(shown + " inflates to more than " + std::to_string(limits_.max_member_bytes) + " bytes", error);
      }
      if (!CheckTotal(total_, error)) return false;
      if (member->kept) member->content.append(buffer.data(), static_cast<size_t>(n));
    }
  }

  // The bytes of the whole stream (a tar's headers and padding inflated by gzip) count too.
  bool CheckStream(std::string* error) {
    const la_int64_t stream = archive_filter_bytes(a_, 0);
    return stream <= 0 || CheckTotal(static_cast<uint64_t>(stream), error);
  }

  bool CheckTotal(uint64_t bytes, std::string* error) const {
    if (bytes > limits_.max_total_bytes) {
      *error = "inflates to more than " + std::to_string(limits_.max_total_bytes) + " bytes";
      return false;
    }
    if (bytes > limits_.ratio_floor_bytes && archive_bytes_ > 0 && bytes / archive_bytes_ >= limits_.max_ratio) {
      *error = "inflates to more than " + std::to_string(limits_.max_ratio) + " times its own size: a zip bomb?";
      return false;
    }
    return true;
  }

  static bool Fail(std::string message, std::string* error) {
    *error = std::move(message);
    return false;
  }

  archive* a_;
  const ArchiveLimits& limits_;
  const uint64_t archive_bytes_;
  const std::function<bool(const std::string&)>& keep_;
  uint64_t total_ = 0;
  std::unordered_set<std::string> seen_;
};

// A reader that recognizes FORMAT only.
archive* NewArchive(ArchiveFormat format, std::string* error) {
  archive* a = archive_read_new();
  if (a == nullptr) {
    *error = "out of memory";
    return nullptr;
  }
  int rc = ARCHIVE_OK;
  if (format == ArchiveFormat::kZip) {
    // The central directory decides, as for Python's zipfile and pip: a zip without one (or with local
    // headers it does not list) is not read through its local headers.
    rc = archive_read_support_format_zip_seekable(a);
  } else {
    rc = archive_read_support_format_tar(a);
    if (rc == ARCHIVE_OK) rc = archive_read_support_filter_gzip(a);  // WARN: an external gzip, refused
  }
  if (rc != ARCHIVE_OK) {
    *error = "libarchive cannot read this format here: " + LibarchiveError(a);
    archive_read_free(a);
    return nullptr;
  }
  return a;
}

const char* FormatName(ArchiveFormat format) { return format == ArchiveFormat::kZip ? "zip" : "gzip-compressed tar"; }

// Opens A with OPEN (a file descriptor or memory), then reads every member.
bool ReadOpened(archive* a, int open_rc, ArchiveFormat format, const ArchiveLimits& limits, uint64_t archive_bytes,
                const std::function<bool(const std::string&)>& keep, std::vector<ArchiveMember>* members,
                std::string* error) {
  members->clear();
  bool ok = false;
  if (open_rc != ARCHIVE_OK) {
    *error = std::string("not a ") + FormatName(format) + " archive: " + LibarchiveError(a);
  } else {
    ok = Reader(a, limits, archive_bytes, keep).ReadAll(format, members, error);
  }
  archive_read_free(a);
  if (!ok) members->clear();
  return ok;
}

}  // namespace

bool ReadArchive(const std::string& path, ArchiveFormat format, const ArchiveLimits& limits,
                 const std::function<bool(const std::string&)>& keep, std::vector<ArchiveMember>* members,
                 std::string* error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    *error = std::string("cannot open: ") + std::strerror(errno);
    return false;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    *error = "not a regular file";
    return false;
  }
  if (static_cast<uint64_t>(st.st_size) > limits.max_archive_bytes) {
    ::close(fd);
    *error = "larger than " + std::to_string(limits.max_archive_bytes) + " bytes";
    return false;
  }
  Utf8ThreadLocale utf8;
  archive* a = NewArchive(format, error);
  if (a == nullptr) {
    ::close(fd);
    return false;
  }
  const int rc = archive_read_open_fd(a, fd, 65536);
  const bool ok = ReadOpened(a, rc, format, limits, static_cast<uint64_t>(st.st_size), keep, members, error);
  ::close(fd);
  return ok;
}

bool ReadArchiveMemory(const std::string& data, ArchiveFormat format, const ArchiveLimits& limits,
                       const std::function<bool(const std::string&)>& keep, std::vector<ArchiveMember>* members,
                       std::string* error) {
  if (data.size() > limits.max_archive_bytes) {
    *error = "larger than " + std::to_string(limits.max_archive_bytes) + " bytes";
    return false;
  }
  Utf8ThreadLocale utf8;
  archive* a = NewArchive(format, error);
  if (a == nullptr) return false;
  const int rc = archive_read_open_memory(a, data.data(), data.size());
  return ReadOpened(a, rc, format, limits, data.size(), keep, members, error);
}

}  // namespace errdex
