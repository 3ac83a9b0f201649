; Definitions in Scala for graver's outline and symbol tools.
; Derived from tree-sitter-scala@0.24.0 queries/tags.scm (class, object, trait,
; enum, function, val/var, type definitions); own additions: methods inside
; template bodies, given definitions, enum cases.

(class_definition name: (identifier) @name) @definition.class
(object_definition name: (identifier) @name) @definition.class
(trait_definition name: (identifier) @name) @definition.trait
(enum_definition name: (identifier) @name) @definition.enum
(given_definition name: (identifier) @name) @definition.variable
(template_body (function_definition name: (identifier) @name) @definition.method)
(template_body (function_declaration name: (identifier) @name) @definition.method)
(function_definition name: (identifier) @name) @definition.function
(function_declaration name: (identifier) @name) @definition.function
(type_definition name: (type_identifier) @name) @definition.type
(template_body (val_definition pattern: (identifier) @name) @definition.constant)
(compilation_unit (val_definition pattern: (identifier) @name) @definition.constant)
(template_body (var_definition pattern: (identifier) @name) @definition.variable)
(compilation_unit (var_definition pattern: (identifier) @name) @definition.variable)
(template_body (val_declaration name: (identifier) @name) @definition.constant)
(compilation_unit (val_declaration name: (identifier) @name) @definition.constant)
(template_body (var_declaration name: (identifier) @name) @definition.variable)
(compilation_unit (var_declaration name: (identifier) @name) @definition.variable)
(simple_enum_case name: (identifier) @name) @definition.enum_member
(full_enum_case name: (identifier) @name) @definition.enum_member
