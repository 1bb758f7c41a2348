#include "match/type_agreement.h"

#include <cctype>
#include <set>

#include "python/python_builtins.h"

namespace errdex {

std::string_view LastComponent(std::string_view dotted) {
  size_t dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

namespace {

constexpr int kMaxDepth = 12;

// Python 3 names of Python 2's OS error classes, which are aliases of OSError now (old pastes print them).
std::string_view CanonicalBuiltinName(std::string_view name) {
  return name == "IOError" || name == "EnvironmentError" ? std::string_view("OSError") : name;
}

// Last components of the ancestors of class QUALIFIED (itself excluded): repository classes through the
// catalog, then builtins.
std::set<std::string> Ancestors(Catalog& catalog, const std::string& repo, const std::string& qualified) {
  std::set<std::string> out;
  std::vector<std::string> pending{qualified};
  std::set<std::string> visited;
  for (int step = 0; !pending.empty() && step < kMaxDepth * 4; ++step) {
    std::string name = pending.back();
    pending.pop_back();
    if (!visited.insert(name).second) continue;
    if (name.rfind("builtins.", 0) == 0 || name.find('.') == std::string::npos) {
      // A builtin: walk Python's own hierarchy.
      std::string_view base = CanonicalBuiltinName(LastComponent(name));
      for (int depth = 0; depth < kMaxDepth; ++depth) {
        const char* parent = BuiltinExceptionBase(base);
        if (!parent || !*parent) break;
        out.insert(parent);
        base = parent;
      }
      continue;
    }
    if (std::optional<ClassRow> cls = catalog.FindClass(repo, name)) {
      for (const std::string& b : cls->bases) {
        // `class LocalTokenNotFoundError(EnvironmentError)` prints as a subclass of OSError.
        out.insert(std::string(CanonicalBuiltinName(LastComponent(b))));
        pending.push_back(b);
      }
    }
  }
  return out;
}

}  // namespace

bool RepositoryNamesModule(std::string_view repo, std::string_view module) {
  size_t slash = repo.rfind('/');
  std::string_view last = slash == std::string_view::npos ? repo : repo.substr(slash + 1);
  if (last.size() != module.size()) return false;
  for (size_t i = 0; i < last.size(); ++i) {
    char a = static_cast<char>(std::tolower(static_cast<unsigned char>(last[i])));
    char b = static_cast<char>(std::tolower(static_cast<unsigned char>(module[i])));
    if ((a == '-' ? '_' : a) != (b == '-' ? '_' : b)) return false;
  }
  return true;
}

bool SameModuleFamily(std::string_view a, std::string_view b) {
  auto strip = [](std::string_view s) {
    while (s.size() > 1 && s.front() == '_') s.remove_prefix(1);
    return s;
  };
  auto python_twin = [](std::string_view x, std::string_view y) {
    return x.size() == y.size() + 3 && x.rfind("_py", 0) == 0 && x.substr(3) == y;
  };
  return strip(a) == strip(b) || python_twin(a, b) || python_twin(b, a);
}

TypeAgreement CompareTypes(Catalog& catalog, std::string_view pasted, const SiteRow& site) {
  std::string site_type = site.type_qualified ? *site.type_qualified : site.type.value_or("");
  if (pasted.empty() || site_type.empty()) return TypeAgreement::kUnknown;
  // `raise client_error(...)`, `raise self.error_cls(...)`, `raise exc`: a value, not a class name,
  // so the paste cannot contradict it.
  if (!site.type_qualified &&
      (site_type.find('.') != std::string::npos || !std::isupper(static_cast<unsigned char>(site_type[0])))) {
    return TypeAgreement::kUnknown;
  }
  std::string_view pasted_name = CanonicalBuiltinName(LastComponent(pasted));
  std::string_view site_name = CanonicalBuiltinName(LastComponent(site_type));
  // Python prints a class with the module that defines it: `lownet.exceptions.LocationParseError` pasted
  // is not `pip._vendor.urllib3.exceptions.LocationParseError` (a vendored copy, another library's class of
  // the same name). Only the top-level package is compared: re-exports stay within one package. A package
  // named like the site's repository is that project's own (`pytorch_lightning.….MisconfigurationException`
  // pasted, `lightning.fabric.….MisconfigurationException` indexed from Lightning-AI/pytorch-lightning: the
  // project's package was renamed, its classes moved).
  if (site.type_qualified && pasted.find('.') != std::string_view::npos && site_type.rfind("builtins.", 0) != 0) {
    const std::string_view pasted_top = pasted.substr(0, pasted.find('.'));
    const std::string_view site_top = std::string_view(site_type).substr(0, site_type.find('.'));
    // A top-level package cut off or mistyped (`http.client_exceptions.X` for aiohttp's
    // `aiohttp.client_exceptions.X`): the rest of the path, a module and the class, is the site's.
    const std::string_view pasted_rest = pasted.substr(pasted_top.size());
    const bool top_cut = pasted_rest.find('.', 1) != std::string_view::npos && site_type.ends_with(pasted_rest) &&
                         site_type.size() > pasted_rest.size() &&
                         site_type[site_type.size() - pasted_rest.size() - 1] != '.';
    if (!SameModuleFamily(pasted_top, site_top) && !RepositoryNamesModule(site.repo, pasted_top) && !top_cut) {
      return TypeAgreement::kDifferent;
    }
  }
  if (pasted_name == site_name && site.type_qualified && pasted.find('.') != std::string_view::npos &&
      pasted != site_type && site_type.rfind("builtins.", 0) != 0) {
    // Two classes of one name in one package (`oauthlib.oauth1.rfc5849.errors.InsecureTransportError` and
    // `oauthlib.oauth2.rfc6749.errors.InsecureTransportError`): Python prints the module that defines the
    // class, so when the catalog defines a class at the pasted name and another at the site's, they are two
    // classes; related only when one derives from the other.
    const std::string pasted_qualified(pasted);
    if (catalog.FindClass(site.repo, pasted_qualified) && catalog.FindClass(site.repo, site_type)) {
      return Ancestors(catalog, site.repo, site_type).count(std::string(pasted_name)) ||
                     Ancestors(catalog, site.repo, pasted_qualified).count(std::string(site_name))
                 ? TypeAgreement::kRelated
                 : TypeAgreement::kDifferent;
    }
  }
  if (pasted_name == site_name) return TypeAgreement::kSame;
  // A class renamed to take the `Error` suffix (PEP 8's advice, ruff's N818: Poetry's `SolveFailure` became
  // `SolveFailureError`): an older release printed the old name. Related, not the same: another class may
  // have held that name.
  if (site_name.size() > pasted_name.size() && site_name.ends_with("Error") &&
      site_name.substr(0, site_name.size() - 5) == pasted_name && BuiltinExceptionBase(pasted_name) == nullptr) {
    return TypeAgreement::kRelated;
  }
  // Python prints the class raised; a related name means a subclass was raised where a base is written
  // (`raise self.error_class(...)`, factories) or the paste shows a base caught and re-printed.
  if (Ancestors(catalog, site.repo, site_type).count(std::string(pasted_name))) return TypeAgreement::kRelated;
  // A base written at the site, the subclass chosen at run time printed (`cls = APIError; ...; cls =
  // NotFound; raise cls(e)`): the pasted class as the catalog knows it, else beside the site's class.
  if (site.type_qualified && site_type.find('.') != std::string::npos) {
    std::string pasted_qualified(pasted);
    if (!catalog.FindClass(site.repo, pasted_qualified)) {
      pasted_qualified = site_type.substr(0, site_type.rfind('.') + 1) + std::string(pasted_name);
    }
    if (Ancestors(catalog, site.repo, pasted_qualified).count(std::string(site_name))) return TypeAgreement::kRelated;
  }
  if (BuiltinExceptionBase(pasted_name) != nullptr) {
    for (std::string_view base = pasted_name;;) {
      const char* parent = BuiltinExceptionBase(base);
      if (!parent || !*parent) break;
      if (site_name == parent) return TypeAgreement::kRelated;
      base = parent;
    }
  }
  return TypeAgreement::kDifferent;
}

}  // namespace errdex
