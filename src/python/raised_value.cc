#include "python/raised_value.h"

#include <cctype>
#include <cstring>
#include <string_view>

#include "python/python_fields.h"
#include "python/python_template_builder.h"

namespace errdex {
namespace {

std::string_view LastName(std::string_view dotted) {
  size_t dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

}  // namespace

// A name or attribute that reads as a class: `NotFound`, `errors.APIError`.
bool NamesAClass(const PythonFileModel& model, TSNode node) {
  if (!Is(node, "identifier") && !Is(node, "attribute")) return false;
  std::string_view last = LastName(model.Text(node));
  return !last.empty() && std::isupper(static_cast<unsigned char>(last[0])) &&
         last.find_first_of("abcdefghijklmnopqrstuvwxyz") != std::string_view::npos;
}

namespace {

// A class name that reads as an exception or warning class (a factory's first argument may be anything).
bool NamesAnExceptionClass(const PythonFileModel& model, TSNode node) {
  if (!NamesAClass(model, node)) return false;
  std::string_view last = LastName(model.Text(node));
  for (std::string_view tail : {"Error", "Exception", "Warning", "Exit", "Interrupt", "Failure", "Failed"}) {
    if (last.size() >= tail.size() && last.substr(last.size() - tail.size()) == tail) return true;
  }
  return false;
}

// The plain bindings of identifier NAME in SCOPE that end before POS.
template <typename Visit>
void PlainBindingsBefore(const PythonFileModel& model, TSNode name, int scope, uint32_t pos, Visit visit) {
  if (!Is(name, "identifier")) return;
  const std::vector<Binding>* list = model.BindingsOf(scope, model.Text(name));
  if (!list) return;
  for (const Binding& b : *list) {
    if (b.end > pos) break;
    if (!b.is_augmented) visit(b);
  }
}

// `Cls.instance(...)`, `exc.DBAPIError.instance(...)`: a factory method called on a class.
bool CallsAClassFactory(const PythonFileModel& model, TSNode function) {
  if (!Is(function, "attribute")) return false;
  TSNode object = ts_node_child_by_field_name(function, "object", 6);
  std::string_view method = model.Text(ts_node_child_by_field_name(function, "attribute", 9));
  return NamesAClass(model, object) && !method.empty() && std::islower(static_cast<unsigned char>(method[0]));
}

}  // namespace

TSNode CallBoundToRaisedName(const PythonFileModel& model, TSNode value, int scope, uint32_t pos) {
  // `raise exc.with_traceback(tb)` raises exc.
  if (Is(value, "call")) {
    TSNode function = ts_node_child_by_field_name(value, "function", 8);
    if (!Is(function, "attribute") ||
        model.Text(ts_node_child_by_field_name(function, "attribute", 9)) != "with_traceback") {
      return TSNode{};
    }
    value = ts_node_child_by_field_name(function, "object", 6);
  }
  TSNode found{};
  PlainBindingsBefore(model, value, scope, pos, [&](const Binding& b) {
    TSNode v = Unparenthesize(b.value);
    TSNode function = Is(v, "call") ? ts_node_child_by_field_name(v, "function", 8) : TSNode{};
    // The last binding that makes an exception (`else: exc = None` branches do not).
    if (!ts_node_is_null(function) && (NamesAClass(model, function) || CallsAClassFactory(model, function))) {
      found = v;
    }
  });
  return found;
}

TSNode WithTracebackOfName(const PythonFileModel& model, TSNode value) {
  if (!Is(value, "call")) return TSNode{};
  TSNode function = ts_node_child_by_field_name(value, "function", 8);
  if (ts_node_is_null(function) || !Is(function, "attribute") ||
      model.Text(ts_node_child_by_field_name(function, "attribute", 9)) != "with_traceback") {
    return TSNode{};
  }
  TSNode object = Unparenthesize(ts_node_child_by_field_name(function, "object", 6));
  if (ts_node_is_null(object) || (!Is(object, "identifier") && !Is(object, "attribute"))) return TSNode{};
  return object;
}

std::optional<std::string> ClassOfIndirectRaise(const PythonFileModel& model, TSNode function, TSNode arguments,
                                                int scope, uint32_t pos) {
  function = Unparenthesize(function);
  if (NamesAClass(model, function)) return std::nullopt;  // written as a class already
  if (CallsAClassFactory(model, function)) {
    return std::string(model.Text(ts_node_child_by_field_name(function, "object", 6)));
  }
  std::optional<std::string> first_class;
  PlainBindingsBefore(model, function, scope, pos, [&](const Binding& b) {
    TSNode v = Unparenthesize(b.value);
    if (!first_class && NamesAClass(model, v)) first_class = std::string(model.Text(v));
  });
  if (first_class) return first_class;
  // `async def _wrap_create_connection(self, *args, req, client_error=ClientConnectorError, **kwargs): ...
  // raise client_error(req.connection_key, exc)`: the class a parameter holds unless the caller passes another.
  if (Is(function, "identifier") && scope > 0) {
    TSNode params = ts_node_child_by_field_name(model.scopes[static_cast<size_t>(scope)].node, "parameters", 10);
    for (TSNode p : ts_node_is_null(params) ? std::vector<TSNode>() : NamedChildren(params)) {
      if (!Is(p, "default_parameter") && !Is(p, "typed_default_parameter")) continue;
      TSNode name = ts_node_child_by_field_name(p, "name", 4);
      TSNode value = ts_node_child_by_field_name(p, "value", 5);
      if (ts_node_is_null(name) || ts_node_is_null(value) || model.Text(name) != model.Text(function)) continue;
      value = Unparenthesize(value);
      if (NamesAClass(model, value)) return std::string(model.Text(value));
      break;
    }
  }
  CallArguments args = SplitArguments(model, arguments);
  if (!args.positional_with_splats.empty() && NamesAnExceptionClass(model, args.positional_with_splats[0])) {
    return std::string(model.Text(args.positional_with_splats[0]));
  }
  return std::nullopt;
}

std::optional<WarningInstance> WarningOfInstance(const PythonFileModel& model, TSNode message) {
  message = Unparenthesize(message);
  if (!Is(message, "call")) return std::nullopt;
  TSNode function = ts_node_child_by_field_name(message, "function", 8);
  if (!NamesAClass(model, function)) return std::nullopt;
  WarningInstance out;
  out.category = std::string(model.Text(function));
  CallArguments args = SplitArguments(model, ts_node_child_by_field_name(message, "arguments", 9));
  if (!args.positional_with_splats.empty()) out.message = args.positional_with_splats[0];
  for (const auto& [name, value] : args.keywords) {
    if (name == "message" && ts_node_is_null(out.message)) out.message = value;
  }
  return out;
}

std::optional<std::string> MessageOfRaise(const PythonFileModel& model, PythonTemplateBuilder& builder, TSNode call,
                                          int scope, uint32_t pos, std::string_view class_argument, TSNode* message) {
  TSNode ignored{};
  TSNode& chosen = message ? *message : ignored;
  chosen = TSNode{};
  TSNode arguments = ts_node_child_by_field_name(call, "arguments", 9);
  CallArguments args = SplitArguments(model, arguments);
  if (args.positional_with_splats.empty() && args.keywords.empty()) {
    return args.has_splat ? std::nullopt : std::optional<std::string>("");
  }
  std::optional<std::string> first;
  TSNode first_node{};
  for (TSNode arg : args.positional_with_splats) {
    if (!class_argument.empty() && model.Text(arg) == class_argument) continue;
    Template t = builder.Build(arg, scope, pos);
    if (t.HasLiteralText()) {
      chosen = arg;
      return t.Render();
    }
    if (!first) {
      first = t.Render();
      first_node = arg;
    }
  }
  if (first) {
    // `Error(request_info, history, message="...")`: a keyword message with text says more than a
    // positional argument without any.
    for (const char* preferred : {"message", "msg", "detail"}) {
      for (const auto& [name, value] : args.keywords) {
        if (name != preferred) continue;
        Template t = builder.Build(value, scope, pos);
        if (t.HasLiteralText()) {
          chosen = value;
          return t.Render();
        }
      }
    }
    chosen = first_node;
    return first;
  }
  for (const char* preferred : {"message", "msg", "detail"}) {
    for (const auto& [name, value] : args.keywords) {
      if (name == preferred) {
        chosen = value;
        return builder.Build(value, scope, pos).Render();
      }
    }
  }
  return std::nullopt;
}

}  // namespace errdex
