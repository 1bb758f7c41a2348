#include "web/openapi.h"

namespace errdex::web {

namespace {

using nlohmann::json;

json StringOrNull() { return {{"type", "string"}, {"nullable", true}}; }

json Ref(const char* name) { return {{"$ref", std::string("#/components/schemas/") + name}}; }

json JsonResponse(const char* description, json schema) {
  return {{"description", description}, {"content", {{"application/json", {{"schema", std::move(schema)}}}}}};
}

json HtmlResponse(const char* description) {
  return {{"description", description}, {"content", {{"text/html", {{"schema", {{"type", "string"}}}}}}}};
}

json ErrorResponse(const char* description) { return JsonResponse(description, Ref("Problem")); }

json PathParam(const char* name, const char* description, json schema = {{"type", "string"}}) {
  return {
      {"name", name}, {"in", "path"}, {"required", true}, {"description", description}, {"schema", std::move(schema)}};
}

json QueryParam(const char* name, const char* description, json schema = {{"type", "string"}}) {
  return {{"name", name},
          {"in", "query"},
          {"required", false},
          {"description", description},
          {"schema", std::move(schema)}};
}

json IdParam() {
  return PathParam("id", "Error id: 16 lowercase hexadecimal digits",
                   {{"type", "string"}, {"pattern", "^[0-9a-f]{16}$"}});
}

json PasteBody() {
  json form_schema = {
      {"type", "object"}, {"properties", {{"q", {{"type", "string"}}}}}, {"required", json::array({"q"})}};
  json content = {{"text/plain", {{"schema", {{"type", "string"}}}}},
                  {"application/x-www-form-urlencoded", {{"schema", std::move(form_schema)}}}};
  return {{"required", true},
          {"description", "The pasted text (at most 1 MiB): raw text, or a form field q"},
          {"content", std::move(content)}};
}

// The schemas of the JSON bodies.
// A diff's error before or after (report/version_diff.h).
json DiffSideSchema() {
  return {{"type", "object"},
          {"nullable", true},
          {"properties",
           {{"id", {{"type", "string"}}},
            {"type", StringOrNull()},
            {"template", StringOrNull()},
            {"path", {{"type", "string"}}},
            {"line", {{"type", "integer"}}},
            {"function", {{"type", "string"}}}}}};
}

json DiffSchema() {
  json entries = {{"type", "array"}, {"items", Ref("DiffEntry")}};
  json revision = {{"type", "object"},
                   {"properties", {{"label", {{"type", "string"}}}, {"commit", {{"type", "string"}}}}}};
  return {{"type", "object"},
          {"properties",
           {{"repo", {{"type", "string"}}},
            {"from", revision},
            {"to", revision},
            {"added", entries},
            {"removed", entries},
            {"reworded", entries},
            {"moved", entries},
            {"renamed", entries},
            {"retyped", entries},
            {"unchanged", {{"type", "integer"}}},
            {"notes", {{"type", "array"}, {"items", {{"type", "string"}}}}}}}};
}

json Schemas() {
  return {
      {"VersionDiff", DiffSchema()},
      {"DiffEntry",
       {{"type", "object"},
        {"properties",
         {{"before", DiffSideSchema()},
          {"after", DiffSideSchema()},
          {"changes", {{"type", "string"}, {"description", "reworded, moved, renamed, retyped (comma-separated)"}}},
          {"confidence", {{"type", "integer"}, {"description", "percent"}}}}}}},
      {"Problem",
       {{"type", "object"},
        {"properties", {{"error", {{"type", "string"}}}, {"status", {{"type", "integer"}}}}},
        {"required", {"error", "status"}}}},
      {"Site",
       {{"type", "object"},
        {"description", "A place that raises the error, in one revision"},
        {"properties",
         {{"rev", StringOrNull()},
          {"path", {{"type", "string"}}},
          {"line", {{"type", "integer"}}},
          {"col", {{"type", "integer"}}},
          {"end_line", {{"type", "integer"}}},
          {"kind", {{"type", "string"}}},
          {"type", StringOrNull()},
          {"type_qualified", StringOrNull()},
          {"template", StringOrNull()},
          {"function", {{"type", "string"}}},
          {"is_test", {{"type", "boolean"}}},
          {"permalink", StringOrNull()},
          {"via", StringOrNull()}}}}},
      {"ErrorReport",
       {{"type", "object"},
        {"description",
         "The same JSON as `errdex show ID --format json`: the error, its sites, the source snippet, the exception "
         "class, the revisions it exists in and, when the catalog has them, the explanation sections and related "
         "errors"},
        {"properties",
         {{"id", {{"type", "string"}}},
          {"repo", {{"type", "string"}}},
          {"url", StringOrNull()},
          {"kind", {{"type", "string"}}},
          {"type", StringOrNull()},
          {"type_qualified", StringOrNull()},
          {"template", StringOrNull()},
          {"normalized_template", StringOrNull()},
          {"sites", {{"type", "array"}, {"items", Ref("Site")}}},
          {"snippet", {{"type", "object"}, {"nullable", true}}},
          {"exception_class", {{"type", "object"}, {"nullable", true}}},
          {"revisions", {{"type", "array"}, {"items", {{"type", "object"}}}}},
          {"explanation", {{"type", "object"}}},
          {"related", {{"type", "array"}, {"items", {{"type", "object"}}}}}}},
        {"required", {"id", "repo", "kind", "sites", "revisions"}}}},
      {"Match",
       {{"type", "object"},
        {"properties",
         {{"id", {{"type", "string"}}},
          {"type", StringOrNull()},
          {"template", StringOrNull()},
          {"score", {{"type", "number"}}},
          {"bindings", {{"type", "object"}, {"additionalProperties", {{"type", "string"}}}}},
          {"site", {{"type", "object"}}},
          {"why", {{"type", "array"}, {"items", {{"type", "string"}}}}}}}}},
      {"Explanation",
       {{"type", "object"},
        {"description", "The same JSON as `errdex explain --format json`"},
        {"properties",
         {{"input_kind", {{"type", "string"}}},
          {"type", StringOrNull()},
          {"message", {{"type", "string"}}},
          {"matches", {{"type", "array"}, {"items", Ref("Match")}}},
          {"closest", {{"type", "array"}, {"items", Ref("Match")}}}}},
        {"required", {"input_kind", "matches"}}}},
      {"Repository",
       {{"type", "object"},
        {"properties",
         {{"name", {{"type", "string"}}},
          {"url", StringOrNull()},
          {"rev", StringOrNull()},
          {"committed_at", StringOrNull()},
          {"indexed_at", {{"type", "string"}}},
          {"revisions", {{"type", "integer"}}},
          {"files", {{"type", "integer"}}},
          {"errors", {{"type", "integer"}}},
          {"sites", {{"type", "integer"}}}}}}},
      {"RepositoryErrors",
       {{"type", "object"},
        {"properties",
         {{"repo", {{"type", "string"}}},
          {"url", StringOrNull()},
          {"rev", StringOrNull()},
          {"committed_at", StringOrNull()},
          {"type", StringOrNull()},
          {"q", StringOrNull()},
          {"page", {{"type", "integer"}}},
          {"pages", {{"type", "integer"}}},
          {"page_size", {{"type", "integer"}}},
          {"total", {{"type", "integer"}}},
          {"types", {{"type", "array"}, {"items", {{"type", "object"}}}}},
          {"errors", {{"type", "array"}, {"items", {{"type", "object"}}}}}}}}},
  };
}

// The JSON routes, under /api/.
json ApiPaths() {
  return {
      {"/api/errors/{id}",
       {{"get",
         {{"summary", "One error: the JSON of `errdex show ID --format json`"},
          {"operationId", "getError"},
          {"parameters", {IdParam()}},
          {"responses",
           {{"200", JsonResponse("The error", Ref("ErrorReport"))}, {"404", ErrorResponse("No such error")}}}}}}},
      {"/api/match",
       {{"post",
         {{"summary", "Match a pasted message, traceback or log: the JSON of `errdex explain --format json`"},
          {"operationId", "match"},
          {"parameters",
           {QueryParam("top", "At most this many matches (1-100, default 5)",
                       {{"type", "integer"}, {"minimum", 1}, {"maximum", 100}})}},
          {"requestBody", PasteBody()},
          {"responses",
           {{"200", JsonResponse("Ranked matches (possibly none, then `closest`)", Ref("Explanation"))},
            {"400", ErrorResponse("Empty or malformed paste")},
            {"413", {{"description", "Paste larger than 1 MiB"}}},
            {"415", ErrorResponse("Unsupported content type (multipart)")}}}}}}},
      {"/api/repos",
       {{"get",
         {{"summary", "The indexed repositories, each at its latest revision"},
          {"operationId", "listRepositories"},
          {"responses",
           {{"200", JsonResponse(
                        "The repositories",
                        {{"type", "object"},
                         {"properties", {{"repositories", {{"type", "array"}, {"items", Ref("Repository")}}}}}})}}}}}}},
      {"/api/repos/{owner}/{name}/errors",
       {{"get",
         {{"summary", "A repository's errors at its latest revision, by module and type, filtered and paged"},
          {"operationId", "listRepositoryErrors"},
          {"parameters",
           {PathParam("owner", "Repository owner (as in the repository's page path)"),
            PathParam("name", "Repository name"),
            QueryParam("type", "Only errors of this type (as written or qualified)"),
            QueryParam("q", "Only errors whose message, type, path, function or module contains this text"),
            QueryParam("page", "Page number, from 1 (100 errors a page)", {{"type", "integer"}, {"minimum", 1}})}},
          {"responses",
           {{"200", JsonResponse("One page of errors", Ref("RepositoryErrors"))},
            {"400", ErrorResponse("Bad page number or filter")},
            {"404", ErrorResponse("No such repository or page")}}}}}}},
      {"/api/repos/{owner}/{name}/diff",
       {{"get",
         {{"summary",
           "The errors added, removed, reworded, moved, renamed and retyped between two indexed revisions (by "
           "default the two newest): the JSON of `errdex diff --format json`"},
          {"operationId", "diffRevisions"},
          {"parameters",
           {PathParam("owner", "Repository owner"), PathParam("name", "Repository name"),
            QueryParam("from", "The older revision: a release tag or a commit prefix"),
            QueryParam("to", "The newer revision: a release tag or a commit prefix")}},
          {"responses",
           {{"200", JsonResponse("The diff", Ref("VersionDiff"))},
            {"404", ErrorResponse("No such repository or revision, or fewer than two indexed revisions")}}}}}}},
      {"/api/repos/{owner}/{name}/diff/{from}..{to}",
       {{"get",
         {{"summary",
           "The same, the revisions named in the path (their labels as the static export names the file, "
           "api/repos/OWNER/NAME/diff/FROM..TO.json)"},
          {"operationId", "diffRevisionsInPath"},
          {"parameters",
           {PathParam("owner", "Repository owner"), PathParam("name", "Repository name"),
            PathParam("from", "The older revision's label"), PathParam("to", "The newer revision's label")}},
          {"responses",
           {{"200", JsonResponse("The diff", Ref("VersionDiff"))},
            {"404", ErrorResponse("No such repository or revision")}}}}}}},
      {"/api/search-index.json",
       {{"get",
         {{"summary", "The search index of the static site: every error of every repository's latest revision"},
          {"operationId", "searchIndex"},
          {"responses",
           {{"200", JsonResponse("Rows of [id, repo, type, template, path, line]", {{"type", "object"}})}}}}}}},
      {"/api/openapi.json",
       {{"get",
         {{"summary", "This description"},
          {"operationId", "openapi"},
          {"responses", {{"200", JsonResponse("OpenAPI 3 document", {{"type", "object"}})}}}}}}},
  };
}

// The HTML pages.
json PagePaths() {
  return {
      {"/",
       {{"get",
         {{"summary", "Home page: the search box and the indexed repositories"},
          {"operationId", "home"},
          {"responses", {{"200", HtmlResponse("HTML page")}}}}}}},
      {"/search",
       {{"get",
         {{"summary", "Search results for a short paste"},
          {"operationId", "searchGet"},
          {"parameters", {QueryParam("q", "The pasted text")}},
          {"responses", {{"200", HtmlResponse("Ranked matches with their evidence")}}}}},
        {"post",
         {{"summary", "Search results for a paste of any length (the home page's form)"},
          {"operationId", "searchPost"},
          {"requestBody", PasteBody()},
          {"responses",
           {{"200", HtmlResponse("Ranked matches with their evidence")},
            {"413", {{"description", "Paste larger than 1 MiB"}}}}}}}}},
      {"/repos/{owner}/{name}",
       {{"get",
         {{"summary",
           "A repository's errors by module and type (also as /repos/{owner}/{name}.html; page N >= 2 as "
           "/repos/{owner}/{name}/page-N.html)"},
          {"operationId", "repositoryPage"},
          {"parameters",
           {PathParam("owner", "Repository owner"), PathParam("name", "Repository name"),
            QueryParam("type", "Only errors of this type"), QueryParam("q", "Only errors containing this text"),
            QueryParam("page", "Page number", {{"type", "integer"}, {"minimum", 1}})}},
          {"responses", {{"200", HtmlResponse("HTML page")}, {"404", HtmlResponse("No such repository")}}}}}}},
      {"/repos/{owner}/{name}/diff",
       {{"get",
         {{"summary", "The diff of two indexed revisions as a page (by default the two newest)"},
          {"operationId", "diffPage"},
          {"parameters",
           {PathParam("owner", "Repository owner"), PathParam("name", "Repository name"),
            QueryParam("from", "The older revision"), QueryParam("to", "The newer revision")}},
          {"responses",
           {{"200", HtmlResponse("HTML page")}, {"404", HtmlResponse("No such repository or revision")}}}}}}},
      {"/repos/{owner}/{name}/diff/{from}..{to}",
       {{"get",
         {{"summary", "The same, the revisions named in the path (also with .html, as the static export names it)"},
          {"operationId", "diffPageInPath"},
          {"parameters",
           {PathParam("owner", "Repository owner"), PathParam("name", "Repository name"),
            PathParam("from", "The older revision's label"), PathParam("to", "The newer revision's label")}},
          {"responses",
           {{"200", HtmlResponse("HTML page")}, {"404", HtmlResponse("No such repository or revision")}}}}}}},
      {"/errors/{id}",
       {{"get",
         {{"summary", "The error page (also as /errors/{id}.html)"},
          {"operationId", "errorPage"},
          {"parameters", {IdParam()}},
          {"responses", {{"200", HtmlResponse("HTML page")}, {"404", HtmlResponse("No such error")}}}}}}},
  };
}

}  // namespace

json OpenApiJson() {
  json paths = ApiPaths();
  paths.update(PagePaths());
  json schemas = Schemas();
  return {{"openapi", "3.0.3"},
          {"info",
           {{"title", "errdex"},
            {"version", ERRDEX_VERSION},
            {"description",
             "An error knowledge base built from source code: every error a repository can raise, pinned to the "
             "commit it was read at, and matching of pasted errors to their raise sites. JSON routes also answer "
             "with a .json suffix (/api/errors/{id}.json, /api/repos.json), as the static export names them."}}},
          {"paths", std::move(paths)},
          {"components", {{"schemas", std::move(schemas)}}}};
}

}  // namespace errdex::web
