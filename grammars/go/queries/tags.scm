; Definitions in Go for graver's outline and symbol tools.
; Derived from tree-sitter-go@0.25.0 queries/tags.scm (function_declaration,
; method_declaration, type_spec, const/var specs); own additions: the receiver
; type as @qualifier (so "Point/Move" finds "func (p *Point) Move"), struct and
; interface kinds with their bodies, struct fields, interface methods.
; Earlier patterns win when two match the same node.

(function_declaration name: (identifier) @name) @definition.function

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [(type_identifier) @qualifier
             (pointer_type (type_identifier) @qualifier)
             (generic_type type: (type_identifier) @qualifier)
             (pointer_type (generic_type type: (type_identifier) @qualifier))]))
  name: (field_identifier) @name) @definition.method
(method_declaration name: (field_identifier) @name) @definition.method

(type_spec
  name: (type_identifier) @name
  type: (struct_type (field_declaration_list) @body)) @definition.struct
(type_spec
  name: (type_identifier) @name
  type: (interface_type) @body) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type

(field_declaration_list (field_declaration name: (field_identifier) @name) @definition.field)
(interface_type (method_elem name: (field_identifier) @name) @definition.method)

(source_file (const_declaration (const_spec name: (identifier) @name) @definition.constant))
(source_file (var_declaration (var_spec name: (identifier) @name) @definition.variable))
