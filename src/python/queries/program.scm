; The program facts (docs/extraction.md, "Program facts"). Capture names are the contract with
; src/python/python_query.cc (RoleOf), read by src/python/program_facts.cc; what is recursive (attribute
; chains, tuple targets, chained assignments) is checked and walked in code:
;   @model.call       a call whose callee may be a dotted name; @model.callee is the callee (identifiers,
;                     attribute chains of identifiers and `super().name` are kept)
;   @model.write      an assignment statement (plain, chained, annotated or augmented) that may write
;                     attributes, module-level names or class attributes (in a class body)
;   @model.delete     a del statement (`del x.a`)
;   @model.global     a `global` declaration: the function's writes of those names are module state
;   @model.decorated  a decorated definition, for the decorators and first line of its function
(call
  function: [(identifier) (attribute)] @model.callee) @model.call

(expression_statement
  [(assignment) (augmented_assignment)] @model.write)

(delete_statement) @model.delete

(global_statement) @model.global

(decorated_definition) @model.decorated
