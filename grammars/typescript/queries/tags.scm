; Definitions in TypeScript for graver's outline and symbol tools (tsx inherits this file).
; Derived from tree-sitter-javascript@0.25.0 and tree-sitter-typescript@0.23.2
; queries/tags.scm (definitions only); own additions: fields, enums, type aliases,
; namespaces, ambient declarations, top-level constants and variables.
; Earlier patterns win when two match the same node.

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

(class_body
  (method_definition
    name: (property_identifier) @name
    (#eq? @name "constructor")) @definition.constructor)
(class_body (method_definition name: (_) @name) @definition.method)
(class_body (method_signature name: (_) @name) @definition.method)
(class_body (abstract_method_signature name: (_) @name) @definition.method)
(class_body (public_field_definition name: (_) @name) @definition.field)
(class_body (index_signature) @definition.field)
(interface_body (method_signature name: (_) @name) @definition.method)
(interface_body (property_signature name: (_) @name) @definition.property)
(object_type (method_signature name: (_) @name) @definition.method)
(object_type (property_signature name: (_) @name) @definition.property)
(enum_body [(property_identifier) (enum_assignment name: (_))] @name @definition.enum_member)

; top-level and namespace-level bindings: functions first, then constants, then variables
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
     declaration: (lexical_declaration "const" (variable_declarator name: (identifier) @name) @definition.constant))
   (ambient_declaration
     (lexical_declaration "const" (variable_declarator name: (identifier) @name) @definition.constant))])
(program
  [(lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable)
   (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)
   (export_statement
     declaration: (lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable))
   (export_statement
     declaration: (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable))
   (ambient_declaration
     [(lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable)
      (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)])])

; top-level assignments of functions: exports.f = function () {}
(program
  (expression_statement
    (assignment_expression
      left: [(identifier) @name (member_expression property: (property_identifier) @name)]
      right: [(arrow_function) (function_expression) (generator_function)]) @definition.function))
