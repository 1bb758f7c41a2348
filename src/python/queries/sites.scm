; Error sites. Capture names are the contract with src/python/python_query.cc (RoleOf):
;   @site.raise    a raise statement (bare `raise` becomes kind "reraise")
;   @site.assert   an assert statement (a site only when it has a message: checked in code, since a
;                  `\` line continuation before the message is a named extra node)
;   @site.call     a call that may be warnings.warn or warnings.warn_explicit; @call.module/@call.attr or @call.name tell which
;   @message_call  a call statement that may hand a message to a raising helper (`self.fail("...")`), also
;                  as the value of an assignment or a return (`data = _fail_neg(data, errmsg)`,
;                  `return context._raise_error(ConversionSyntax, "...")`);
;                  @message_call.name is the called name, @message_call.receiver the object, if any
(raise_statement) @site.raise

(assert_statement) @site.assert

(call
  function: (attribute
    object: (identifier) @call.module
    attribute: (identifier) @call.attr)
  (#eq? @call.attr "warn")) @site.call

; warnings.warn_explicit(message, category, filename, lineno): pytest's `Node.warn` shows a warning at the
; user's file and line with it.
(call
  function: (attribute
    object: (identifier) @call.module
    attribute: (identifier) @call.attr)
  (#eq? @call.attr "warn_explicit")) @site.call

(call
  function: (identifier) @call.name) @site.call

(expression_statement
  (call
    function: (identifier) @message_call.name
    arguments: (argument_list))) @message_call

(expression_statement
  (call
    function: (attribute
      object: (_) @message_call.receiver
      attribute: (identifier) @message_call.name)
    arguments: (argument_list))) @message_call

(expression_statement
  (assignment
    right: (call
      function: (identifier) @message_call.name
      arguments: (argument_list)))) @message_call

(expression_statement
  (assignment
    right: (call
      function: (attribute
        object: (_) @message_call.receiver
        attribute: (identifier) @message_call.name)
      arguments: (argument_list)))) @message_call

(return_statement
  (call
    function: (identifier) @message_call.name
    arguments: (argument_list))) @message_call

(return_statement
  (call
    function: (attribute
      object: (_) @message_call.receiver
      attribute: (identifier) @message_call.name)
    arguments: (argument_list))) @message_call
