; Regions the parser could not make sense of: sites inside them are not kept.
(ERROR) @syntax.error
