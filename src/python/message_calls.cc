#include "python/message_calls.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "python/python_fields.h"
#include "python/raised_value.h"

namespace errdex {

namespace {

struct RaisedInstance {
  std::string type;
  std::string message;
};

// `PytestConfigWarning("text")` handed to a helper that warns or raises it: the class as written and the
// message (its first positional argument, or `message=`/`msg=`), when the class name is capitalized and the
// message has literal text.
std::optional<RaisedInstance> InstanceArgument(const PythonFileModel& model, PythonTemplateBuilder& builder,
                                               TSNode argument, int scope, uint32_t pos) {
  argument = Unparenthesize(argument);
  if (!Is(argument, "call")) return std::nullopt;
  TSNode function = ts_node_child_by_field_name(argument, "function", 8);
  if (ts_node_is_null(function) || (!Is(function, "identifier") && !Is(function, "attribute"))) return std::nullopt;
  std::string type(model.Text(function));
  const size_t dot = type.rfind('.');
  const char first = dot == std::string::npos ? type[0] : type[dot + 1];
  if (type.size() > 128 || !std::isupper(static_cast<unsigned char>(first))) return std::nullopt;
  CallArguments args = SplitArguments(model, ts_node_child_by_field_name(argument, "arguments", 9));
  TSNode message{};
  if (!args.positional.empty()) message = args.positional[0];
  for (const auto& [keyword, value] : args.keywords) {
    if (ts_node_is_null(message) && (keyword == "message" || keyword == "msg")) message = value;
  }
  if (ts_node_is_null(message)) return std::nullopt;
  Template t = builder.Build(message, scope, pos);
  if (!t.HasLiteralText()) {
    // `PytestConfigWarning(message)` with `message` a parameter of the calling function: that function
    // forwards its callers' text (docs/extraction.md, "Raising helpers": derived helpers).
    message = Unparenthesize(message);
    const std::vector<std::string>& params = model.scopes[static_cast<size_t>(scope)].parameters;
    if (!Is(message, "identifier") || std::find(params.begin(), params.end(), model.Text(message)) == params.end()) {
      return std::nullopt;
    }
  }
  return RaisedInstance{std::move(type), t.Render()};
}

}  // namespace

void ReadMessageCall(const PythonFileModel& model, PythonTemplateBuilder& builder, const ErrorRegions& errors,
                     const ImportBindings& imports, const PendingCall& pending, FileFacts* facts) {
  // Logging and output calls hand text to no raise: skip them rather than store every log message.
  static const std::unordered_set<std::string_view> kNotHelpers = {
      "print",      "debug",      "info", "warning", "warn",        "exception", "critical",     "log",
      "write",      "append",     "echo", "secho",   "assertEqual", "assertIn",  "assertRaises", "assertRaisesRegex",
      "assertTrue", "assertFalse"};
  std::string_view name = model.Text(pending.name);
  // `logger.warn("text")` logs; `self.warn(PytestCollectionWarning("text"))` (pytest's Node.warn) hands a
  // warning instance to a helper that issues it: kept when an argument is an instance of a Warning class.
  // (`warnings.warn(...)` itself is a site, not a call of a helper.)
  const bool warns_instance = name == "warn" && !(!ts_node_is_null(pending.receiver) &&
                                                  imports.IsWarningsModule(std::string(model.Text(pending.receiver))));
  if (kNotHelpers.count(name) && !warns_instance) return;
  if (ts_node_has_error(pending.statement)) return;
  const uint32_t start = ts_node_start_byte(pending.statement);
  const uint32_t end = ts_node_end_byte(pending.statement);
  if (errors.RegionStart(start, end) >= 0) return;
  const int scope = model.ScopeAt(start, end);
  // The call: the statement itself, the value assigned (`data = _fail_neg(data, errmsg)`) or returned.
  std::vector<TSNode> exprs = NamedChildren(pending.statement);
  if (!exprs.empty() && Is(exprs[0], "assignment")) exprs = {ts_node_child_by_field_name(exprs[0], "right", 5)};
  if (exprs.empty() || ts_node_is_null(exprs[0]) || !Is(exprs[0], "call")) return;
  CallArguments args = SplitArguments(model, ts_node_child_by_field_name(exprs[0], "arguments", 9));
  if (args.has_splat) return;
  MessageCall call;
  constexpr size_t kMaxArguments = 4;
  for (size_t i = 0; i < args.positional.size() && i < kMaxArguments; ++i) {
    Template t = builder.Build(args.positional[i], scope, start);
    if (t.HasLiteralText()) {
      call.arguments.push_back({static_cast<int>(i), "", t.Render(), ""});
    } else if (std::optional<RaisedInstance> instance =
                   InstanceArgument(model, builder, args.positional[i], scope, start)) {
      call.arguments.push_back({static_cast<int>(i), "", instance->message, instance->type});
    } else if (NamesAClass(model, Unparenthesize(args.positional[i])) && model.Text(args.positional[i]).size() <= 128) {
      call.class_arguments.emplace_back(static_cast<int>(i), std::string(model.Text(args.positional[i])));
    }
  }
  for (const auto& [keyword, value] : args.keywords) {
    Template t = builder.Build(value, scope, start);
    if (t.HasLiteralText()) call.arguments.push_back({-1, std::string(keyword), t.Render(), ""});
    if (call.arguments.size() >= 2 * kMaxArguments) break;
  }
  if (call.arguments.empty()) return;
  if (warns_instance && std::none_of(call.arguments.begin(), call.arguments.end(), [](const MessageCall::Argument& a) {
        return a.instance_type.ends_with("Warning");
      })) {
    return;
  }
  call.name = std::string(name);
  call.receiver = ts_node_is_null(pending.receiver) ? "" : std::string(model.Text(pending.receiver));
  if (call.receiver.size() > 64) call.receiver = call.receiver.substr(0, 64);
  call.function = model.scopes[static_cast<size_t>(scope)].qualname;
  TSPoint point = ts_node_start_point(pending.statement);
  call.line = static_cast<int>(point.row) + 1;
  call.col = static_cast<int>(point.column);
  facts->message_calls.push_back(std::move(call));
}

}  // namespace errdex
