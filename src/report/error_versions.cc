#include "report/error_versions.h"

#include <algorithm>
#include <map>
#include <set>

#include "catalog/version_store.h"

namespace errdex {

namespace {

struct Ordered {
  std::vector<VersionedRevision> revisions;
  std::map<int64_t, size_t> position;
};

// Positions (in ORDERED) of the revisions raising ID, ascending.
std::vector<size_t> PositionsOf(Catalog& catalog, const Ordered& ordered, const std::string& id) {
  std::vector<size_t> out;
  for (int64_t revision : RevisionIdsOfError(catalog, id)) {
    auto it = ordered.position.find(revision);
    if (it != ordered.position.end()) out.push_back(it->second);
  }
  std::sort(out.begin(), out.end());
  return out;
}

nlohmann::json Ranges(const Ordered& ordered, const std::vector<size_t>& positions) {
  nlohmann::json out = nlohmann::json::array();
  for (size_t k = 0; k < positions.size();) {
    size_t end = k;
    while (end + 1 < positions.size() && positions[end + 1] == positions[end] + 1) ++end;
    out.push_back({{"from", ordered.revisions[positions[k]].label}, {"to", ordered.revisions[positions[end]].label}});
    k = end + 1;
  }
  return out;
}

// One entry of the line: error ID over POSITIONS, at its site in its last revision.
nlohmann::json LineEntry(Catalog& catalog, const Ordered& ordered, const std::string& id,
                         const std::vector<size_t>& positions, const std::string& changes) {
  nlohmann::json entry = {{"id", id}, {"changes", changes}};
  if (std::optional<ErrorRow> row = catalog.FindError(id)) {
    entry["type"] = row->type_qualified ? *row->type_qualified : row->type.value_or("");
    entry["template"] = row->template_text ? nlohmann::json(*row->template_text) : nlohmann::json();
  }
  if (!positions.empty()) {
    entry["from"] = ordered.revisions[positions.front()].label;
    entry["to"] = ordered.revisions[positions.back()].label;
    const int64_t last = ordered.revisions[positions.back()].id;
    for (const SiteRow& s : catalog.SitesOfError(id)) {
      if (s.revision_id != last || s.is_test) continue;
      entry["path"] = s.path;
      entry["line"] = s.line;
      entry["function"] = s.function;
      break;
    }
  }
  return entry;
}

}  // namespace

nlohmann::json ErrorVersionsJson(Catalog& catalog, const ErrorRow& error) {
  Ordered ordered;
  ordered.revisions = OrderedRevisions(catalog, error.repo);
  if (ordered.revisions.size() < 2) return nullptr;
  for (size_t k = 0; k < ordered.revisions.size(); ++k) ordered.position[ordered.revisions[k].id] = k;
  const std::vector<size_t> own = PositionsOf(catalog, ordered, error.id);
  if (own.empty()) return nullptr;
  // Backwards: the predecessors, each reached by the link into the first revision of the one after it.
  std::vector<nlohmann::json> earlier;
  std::set<std::string> seen = {error.id};
  std::string id = error.id;
  std::vector<size_t> positions = own;
  std::string own_changes;
  std::optional<std::string> since;
  for (size_t guard = 0; guard < ordered.revisions.size(); ++guard) {
    std::optional<LineageRow> row = LineageTo(catalog, id, ordered.revisions[positions.front()].id);
    if (!row) break;  // the oldest indexed revision, or not linked
    if (!row->from_error) {
      since = ordered.revisions[positions.front()].label;  // added there
      break;
    }
    if (!seen.insert(*row->from_error).second) break;
    if (earlier.empty()) own_changes = row->changes;
    if (!earlier.empty()) earlier.back()["changes"] = row->changes;
    id = *row->from_error;
    positions = PositionsOf(catalog, ordered, id);
    if (positions.empty()) break;
    earlier.push_back(LineEntry(catalog, ordered, id, positions, ""));
  }
  nlohmann::json line = nlohmann::json::array();
  for (auto it = earlier.rbegin(); it != earlier.rend(); ++it) line.push_back(*it);
  line.push_back(LineEntry(catalog, ordered, error.id, own, earlier.empty() ? "" : own_changes));
  // Forwards: the successors, and where the line ends.
  std::optional<std::string> removed_in;
  id = error.id;
  positions = own;
  for (size_t guard = 0; guard < ordered.revisions.size(); ++guard) {
    std::optional<LineageRow> row = LineageFrom(catalog, id, ordered.revisions[positions.back()].id);
    if (!row) break;  // the newest revision, or not linked
    if (!row->to_error) {
      removed_in = ordered.revisions[ordered.position.at(row->to_revision)].label;
      break;
    }
    if (!seen.insert(*row->to_error).second) break;
    id = *row->to_error;
    positions = PositionsOf(catalog, ordered, id);
    if (positions.empty()) break;
    line.push_back(LineEntry(catalog, ordered, id, positions, row->changes));
  }
  return {{"ranges", Ranges(ordered, own)},
          {"newest", ordered.revisions.back().label},
          {"in_newest", own.back() + 1 == ordered.revisions.size()},
          {"since", since ? nlohmann::json(*since) : nlohmann::json()},
          {"removed_in", removed_in ? nlohmann::json(*removed_in) : nlohmann::json()},
          {"line", std::move(line)}};
}

std::string ErrorVersionsText(const nlohmann::json& versions) {
  if (!versions.is_object()) return "";
  auto str = [](const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : std::string(); };
  std::string out = "Versions\n  in ";
  for (size_t k = 0; k < versions["ranges"].size(); ++k) {
    const nlohmann::json& r = versions["ranges"][k];
    out += (k ? ", " : "") + str(r["from"]) + (r["from"] == r["to"] ? "" : "–" + str(r["to"]));
  }
  out += versions["in_newest"].is_boolean() && versions["in_newest"].get<bool>() ? " (the newest indexed)" : "";
  if (versions["since"].is_string()) out += "; added in " + str(versions["since"]);
  if (versions["removed_in"].is_string()) out += "; removed in " + str(versions["removed_in"]);
  out += "\n";
  if (versions["line"].size() > 1) {
    for (const nlohmann::json& e : versions["line"]) {
      out += "  " + str(e["from"]) + (e["from"] == e["to"] ? "" : "–" + str(e["to"])) + ": \"" + str(e["template"]) +
             "\" at " + str(e["path"]) + ":" + (e["line"].is_number() ? std::to_string(e["line"].get<int>()) : "?");
      if (!str(e["changes"]).empty()) out += " (" + str(e["changes"]) + ")";
      out += "\n";
    }
  }
  return out + "\n";
}

}  // namespace errdex
