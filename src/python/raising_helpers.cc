#include "python/raising_helpers.h"

#include <unordered_map>

namespace errdex {
namespace {

struct HelperRef {
  size_t file;
  const RaisingHelper* helper;
  const Site* raise;
};

// "Context" for "Context.fail"; "" for a module-level function.
std::string ClassOf(const std::string& qualname) {
  size_t dot = qualname.rfind('.');
  return dot == std::string::npos ? "" : qualname.substr(0, dot);
}

// The class part of a caller's scope: "Command.parse_args" → "Command"; nested scopes keep their prefix.
bool InClass(const std::string& caller_function, const std::string& cls) {
  return !cls.empty() && caller_function.size() > cls.size() && caller_function.compare(0, cls.size(), cls) == 0 &&
         caller_function[cls.size()] == '.';
}

}  // namespace

std::vector<HelperCallSite> LinkRaisingHelpers(const std::vector<FileFactsRef>& files) {
  std::unordered_map<std::string, std::vector<HelperRef>> by_name;
  for (size_t f = 0; f < files.size(); ++f) {
    const FileFacts& facts = *files[f].facts;
    for (const RaisingHelper& h : facts.raising_helpers) {
      for (const Site& s : facts.sites) {
        if (s.line == h.line && s.col == h.col && (s.kind == "raise" || s.kind == "warn")) {
          by_name[h.name].push_back({f, &h, &s});
          break;
        }
      }
    }
  }
  std::vector<HelperCallSite> out;
  if (by_name.empty()) return out;
  for (size_t f = 0; f < files.size(); ++f) {
    for (const MessageCall& call : files[f].facts->message_calls) {
      auto it = by_name.find(call.name);
      if (it == by_name.end()) continue;
      const bool via_self = call.receiver == "self" || call.receiver == "cls";
      std::vector<const HelperRef*> candidates;
      for (const HelperRef& ref : it->second) {
        if (call.receiver.empty() ? ref.helper->is_method : (via_self && !ref.helper->is_method)) continue;
        candidates.push_back(&ref);
      }
      if (via_self) {
        // The caller's own class first, then its file.
        std::vector<const HelperRef*> own;
        for (const HelperRef* ref : candidates) {
          if (ref->file == f && InClass(call.function, ClassOf(ref->helper->function))) own.push_back(ref);
        }
        if (own.empty()) {
          for (const HelperRef* ref : candidates) {
            if (ref->file == f) own.push_back(ref);
          }
        }
        if (!own.empty()) candidates = std::move(own);
      }
      if (candidates.size() > kMaxHelpersPerCall) candidates.resize(kMaxHelpersPerCall);
      for (const HelperRef* ref : candidates) {
        // A method called through an object receives the object as its first parameter.
        const int index = ref->helper->param_index - (ref->helper->is_method && !call.receiver.empty() ? 1 : 0);
        for (const MessageCall::Argument& a : call.arguments) {
          if ((a.index >= 0 && a.index == index) || (a.index < 0 && a.keyword == ref->helper->param)) {
            out.push_back({ref->file, ref->raise, f, &call, a.template_text, a.instance_type});
            break;
          }
        }
      }
    }
  }
  return out;
}

}  // namespace errdex
