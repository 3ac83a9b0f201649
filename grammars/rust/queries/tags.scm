; Definitions in Rust for graver's outline and symbol tools.
; Derived from tree-sitter-rust@0.24.0 queries/tags.scm (struct, enum, union, type,
; function, trait, mod, macro definitions); own additions: impl blocks (named by
; their header, "impl Display for Point", and answering to the type's name via
; @alias), methods in impl and trait blocks, consts, statics, fields, variants.
; Earlier patterns win when two match the same node.

(struct_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(union_item name: (type_identifier) @name) @definition.union
(type_item name: (type_identifier) @name) @definition.type
(trait_item name: (type_identifier) @name) @definition.trait
(mod_item name: (identifier) @name) @definition.module
(macro_definition name: (identifier) @name) @definition.macro

; impl blocks: no @name, so the name is the header up to the body
(impl_item
  type: [(type_identifier) @alias
         (generic_type type: (type_identifier) @alias)
         (scoped_type_identifier name: (type_identifier) @alias)
         (generic_type type: (scoped_type_identifier name: (type_identifier) @alias))]) @definition.impl
(impl_item) @definition.impl

(impl_item body: (declaration_list (function_item name: (identifier) @name) @definition.method))
(trait_item
  body: (declaration_list
    [(function_item name: (identifier) @name) (function_signature_item name: (identifier) @name)] @definition.method))
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function

(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.variable
(associated_type name: (type_identifier) @name) @definition.type

(field_declaration_list (field_declaration name: (field_identifier) @name) @definition.field)
(enum_variant_list (enum_variant name: (identifier) @name) @definition.enum_member)
