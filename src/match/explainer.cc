#include "match/explainer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "extract/template.h"
#include "match/anchor.h"
#include "match/error_words.h"
#include "match/frame_evidence.h"
#include "match/handler_printed.h"
#include "match/loose_similarity.h"
#include "match/paste_origin.h"
#include "match/pasted_error.h"
#include "match/template_alignment.h"
#include "match/twin_order.h"
#include "match/type_agreement.h"
#include "match/type_candidates.h"
#include "match/type_case.h"
#include "match/user_code_route.h"
#include "match/version_step.h"
#include "match/warn_call.h"
#include "match/wrapped_chain.h"
#include "python/installed_path.h"
#include "python/python_builtins.h"

namespace errdex {
namespace {

constexpr size_t kMaxExactCandidates = 400;
constexpr int kSimilarCandidates = 20;
constexpr size_t kTypeCandidates = 60;
constexpr int64_t kSitesPerFileName = 2000;
constexpr double kMaxPoints = 145;
// Sites in test code: slightly less likely to be what a user met, never enough to beat better text.
constexpr int kTestPenalty = 3;
// A vendored copy (pip/_vendor/urllib3) runs only inside the library that ships it: at equal evidence the
// original distribution comes first.
constexpr int kVendoredPenalty = 1;
constexpr int kClassMessagePenalty = 10;
// A candidate of another repository than the one the paste points at.
constexpr int kOtherRepositoryPenalty = 10;
// Links of a chain judged, from the outermost.
constexpr size_t kMaxChainLinks = 6;

// Share of the message's word bytes that the template's literal words hold in the same order (a
// longest common subsequence of words, weighted by length): a message that is a shortened or older form
// of the template is all in it even when much of the template is not in the message.
double MessageCoverage(const AlignableTemplate& tmpl, std::string_view message) {
  constexpr size_t kMaxWords = 256;  // bounds the quadratic table for hostile input
  std::vector<std::string_view> theirs;
  for (const TemplatePart& p : tmpl.parts) {
    if (p.placeholder) continue;
    for (std::string_view w : MatchWords(p.text)) theirs.push_back(w);
  }
  std::vector<std::string_view> ours = MatchWords(message);
  if (ours.size() > kMaxWords) ours.resize(kMaxWords);
  if (theirs.size() > kMaxWords) theirs.resize(kMaxWords);
  size_t total = 0;
  for (std::string_view w : ours) total += w.size();
  if (total == 0 || theirs.empty()) return 0.0;
  std::vector<size_t> previous(theirs.size() + 1, 0), current(theirs.size() + 1, 0);
  for (std::string_view w : ours) {
    for (size_t j = 1; j <= theirs.size(); ++j) {
      current[j] = w == theirs[j - 1] ? previous[j - 1] + w.size() : std::max(previous[j], current[j - 1]);
    }
    std::swap(previous, current);
  }
  return static_cast<double>(previous[theirs.size()]) / static_cast<double>(total);
}

// Share of the template's literal word bytes that occur in the message, in any order: the similarity
// of a reworded or re-assembled message (`_format` inserting a request id between the template's pieces).
double SharedWordShare(const AlignableTemplate& tmpl, std::string_view message) {
  std::set<std::string_view> ours;
  for (std::string_view w : MatchWords(message)) ours.insert(w);
  size_t total = 0, shared = 0;
  for (const TemplatePart& p : tmpl.parts) {
    if (p.placeholder) continue;
    for (std::string_view w : MatchWords(p.text)) {
      total += w.size();
      if (ours.count(w)) shared += w.size();
    }
  }
  return total == 0 ? 0.0 : static_cast<double>(shared) / static_cast<double>(total);
}

// A reworded message: most of the template is in it and a fair share of it is in the template; or it is
// nearly all in the template (a shortened or older wording) and a good part of the template is in it.
bool ApproximatelyTheSame(double template_coverage, double message_coverage) {
  return (template_coverage >= 0.5 && message_coverage >= 0.3) || (template_coverage >= 0.4 && message_coverage >= 0.8);
}

std::string Percent(double x) { return fmt::format("{}%", static_cast<int>(std::lround(x * 100))); }

// True when TEXT names the class NAME as a word: "NewConnectionError(...)" names NewConnectionError, not
// ConnectionError.
bool NamesClass(std::string_view text, std::string_view name) {
  if (name.empty()) return false;
  const auto identifier = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    const size_t end = at + name.size();
    if ((at == 0 || !identifier(text[at - 1])) && (end == text.size() || !identifier(text[end]))) return true;
  }
  return false;
}

// Code users meet a library's errors in: not its tests, nor its documentation examples and scripts
// (`docs_src/`, `examples/`, python/data/traceback_format.tsv).
bool OutsideLibrary(const SiteRow& site) { return site.is_test || IsExampleOrScriptPath(site.path); }

// The classes of each repository's latest revision, read once per `explain` (the class-message candidates
// of every link and wrapped class share them): most of the cold path's reading.
using ClassesByRepo = std::map<std::string, std::vector<ClassRow>>;

struct Candidate {
  ExplainMatch match;
  int tier = 0;  // 3 strong match, 2 weaker match, 1 approximate or weak, 0 closest (docs/matching.md)
  double points = 0;
  // Another class than the pasted one, seen only by its name inside the message (a wrapped cause printed
  // in the text): at equal tier it ranks below the pasted class's own sites (docs/matching.md).
  bool cause_in_message = false;
};

class OneException {
 public:
  OneException(Catalog& catalog, const ErrorMatcher& matcher, const PastedException& exception,
               ClassesByRepo& classes_by_repo)
      : catalog_(catalog),
        matcher_(matcher),
        exception_(exception),
        message_(NormalizeSpace(exception.message)),
        called_(CalledNames(exception.frames)),
        classes_by_repo_(classes_by_repo) {}

  std::vector<Candidate> Run() {
    std::vector<std::string> ids;
    std::set<std::string> seen;
    auto add = [&](std::string id) {
      if (seen.insert(id).second) ids.push_back(std::move(id));
    };
    if (!message_.empty()) {
      ErrorMatcher::Found found = matcher_.Candidates(catalog_.matcher_tables(), message_);
      std::vector<std::string>& exact = found.errors;
      if (exact.size() > kMaxExactCandidates) exact.resize(kMaxExactCandidates);
      for (auto& id : exact) add(std::move(id));
      for (const ClassMessageRef& ref : found.classes) {
        for (std::string& id : ClassCandidates(ref)) add(std::move(id));
      }
      for (auto& id : SimilarErrors(catalog_.matcher_tables(),
                                    message_ + " " + std::string(LastComponent(exception_.type)), kSimilarCandidates)) {
        add(std::move(id));
      }
    }
    size_t consulted = std::min(exception_.frames.size(), kFramesConsulted);
    for (size_t k = 0; k < consulted; ++k) {
      const TracebackFrame& f = exception_.frames[exception_.frames.size() - 1 - k];
      auto parts = PathComponents(f.path);
      if (parts.empty() || f.function.empty()) continue;
      for (SiteRow& s : catalog_.SitesInFilesNamed(std::string(parts.back()), kSitesPerFileName)) {
        if (SameFunction(f.function, s.function) && FrameInSiteFile(f, s) > 0) add(s.error_id);
      }
    }
    // The pasted class (or a base of it) raised with a message built at run time.
    for (std::string& id : ErrorsRaisingPastedType(catalog_, exception_.type, kTypeCandidates)) add(std::move(id));
    if (message_.empty() && exception_.frames.empty() && !exception_.type.empty()) {
      SiteFilter filter;
      filter.type = exception_.type;
      filter.limit = 50;
      catalog_.ListSites(filter, [&](const SiteRow& s) { add(s.error_id); });
    }
    std::vector<Candidate> out;
    for (const std::string& id : ids) {
      Judge(id, out);
    }
    return out;
  }

 private:
  // The message as a class renders it: the class, what it says, and how well the paste matches it.
  struct ClassEvidence {
    ClassRow cls;
    Alignment text;
    std::optional<PrintedText> printed;  // the text is what a handler prints for the class (ClassRow::printed)
  };

  // A class's text aligned with the message; a quoted message (`"Current Python version ..."`) also without
  // its quotes, when that makes it whole.
  Alignment AlignClassText(const std::string& text) const {
    AlignableTemplate tmpl = PrepareTemplate(AsPasted(text));
    Alignment a = AlignTemplate(tmpl, message_);
    if (!a.whole && message_.size() >= 2 && message_.front() == message_.back() &&
        (message_.front() == '\'' || message_.front() == '"')) {
      Alignment inner = AlignTemplate(tmpl, std::string_view(message_).substr(1, message_.size() - 2));
      if (inner.complete && inner.whole) a = std::move(inner);
    }
    // A text of several lines whose first line, with enough literal text, is all the message: the paste kept
    // only that line (pytest's `E       fixture 'x' not found`; the report's other lines start with `>`).
    if (size_t nl = text.find('\n'); !a.complete && nl != std::string::npos) {
      AlignableTemplate head = PrepareTemplate(text.substr(0, nl));
      if (head.literal_bytes >= kFirstLineLiteralBytes) {
        Alignment first = AlignTemplate(head, message_);
        if (first.complete) a = std::move(first);
      }
    }
    return a;
  }
  static bool BetterClassText(const Alignment& a, const Alignment& b) {
    if (a.complete != b.complete) return a.complete;
    if (a.whole != b.whole) return a.whole;
    if (a.matched_literal_bytes != b.matched_literal_bytes) return a.matched_literal_bytes > b.matched_literal_bytes;
    return a.coverage() > b.coverage();
  }

  // Errors raised with class REF (or a subclass that inherits its message) when the paste reads like
  // the class's own message (or one of its alternatives); remembers the evidence for Judge.
  std::vector<std::string> ClassCandidates(const ClassMessageRef& ref) {
    std::vector<std::string> out;
    std::optional<std::string> repo_name = catalog_.RepositoryName(ref.repo_id);
    if (!repo_name) return out;
    const std::string& repo = *repo_name;
    // The class alone first: the rest of the repository's classes only when the paste reads like its text.
    const std::optional<ClassRow> it = catalog_.ClassOfLatestRevision(repo, ref.qualified_name);
    if (!it || (it->message.empty() && it->printed.empty())) return out;
    // The text it renders that the message fits best (docs/matching.md, "Class messages"), or that a handler
    // prints for it, when that one accounts for all its literal text ("Texts printed by exception handlers").
    ClassRow rendered = *it;
    Alignment text;
    if (!rendered.message.empty()) text = AlignClassText(rendered.message);
    for (const std::string& alternative : it->alternatives) {
      Alignment other = AlignClassText(alternative);
      if (BetterClassText(other, text)) {
        text = std::move(other);
        rendered.message = alternative;
      }
    }
    std::optional<PrintedText> printed;
    for (const PrintedText& p : it->printed) {
      Alignment other = AlignClassText(p.template_text);
      if (other.complete && BetterClassText(other, text)) {
        text = std::move(other);
        printed = p;
      }
    }
    if (printed) rendered.message = printed->template_text;
    if (!text.complete && text.coverage() < 0.6) return out;
    auto cached = classes_by_repo_.find(repo);
    if (cached == classes_by_repo_.end()) {
      cached = classes_by_repo_.emplace(repo, catalog_.ClassesOfLatestRevision(repo)).first;
    }
    const std::vector<ClassRow>& classes = cached->second;
    // The class and the subclasses that do not render a message of their own; and the class the paste
    // names when it has no message of its own (its bases may be out of reach: `class E(*bases)`).
    std::vector<std::string> types{it->qualified_name};
    std::set<std::string> inherited{it->qualified_name};
    for (const ClassRow& c : classes) {
      if (c.message.empty() && !exception_.type.empty() && c.qualified_name != it->qualified_name &&
          LastComponent(c.qualified_name) == LastComponent(exception_.type)) {
        types.push_back(c.qualified_name);
      }
    }
    for (bool grew = true; grew && types.size() < 200;) {
      grew = false;
      for (const ClassRow& c : classes) {
        // (A handler catches every subclass, whatever it renders.)
        if (inherited.count(c.qualified_name) || (!c.message.empty() && !printed)) continue;
        for (const std::string& b : c.bases) {
          if (inherited.count(b)) {
            inherited.insert(c.qualified_name);
            types.push_back(c.qualified_name);
            grew = true;
            break;
          }
        }
      }
    }
    if (!pasted_class_evidence_ && text.complete && !exception_.type.empty() &&
        std::any_of(types.begin(), types.end(),
                    [&](const std::string& t) { return LastComponent(t) == LastComponent(exception_.type); })) {
      pasted_class_evidence_ = ClassEvidence{rendered, text, printed};
    }
    for (const SiteRow& s : catalog_.SitesRaising(repo, types, 400)) {
      if (class_evidence_.count(s.error_id)) continue;
      ClassEvidence evidence{rendered, text, printed};
      // A raise whose arguments rule some of the class's texts out renders one of the others only.
      if (!printed && !s.class_texts.empty() && s.type_qualified == it->qualified_name &&
          !RaiseRenders(s.class_texts, &evidence)) {
        continue;
      }
      class_evidence_[s.error_id] = std::move(evidence);
      out.push_back(s.error_id);
    }
    return out;
  }

  // The text of CLASS_TEXTS (a site's SiteRow::class_texts) the message fits best, into EVIDENCE; false when
  // none fits as the class's texts must (complete, or 60% of their literal text), or the message fits a text
  // of the class that the raise cannot render better (EVIDENCE's on entry: `[line {lineno}]` read as literal
  // text rather than absorbed by a placeholder).
  bool RaiseRenders(const std::vector<std::string>& class_texts, ClassEvidence* evidence) const {
    std::optional<Alignment> best;
    for (const std::string& t : class_texts) {
      Alignment a = AlignClassText(t);
      if (!best || BetterClassText(a, *best)) {
        best = std::move(a);
        evidence->cls.message = t;
      }
    }
    if (!best || BetterClassText(evidence->text, *best) || (!best->complete && best->coverage() < 0.6)) return false;
    evidence->text = std::move(*best);
    return true;
  }

  // What the text says about one error: its template aligned with the message, directly or through the
  // class that renders it.
  struct TextEvidence {
    AlignableTemplate tmpl;
    Alignment text;
    const ClassEvidence* by_class = nullptr;
    const ClassRow* wrapped_by = nullptr;
    std::optional<PrintedText> wrapped_printed;  // WRAPPED_BY's text is what a handler prints for it
    // The template is several lines and its first line, with enough literal text, is all in the
    // message: the paste kept only the first line of a long message.
    bool first_line = false;
    // The message is the repr of the site's text: KeyError and its subclasses print their argument quoted.
    bool unquoted = false;
    // The site chooses its message among several texts and TMPL is this other one than the error's template;
    // ALTERNATIVES counts the other texts of the first site that renders it.
    std::string alternative;
    size_t alternatives = 0;
  };

  // A site's template aligned with the message; a quoted message also without its quotes when that makes it
  // whole (*UNQUOTED: the exception prints its argument's repr, as KeyError does).
  Alignment AlignSiteText(const AlignableTemplate& tmpl, bool* unquoted) const {
    Alignment a;
    *unquoted = false;
    if (tmpl.literal_bytes > 0 && !message_.empty()) a = AlignTemplate(tmpl, message_);
    a.literal_bytes = tmpl.literal_bytes;
    if (tmpl.literal_bytes > 0 && !a.whole && message_.size() >= 2 && message_.front() == message_.back() &&
        (message_.front() == '\'' || message_.front() == '"')) {
      Alignment inner = AlignTemplate(tmpl, std::string_view(message_).substr(1, message_.size() - 2));
      if (inner.complete && inner.whole) {
        inner.literal_bytes = tmpl.literal_bytes;
        a = std::move(inner);
        *unquoted = true;
      }
    }
    return a;
  }

  // A message chosen among several texts (docs/matching.md): the other texts of the error's sites, the one
  // the message fits best when it fits better than the template (complete, whole, literal bytes found).
  void PickAlternative(const std::vector<SiteRow>& sites, TextEvidence* t, std::string* full) const {
    std::set<std::string> seen;
    for (const SiteRow& s : sites) {
      for (const std::string& a : s.message_alternatives) {
        if (seen.size() >= MatcherTables::kMaxErrorAlternatives || !seen.insert(a).second) continue;
        if (message_.empty()) continue;
        AlignableTemplate tmpl = PrepareTemplate(AsPasted(a));
        if (tmpl.literal_bytes == 0) continue;
        bool unquoted = false;
        Alignment text = AlignSiteText(tmpl, &unquoted);
        if (!BetterClassText(text, t->text)) continue;
        t->tmpl = std::move(tmpl);
        t->text = std::move(text);
        t->unquoted = unquoted;
        t->alternative = a;
        t->alternatives = s.message_alternatives.size();
        *full = AsPasted(a);
      }
    }
  }

  // A template or class text as the paste can show it: lower-cased when the paste was (docs/matching.md).
  std::string AsPasted(std::string text) const {
    if (exception_.lowercased) {
      for (char& c : text) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    }
    return text;
  }

  TextEvidence ReadText(const std::string& id, const ErrorRow& error, const std::vector<SiteRow>& sites,
                        TypeAgreement agreement) {
    TextEvidence t;
    t.tmpl = PrepareTemplate(AsPasted(error.template_text.value_or("")));
    t.text = AlignSiteText(t.tmpl, &t.unquoted);
    std::string full = AsPasted(error.template_text.value_or(""));
    PickAlternative(sites, &t, &full);
    if (size_t nl = full.find('\n'); nl != std::string::npos && !message_.empty() && !t.text.complete) {
      AlignableTemplate head = PrepareTemplate(full.substr(0, nl));
      t.first_line = head.literal_bytes >= kFirstLineLiteralBytes && AlignTemplate(head, message_).complete;
    }
    // When the site's own text does not account for the message, the class's message may.
    // (A site's arguments are not its message when its class renders one: `raise Declined("E42", amount)`.)
    // A site with text of its own that the message lacks raises something else than what was pasted.
    const bool site_text_decides = t.text.complete && t.tmpl.literal_bytes >= kMinExactLiteralBytes;
    const bool site_text_absent = t.tmpl.literal_bytes >= kMinExactLiteralBytes && t.text.coverage() < 0.5;
    const auto ce = class_evidence_.find(id);
    if (ce != class_evidence_.end() && !site_text_decides && !site_text_absent) {
      t.by_class = &ce->second;
    } else if (pasted_class_evidence_ && agreement == TypeAgreement::kUnknown && !site_text_decides &&
               !site_text_absent && std::any_of(sites.begin(), sites.end(), [&](const SiteRow& s) {
                 return JudgeFrames(exception_.frames, s).pinned;
               })) {
      // `raise client_error(...)` where the traceback ends: the value raised is of the class the paste
      // names, whose message the paste shows.
      t.by_class = &*pasted_class_evidence_;
    }
    if (t.by_class) {
      t.text = t.by_class->text;
      t.tmpl.literal_bytes = t.text.literal_bytes;
    }
    // The site's text inside its class's rendering (`Invalid value for '--port': <the site's text>`):
    // bind the site's placeholders within the class's, and the message is accounted for whole.
    // (A template beginning with a placeholder is "whole" by taking in the class's text: try it too.)
    if (site_text_decides && (!t.text.whole || t.tmpl.parts.front().placeholder)) {
      if (ce != class_evidence_.end() && ce->second.text.complete) {
        const auto& outer = ce->second.text.bindings;
        for (size_t b = 0; b < outer.size(); ++b) {
          Alignment inner = AlignTemplate(t.tmpl, NormalizeSpace(outer[b].second));
          if (!inner.complete || !inner.whole) continue;
          std::vector<std::pair<std::string, std::string>> bindings;
          for (size_t k = 0; k < outer.size(); ++k) {
            if (k != b) bindings.push_back(outer[k]);
          }
          bindings.insert(bindings.end(), inner.bindings.begin(), inner.bindings.end());
          t.text.bindings = std::move(bindings);
          t.text.whole = true;
          t.wrapped_by = &ce->second.cls;
          t.wrapped_printed = ce->second.printed;
          break;
        }
      }
    }
    return t;
  }

  double TextPoints(const TextEvidence& t, std::vector<std::string>& why) const {
    if (t.tmpl.literal_bytes == 0) {
      why.push_back("the site's message is built at run time or by the exception class: no literal text to compare");
      return 0;
    }
    if (message_.empty()) return 0;
    const Alignment& text = t.text;
    double cov = text.coverage();
    double explained = std::min(1.0, static_cast<double>(text.matched_literal_bytes) /
                                         static_cast<double>(std::max<size_t>(message_.size(), 1)));
    if (t.by_class && t.by_class->printed) {
      why.push_back(HandlerPrintedWhy(*t.by_class->printed, t.by_class->cls.qualified_name));
    } else if (t.by_class) {
      why.push_back(fmt::format("the message is the text class {} renders ({} in {}:{}){}",
                                t.by_class->cls.qualified_name, t.by_class->cls.message_from, t.by_class->cls.path,
                                t.by_class->cls.line,
                                text.complete ? "" : fmt::format(", {} of it found", Percent(text.coverage()))));
    } else if (t.wrapped_by && t.wrapped_printed) {
      why.push_back("the message is this template inside the text a handler prints: " +
                    HandlerPrintedWhy(*t.wrapped_printed, t.wrapped_by->qualified_name));
    } else if (t.wrapped_by) {
      why.push_back(fmt::format("the message is this template inside the text class {} renders ({} in {}:{})",
                                t.wrapped_by->qualified_name, t.wrapped_by->message_from, t.wrapped_by->path,
                                t.wrapped_by->line));
    } else if (!t.alternative.empty() && text.complete) {
      why.push_back(fmt::format("the site chooses its message among {} texts; the message is this one{}: {}",
                                t.alternatives + 1, t.unquoted ? ", quoted" : "", t.alternative));
    } else if (t.unquoted) {
      why.push_back("the message is this template, quoted: the exception prints its argument's repr (a KeyError)");
    } else if (text.complete) {
      why.push_back(text.whole ? "the message is this template, every literal piece in order"
                               : "every literal piece of the template is in the message, in order (the message has "
                                 "more text around it)");
    } else if (text.matched_literal_bytes > 0 && !t.alternative.empty()) {
      why.push_back(
          fmt::format("{} of the literal text of {} is in the message (one of {} texts the site chooses "
                      "among)",
                      Percent(cov), t.alternative, t.alternatives + 1));
    } else if (text.matched_literal_bytes > 0) {
      why.push_back(fmt::format("{} of the template's literal text is in the message", Percent(cov)));
    }
    return 55 * cov + (text.complete ? 10 : 0) + (text.whole ? 5 : 0) + 20 * explained +
           (text.complete ? std::min(5.0, static_cast<double>(t.tmpl.literal_bytes) / 10.0) : 0);
  }

  double TypePoints(TypeAgreement agreement, bool wrapped, const std::string& site_type,
                    std::vector<std::string>& why) const {
    switch (agreement) {
      case TypeAgreement::kSame:
        why.push_back(fmt::format("type {} agrees", exception_.type));
        return 15;
      case TypeAgreement::kRelated:
        why.push_back(wrapped ? fmt::format("the message shows the site's type {} inside {}", LastComponent(site_type),
                                            exception_.type)
                              : fmt::format("type {} is related to the site's {}", exception_.type, site_type));
        return 7;
      case TypeAgreement::kDifferent:
        why.push_back(fmt::format("type differs: the paste shows {}, the site raises {}", exception_.type, site_type));
        return -15;
      case TypeAgreement::kUnknown:
        break;
    }
    return 0;
  }

  // The best site of an error: frames decide, else the latest revision (SitesOfError lists it first).
  struct SitePick {
    size_t best = 0;
    FrameEvidence frames;
    // When nothing in the traceback picks a site: the other twins of the pick's revision, in the order
    // BetterTwin gives, each listed as a result after the pick (library sites only when the pick is one).
    std::vector<size_t> twins;
    std::vector<std::string> site_lines;  // the lines of `why` about the pick's site (SiteLines), for its twins
  };
  // Twins that nothing pins: the one a call shown in the paste reaches, the one in the module defining the
  // pasted class, then the one reached most directly from the public API (match/twin_order.h).
  bool BetterTwin(const SiteRow& a, const SiteRow& b) const {
    const bool a_called = !ReachedThrough(a, called_).empty(), b_called = !ReachedThrough(b, called_).empty();
    if (a_called != b_called) return a_called;
    const bool a_home = InModuleOfPastedType(a, exception_.type), b_home = InModuleOfPastedType(b, exception_.type);
    if (a_home != b_home) return a_home;
    return MoreDirectlyReached(a, b);
  }

  SitePick PickSite(const std::vector<SiteRow>& sites, std::vector<std::string>& why) const {
    SitePick pick;
    for (size_t i = 0; i < sites.size(); ++i) {
      FrameEvidence e = JudgeFrames(exception_.frames, sites[i]);
      int points = e.points - (OutsideLibrary(sites[i]) ? kTestPenalty : 0);
      int best_points = pick.frames.points - (OutsideLibrary(sites[pick.best]) ? kTestPenalty : 0);
      // Equal evidence: the site nearest the frame's line (versions shift lines a little); twins of one
      // revision that nothing pins: the one reached most directly from the public API.
      const bool same_revision = sites[i].revision_id == sites[pick.best].revision_id;
      if (points > best_points ||
          (points == best_points && e.pinned && pick.frames.pinned && e.line_distance < pick.frames.line_distance) ||
          (points == best_points && !e.pinned && !pick.frames.pinned && same_revision &&
           BetterTwin(sites[i], sites[pick.best]))) {
        pick.best = i;
        pick.frames = e;
      }
    }
    const SiteRow& site = sites[pick.best];
    pick.site_lines = SiteLines(site);
    if (!pick.frames.why.empty()) pick.site_lines.insert(pick.site_lines.begin() + 1, pick.frames.why);
    std::vector<const SiteRow*> twins;
    for (const SiteRow& s : sites) {
      if (s.revision_id == site.revision_id) twins.push_back(&s);
    }
    if (twins.size() > 1 && pick.frames.points <= 0) {
      for (size_t i = 0; i < sites.size(); ++i) {
        if (i != pick.best && sites[i].revision_id == site.revision_id &&
            OutsideLibrary(sites[i]) == OutsideLibrary(site) &&
            IsVendoredPath(sites[i].path) == IsVendoredPath(site.path)) {
          pick.twins.push_back(i);
        }
      }
      std::stable_sort(pick.twins.begin(), pick.twins.end(),
                       [&](size_t a, size_t b) { return BetterTwin(sites[a], sites[b]); });
    }
    if (twins.size() > 1) {
      std::string list;
      for (size_t i = 0; i < twins.size() && i < 5; ++i) {
        list += fmt::format("{}{}:{}", i ? ", " : "", twins[i]->path, twins[i]->line);
      }
      if (twins.size() > 5) list += ", …";
      std::string choice = "; showing the first";
      const bool home = InModuleOfPastedType(site, exception_.type);
      const std::string called = ReachedThrough(site, called_);
      if (pick.frames.points > 0) {
        choice = "; the traceback picked this one";
      } else if (!called.empty() && std::any_of(twins.begin(), twins.end(), [&](const SiteRow* s) {
                   return ReachedThrough(*s, called_).empty();
                 })) {
        choice = fmt::format("; the paste calls {}, which reaches this one", called);
      } else if (home && std::any_of(twins.begin(), twins.end(),
                                     [&](const SiteRow* s) { return !InModuleOfPastedType(*s, exception_.type); })) {
        choice = fmt::format("; nothing else in the paste picks one: showing the one in the module that defines {}",
                             exception_.type);
      } else if (std::any_of(twins.begin(), twins.end(),
                             [&](const SiteRow* s) { return s->reach_calls.has_value(); })) {
        choice = fmt::format(
            "; nothing in the paste picks one: showing the one most directly reached from the public "
            "API ({})",
            DescribeReach(site));
      }
      pick.site_lines.push_back(
          fmt::format("the same message is raised at {} places in this revision ({}){}", twins.size(), list, choice));
    }
    for (std::string& line : pick.site_lines) {
      if (!line.empty()) why.push_back(line);
    }
    return pick;
  }

  // What `why` says of a site itself: the helper raising a message written elsewhere (or ""), then whether
  // it is in test code or an example.
  static std::vector<std::string> SiteLines(const SiteRow& site) {
    std::vector<std::string> lines(1);
    if (site.via && !IssuedAtWarnCall(site)) {
      lines[0] = fmt::format("the message is written at {} and raised by the helper {}", *site.via, site.function);
    }
    if (site.is_test) {
      lines.push_back("the site is in test code");
    } else if (IsExampleOrScriptPath(site.path)) {
      lines.push_back("the site is in a documentation example or script, not in the library");
    }
    return lines;
  }

  // The twins of the pick as results of their own, right after it (docs/matching.md, "Twins"): the same
  // evidence, so the same tier, a hair fewer points each; `why` names the result shown first.
  void AddTwins(const Candidate& first, const std::vector<SiteRow>& sites, const SitePick& pick,
                std::vector<Candidate>& out) const {
    constexpr double kTwinStep = 0.01;
    for (size_t k = 0; k < pick.twins.size() && k < kMaxTwinResults; ++k) {
      const SiteRow& twin = sites[pick.twins[k]];
      Candidate c = first;
      c.points -= kTwinStep * static_cast<double>(k + 1);
      c.match.site = twin;
      std::vector<std::string> lines = SiteLines(twin);
      lines.push_back(fmt::format(
          "a twin of {}:{} (shown above): the same message is raised here too and nothing in the paste picks "
          "one of them{}",
          sites[pick.best].path, sites[pick.best].line,
          DescribeReach(twin).empty() ? std::string() : fmt::format(" (this one is {})", DescribeReach(twin))));
      if (std::optional<WarnCall> call = IssuedAtWarnCall(twin)) {
        c.match.site = std::move(call->site);
        lines.push_back(std::move(call->why));
      }
      std::vector<std::string> why;
      bool placed = false;
      for (const std::string& line : first.match.why) {
        if (std::find(pick.site_lines.begin(), pick.site_lines.end(), line) != pick.site_lines.end()) {
          if (!placed) {
            for (std::string& l : lines) {
              if (!l.empty()) why.push_back(std::move(l));
            }
          }
          placed = true;
        } else {
          why.push_back(line);
        }
      }
      c.match.why = std::move(why);
      out.push_back(std::move(c));
    }
  }

  // The tier and kind (docs/matching.md, "tiers"), from the evidence gathered.
  void Classify(Candidate& c, const TextEvidence& t, TypeAgreement agreement, bool wrapped, bool builtin_site_type,
                const FrameEvidence& frames, double text_points, bool outside_library,
                std::vector<std::string>& why) const {
    const Alignment& text = t.text;
    const bool contradicted = agreement == TypeAgreement::kDifferent;
    // A related builtin (`Exception` for a pasted RuntimeError) says nearly nothing; a repository's base
    // class (APIError for a pasted NotFound) does.
    const bool type_agrees =
        !wrapped && (agreement == TypeAgreement::kSame || (agreement == TypeAgreement::kRelated && !builtin_site_type));
    const double explained =
        static_cast<double>(text.matched_literal_bytes) / static_cast<double>(std::max<size_t>(message_.size(), 1));
    auto closest = [&] {
      c.tier = 0;
      c.match.kind = ExplainMatch::Kind::kClosest;
      why.insert(why.begin(), "not a match: the closest candidate");
    };
    if (t.by_class) {
      // The text names the class, not the site: as strong as a site's own text when the type or the
      // traceback agree, below it otherwise; never when the type points at another class.
      if (contradicted || !(text.complete || text.coverage() >= 0.8)) return closest();
      // What a handler prints for the class is no message of a pasted type: its whole text is the evidence.
      const bool printed = t.by_class->printed.has_value() && text.complete;
      c.tier = agreement == TypeAgreement::kSame || frames.pinned || printed ? 3 : 2;
      c.match.kind = ExplainMatch::Kind::kClassMessage;
    } else if (text.complete && (t.tmpl.literal_bytes >= kMinExactLiteralBytes || text.whole)) {
      c.match.kind = ExplainMatch::Kind::kExact;
      c.tier = contradicted ? 2 : 3;  // the text is there, but the paste may show another class
      if (!text.whole && agreement == TypeAgreement::kRelated && !wrapped && builtin_site_type &&
          BuiltinExceptionBase(LastComponent(exception_.type)) == nullptr) {
        // `raise ValueError("Empty value is invalid")` cannot print a library's subclass of ValueError: a
        // longer message of that class holds this text because the library wraps it
        // (`raise TomlDecodeError(str(err), ...)`); the wrapping site explains the whole message.
        c.tier = 2;
        why.insert(why.begin(), fmt::format("weaker: the site raises a builtin class itself; the pasted {} around "
                                            "this text is probably raised where the library wraps it",
                                            exception_.type));
      }
      if (text.whole && agreement == TypeAgreement::kUnknown && !frames.pinned &&
          t.tmpl.literal_bytes < kWeakLiteralBytes && explained < 0.5) {
        // No type and no frame, and a placeholder holds most of the message (`{name} not found` for
        // "fixture 'mocker' not found"): a class's text that accounts for more of it may be what was printed.
        c.tier = 2;
        why.insert(why.begin(), "weak: the template's few literal bytes leave most of the message to a placeholder");
      }
      if (!text.whole && t.tmpl.literal_bytes < kWeakLiteralBytes && explained < 0.4 && !frames.exact_line) {
        // A few words found inside a longer message ("timed out", "root") are noise unless the type or
        // a frame agrees. (The innermost frame at this very line of the installed file says more than any
        // text: PyYAML's `raise ReaderError(self.name, position, ord(character), 'unicode', "...")`, whose
        // class renders the message around the literal, keeps its tier then.)
        if (!type_agrees && !frames.pinned) return closest();
        c.tier = 1;
        c.points -= text_points / 2;
        why.insert(why.begin(), "weak: the template's text is a small part of the message");
      }
    } else if (frames.pinned && !contradicted &&
               (t.tmpl.literal_bytes == 0 || message_.empty() || text.coverage() >= 0.3)) {
      c.tier = frames.exact_line ? 3 : 2;  // an installed file at its version: the line is exact
      c.match.kind = ExplainMatch::Kind::kPinnedByFrame;
    } else if (agreement == TypeAgreement::kSame && t.first_line) {
      c.tier = 2;
      c.match.kind = ExplainMatch::Kind::kApproximate;
      c.points += 20;
      why.insert(why.begin(), fmt::format("approximate: type {} agrees and the message is the first line of this "
                                          "multi-line template",
                                          exception_.type));
    } else if (type_agrees && (t.tmpl.literal_bytes < kMinExactLiteralBytes || message_.empty())) {
      // No literal text decides, but the site raises the pasted class (or a base of it) with a message
      // built at run time.
      c.tier = agreement == TypeAgreement::kSame ? 2 : 1;
      c.match.kind = ExplainMatch::Kind::kByType;
      why.insert(why.begin(), "by type: the site raises the pasted class with a message built at run time");
    } else if (double similar = std::max(SharedWordShare(t.tmpl, message_), MessageCoverage(t.tmpl, message_));
               !contradicted && !outside_library && t.tmpl.literal_bytes >= kSimilarLiteralBytes && similar >= 0.6) {
      // Most of the words: a reworded, shortened or re-assembled message; as strong as a match by
      // traceback when the class is the same.
      c.tier = agreement == TypeAgreement::kSame ? 2 : 1;
      c.match.kind = ExplainMatch::Kind::kApproximate;
      c.points += 20 * similar;
      why.insert(why.begin(),
                 fmt::format("approximate (similar): {} of the words are shared (reworded?){}", Percent(similar),
                             agreement == TypeAgreement::kSame ? fmt::format(", type {} agrees", exception_.type)
                                                               : std::string()));
    } else if (!contradicted && text.matched_literal_bytes >= 8 &&
               ApproximatelyTheSame(text.coverage(), MessageCoverage(t.tmpl, message_))) {
      c.tier = 1;
      c.match.kind = ExplainMatch::Kind::kApproximate;
      why.insert(why.begin(), "approximate: the wording differs from the template (another version of the code?)");
    } else if (agreement == TypeAgreement::kSame && !builtin_site_type && !outside_library && frames.innermost_file) {
      // The wording changed, but the paste's own class (a library's, not a builtin shared by thousands of
      // sites) is raised here, in the file the traceback ends in.
      c.tier = 1;
      c.match.kind = ExplainMatch::Kind::kApproximate;
      why.insert(why.begin(), fmt::format("approximate: the site raises {} in the file the traceback ends in; the "
                                          "wording differs (another version of the code?)",
                                          exception_.type));
    } else if (LooseSimilarity loose = CompareLoosely(t.tmpl, message_);
               type_agrees && !outside_library && loose.shared_words >= kLooseSharedWords &&
               loose.shared_bytes >= kLooseSharedBytes &&
               std::max(loose.message_share, loose.template_share) >= kLooseShare) {
      // Reworded: the same class, and most words of the message or of the template are the other's once case
      // and endings are ignored ("Only http proxies are supported", "aiohttp only supports http(s) proxies").
      const double share = std::max(loose.message_share, loose.template_share);
      // A library's own class is as strong as a match by traceback; a builtin one, raised everywhere, is weak.
      c.tier = agreement == TypeAgreement::kSame && !builtin_site_type ? 2 : 1;
      c.match.kind = ExplainMatch::Kind::kApproximate;
      c.points += 20 * share;
      why.insert(why.begin(), fmt::format("approximate (similar words, {}): {} of the message's words and {} of the "
                                          "template's are the other's, ignoring case and endings; type {} agrees",
                                          Percent(share), Percent(loose.message_share), Percent(loose.template_share),
                                          exception_.type));
    } else {
      return closest();
    }
    if (outside_library && c.tier > 1 && !text.whole) {
      // Users meet a library's errors in its code, not in its test suite: a test's text found inside a
      // longer message is weaker evidence than the library's own.
      c.tier = 1;
    }
  }

  // Sites of one error share its template, not always the texts they can render: of SITES, keep those whose
  // list TEXTS_OF (SiteRow::message_alternatives, or class_texts where an empty list allows any) holds TEXT,
  // when any does. `raise UsageError(msg.format(arg=arg))` and `raise UsageError(*errors)` are both `{}`;
  // `DuplicateSectionError(section)` cannot render "While reading from ...".
  template <typename TextsOf>
  static void KeepSitesRendering(const std::string& text, TextsOf texts_of, bool empty_allows_any,
                                 std::vector<SiteRow>& sites) {
    auto renders = [&](const SiteRow& s) {
      const std::vector<std::string>& texts = texts_of(s);
      if (texts.empty()) return empty_allows_any;
      return std::find(texts.begin(), texts.end(), text) != texts.end();
    };
    if (std::any_of(sites.begin(), sites.end(), renders))
      std::erase_if(sites, [&](const SiteRow& s) { return !renders(s); });
  }

  // The error's candidate, then its unpicked twins (AddTwins), appended to OUT.

  void Judge(const std::string& id, std::vector<Candidate>& out) {
    std::optional<ErrorRow> error = catalog_.FindError(id);
    if (!error) return;
    std::vector<SiteRow> sites = catalog_.SitesOfError(id);
    if (sites.empty()) return;
    // Type: the same for every site of an error (it is part of the error's identity).
    TypeAgreement agreement = CompareTypes(catalog_, exception_.type, sites.front());
    std::string site_type = sites.front().type_qualified.value_or(sites.front().type.value_or(""));
    bool wrapped = false;
    if (agreement == TypeAgreement::kDifferent && !site_type.empty() &&
        NamesClass(message_, LastComponent(site_type))) {
      // `ClientPayloadError: ... <ContentLengthError: 400, message='...'>`: the site's error, wrapped.
      agreement = TypeAgreement::kRelated;
      wrapped = true;
    }
    TextEvidence t = ReadText(id, *error, sites, agreement);
    // The text matched picks the sites that render it.
    if (t.by_class) {
      KeepSitesRendering(
          t.by_class->cls.message, [](const SiteRow& s) -> const auto& { return s.class_texts; }, true, sites);
    }
    if (!t.alternative.empty()) {
      KeepSitesRendering(
          t.alternative, [](const SiteRow& s) -> const auto& { return s.message_alternatives; }, false, sites);
    }
    std::vector<std::string> why;
    const double text_points = TextPoints(t, why);
    const double type_points = TypePoints(agreement, wrapped, site_type, why);
    SitePick pick = PickSite(sites, why);
    const SiteRow& site = sites[pick.best];

    Candidate c;
    c.cause_in_message = wrapped;
    c.points = text_points + type_points + pick.frames.points - (OutsideLibrary(site) ? kTestPenalty : 0) -
               (IsVendoredPath(site.path) ? kVendoredPenalty : 0);
    // A class's message fits every site raising the class; a site's own text fits that site only.
    if (t.by_class) c.points -= kClassMessagePenalty;
    const bool builtin_site_type = site_type.rfind("builtins.", 0) == 0 || site_type.find('.') == std::string::npos;
    Classify(c, t, agreement, wrapped, builtin_site_type, pick.frames, text_points, OutsideLibrary(site), why);
    c.match.error_id = id;
    c.match.type = site_type;
    c.match.template_text = t.by_class ? t.by_class->cls.message : error->template_text.value_or("");
    c.match.score = std::round(std::clamp(c.points / kMaxPoints, 0.0, 1.0) * 1000) / 1000;
    c.match.bindings = t.text.bindings;
    if (!t.by_class) c.match.matched_alternative = t.alternative;
    c.match.site = site;
    if (std::optional<WarnCall> call = IssuedAtWarnCall(site)) {
      c.match.site = std::move(call->site);
      pick.site_lines.push_back(call->why);
      why.push_back(std::move(call->why));
    }
    c.match.why = std::move(why);
    std::vector<Candidate> twins;
    if (c.tier > 0 && !pick.twins.empty()) {  // a closest candidate's twins are no nearer
      // Say on the twins' line that they follow (the line stays one of the pick's site lines).
      const size_t listed = std::min(pick.twins.size(), kMaxTwinResults);
      const std::string follow =
          listed == 1 ? "; the other follows as a result" : fmt::format("; {} others follow as results", listed);
      for (std::string& line : c.match.why) {
        if (!line.starts_with("the same message is raised at ")) continue;
        std::replace(pick.site_lines.begin(), pick.site_lines.end(), line, line + follow);
        line += follow;
      }
      AddTwins(c, sites, pick, twins);
    }
    out.push_back(std::move(c));
    for (Candidate& twin : twins) out.push_back(std::move(twin));
  }

  static constexpr size_t kMinExactLiteralBytes = 4;
  static constexpr size_t kWeakLiteralBytes = 12;
  static constexpr size_t kFirstLineLiteralBytes = 8;
  static constexpr size_t kLooseSharedWords = 3;
  static constexpr size_t kLooseSharedBytes = 15;
  static constexpr double kLooseShare = 0.6;
  static constexpr size_t kSimilarLiteralBytes = 20;  // "Wrong exit code." shares too little to be reworded
  static constexpr size_t kMaxTwinResults = 4;        // twins listed as results of their own (AddTwins)
  Catalog& catalog_;
  const ErrorMatcher& matcher_;
  const PastedException& exception_;
  std::string message_;
  std::vector<std::string> called_;                      // the names the paste's code lines call (match/twin_order.h)
  std::map<std::string, ClassEvidence> class_evidence_;  // by error id
  std::optional<ClassEvidence> pasted_class_evidence_;   // the message of the class the paste names
  ClassesByRepo& classes_by_repo_;                       // read once per repository and `explain`
};

// Errors with the same normalized template among the results: say so on each (not of twins of one error).
void NoteTwins(std::vector<ExplainMatch>& matches) {
  std::map<std::string, std::vector<size_t>> by_template;
  for (size_t i = 0; i < matches.size(); ++i) {
    if (!matches[i].template_text.empty()) by_template[NormalizeTemplate(matches[i].template_text)].push_back(i);
  }
  for (auto& [normalized, group] : by_template) {
    if (group.size() < 2) continue;
    for (size_t i : group) {
      // Results of other errors: a twin of the same error says so itself (AddTwins).
      const auto others = std::count_if(group.begin(), group.end(),
                                        [&](size_t j) { return matches[j].error_id != matches[i].error_id; });
      if (others == 0) continue;
      matches[i].why.push_back(fmt::format("{} other result{} the same message; type and frames tell them apart",
                                           others, others == 1 ? " has" : "s have"));
    }
  }
}

// A traceback through test code (`tests/test_x.py`, `foo_test.py`, `testing/...`): its errors may be
// raised by test code too.
bool FromTestRun(const PastedException& exception) {
  for (const TracebackFrame& f : exception.frames) {
    for (std::string_view part : PathComponents(f.path)) {
      if (part == "tests" || part == "testing" || part.rfind("test_", 0) == 0 ||
          (part.size() > 8 && part.substr(part.size() - 8) == "_test.py")) {
        return true;
      }
    }
  }
  return false;
}

// Candidates against the library the paste points at (docs/matching.md, "Where the paste points"):
// those of other repositories lose points; when the catalog does not provide it, only a site's own
// complete text remains a match, and NOTE says so.
void WeighOrigin(const PasteOrigin& origin, std::vector<Candidate>& candidates, std::string* note) {
  if (origin.module.empty()) return;
  if (origin.repository.empty()) {
    *note = fmt::format("the paste points at module {}, which no repository of the catalog provides", origin.module);
    for (Candidate& c : candidates) {
      if (c.tier >= 3 || c.tier == 0) continue;
      c.tier = 0;
      c.match.kind = ExplainMatch::Kind::kClosest;
      c.match.why.insert(c.match.why.begin(),
                         fmt::format("not a match: the paste comes from {}, not indexed", origin.module));
    }
    return;
  }
  for (Candidate& c : candidates) {
    if (c.match.site.repo == origin.repository) {
      c.match.why.push_back(fmt::format("the paste points at {} (module {})", origin.repository, origin.module));
    } else {
      c.points -= kOtherRepositoryPenalty;
      c.match.why.push_back(fmt::format("the paste points at {} (module {}), not at this site's repository",
                                        origin.repository, origin.module));
    }
  }
}

// Best first: by tier; at equal tier the pasted class's own sites before a cause printed in the message,
// library sites before test-code sites (unless the paste comes from a test run), then by points.
void SortCandidates(bool test_run, std::vector<Candidate>& candidates) {
  std::sort(candidates.begin(), candidates.end(), [&](const Candidate& a, const Candidate& b) {
    if (a.tier != b.tier) return a.tier > b.tier;
    if (a.cause_in_message != b.cause_in_message) return b.cause_in_message;
    if (!test_run && a.match.site.is_test != b.match.site.is_test) return b.match.site.is_test;
    const bool a_example = IsExampleOrScriptPath(a.match.site.path),
               b_example = IsExampleOrScriptPath(b.match.site.path);
    if (a_example != b_example) return b_example;
    if (a.points != b.points) return a.points > b.points;
    if (MoreDirectlyReached(a.match.site, b.match.site)) return true;  // twins across errors
    if (MoreDirectlyReached(b.match.site, a.match.site)) return false;
    return a.match.error_id < b.match.error_id;
  });
}

// True when the best candidate already matches strongly by its own text: not through a cause printed in the
// message, nor through a class's message (which may be the wrapped exception's, rendered by a copy).
bool StrongOwnMatch(const std::vector<Candidate>& candidates) {
  return !candidates.empty() && candidates.front().tier >= 3 && !candidates.front().cause_in_message &&
         candidates.front().match.kind != ExplainMatch::Kind::kClassMessage;
}

// The pasted exception's answer when its text was written by a library it wraps (match/wrapped_chain.h):
// the wrapping site first, the inner origin as the next link of the chain.
void AnswerWrappedChain(Catalog& catalog, const ErrorMatcher& matcher, const PastedException& exception,
                        ClassesByRepo& classes_by_repo, Explanation* out) {
  const JudgeException judge = [&](const PastedException& inner) {
    std::vector<Candidate> judged = OneException(catalog, matcher, inner, classes_by_repo).Run();
    SortCandidates(false, judged);
    std::vector<JudgedMatch> ranked;
    for (Candidate& c : judged) ranked.push_back({std::move(c.match), c.tier});
    return ranked;
  };
  std::optional<WrappedChain> chain =
      FindWrappedChain(catalog, exception, OriginOfPaste(catalog, exception).repository, judge);
  if (!chain) return;
  const std::string outer_id = chain->outer.error_id;
  std::erase_if(out->matches, [&](const ExplainMatch& m) { return m.error_id == outer_id; });
  out->matches.insert(out->matches.begin(), std::move(chain->outer));
  out->closest.clear();
  std::erase_if(out->chain, [&](const ExplainMatch& m) { return m.error_id == chain->inner.error_id; });
  out->chain.insert(out->chain.begin(), std::move(chain->inner));
}

}  // namespace

Explanation Explainer::Explain(std::string_view paste, int top) {
  Explanation out;
  PastedError parsed = ParsePastedError(paste);
  if (parsed.exceptions.empty()) return out;  // a blank paste
  for (PastedException& exception : parsed.exceptions) {
    // Only a paste lower-cased whole: `socket.timeout` printed by Python is not requests' `Timeout`.
    if (exception.lowercased) exception.type = RestoreTypeCase(catalog_, exception.type);
  }
  out.input_kind = parsed.input_kind;
  top = std::max(top, 1);
  ClassesByRepo classes_by_repo;
  // Every link of a chain, outermost (printed last) first, each judged on its own and against the library
  // it points at.
  struct Link {
    size_t index;
    std::vector<Candidate> candidates;
    std::string note;
  };
  std::vector<Link> links;
  for (size_t back = 0; back < parsed.exceptions.size() && back < kMaxChainLinks; ++back) {
    Link link{parsed.exceptions.size() - 1 - back, {}, {}};
    const PastedException& exception = parsed.exceptions[link.index];
    link.candidates = OneException(catalog_, matcher_, exception, classes_by_repo).Run();
    WeighOrigin(OriginOfPaste(catalog_, exception), link.candidates, &link.note);
    SortCandidates(FromTestRun(exception), link.candidates);
    links.push_back(std::move(link));
  }
  // A report around an embedded traceback (its message is the whole report) counts only when a site's text
  // accounts for it completely: anything less is the wrapped error's text found inside it.
  auto matched = [&parsed](const Link& l) {
    const int needed = parsed.exceptions[l.index].embeds_traceback ? 3 : 1;
    return !l.candidates.empty() && l.candidates.front().tier >= needed;
  };
  // The answer: the outermost link that an indexed repository raises; the other matched links: the chain.
  size_t answer = 0;
  while (answer < links.size() && !matched(links[answer])) ++answer;
  if (answer == links.size()) {
    answer = 0;
    while (answer + 1 < links.size() && parsed.exceptions[links[answer].index].embeds_traceback) ++answer;
  }
  for (size_t k = 0; k < links.size(); ++k) {
    if (k != answer && matched(links[k])) out.chain.push_back(std::move(links[k].candidates.front().match));
  }
  Link& chosen = links[answer];
  const PastedException& exception = parsed.exceptions[chosen.index];
  out.type = exception.type;
  out.message = exception.message;
  out.route = UserCodeRoute(exception.frames);
  out.note = chosen.note;
  const bool strong_own_match = StrongOwnMatch(chosen.candidates);
  for (Candidate& c : chosen.candidates) {
    if (c.tier > 0 && out.matches.size() < static_cast<size_t>(top)) out.matches.push_back(std::move(c.match));
  }
  if (out.matches.empty()) {
    for (Candidate& c : chosen.candidates) {
      if (out.closest.size() >= static_cast<size_t>(std::min(top, 3))) break;
      out.closest.push_back(std::move(c.match));
    }
  }
  if (!strong_own_match) AnswerWrappedChain(catalog_, matcher_, exception, classes_by_repo, &out);
  if (out.matches.size() > static_cast<size_t>(top)) out.matches.resize(static_cast<size_t>(top));
  NoteTwins(out.matches);
  ApplyVersionStep(catalog_, exception.frames, &out);
  // The way the user's program reached the library the first answer is in.
  if (!out.route.empty() && !out.matches.empty()) out.matches.front().why.push_back(out.route);
  return out;
}

}  // namespace errdex
