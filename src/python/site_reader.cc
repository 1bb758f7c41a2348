#include "python/site_reader.h"

#include <optional>
#include <string>

#include "python/helper_definitions.h"
#include "python/message_alternatives.h"
#include "python/python_fields.h"
#include "python/raised_value.h"

namespace errdex {

using python_query::Role;

void SiteReader::Read(const RawSite& raw, FileFacts* facts) {
  const uint32_t start = ts_node_start_byte(raw.node);
  const int scope = errors_.SoundScope(model_, root_, raw.node, &site_checks_);
  if (scope < 0) return;
  Site site;
  site.function = model_.scopes[static_cast<size_t>(scope)].qualname;
  TSNode message_node{};  // the expression of the message, when there is one

  if (raw.role == Role::kSiteRaise) {
    TSNode cause = ts_node_child_by_field_name(raw.node, "cause", 5);
    TSNode value{};
    for (TSNode c : NamedChildren(raw.node)) {
      if (ts_node_is_null(cause) || !ts_node_eq(c, cause)) {
        value = c;
        break;
      }
    }
    if (ts_node_is_null(value)) {
      site.kind = "reraise";
    } else {
      site.kind = "raise";
      while (Is(value, "parenthesized_expression") && NamedChildren(value).size() == 1) {
        value = NamedChildren(value)[0];
      }
      if (TSNode bound = CallBoundToRaisedName(model_, value, scope, start); !ts_node_is_null(bound)) value = bound;
      // `raise exc.with_traceback(tb)` of a name bound to no class call (an `except ... as exc` name) raises exc.
      if (TSNode named = WithTracebackOfName(model_, value); !ts_node_is_null(named)) value = named;
      if (Is(value, "call")) {
        TSNode function = ts_node_child_by_field_name(value, "function", 8);
        // X(...).with_traceback(tb) raises X(...).
        if (Is(function, "attribute")) {
          TSNode object = ts_node_child_by_field_name(function, "object", 6);
          TSNode attribute = ts_node_child_by_field_name(function, "attribute", 9);
          if (!ts_node_is_null(object) && Is(object, "call") && model_.Text(attribute) == "with_traceback") {
            value = object;
            function = ts_node_child_by_field_name(value, "function", 8);
          }
        }
        site.type =
            ClassOfIndirectRaise(model_, function, ts_node_child_by_field_name(value, "arguments", 9), scope, start)
                .value_or(std::string(model_.Text(Unparenthesize(function))));
        site.template_text = MessageOfRaise(model_, builder_, value, scope, start, *site.type, &message_node);
        site.class_texts = class_texts_->TextsOfRaise(model_, builder_, *site.type, value);
      } else {
        site.type = std::string(model_.Text(value));
      }
    }
  } else if (raw.role == Role::kSiteAssert) {
    // The message is the second expression; extras such as a `\` line continuation are not one.
    std::vector<TSNode> parts = NamedChildren(raw.node);
    if (parts.size() < 2) return;
    const TSNode message = parts[1];
    site.kind = "assert";
    site.type = "AssertionError";
    site.template_text = builder_.Build(message, scope, start).Render();
    message_node = message;
  } else {
    bool is_warn = false;
    if (!ts_node_is_null(raw.call_module)) {
      is_warn = imports_.IsWarningsModule(std::string(model_.Text(raw.call_module)));
    } else if (!ts_node_is_null(raw.call_name)) {
      is_warn = imports_.IsWarnFunction(std::string(model_.Text(raw.call_name)));
    }
    if (!is_warn) return;
    site.kind = "warn";
    CallArguments args = SplitArguments(model_, ts_node_child_by_field_name(raw.node, "arguments", 9));
    TSNode message{}, category{};
    // As for raise, a starred argument stands where it is: `warn(*args)` has the placeholder `{*args}`.
    if (!args.positional_with_splats.empty()) message = args.positional_with_splats[0];
    if (args.positional_with_splats.size() > 1) category = args.positional_with_splats[1];
    for (const auto& [name, value] : args.keywords) {
      if (name == "message" && ts_node_is_null(message)) message = value;
      if (name == "category" && ts_node_is_null(category)) category = value;
    }
    // `category=None` (warn_explicit's way of saying "the message is a Warning instance") is no category.
    if (!ts_node_is_null(category) && model_.Text(Unparenthesize(category)) == "None") category = TSNode{};
    std::optional<WarningInstance> instance;
    if (ts_node_is_null(category) && !ts_node_is_null(message)) instance = WarningOfInstance(model_, message);
    if (instance) message = instance->message;
    site.type = instance                    ? instance->category
                : ts_node_is_null(category) ? std::string("UserWarning")
                                            : std::string(model_.Text(Unparenthesize(category)));
    if (!ts_node_is_null(message)) site.template_text = builder_.Build(message, scope, start).Render();
    message_node = message;
  }
  if (!ts_node_is_null(message_node) && site.template_text)
    NoteMessageAlternatives(builder_, message_node, scope, start, &site);
  lines_.FillLocation(raw.node, snippet_context_, &site);
  NoteRaisingHelper(model_, site, scope, ts_node_start_byte(raw.node), facts);
  facts->sites.push_back(std::move(site));
  site_nodes_.push_back(raw.node);
}

}  // namespace errdex
