; Bindings in TypeScript for graver's find_references and edit_rename_symbol (tsx inherits this file).
; Written for graver (the grammar ships a 2-line locals.scm). The capture names are the contract
; src/syntax/bindings.ts reads (docs/refactors.md lists them):
;   @scope.function | @scope.block | @scope.class       scopes (the program is the module scope)
;   @definition.lexical | .var | .parameter              a name bound in the innermost scope (.var: the
;                                                        nearest function scope); the `name` of a scope
;                                                        node binds in the scope around it
;   @pattern.lexical | .var | .parameter + @pattern.leaf a destructuring pattern and the names it binds
;                                                        (a leaf outside any pattern root is a reference)
;   @reference, @reference.shorthand                     a use of a name ({x} in an object literal: shorthand)
;   @member.definition, @member.this, @member.property (+ @member.object)   class members and property access
;   @member.this.shorthand                               `{ x }` destructured from `this`: the variable x and the member x
;   @import.* @export.* @reexport.*                      module imports and exports
;   @base, @base.implements                              a class's supertypes (`extends Base`, `implements I`): a member
;                                                        of theirs is one symbol with the class's of that name
;   @static                                              a member declared `static` (not inherited by instances)
;   @typed.name + @typed.type                            a name declared with a written type (`c: Context`):
;                                                        `c.x` is a member of the type that name resolves to

; ---- scopes
[(function_declaration) (generator_function_declaration) (function_expression) (generator_function)
 (arrow_function) (method_definition) (class_static_block) (function_signature) (method_signature)
 (abstract_method_signature) (call_signature) (construct_signature) (function_type) (constructor_type)
 (type_alias_declaration)] @scope.function
[(statement_block) (for_statement) (for_in_statement) (catch_clause) (switch_body)] @scope.block
; an interface holds members as a class does (and binds its type parameters)
[(class_declaration) (abstract_class_declaration) (class) (interface_declaration)] @scope.class

; ---- definitions
(function_declaration name: (identifier) @definition.lexical)
(generator_function_declaration name: (identifier) @definition.lexical)
(function_signature name: (identifier) @definition.lexical)
(function_expression name: (identifier) @definition.lexical)
(class_declaration name: (type_identifier) @definition.lexical)
(abstract_class_declaration name: (type_identifier) @definition.lexical)
(class name: (type_identifier) @definition.lexical)
(interface_declaration name: (type_identifier) @definition.lexical)
(type_alias_declaration name: (type_identifier) @definition.lexical)
(enum_declaration name: (identifier) @definition.lexical)
(internal_module name: (identifier) @definition.lexical)
(type_parameter name: (type_identifier) @definition.parameter)
(lexical_declaration (variable_declarator name: (identifier) @definition.lexical))
(variable_declaration (variable_declarator name: (identifier) @definition.var))
(lexical_declaration (variable_declarator name: [(object_pattern) (array_pattern)] @pattern.lexical))
(variable_declaration (variable_declarator name: [(object_pattern) (array_pattern)] @pattern.var))
(for_in_statement left: (identifier) @definition.lexical)
(for_in_statement left: [(object_pattern) (array_pattern)] @pattern.lexical)
(catch_clause parameter: (identifier) @definition.lexical)
(catch_clause parameter: [(object_pattern) (array_pattern)] @pattern.lexical)
; a parameter property (`constructor(private x)`) is a parameter and a member of the class
(required_parameter [(accessibility_modifier) (override_modifier) "readonly"]
  pattern: (identifier) @definition.parameter.property)
(optional_parameter [(accessibility_modifier) (override_modifier) "readonly"]
  pattern: (identifier) @definition.parameter.property)
(required_parameter pattern: (identifier) @definition.parameter)
(optional_parameter pattern: (identifier) @definition.parameter)
(required_parameter pattern: (rest_pattern (identifier) @definition.parameter))
(required_parameter pattern: [(object_pattern) (array_pattern)] @pattern.parameter)
(optional_parameter pattern: [(object_pattern) (array_pattern)] @pattern.parameter)
(arrow_function parameter: (identifier) @definition.parameter)

; ---- written types: a name declared with a class type (`c: Context`, `c: hono.Context`, `const x = new Context()`): `x.f` on it is a
; member of that type
(required_parameter pattern: (identifier) @typed.name
  type: (type_annotation [(type_identifier) @typed.type (nested_type_identifier name: (type_identifier) @typed.type)
    (generic_type name: [(type_identifier) @typed.type (nested_type_identifier name: (type_identifier) @typed.type)])]))
(optional_parameter pattern: (identifier) @typed.name
  type: (type_annotation [(type_identifier) @typed.type (nested_type_identifier name: (type_identifier) @typed.type)
    (generic_type name: [(type_identifier) @typed.type (nested_type_identifier name: (type_identifier) @typed.type)])]))
(variable_declarator name: (identifier) @typed.name
  type: (type_annotation [(type_identifier) @typed.type (nested_type_identifier name: (type_identifier) @typed.type)
    (generic_type name: [(type_identifier) @typed.type (nested_type_identifier name: (type_identifier) @typed.type)])]))
(variable_declarator name: (identifier) @typed.name !type value: (new_expression constructor: (identifier) @typed.type))
; `x: T | null`, `x?: undefined | T`: a name that holds a T or nothing is a T where it is used as one
(required_parameter pattern: (identifier) @typed.name
  type: (type_annotation [(union_type . [(type_identifier) @typed.type (generic_type name: (type_identifier) @typed.type)] . (literal_type [(null) (undefined)]) .) (union_type . (literal_type [(null) (undefined)]) . [(type_identifier) @typed.type (generic_type name: (type_identifier) @typed.type)] .)]))
(optional_parameter pattern: (identifier) @typed.name
  type: (type_annotation [(union_type . [(type_identifier) @typed.type (generic_type name: (type_identifier) @typed.type)] . (literal_type [(null) (undefined)]) .) (union_type . (literal_type [(null) (undefined)]) . [(type_identifier) @typed.type (generic_type name: (type_identifier) @typed.type)] .)]))
(variable_declarator name: (identifier) @typed.name
  type: (type_annotation [(union_type . [(type_identifier) @typed.type (generic_type name: (type_identifier) @typed.type)] . (literal_type [(null) (undefined)]) .) (union_type . (literal_type [(null) (undefined)]) . [(type_identifier) @typed.type (generic_type name: (type_identifier) @typed.type)] .)]))

; ---- a class's base class (`class A extends Base<T>`): a member of A may be one Base declares
(class_heritage (extends_clause value: (identifier) @base))
(interface_declaration (extends_type_clause
  type: [(type_identifier) @base.implements (generic_type name: (type_identifier) @base.implements)]))
(class_heritage (implements_clause [(type_identifier) @base.implements (generic_type name: (type_identifier) @base.implements)]))
; a static member belongs to the class itself: instances of a subclass do not inherit it
(public_field_definition "static" name: [(property_identifier) (private_property_identifier)] @static)
(method_definition "static" name: [(property_identifier) (private_property_identifier)] @static)

; ---- destructuring leaves
(shorthand_property_identifier_pattern) @pattern.leaf.shorthand
(pair_pattern value: (identifier) @pattern.leaf)
; `{ a: b } = obj`: the key reads the property a of obj (a member access, like `obj.a`)
(pair_pattern key: (property_identifier) @member.property)
(array_pattern (identifier) @pattern.leaf)
(rest_pattern (identifier) @pattern.leaf)
(assignment_pattern left: (identifier) @pattern.leaf)

; ---- imports
(import_statement (import_clause (identifier) @import.default) source: (string (string_fragment) @import.source))
(import_statement (import_clause (namespace_import (identifier) @import.namespace))
  source: (string (string_fragment) @import.source))
; `import m = require("./m")`: the module object, as a namespace import
(import_statement (import_require_clause (identifier) @import.namespace source: (string (string_fragment) @import.source)))
(import_statement
  (import_clause (named_imports (import_specifier name: (_) @import.name alias: (identifier) @import.alias)))
  source: (string (string_fragment) @import.source))
(import_statement (import_clause (named_imports (import_specifier name: (identifier) @import.name !alias)))
  source: (string (string_fragment) @import.source))

; `import("./m")`: the module, at run time (what its value's properties are, only types would say)
(call_expression function: (import) arguments: (arguments . (string (string_fragment) @import.dynamic)))

; ---- exports
(export_statement "default" declaration: (_) @export.default)
(export_statement value: (identifier) @export.default_value)
(export_statement declaration: (_) @export.declaration)
(export_statement (export_clause (export_specifier name: (identifier) @export.local alias: (_)? @export.alias))
  !source)
(export_statement (export_clause (export_specifier name: (_) @reexport.name alias: (_)? @reexport.alias))
  source: (string (string_fragment) @reexport.source))
(export_statement "*" . source: (string (string_fragment) @reexport.all))
; `export * as ns from "m"`: the module m as one exported name
(export_statement (namespace_export (identifier) @reexport.namespace) source: (string (string_fragment) @reexport.source))

; ---- members
(public_field_definition name: [(property_identifier) (private_property_identifier)] @member.definition)
(method_definition name: [(property_identifier) (private_property_identifier)] @member.definition)
(method_signature name: (property_identifier) @member.definition)
(interface_body (property_signature name: (property_identifier) @member.definition))
(abstract_method_signature name: (property_identifier) @member.definition)
; `const { x, y: z } = this`, `({ x } = this)`: the keys are members of the class, as `this.x` is
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @member.this.shorthand) value: (this))
(variable_declarator name: (object_pattern (pair_pattern key: (property_identifier) @member.this)) value: (this))
(assignment_expression left: (object_pattern (shorthand_property_identifier_pattern) @member.this.shorthand) right: (this))
(assignment_expression left: (object_pattern (pair_pattern key: (property_identifier) @member.this)) right: (this))
; `super.x`: the member x of the base class
(member_expression object: (super) property: (property_identifier) @member.super)
(member_expression object: (this) property: [(property_identifier) (private_property_identifier)] @member.this)
(member_expression object: (identifier) @member.object property: (property_identifier) @member.property)
(member_expression property: (property_identifier) @member.property)
(nested_type_identifier module: (identifier) @member.object name: (type_identifier) @member.property)
(nested_type_identifier name: (type_identifier) @member.property)
; `ns.inner.T` in a type: `inner` is a property of ns
(nested_identifier object: (identifier) @member.object property: (property_identifier) @member.property)
(nested_identifier property: (property_identifier) @member.property)
; `{ a: 1 }`: the key is the property a of whatever type the literal is checked against (like `obj.a`)
(pair key: (property_identifier) @member.property)

; ---- references
(shorthand_property_identifier) @reference.shorthand
(identifier) @reference
(type_identifier) @reference

; ---- doc comments: {@link x}, @see x and @param x name symbols (JSDoc)
((comment) @doc (#match? @doc "^/\\*\\*"))
