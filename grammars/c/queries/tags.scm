; Definitions in C for graver's outline and symbol tools (cpp inherits this file).
; Derived from tree-sitter-c@0.24.1 queries/tags.scm (struct, union, function,
; type, enum definitions); own additions: pointer-returning functions, top-level
; prototypes, fields, enumerators, macros, top-level variables. Only specifiers
; with a body are definitions (`struct S *p` is a reference).

(function_definition
  declarator: [(function_declarator declarator: (identifier) @name)
               (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
               (pointer_declarator
                 declarator: (pointer_declarator
                   declarator: (function_declarator declarator: (identifier) @name)))]) @definition.function
(translation_unit
  (declaration
    declarator: [(function_declarator declarator: (identifier) @name)
                 (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))]) @definition.function)

(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.union
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
(type_definition
  declarator: (pointer_declarator declarator: (type_identifier) @name)) @definition.type

(field_declaration_list
  (field_declaration
    declarator: [(field_identifier) @name
                 (pointer_declarator declarator: (field_identifier) @name)
                 (array_declarator declarator: (field_identifier) @name)]) @definition.field)
(enumerator name: (identifier) @name) @definition.enum_member

(preproc_function_def name: (identifier) @name) @definition.macro
(preproc_def name: (identifier) @name) @definition.macro

(translation_unit
  (declaration
    declarator: [(identifier) @name
                 (init_declarator declarator: (identifier) @name)
                 (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
                 (pointer_declarator declarator: (identifier) @name)
                 (array_declarator declarator: (identifier) @name)
                 (init_declarator declarator: (array_declarator declarator: (identifier) @name))]) @definition.variable)
