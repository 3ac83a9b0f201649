; Definitions in JavaScript for graver's outline and symbol tools.
; Derived from tree-sitter-javascript@0.25.0 queries/tags.scm (definitions only; the
; #strip!/#select-adjacent! doc handling is done by grammars/javascript/symbols.json).
; Earlier patterns win when two match the same node.

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (identifier) @name) @definition.class

(class_body
  (method_definition
    name: (property_identifier) @name
    (#eq? @name "constructor")) @definition.constructor)
(class_body (method_definition name: (_) @name) @definition.method)
(class_body (field_definition property: (_) @name) @definition.field)

; top-level bindings: functions first, then constants, then variables
(program
  [(lexical_declaration
     (variable_declarator
       name: (identifier) @name
       value: [(arrow_function) (function_expression) (generator_function)]) @definition.function)
   (variable_declaration
     (variable_declarator
       name: (identifier) @name
       value: [(arrow_function) (function_expression) (generator_function)]) @definition.function)
   (export_statement
     declaration: (lexical_declaration
       (variable_declarator
         name: (identifier) @name
         value: [(arrow_function) (function_expression) (generator_function)]) @definition.function))])
(program
  [(lexical_declaration "const" (variable_declarator name: (identifier) @name) @definition.constant)
   (export_statement
     declaration: (lexical_declaration "const" (variable_declarator name: (identifier) @name) @definition.constant))])
(program
  [(lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable)
   (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)
   (export_statement
     declaration: (lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable))
   (export_statement
     declaration: (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable))])

; top-level assignments of functions: exports.f = function () {}, Foo.prototype.bar = () => {}
(program
  (expression_statement
    (assignment_expression
      left: [(identifier) @name (member_expression property: (property_identifier) @name)]
      right: [(arrow_function) (function_expression) (generator_function)]) @definition.function))
