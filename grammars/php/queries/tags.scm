; Definitions in PHP for graver's outline and symbol tools.
; Derived from tree-sitter-php@0.24.2 queries/tags.scm (namespace, interface,
; class, trait, function, method definitions); own additions: enums and cases,
; constants, properties, constructors.

(namespace_definition name: (namespace_name) @name) @definition.namespace
(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
(enum_case name: (name) @name) @definition.enum_member
(function_definition name: (name) @name) @definition.function
(method_declaration name: (name) @name (#eq? @name "__construct")) @definition.constructor
(method_declaration name: (name) @name) @definition.method
(property_declaration (property_element name: (variable_name (name) @name))) @definition.field
(const_declaration (const_element (name) @name)) @definition.constant
