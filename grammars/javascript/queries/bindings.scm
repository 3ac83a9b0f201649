; Bindings in JavaScript for graver's find_references and edit_rename_symbol (the TypeScript file's
; patterns, with JavaScript's node types: parameters are patterns, fields are field_definition).
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
;   @base                                                a class's base class (`extends Base`): its members are the class's
;   @static                                              a member declared `static` (not inherited by instances)

; ---- scopes
[(function_declaration) (generator_function_declaration) (function_expression) (generator_function)
 (arrow_function) (method_definition) (class_static_block)] @scope.function
[(statement_block) (for_statement) (for_in_statement) (catch_clause) (switch_body)] @scope.block
[(class_declaration) (class)] @scope.class

; ---- definitions
(function_declaration name: (identifier) @definition.lexical)
(generator_function_declaration name: (identifier) @definition.lexical)
(function_expression name: (identifier) @definition.lexical)
(class_declaration name: (identifier) @definition.lexical)
(class name: (identifier) @definition.lexical)
(lexical_declaration (variable_declarator name: (identifier) @definition.lexical))
(variable_declaration (variable_declarator name: (identifier) @definition.var))
(lexical_declaration (variable_declarator name: [(object_pattern) (array_pattern)] @pattern.lexical))
(variable_declaration (variable_declarator name: [(object_pattern) (array_pattern)] @pattern.var))
(for_in_statement left: (identifier) @definition.lexical)
(for_in_statement left: [(object_pattern) (array_pattern)] @pattern.lexical)
(catch_clause parameter: (identifier) @definition.lexical)
(catch_clause parameter: [(object_pattern) (array_pattern)] @pattern.lexical)
(arrow_function parameter: (identifier) @definition.parameter)
(formal_parameters (identifier) @definition.parameter)
(formal_parameters (assignment_pattern left: (identifier) @definition.parameter))
(formal_parameters (rest_pattern (identifier) @definition.parameter))
(formal_parameters [(object_pattern) (array_pattern)] @pattern.parameter)
(formal_parameters (assignment_pattern left: [(object_pattern) (array_pattern)] @pattern.parameter))

; ---- a class's base class (`class A extends Base`): a member of A may be one Base declares
(class_heritage . (identifier) @base)
; a static member belongs to the class itself: instances of a subclass do not inherit it
(field_definition "static" property: [(property_identifier) (private_property_identifier)] @static)
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
(field_definition property: [(property_identifier) (private_property_identifier)] @member.definition)
(method_definition name: [(property_identifier) (private_property_identifier)] @member.definition)
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

; ---- references
(shorthand_property_identifier) @reference.shorthand
(identifier) @reference

; ---- doc comments: {@link x}, @see x and @param x name symbols (JSDoc)
((comment) @doc (#match? @doc "^/\\*\\*"))
