; Regions the parser could not make sense of. A clean statement inside one is kept only when a
; definition inside the same region encloses it, so that its scope is known.
(ERROR) @syntax.error
