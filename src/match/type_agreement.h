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

// A module, its C accelerator and its pure-Python twin (PEP 399), or a package and the private package
// that implements it, print one another's classes: `queue.py` re-exports `_queue.Empty`, `decimal` runs
// `_decimal` or `_pydecimal`, `pytest.X` is `_pytest.warning_types.X`. Whether top-level module names A and
// B are one family: equal without leading underscores, or one is the other with `_py` before it.
bool SameModuleFamily(std::string_view a, std::string_view b);

// Whether repository REPO ("psf/requests", "pypi/requests", "Lightning-AI/pytorch-lightning") is named
// after top-level module MODULE: its last part equal to it, case-insensitively, '-' read as '_'.
bool RepositoryNamesModule(std::string_view repo, std::string_view module);

}  // namespace errdex
