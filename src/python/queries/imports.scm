; Imports, for warnings.warn detection and for resolving exception types to qualified names.
(import_statement
  name: (dotted_name) @import.module) @import

(import_statement
  name: (aliased_import
    name: (dotted_name) @import.module
    alias: (identifier) @import.alias)) @import

(import_from_statement
  module_name: (_) @import.from
  name: (dotted_name) @import.name) @import

(import_from_statement
  module_name: (_) @import.from
  name: (aliased_import
    name: (dotted_name) @import.name
    alias: (identifier) @import.alias)) @import

(import_from_statement
  module_name: (_) @import.from
  (wildcard_import) @import.wildcard) @import
