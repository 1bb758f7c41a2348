; Names bound in a scope, which templates resolve (`msg = ...; raise X(msg)`).
(assignment
  left: (identifier) @assign.name
  right: (_) @assign.value) @assign

(augmented_assignment
  left: (identifier) @assign.name
  operator: "+="
  right: (_) @assign.value) @augassign
