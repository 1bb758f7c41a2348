; Error sites. Capture names are the contract with src/extract/python_extractor.cc:
;   @site.raise    a raise statement (bare `raise` becomes kind "reraise")
;   @site.assert   an assert statement (a site only when it has a message: checked in code, since a
;                  `\` line continuation before the message is a named extra node)
;   @site.call     a call that may be warnings.warn; @call.module/@call.attr or @call.name tell which
(raise_statement) @site.raise

(assert_statement) @site.assert

(call
  function: (attribute
    object: (identifier) @call.module
    attribute: (identifier) @call.attr)
  (#eq? @call.attr "warn")) @site.call

(call
  function: (identifier) @call.name) @site.call
