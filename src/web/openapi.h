// The OpenAPI 3 description of errdex's JSON API and pages (GET /api/openapi.json).
#pragma once

#include <nlohmann/json.hpp>

namespace errdex::web {

nlohmann::json OpenApiJson();

}  // namespace errdex::web
