; Definitions in Zig for graver's outline and symbol tools (the grammar package
; ships no tags query): functions, container declarations bound to a name
; (struct, enum, union, opaque, error set), fields, tests, top-level variables.

(function_declaration name: (identifier) @name) @definition.function
(variable_declaration (identifier) @name (struct_declaration) @body) @definition.struct
(variable_declaration (identifier) @name (enum_declaration) @body) @definition.enum
(variable_declaration (identifier) @name (union_declaration) @body) @definition.union
(variable_declaration (identifier) @name (opaque_declaration) @body) @definition.type
(variable_declaration (identifier) @name (error_set_declaration) @body) @definition.type
(container_field name: (identifier) @name) @definition.field
(test_declaration [(string) (identifier)] @name) @definition.test
(source_file (variable_declaration (identifier) @name) @definition.variable)
(struct_declaration (variable_declaration (identifier) @name) @definition.variable)
