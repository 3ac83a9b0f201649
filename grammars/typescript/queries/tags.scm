; Definitions in TypeScript for graver's outline and symbol tools (tsx inherits this file).
; Derived from tree-sitter-javascript@0.25.0 and tree-sitter-typescript@0.23.2
; queries/tags.scm (definitions only); own additions: fields, enums, type aliases,
; namespaces, constants and variables.
; Earlier patterns win when two match the same node. Patterns are deliberately
; flat (not anchored under `program` or `class_body`): anchored patterns make the
; query 3-5x slower on large files. Locals (variables, object-literal methods,
; properties of inline types inside functions) are dropped by the symbol engine
; (see "local_kinds" in src/syntax/queries.ts).

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(function_signature name: (identifier) @name) @definition.function
(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.enum
(internal_module name: (_) @name) @definition.namespace
(module name: (_) @name) @definition.module

(method_definition
  name: (property_identifier) @name
  (#eq? @name "constructor")) @definition.constructor
(method_definition name: (_) @name) @definition.method
(method_signature name: (_) @name) @definition.method
(abstract_method_signature name: (_) @name) @definition.method
(public_field_definition name: (_) @name) @definition.field
; a mapped type (`{ [K in keyof T]: X }`) is a whole type, not a member: never listed
(index_signature (mapped_type_clause)) @definition.local
(index_signature) @definition.field
(property_signature name: (_) @name) @definition.property
(enum_body [(property_identifier) (enum_assignment name: (_))] @name @definition.enum_member)

; a loop's own variables are locals wherever the loop is (kind "local" is never listed)
(for_statement
  initializer: [(lexical_declaration (variable_declarator) @definition.local)
                (variable_declaration (variable_declarator) @definition.local)])

; bindings: functions first, then constants, then variables
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
; a namespace's body is a block too, but what it declares are its members
(internal_module body: (statement_block (lexical_declaration "const" (variable_declarator name: (identifier) @name) @definition.constant)))
(internal_module body: (statement_block [(lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable)
                                          (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)]))
(module body: (statement_block (lexical_declaration "const" (variable_declarator name: (identifier) @name) @definition.constant)))
(module body: (statement_block [(lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable)
                                 (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)]))

; names declared in a block (a function body, or an if/for/try body of a script) are locals: never listed
(statement_block (lexical_declaration (variable_declarator) @definition.local))
(statement_block (variable_declaration (variable_declarator) @definition.local))
(lexical_declaration "const" (variable_declarator name: (identifier) @name) @definition.constant)
(variable_declarator name: (identifier) @name) @definition.variable

; top-level assignments of functions: exports.f = function () {}
(expression_statement
  (assignment_expression
    left: [(identifier) @name (member_expression property: (property_identifier) @name)]
    right: [(arrow_function) (function_expression) (generator_function)]) @definition.function)
