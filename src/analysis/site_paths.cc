#include "analysis/site_paths.h"

#include <charconv>

namespace errdex {

std::optional<ViaCall> ParseVia(const std::string& via) {
  // A function's name has no space; a path may.
  const size_t in = via.rfind(" in ");
  if (in == std::string::npos) return std::nullopt;
  const size_t colon = via.rfind(':', in);
  if (colon == std::string::npos || colon == 0) return std::nullopt;
  ViaCall out;
  const char* first = via.data() + colon + 1;
  const char* last = via.data() + in;
  auto [end, error] = std::from_chars(first, last, out.line);
  if (error != std::errc() || end != last || out.line <= 0) return std::nullopt;
  out.path = via.substr(0, colon);
  out.function = via.substr(in + 4);
  if (out.function.empty()) return std::nullopt;
  return out;
}

int SitePaths::RaisedOf(const SiteRow& row) const {
  // The row's own type: a helper raising the class its caller passes raises the caller's.
  return triggers_->RaisedType(row.type_qualified.value_or(""), row.kind);
}

const GraphTriggers::Supplied* SitePaths::SuppliedOf(const SiteRow& row, const Site* facts_site) {
  if (!row.via || triggers_ == nullptr) return nullptr;
  auto [it, inserted] = supplied_.try_emplace(&row);
  if (inserted) {
    const std::optional<ViaCall> via = ParseVia(*row.via);
    if (via) {
      const GraphTriggers::NodeId caller = triggers_->NodeOf(via->path, via->function, via->line);
      const GraphTriggers::NodeId raise = triggers_->NodeOf(row.path, row.function, row.line);
      it->second = triggers_->SuppliedBy(caller, via->line, raise, facts_site, RaisedOf(row));
    }
  }
  return it->second ? &*it->second : nullptr;
}

const std::vector<CallPath>& SitePaths::Paths(const SiteRow& row, const Site* facts_site, int max_depth,
                                              size_t max_paths) {
  if (triggers_ != nullptr) {
    if (const GraphTriggers::Supplied* supplied = SuppliedOf(row, facts_site); supplied != nullptr) {
      return triggers_->PathsTo(*supplied, RaisedOf(row), max_depth, max_paths);
    }
    const GraphTriggers::NodeId node = triggers_->NodeOf(row.path, row.function, row.line);
    return facts_site != nullptr ? triggers_->PathsTo(node, *facts_site, max_depth, max_paths)
                                 : triggers_->PathsTo(node, max_depth, max_paths);
  }
  const std::optional<ViaCall> via = row.via ? ParseVia(*row.via) : std::nullopt;
  if (!via) return finder_.Find(row.path, row.function, max_depth, max_paths);
  // The code model's search from the supplying function, which is cited as calling the raising function.
  std::vector<CallPath>& out = via_paths_;
  out = finder_.Find(via->path, via->function, max_depth - 1, max_paths);
  std::string code;
  if (const CodeModel::File* file = model_.FileAt(via->path); file != nullptr && file->facts != nullptr) {
    for (const CallFact& c : file->facts->calls) {
      if (c.line == via->line) {
        code = c.code;
        break;
      }
    }
  }
  for (CallPath& p : out) {
    p.frames.back().line = via->line;
    p.frames.back().code = code;
    p.frames.push_back(CallFrame{row.path, 0, row.function, ""});
  }
  return out;
}

int SitePaths::PublicReachers(const SiteRow& row, const Site* facts_site, int max_depth, size_t max_count,
                              std::vector<GraphTriggers::NodeId>* reachers) {
  if (triggers_ == nullptr) return 0;
  if (const GraphTriggers::Supplied* supplied = SuppliedOf(row, facts_site); supplied != nullptr) {
    return triggers_->PublicReachers(*supplied, RaisedOf(row), max_depth, max_count, reachers);
  }
  const GraphTriggers::NodeId node = triggers_->NodeOf(row.path, row.function, row.line);
  return triggers_->PublicReachers(node, facts_site, max_depth, max_count, reachers);
}

SitePaths::Target SitePaths::TestTarget(const SiteRow& row) {
  if (triggers_ == nullptr) return {};
  if (const GraphTriggers::Supplied* supplied = SuppliedOf(row, nullptr); supplied != nullptr) {
    if (!supplied->reaches) return {};
    return {supplied->caller, supplied->calls()};
  }
  return {triggers_->NodeOf(row.path, row.function, row.line), 0};
}

}  // namespace errdex
