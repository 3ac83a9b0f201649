; Definitions in JavaScript for graver's outline and symbol tools.
; Derived from tree-sitter-javascript@0.25.0 queries/tags.scm (definitions only; the
; #strip!/#select-adjacent! doc handling is done by grammars/javascript/symbols.json).
; Earlier patterns win when two match the same node. Patterns are flat (see the
; typescript file); locals inside functions are dropped by the symbol engine.

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (identifier) @name) @definition.class

(method_definition
  name: (property_identifier) @name
  (#eq? @name "constructor")) @definition.constructor
(method_definition name: (_) @name) @definition.method
(field_definition property: (_) @name) @definition.field

; a loop's own variables are locals wherever the loop is (kind "local" is never listed)
(for_statement
  initializer: [(lexical_declaration (variable_declarator) @definition.local)
                (variable_declaration (variable_declarator) @definition.local)])

; bindings: functions first, then constants, then variables
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
; names declared in a block (a function body, or an if/for/try body of a script) are locals: never listed
(statement_block (lexical_declaration (variable_declarator) @definition.local))
(statement_block (variable_declaration (variable_declarator) @definition.local))
(lexical_declaration "const" (variable_declarator name: (identifier) @name) @definition.constant)
(variable_declarator name: (identifier) @name) @definition.variable

; assignments of functions: exports.f = function () {}, Foo.prototype.bar = () => {}
(expression_statement
  (assignment_expression
    left: [(identifier) @name (member_expression property: (property_identifier) @name)]
    right: [(arrow_function) (function_expression) (generator_function)]) @definition.function)
