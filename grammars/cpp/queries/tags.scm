; inherits: c
; Definitions in C++ for graver's outline and symbol tools; the C patterns follow.
; Derived from tree-sitter-cpp@0.23.4 queries/tags.scm (class, struct, function,
; method definitions with qualified names); own additions: namespaces, member
; declarations, constructors, out-of-class methods answering to "Class/method"
; via @qualifier, templates through the template_declaration wrapper.

(namespace_definition name: (_) @name) @definition.namespace
(class_specifier name: (_) @name body: (_)) @definition.class
(struct_specifier name: (_) @name body: (_)) @definition.struct
(enum_specifier name: (_) @name body: (_)) @definition.enum
(alias_declaration name: (type_identifier) @name) @definition.type
(concept_definition name: (identifier) @name) @definition.type

; out-of-class definitions: void A::m() {} (the innermost scope is the qualifier)
(function_definition
  declarator: (function_declarator
    declarator: (qualified_identifier
      scope: (_) @qualifier
      name: [(identifier) (destructor_name) (operator_name) (field_identifier)] @name))) @definition.method
(function_definition
  declarator: (function_declarator
    declarator: (qualified_identifier
      name: (qualified_identifier
        scope: (_) @qualifier
        name: [(identifier) (destructor_name) (operator_name) (field_identifier)] @name)))) @definition.method
(function_definition
  declarator: (reference_declarator
    (function_declarator
      declarator: (qualified_identifier
        scope: (_) @qualifier
        name: [(identifier) (destructor_name) (operator_name)] @name)))) @definition.method

; members
(field_declaration_list
  (function_definition
    declarator: (function_declarator
      declarator: [(field_identifier) (identifier) (destructor_name) (operator_name)] @name)) @definition.method)
(field_declaration_list
  (template_declaration
    (function_definition
      declarator: (function_declarator
        declarator: [(field_identifier) (identifier) (destructor_name) (operator_name)] @name)) @definition.method))
(field_declaration_list
  (field_declaration
    declarator: [(function_declarator declarator: [(field_identifier) (operator_name)] @name)
                 (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @name))
                 (reference_declarator (function_declarator declarator: (field_identifier) @name))]) @definition.method)
(field_declaration_list
  (declaration
    declarator: (function_declarator declarator: [(identifier) (destructor_name)] @name)) @definition.constructor)
(function_definition
  declarator: (function_declarator declarator: (destructor_name) @name)) @definition.method
