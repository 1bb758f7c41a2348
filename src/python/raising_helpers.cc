#include "python/raising_helpers.h"

#include <deque>
#include <string>
#include <unordered_map>

#include "extract/template.h"

namespace errdex {
namespace {

struct HelperRef {
  size_t file;  // where the raise is
  const RaisingHelper* helper;
  const Site* raise;
  size_t def_file;            // where the helper function is defined (FILE, unless derived)
  std::string instance_type;  // a derived helper wraps its parameter in an instance of this class
};

// "Context" for "Context.fail"; "" for a module-level function.
std::string ClassOf(const std::string& qualname) {
  size_t dot = qualname.rfind('.');
  return dot == std::string::npos ? "" : qualname.substr(0, dot);
}

std::string LastName(const std::string& qualname) {
  size_t dot = qualname.rfind('.');
  return dot == std::string::npos ? qualname : qualname.substr(dot + 1);
}

// The class part of a caller's scope: "Command.parse_args" → "Command"; nested scopes keep their prefix.
bool InClass(const std::string& caller_function, const std::string& cls) {
  return !cls.empty() && caller_function.size() > cls.size() && caller_function.compare(0, cls.size(), cls) == 0 &&
         caller_function[cls.size()] == '.';
}

using HelpersByName = std::unordered_map<std::string, std::vector<HelperRef>>;

// The helpers CALL (in file F) may reach, at most kMaxHelpersPerCall (docs/extraction.md, "Raising helpers").
std::vector<const HelperRef*> CandidatesOf(const HelpersByName& by_name, size_t f, const MessageCall& call) {
  std::vector<const HelperRef*> candidates;
  auto it = by_name.find(call.name);
  if (it == by_name.end()) return candidates;
  const bool via_self = call.receiver == "self" || call.receiver == "cls";
  for (const HelperRef& ref : it->second) {
    if (call.receiver.empty() ? ref.helper->is_method : (via_self && !ref.helper->is_method)) continue;
    candidates.push_back(&ref);
  }
  if (via_self) {
    // The caller's own class first, then its file.
    std::vector<const HelperRef*> own;
    for (const HelperRef* ref : candidates) {
      if (ref->def_file == f && InClass(call.function, ClassOf(ref->helper->function))) own.push_back(ref);
    }
    if (own.empty()) {
      for (const HelperRef* ref : candidates) {
        if (ref->def_file == f) own.push_back(ref);
      }
    }
    if (!own.empty()) candidates = std::move(own);
  }
  if (candidates.size() > kMaxHelpersPerCall) candidates.resize(kMaxHelpersPerCall);
  return candidates;
}

// The argument of CALL that REF's parameter receives, or null.
const MessageCall::Argument* ArgumentFor(const HelperRef& ref, const MessageCall& call) {
  // A method called through an object receives the object as its first parameter.
  const int index = ref.helper->param_index - (ref.helper->is_method && !call.receiver.empty() ? 1 : 0);
  for (const MessageCall::Argument& a : call.arguments) {
    if ((a.index >= 0 && a.index == index) || (a.index < 0 && a.keyword == ref.helper->param)) return &a;
  }
  return nullptr;
}

// The class CALL hands to REF's class parameter (`context._raise_error(DivisionByZero, 'x / 0')`), or "".
std::string ClassArgumentFor(const HelperRef& ref, const MessageCall& call) {
  if (ref.helper->type_param_index < 0) return "";
  const int index = ref.helper->type_param_index - (ref.helper->is_method && !call.receiver.empty() ? 1 : 0);
  for (const auto& [position, cls] : call.class_arguments) {
    if (position == index) return cls;
  }
  return "";
}

}  // namespace

std::vector<HelperCallSite> LinkRaisingHelpers(const std::vector<FileFactsRef>& files) {
  HelpersByName by_name;
  for (size_t f = 0; f < files.size(); ++f) {
    const FileFacts& facts = *files[f].facts;
    for (const RaisingHelper& h : facts.raising_helpers) {
      for (const Site& s : facts.sites) {
        if (s.line == h.line && s.col == h.col && (s.kind == "raise" || s.kind == "warn")) {
          by_name[h.name].push_back({f, &h, &s, f, ""});
          break;
        }
      }
    }
  }
  std::vector<HelperCallSite> out;
  if (by_name.empty()) return out;
  // Derived helpers, one level: a function that hands its own parameter, wrapped in an instance, to a helper
  // (`def _warn_or_fail_if_strict(self, message): self.issue_config_time_warning(PytestConfigWarning(message),
  // 3)`) is a helper too, raising at the inner helper's site with the instance's class.
  std::deque<RaisingHelper> derived_helpers;
  std::vector<HelperRef> derived;
  for (size_t f = 0; f < files.size(); ++f) {
    for (const MessageCall& call : files[f].facts->message_calls) {
      const FunctionDef* caller = nullptr;
      for (const FunctionDef& fn : files[f].facts->functions) {
        if (fn.qualname == call.function) caller = &fn;
      }
      if (caller == nullptr) continue;
      for (const HelperRef* ref : CandidatesOf(by_name, f, call)) {
        const MessageCall::Argument* a = ArgumentFor(*ref, call);
        if (a == nullptr || a->instance_type.empty()) continue;
        for (size_t k = 0; k < caller->params.size(); ++k) {
          if (a->template_text != "{" + caller->params[k] + "}") continue;
          RaisingHelper h = *ref->helper;
          h.function = caller->qualname;
          h.name = LastName(caller->qualname);
          h.is_method = caller->is_method;
          h.param_index = static_cast<int>(k);
          h.param = caller->params[k];
          derived_helpers.push_back(std::move(h));
          derived.push_back({ref->file, &derived_helpers.back(), ref->raise, f, a->instance_type});
          break;
        }
      }
    }
  }
  for (HelperRef& ref : derived) by_name[ref.helper->name].push_back(std::move(ref));
  for (size_t f = 0; f < files.size(); ++f) {
    for (const MessageCall& call : files[f].facts->message_calls) {
      for (const HelperRef* ref : CandidatesOf(by_name, f, call)) {
        const MessageCall::Argument* a = ArgumentFor(*ref, call);
        if (a == nullptr) continue;
        // An instance forwarding the caller's parameter has no text of its own: its callers' calls are sites.
        if (!a->instance_type.empty()) {
          std::vector<TemplatePart> parts = ParseRenderedTemplate(a->template_text);
          if (parts.size() == 1 && parts[0].placeholder) continue;
        }
        std::string type = a->instance_type.empty() ? ref->instance_type : a->instance_type;
        if (type.empty()) type = ClassArgumentFor(*ref, call);
        out.push_back(
            {ref->file, ref->raise, f, &call, a->template_text, std::move(type), ref->def_file, ref->helper->function});
      }
    }
  }
  return out;
}

}  // namespace errdex
