// The parts of the catalog that schema 8 stores once for many revisions (docs/catalog.md, "Rows shared by
// revisions", "The blob cache"): the compressed blob cache, and the site and class rows that revisions
// reference.
#include <sqlite3.h>

#include <nlohmann/json.hpp>
#include <set>

#include "catalog/catalog.h"
#include "catalog/stored_lists.h"
#include "extract/file_facts_json.h"

namespace errdex {

bool Catalog::FindBlobJson(const std::string& blob_id, int version, std::string* json, int* depth) {
  return blob_cache_->FindFacts(blob_id, version, json, depth);
}

bool Catalog::FindBlobFrames(const std::string& blob_id, int version, std::vector<std::string>* frames) {
  return blob_cache_->FindFactsFrames(blob_id, version, frames);
}

std::optional<BlobBase> Catalog::FindBlobBase(const std::string& blob_id, int version) {
  return blob_cache_->FindBase(blob_id, version);
}

std::optional<Catalog::Snippet> Catalog::FindSnippet(const std::string& blob_id, int line, int col) {
  Snippet snippet;
  if (!blob_cache_->FindSnippet(blob_id, line, col, &snippet.start_line, &snippet.text)) return std::nullopt;
  return snippet;
}

std::unordered_map<std::string, std::string> Catalog::BlobsOfLatestRevision(const std::string& repo) {
  BorrowedStatement s = Prepared(
      "SELECT f.path, f.oid FROM files f WHERE f.oid IS NOT NULL AND f.revision_id = "
      "(SELECT max(v.id) FROM revisions v JOIN repositories r ON r.id = v.repo_id WHERE r.name = ?1)");
  s.Bind(1, repo);
  std::unordered_map<std::string, std::string> out;
  while (s.Step()) out.emplace(s.Text(0), s.Text(1));
  return out;
}

void Catalog::WriteBlobs(const RevisionData& data) {
  for (const RevisionData::NewBlob& b : data.new_blobs) {
    const int version = b.cache_version != 0 ? b.cache_version : data.revision.extractor_version;
    if (!b.encoded.facts.empty()) {
      blob_cache_->Put(b.encoded, version);
      continue;
    }
    const FileFacts& facts = *b.facts;
    const std::string json =
        !b.json.empty() ? b.json
                        : FileFactsToJson(facts).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    blob_cache_->Put(EncodeBlob(b.oid, facts.status, facts.reason, json, SnippetRecord(facts.sites), nullptr), version);
  }
}

void Catalog::WriteSites(const RevisionData& data, int64_t revision_id) {
  // A site identical to one of another revision (same error, place, text, conditions) is that row again.
  // (The reach, schema 9, is part of a row: the same raise reached otherwise in another revision is another row.)
  Statement row(
      *db_,
      "INSERT OR IGNORE INTO site_rows(digest, error_id, path, line, col, end_line, kind, type, "
      "type_qualified, template, function, is_test, via, conditions, wraps, reach_calls, reach_entries, "
      "reach_via, message_alternatives, alternatives_capped, class_texts) "
      "VALUES(errdex_digest(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, "
      "?19, ?22), ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?22)");
  Statement ref(*db_,
                "INSERT OR IGNORE INTO revision_sites(revision_id, site_id, seq) SELECT ?20, id, ?21 FROM site_rows "
                "WHERE digest = errdex_digest(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, "
                "?17, ?18, ?19, ?22)");
  // seq: the site's place in the revision, so that sites at one place keep the order they were written in
  // (the lineage counts a function's raises in that order).
  int64_t seq = 0;
  for (const SiteRow& s : data.sites) {
    ++seq;
    std::optional<std::string> conditions;
    if (!s.conditions.empty()) {
      conditions = ConditionsToJson(s.conditions).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    const std::optional<std::string> alternatives = StoredStringsText(s.message_alternatives);
    const std::optional<std::string> class_texts = StoredStringsText(s.class_texts);
    auto bind = [&](Statement& st) {
      st.Bind(1, s.error_id).Bind(2, s.path).Bind(3, int64_t{s.line}).Bind(4, int64_t{s.col});
      st.Bind(5, int64_t{s.end_line}).Bind(6, s.kind).Bind(7, s.type).Bind(8, s.type_qualified);
      st.Bind(9, s.template_text).Bind(10, s.function).Bind(11, int64_t{s.is_test}).Bind(12, s.via);
      st.Bind(13, conditions).Bind(14, s.wraps);
      if (s.reach_calls) {
        st.Bind(15, int64_t{*s.reach_calls}).Bind(16, int64_t{s.reach_entries});
      } else {
        st.BindNull(15).BindNull(16);
      }
      st.Bind(17, s.reach_via).Bind(18, alternatives).Bind(19, int64_t{s.alternatives_capped});
      st.Bind(22, class_texts);
    };
    // Most sites of a release are rows of the revision before: the reference alone, then the row if it is new.
    bind(ref);
    ref.Bind(20, revision_id).Bind(21, seq);
    ref.Run();
    if (sqlite3_changes(db_->handle()) == 0) {
      bind(row);
      row.Run();
      bind(ref);
      ref.Bind(20, revision_id).Bind(21, seq);
      ref.Run();
    }
  }
}

void Catalog::WriteClasses(const RevisionData& data, int64_t revision_id) {
  Statement row(*db_,
                "INSERT OR IGNORE INTO class_rows(digest, qualified_name, path, line, bases, docstring, message, "
                "message_from, message_alternatives, printed_texts) VALUES(errdex_digest(?1, ?2, ?3, ?4, ?5, "
                "nullif(?6, ''), nullif(?7, ''), nullif(?8, ''), nullif(?10, '')), ?1, ?2, ?3, ?4, ?5, nullif(?6, ''), "
                "nullif(?7, ''), nullif(?8, ''), nullif(?10, ''))");
  Statement ref(*db_,
                "INSERT OR IGNORE INTO revision_classes(revision_id, class_id) SELECT ?9, id FROM class_rows "
                "WHERE digest = errdex_digest(?1, ?2, ?3, ?4, ?5, nullif(?6, ''), nullif(?7, ''), nullif(?8, ''), "
                "nullif(?10, ''))");
  // One class per qualified name and revision, the first given (as the primary key of schema 7 kept it).
  std::set<std::string> seen;
  for (const ClassRow& c : data.classes) {
    if (!seen.insert(c.qualified_name).second) continue;
    const std::string bases = nlohmann::json(c.bases).dump();
    const std::string alternatives = StoredStringsText(c.alternatives).value_or("");
    const std::string printed = StoredPrintedTextsText(c.printed);
    for (Statement* st : {&row, &ref}) {
      st->Bind(1, c.qualified_name).Bind(2, c.path).Bind(3, int64_t{c.line}).Bind(4, bases).Bind(5, c.docstring);
      st->Bind(6, c.message).Bind(7, c.message_from).Bind(8, alternatives).Bind(10, printed);
    }
    ref.Bind(9, revision_id);
    row.Run();
    ref.Run();
  }
}

void Catalog::DropUnreferencedRows() {
  db_->Exec(
      "DELETE FROM site_rows WHERE NOT EXISTS (SELECT 1 FROM revision_sites m WHERE m.site_id = site_rows.id);"
      "DELETE FROM class_rows WHERE NOT EXISTS (SELECT 1 FROM revision_classes m WHERE m.class_id = class_rows.id);");
}

}  // namespace errdex
