#include "analysis/doc_mentions.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "match/literal_matcher.h"
#include "match/template_alignment.h"

namespace errdex {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

bool IsIdentByte(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_' || u >= 0x80;
}

bool IsBlank(std::string_view line) {
  return std::all_of(line.begin(), line.end(), [](char c) { return IsSpace(c); });
}

size_t Utf8Start(std::string_view s, size_t i) {  // first boundary at or after I
  while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
  return i;
}
size_t Utf8End(std::string_view s, size_t i) {  // last boundary at or before I
  while (i > 0 && i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
  return i;
}

// The paragraph of TEXT around 0-based line LINE, collapsed, cut to kMaxPassageBytes around MATCHED.
std::string Passage(std::string_view text, int line, const std::string& matched) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (true) {
    const size_t nl = text.find('\n', start);
    lines.push_back(text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start));
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  const int n = static_cast<int>(lines.size());
  line = std::clamp(line, 0, n - 1);
  int first = line;
  int last = line;
  while (first > 0 && line - first < 40 && !IsBlank(lines[static_cast<size_t>(first - 1)])) --first;
  while (last + 1 < n && last - line < 40 && !IsBlank(lines[static_cast<size_t>(last + 1)])) ++last;
  const char* begin = lines[static_cast<size_t>(first)].data();
  const char* end = lines[static_cast<size_t>(last)].data() + lines[static_cast<size_t>(last)].size();
  std::string paragraph = NormalizeSpace(std::string_view(begin, static_cast<size_t>(end - begin)));
  if (paragraph.size() <= kMaxPassageBytes) return paragraph;

  static constexpr std::string_view kEllipsis = "…";
  const size_t budget = kMaxPassageBytes - 2 * kEllipsis.size();
  size_t pos = paragraph.find(matched);
  if (pos == std::string::npos) pos = 0;
  const size_t mlen = std::min(matched.size(), budget);
  size_t from = pos > (budget - mlen) / 2 ? pos - (budget - mlen) / 2 : 0;
  size_t to = std::min(paragraph.size(), from + budget);
  if (to - from < budget) from = to > budget ? to - budget : 0;
  from = Utf8Start(paragraph, from);
  to = Utf8End(paragraph, to);
  std::string out;
  if (from > 0) out += kEllipsis;
  out.append(paragraph, from, to - from);
  if (to < paragraph.size()) out += kEllipsis;
  return out;
}

// One literal of the database and the queries that asked for it.
struct Owner {
  uint32_t query;
  bool function;  // else a message phrase
};

struct Hit {
  size_t doc = 0;
  int line = 0;                 // 0-based in the document
  int phrases = 0;              // distinct phrases of the query on this line
  size_t bytes = 0;             // matched bytes of those phrases
  int64_t phrase_literal = -1;  // the longest phrase that hit (the one shown)
  int64_t function_literal = -1;
  std::vector<uint32_t> seen;  // phrases already counted
  bool message() const { return bytes >= kMinMessageMatchBytes; }
};

}  // namespace

bool IsSpecificFunctionName(const std::string& name) {
  if (name.empty() || !std::all_of(name.begin(), name.end(), IsIdentByte)) return false;
  if (name.size() >= 4 && name.compare(0, 2, "__") == 0 && name.compare(name.size() - 2, 2, "__") == 0) return false;
  if (std::all_of(name.begin(), name.end(), [](char c) { return c == '_'; })) return false;
  return name.size() >= 6 || name.find('_') != std::string::npos;
}

DocMentionFinder::DocMentionFinder(std::vector<Document> docs) : docs_(std::move(docs)) {
  prepared_.reserve(docs_.size());
  for (const Document& doc : docs_) {
    Prepared p;
    p.text.reserve(doc.text.size());
    p.line_starts.push_back(0);
    bool pending_space = false;
    for (char c : doc.text) {
      if (IsSpace(c)) {
        if (!p.text.empty()) pending_space = true;
        if (c == '\n') p.line_starts.push_back(p.text.size() + (pending_space ? 1 : 0));
        continue;
      }
      if (pending_space) p.text += ' ';
      pending_space = false;
      p.text += c;
    }
    prepared_.push_back(std::move(p));
  }
}

std::vector<std::vector<Mention>> DocMentionFinder::Find(const std::vector<MentionQuery>& queries,
                                                         size_t max_per_query) const {
  std::vector<std::vector<Mention>> out(queries.size());
  if (max_per_query == 0 || queries.empty()) return out;

  // The literals, deduplicated, with their owners.
  std::vector<std::string> literals;
  std::vector<std::vector<Owner>> owners;
  std::unordered_map<std::string, uint32_t> literal_index;
  auto add = [&](std::string literal, Owner owner) {
    auto [it, inserted] = literal_index.emplace(std::move(literal), static_cast<uint32_t>(literals.size()));
    if (inserted) {
      literals.push_back(it->first);
      owners.emplace_back();
    }
    std::vector<Owner>& list = owners[it->second];
    if (list.empty() || list.back().query != owner.query || list.back().function != owner.function) {
      list.push_back(owner);
    }
  };
  for (size_t q = 0; q < queries.size(); ++q) {
    for (const std::string& phrase : queries[q].phrases) {
      std::string p = NormalizeSpace(phrase);
      if (p.find(' ') != std::string::npos) add(std::move(p), {static_cast<uint32_t>(q), false});
    }
    if (IsSpecificFunctionName(queries[q].function_name)) {
      add(queries[q].function_name, {static_cast<uint32_t>(q), true});
    }
  }
  // A phrase shared by many queries identifies none of them (and would multiply the hits).
  std::vector<std::string> kept_literals;
  std::vector<std::vector<Owner>> kept_owners;
  for (size_t i = 0; i < literals.size(); ++i) {
    const size_t phrase_owners = static_cast<size_t>(
        std::count_if(owners[i].begin(), owners[i].end(), [](const Owner& o) { return !o.function; }));
    if (phrase_owners > kMaxQueriesPerPhrase) {
      owners[i].erase(std::remove_if(owners[i].begin(), owners[i].end(), [](const Owner& o) { return !o.function; }),
                      owners[i].end());
    }
    if (owners[i].empty()) continue;
    kept_literals.push_back(std::move(literals[i]));
    kept_owners.push_back(std::move(owners[i]));
  }
  literals = std::move(kept_literals);
  owners = std::move(kept_owners);
  if (literals.empty()) return out;
  const std::unique_ptr<LiteralMatcher> matcher = LiteralMatcher::Build(literals);
  LiteralMatcher::Scratch scratch(*matcher);

  // Per query: (doc, line) → hit.
  std::vector<std::map<std::pair<size_t, int>, Hit>> hits(queries.size());
  for (size_t d = 0; d < prepared_.size(); ++d) {
    const Prepared& p = prepared_[d];
    const std::string_view text = p.text;
    matcher->Scan(text, scratch, [&](uint32_t id, size_t end) {
      const std::string& literal = literals[id];
      const size_t begin = end - literal.size();
      const int line = static_cast<int>(std::upper_bound(p.line_starts.begin(), p.line_starts.end(), begin) -
                                        p.line_starts.begin()) -
                       1;
      for (const Owner& owner : owners[id]) {
        if (owner.function) {
          if (begin > 0 && IsIdentByte(text[begin - 1])) continue;
          if (end < text.size() && IsIdentByte(text[end])) continue;
          const bool plain_word = std::all_of(literal.begin(), literal.end(),
                                              [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); });
          if (plain_word && !(end < text.size() && (text[end] == '(' || text[end] == '`'))) continue;
        }
        auto& query_hits = hits[owner.query];
        auto found = query_hits.find({d, line});
        if (found == query_hits.end()) {
          if (query_hits.size() >= kMaxCandidatesPerQuery) continue;
          found = query_hits.emplace(std::make_pair(d, line), Hit{}).first;
        }
        Hit& hit = found->second;
        hit.doc = d;
        hit.line = line;
        if (owner.function) {
          hit.function_literal = id;
          continue;
        }
        if (std::find(hit.seen.begin(), hit.seen.end(), id) != hit.seen.end()) continue;
        hit.seen.push_back(id);
        ++hit.phrases;
        hit.bytes += literal.size();
        if (hit.phrase_literal < 0 || literal.size() > literals[static_cast<size_t>(hit.phrase_literal)].size()) {
          hit.phrase_literal = id;
        }
      }
      return true;
    });
  }

  for (size_t q = 0; q < queries.size(); ++q) {
    std::vector<const Hit*> ranked;
    ranked.reserve(hits[q].size());
    for (const auto& [key, hit] : hits[q]) {
      if (hit.message() || hit.function_literal >= 0) ranked.push_back(&hit);  // else too little of the message
    }
    auto better = [](const Hit* a, const Hit* b) {
      if (a->message() != b->message()) return a->message();
      if (a->phrases != b->phrases) return a->phrases > b->phrases;
      if (a->bytes != b->bytes) return a->bytes > b->bytes;
      if (a->doc != b->doc) return a->doc < b->doc;
      return a->line < b->line;
    };
    const size_t keep = std::min(max_per_query, ranked.size());
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(keep), ranked.end(), better);
    for (size_t i = 0; i < keep; ++i) {
      const Hit& hit = *ranked[i];
      const Document& doc = docs_[hit.doc];
      Mention m;
      m.path = doc.path;
      m.line = doc.first_line + hit.line;
      m.matched = literals[static_cast<size_t>(hit.message() ? hit.phrase_literal : hit.function_literal)];
      m.kind = hit.message() ? "message" : "function";
      m.passage = Passage(doc.text, hit.line, m.matched);
      out[q].push_back(std::move(m));
    }
  }
  return out;
}

}  // namespace errdex
