#include "match/log_scanner.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <optional>
#include <unordered_map>

#include "match/template_alignment.h"
#include "match/type_agreement.h"
#include "python/traceback_vocabulary.h"

namespace errdex {

// Every error's template and type, read once; templates are prepared for alignment when first needed.
namespace {

constexpr size_t kMinFirstLineLiteralBytes = 20;

// The first line of a rendered template whose literal text spans lines; nullopt for a one-line template.
std::optional<std::string> FirstLineOf(std::string_view rendered) {
  Template first;
  for (const TemplatePart& part : ParseRenderedTemplate(rendered)) {
    if (part.placeholder) {
      first.AppendPlaceholder(part.text);
      continue;
    }
    size_t newline = part.text.find('\n');
    if (newline == std::string::npos) {
      first.AppendLiteral(part.text);
      continue;
    }
    first.AppendLiteral(std::string_view(part.text).substr(0, newline));
    return first.Render();
  }
  return std::nullopt;
}

}  // namespace

struct LogScanner::Templates {
  struct Entry {
    std::string rendered;
    std::string type;  // last component
    std::optional<AlignableTemplate> prepared;
    // A multi-line template's first line: logs often show only that much of a message.
    std::optional<AlignableTemplate> first_line;
  };
  std::unordered_map<std::string, Entry> by_id;

  explicit Templates(MatcherTables& tables) {
    for (MatcherTables::ErrorTemplate& e : tables.ErrorTemplates()) {
      std::string type(LastComponent(e.type));
      by_id.emplace(std::move(e.id), Entry{std::move(e.template_text), std::move(type), std::nullopt, std::nullopt});
    }
  }
  Entry* Find(const std::string& id) {
    auto it = by_id.find(id);
    if (it == by_id.end()) return nullptr;
    if (!it->second.prepared) {
      it->second.prepared = PrepareTemplate(it->second.rendered);
      if (std::optional<std::string> first = FirstLineOf(it->second.rendered)) {
        AlignableTemplate line = PrepareTemplate(*first);
        if (line.literal_bytes >= kMinFirstLineLiteralBytes) it->second.first_line = std::move(line);
      }
    }
    return &it->second;
  }
};

namespace {

bool IsTypeChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

constexpr size_t kMinScanLiteralBytes = 12;

// The exception type printed before a message that begins with a placeholder, where the value's own
// text may hold anything: only TYPE itself, as the last `TYPE: ` before LIMIT ("ERROR app: KeyError: ...").
std::string_view TypeBeforeValue(std::string_view text, size_t limit, std::string_view type) {
  std::string_view found;
  for (size_t colon = text.find(": "); colon != std::string_view::npos && colon < limit;
       colon = text.find(": ", colon + 1)) {
    size_t i = colon;
    while (i > 0 && IsTypeChar(text[i - 1])) --i;
    std::string_view name = LastComponent(text.substr(i, colon - i));
    if (name == type) found = name;
  }
  return found;
}

// The exception type printed right before the message ("... ValueError: message"), or "".
std::string_view TypeBefore(std::string_view text, size_t begin) {
  size_t i = begin;
  if (i > 0 && (text[i - 1] == '"' || text[i - 1] == '\'')) --i;  // KeyError shows its message's repr
  while (i > 0 && text[i - 1] == ' ') --i;
  if (i == 0 || text[i - 1] != ':') return {};
  size_t end = --i;
  while (i > 0 && IsTypeChar(text[i - 1])) --i;
  return LastComponent(text.substr(i, end - i));
}

bool IsWordByte(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// An error level as a word of its own: "ERROR", "[error]", "level=error", "Error:".
bool HasErrorLevel(std::string_view line) {
  static constexpr std::string_view kLevels[] = {"ERROR", "CRITICAL", "FATAL",    "WARNING", "Traceback",
                                                 "error", "Error",    "critical", "fatal"};
  for (std::string_view level : kLevels) {
    for (size_t at = line.find(level); at != std::string_view::npos; at = line.find(level, at + 1)) {
      size_t end = at + level.size();
      if ((at == 0 || !IsWordByte(line[at - 1])) && (end == line.size() || !IsWordByte(line[end]))) return true;
    }
  }
  return false;
}

}  // namespace

LogScanner::LogScanner(Catalog& catalog, const ErrorMatcher& matcher,
                       std::function<void(const ScanFinding&)> on_finding)
    : matcher_(matcher),
      on_finding_(std::move(on_finding)),
      scratch_(std::make_unique<LiteralMatcher::Scratch>(matcher.literals())),
      templates_(std::make_unique<Templates>(catalog.matcher_tables())) {}

LogScanner::~LogScanner() = default;

void LogScanner::Feed(std::string_view chunk) {
  while (!chunk.empty()) {
    if (skipping_rest_) {
      const void* nl = std::memchr(chunk.data(), '\n', chunk.size());
      if (!nl) return;
      size_t skip = static_cast<size_t>(static_cast<const char*>(nl) - chunk.data()) + 1;
      chunk.remove_prefix(skip);
      skipping_rest_ = false;
      continue;
    }
    size_t room = kScanBlockBytes - pending_.size();
    size_t take = std::min(room, chunk.size());
    pending_.append(chunk.data(), take);
    chunk.remove_prefix(take);
    if (pending_.size() < kScanBlockBytes && chunk.empty()) break;
    // The block is full: process its whole lines, keep the unfinished one.
    size_t last_nl = pending_.rfind('\n');
    if (last_nl == std::string::npos) {
      // One line longer than a block: keep its start, drop the rest.
      pending_.push_back('\n');
      ProcessBlock(pending_.substr(0, std::min(pending_.size() - 1, kScanMaxLineBytes)) + "\n");
      pending_.clear();
      skipping_rest_ = true;
      continue;
    }
    ProcessBlock(std::string_view(pending_).substr(0, last_nl + 1));
    pending_.erase(0, last_nl + 1);
    if (pending_.size() > kScanMaxLineBytes) {
      pending_.resize(kScanMaxLineBytes);
      pending_.push_back('\n');
      ProcessBlock(pending_);
      pending_.clear();
      skipping_rest_ = true;
    }
  }
}

void LogScanner::Finish() {
  if (!pending_.empty()) {
    if (pending_.back() != '\n') pending_.push_back('\n');
    ProcessBlock(pending_);
    pending_.clear();
  }
  skipping_rest_ = false;
}

void LogScanner::ProcessBlock(std::string_view block) {
  // Hits come in order of their end offset; group them by line.
  size_t line_start = 0;  // of the line being collected
  int64_t line_number = lines_done_ + 1;
  size_t counted_to = 0;  // newlines before this offset are counted
  std::vector<uint32_t> patterns;
  auto flush = [&] {
    if (patterns.empty()) return;
    size_t end = block.find('\n', line_start);
    std::string_view line = block.substr(line_start, end - line_start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ProcessLine(line, line_number, patterns);
    patterns.clear();
  };
  matcher_.literals().Scan(block, *scratch_, [&](uint32_t id, size_t hit_end) {
    size_t hit_last = hit_end - 1;  // the hit's last byte is on the hit's line
    if (hit_last >= counted_to) {
      // Does the hit start a new line? Count the newlines between.
      const char* from = block.data() + counted_to;
      const char* to = block.data() + hit_last;
      const char* last_nl = nullptr;
      int64_t newlines = 0;
      for (const char* p = from; p < to;) {
        const void* nl = std::memchr(p, '\n', static_cast<size_t>(to - p));
        if (!nl) break;
        last_nl = static_cast<const char*>(nl);
        ++newlines;
        p = last_nl + 1;
      }
      if (newlines > 0) {
        flush();
        line_number += newlines;
        line_start = static_cast<size_t>(last_nl - block.data()) + 1;
      }
      counted_to = hit_last;
    }
    if (std::find(patterns.begin(), patterns.end(), id) == patterns.end()) patterns.push_back(id);
    return true;
  });
  flush();
  lines_done_ += std::count(block.begin(), block.end(), '\n');
}

void LogScanner::ProcessLine(std::string_view raw_line, int64_t number, const std::vector<uint32_t>& patterns) {
  std::string line = NormalizeSpace(raw_line);
  const bool error_level = HasErrorLevel(raw_line);
  std::optional<ScanFinding> best;
  double best_points = -1;
  for (uint32_t pattern : patterns) {
    for (const std::string& id : matcher_.ErrorsOfLoaded(pattern)) {
      Templates::Entry* entry = templates_->Find(id);
      if (!entry) continue;
      constexpr AlignOptions kCompleteOnly{.bindings = false, .partial = false};
      Alignment a = AlignTemplate(*entry->prepared, line, kCompleteOnly);
      bool first_line_only = false;
      if (!a.complete && entry->first_line) {
        a = AlignTemplate(*entry->first_line, line, kCompleteOnly);
        first_line_only = a.complete;
      }
      if (!a.complete) continue;
      const bool starts_with_value = entry->prepared->parts.front().placeholder;
      std::string_view printed_type =
          starts_with_value ? TypeBeforeValue(line, a.first_literal, entry->type) : TypeBefore(line, a.begin);
      bool type_same = !printed_type.empty() && printed_type == entry->type;
      bool typed = !printed_type.empty() && (type_same || python_paste::EndsLikeLoggedType(printed_type));
      // Source lines of a traceback show the raise, not the error.
      if (std::string_view(line).substr(0, a.first_literal).find("raise ") != std::string_view::npos) continue;
      // Error context: a printed type, an error level, or a line that is the message, mostly literal.
      // A leading placeholder takes in the log's own prefix: "the whole line" means nothing then.
      const bool whole = a.whole && !starts_with_value;
      bool whole_literal = whole && a.literal_bytes * 2 >= line.size();
      if (!typed && !error_level && !whole_literal) continue;
      // A template with little literal text matches too much prose: only where its type is printed.
      if (a.literal_bytes < kMinScanLiteralBytes && !type_same && !whole_literal) continue;
      double explained =
          static_cast<double>(a.matched_literal_bytes) / static_cast<double>(std::max<size_t>(line.size(), 1));
      double points = 65 + 10 * explained + std::min(5.0, static_cast<double>(a.literal_bytes) / 10.0) +
                      (type_same ? 15 : (typed ? -15 : 0)) + (whole ? 5 : 0) - (first_line_only ? 5 : 0);
      if (points > best_points || (points == best_points && id < best->error_id)) {
        best_points = points;
        best = ScanFinding{number, id, std::round(std::clamp(points / 110.0, 0.0, 1.0) * 1000) / 1000};
      }
    }
  }
  if (best) on_finding_(*best);
}

}  // namespace errdex
