; Scopes that give a site its qualified name, like Python's __qualname__.
(function_definition name: (identifier) @scope.name) @scope.function
(class_definition name: (identifier) @scope.name) @scope.class
(lambda) @scope.lambda
