#include "report/version_diff.h"

#include <fmt/format.h>

#include <map>
#include <sstream>

#include "analysis/lineage_update.h"

namespace errdex {

namespace {

// Each error of a revision at its primary site: the first outside tests by path and line.
std::map<std::string, DiffSide> PrimarySides(Catalog& catalog, int64_t revision_id) {
  std::map<std::string, DiffSide> out;
  std::map<std::string, std::pair<std::string, int>> where;
  for (const SiteRow& s : SitesOfRevision(catalog, revision_id)) {
    if (s.is_test) continue;
    auto it = where.find(s.error_id);
    if (it != where.end() && it->second <= std::make_pair(s.path, s.line)) continue;
    where[s.error_id] = {s.path, s.line};
    out[s.error_id] = {s.error_id,
                       s.type_qualified ? *s.type_qualified : s.type.value_or(""),
                       s.template_text.value_or(""),
                       s.path,
                       s.function,
                       s.line};
  }
  return out;
}

std::vector<std::string> SplitChanges(const std::string& changes) {
  std::vector<std::string> out;
  std::stringstream in(changes);
  for (std::string part; std::getline(in, part, ',');) {
    if (!part.empty()) out.push_back(part);
  }
  return out;
}

bool ResolveRepo(Catalog& catalog, const std::string& asked, std::string* repo, std::string* error) {
  if (!asked.empty()) {
    *repo = asked;
    return true;
  }
  std::vector<std::string> names;
  for (const RevisionRow& r : catalog.Revisions()) {
    if (names.empty() || names.back() != r.repo) names.push_back(r.repo);
  }
  if (names.size() != 1) {
    *error = names.empty() ? "the catalog is empty" : "the catalog holds several repositories: name one with --repo";
    return false;
  }
  *repo = names.front();
  return true;
}

nlohmann::json SideJson(const std::optional<DiffSide>& side) {
  if (!side) return nullptr;
  return {{"id", side->error_id},
          {"type", side->type.empty() ? nlohmann::json() : nlohmann::json(side->type)},
          {"template", side->template_text.empty() ? nlohmann::json() : nlohmann::json(side->template_text)},
          {"path", side->path},
          {"line", side->line},
          {"function", side->function}};
}

std::string SideText(const DiffSide& side) {
  return fmt::format("{}: {}  ({}:{} in {})", side.type.empty() ? "(no type)" : side.type,
                     side.template_text.empty() ? "(no message)" : side.template_text, side.path, side.line,
                     side.function);
}

}  // namespace

bool DiffRevisions(Catalog& catalog, const std::string& repo, const std::string& rev_a, const std::string& rev_b,
                   VersionDiff* diff, std::string* error) {
  if (!ResolveRepo(catalog, repo, &diff->repo, error)) return false;
  std::optional<VersionedRevision> from = FindVersionedRevision(catalog, diff->repo, rev_a);
  std::optional<VersionedRevision> to = FindVersionedRevision(catalog, diff->repo, rev_b);
  if (!from || !to) {
    *error = "no indexed revision '" + (from ? rev_b : rev_a) + "' of " + diff->repo;
    return false;
  }
  diff->from = *from;
  diff->to = *to;
  std::vector<LineageRow> rows = HasLineage(catalog, from->id, to->id)
                                     ? LineageBetween(catalog, from->id, to->id)
                                     : ComputeLineage(catalog, *from, *to, &diff->notes);
  const std::map<std::string, DiffSide> before = PrimarySides(catalog, from->id);
  const std::map<std::string, DiffSide> after = PrimarySides(catalog, to->id);
  auto side = [](const std::map<std::string, DiffSide>& sides, const std::optional<std::string>& id) {
    std::optional<DiffSide> out;
    if (!id) return out;
    auto it = sides.find(*id);
    if (it != sides.end()) out = it->second;
    return out;
  };
  for (const LineageRow& row : rows) {
    DiffEntry entry{side(before, row.from_error), side(after, row.to_error), {}, row.confidence};
    if (row.changes == "added") {
      diff->added.push_back(std::move(entry));
    } else if (row.changes == "removed") {
      diff->removed.push_back(std::move(entry));
    } else if (row.changes.empty()) {
      diff->unchanged += 1;
    } else {
      entry.changes = SplitChanges(row.changes);
      const std::string first = entry.changes.front();
      std::vector<DiffEntry>* section = first == "reworded"  ? &diff->reworded
                                        : first == "moved"   ? &diff->moved
                                        : first == "renamed" ? &diff->renamed
                                                             : &diff->retyped;
      section->push_back(std::move(entry));
    }
  }
  return true;
}

nlohmann::json VersionDiffJson(const VersionDiff& diff) {
  auto entries = [](const std::vector<DiffEntry>& list) {
    nlohmann::json out = nlohmann::json::array();
    for (const DiffEntry& e : list) {
      out.push_back({{"before", SideJson(e.before)},
                     {"after", SideJson(e.after)},
                     {"changes", e.changes},
                     {"confidence", e.confidence}});
    }
    return out;
  };
  auto revision = [](const VersionedRevision& v) { return nlohmann::json{{"label", v.label}, {"commit", v.commit}}; };
  return {{"repo", diff.repo},
          {"from", revision(diff.from)},
          {"to", revision(diff.to)},
          {"added", entries(diff.added)},
          {"removed", entries(diff.removed)},
          {"reworded", entries(diff.reworded)},
          {"moved", entries(diff.moved)},
          {"renamed", entries(diff.renamed)},
          {"retyped", entries(diff.retyped)},
          {"unchanged", diff.unchanged},
          {"notes", diff.notes}};
}

std::string VersionDiffText(const VersionDiff& diff) {
  std::string out = fmt::format("{}: errors from {} to {}\n", diff.repo, diff.from.label, diff.to.label);
  auto section = [&out](const char* title, const std::vector<DiffEntry>& list) {
    if (list.empty()) return;
    out += fmt::format("\n{} ({})\n", title, list.size());
    for (const DiffEntry& e : list) {
      if (e.before && e.after) {
        out += "  ~ " + SideText(*e.before) + "\n    → " + SideText(*e.after);
        out += fmt::format("  [{}; {}%]\n", fmt::join(e.changes, ", "), e.confidence);
      } else if (e.after) {
        out += "  + " + SideText(*e.after) + "\n";
      } else if (e.before) {
        out += "  - " + SideText(*e.before) + "\n";
      }
    }
  };
  section("added", diff.added);
  section("removed", diff.removed);
  section("reworded", diff.reworded);
  section("moved", diff.moved);
  section("renamed", diff.renamed);
  section("retyped", diff.retyped);
  out += fmt::format("\nunchanged {}\n", diff.unchanged);
  for (const std::string& note : diff.notes) out += "note: " + note + "\n";
  return out;
}

}  // namespace errdex
