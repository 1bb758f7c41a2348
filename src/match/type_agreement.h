// Whether the exception type a user pasted and the type a site raises name the same class, related
// classes (one derives from the other: repository classes through the catalog's `classes`, builtin
// exceptions through Python's hierarchy) or unrelated ones.
//
// Threading: uses the given catalog, which belongs to the calling thread.
#pragma once

#include <string>
#include <string_view>

#include "catalog/catalog.h"

namespace errdex {

enum class TypeAgreement { kUnknown, kSame, kRelated, kDifferent };

// PASTED as printed (bare or qualified); the site's type as written and resolved. kUnknown when either
// side has no type.
TypeAgreement CompareTypes(Catalog& catalog, std::string_view pasted, const SiteRow& site);

// The last dotted component: "aiohttp.client_exceptions.ClientError" → "ClientError".
std::string_view LastComponent(std::string_view dotted);

// A standard-library module, its C accelerator and its pure-Python twin (PEP 399) print one another's
// classes: `queue.py` re-exports `_queue.Empty`, `decimal` runs `_decimal` or `_pydecimal`. The family of a
// top-level module name: "_queue" → "queue", "_pydecimal" → "decimal", "queue" → "queue".
std::string_view AcceleratorFamily(std::string_view top);

}  // namespace errdex
