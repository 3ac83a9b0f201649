; Bindings in Java for graver's find_references and edit_rename_symbol, within one file (written for graver:
; the grammar package ships no locals query). Capture names: see grammars/typescript/queries/bindings.scm and
; docs/refactors.md. Fields and methods bind in their class scope, so a bare `count` or `helper()` inside the
; class resolves to them like `this.count`; a local is visible from the end of its declaration on
; (@scope.after). Names in other files (imports, packages) are not resolved: a symbol other files may use
; is refused for a project-wide rename (src/structural/shared/file_local.ts).

; ---- scopes
[(method_declaration) (constructor_declaration) (compact_constructor_declaration) (lambda_expression)]
  @scope.function
[(block) (constructor_body) (for_statement) (enhanced_for_statement) (catch_clause) (try_with_resources_statement)
 (switch_block)] @scope.block
[(class_declaration) (interface_declaration) (enum_declaration) (record_declaration)
 (annotation_type_declaration)] @scope.class
(block (local_variable_declaration) @scope.after)
(constructor_body (local_variable_declaration) @scope.after)

; ---- definitions
(class_declaration name: (identifier) @definition.lexical)
(interface_declaration name: (identifier) @definition.lexical)
(enum_declaration name: (identifier) @definition.lexical)
(record_declaration name: (identifier) @definition.lexical)
(annotation_type_declaration name: (identifier) @definition.lexical)
(method_declaration name: (identifier) @definition.lexical)
(field_declaration declarator: (variable_declarator name: (identifier) @definition.lexical))
(enum_constant name: (identifier) @definition.lexical)
(local_variable_declaration declarator: (variable_declarator name: (identifier) @definition.lexical))
(formal_parameter name: (identifier) @definition.parameter)
(spread_parameter (variable_declarator name: (identifier) @definition.parameter))
(catch_formal_parameter name: (identifier) @definition.parameter)
(enhanced_for_statement name: (identifier) @definition.lexical)
(inferred_parameters (identifier) @definition.parameter)
(lambda_expression parameters: (identifier) @definition.parameter)
(resource name: (identifier) @definition.lexical)
(type_parameter (type_identifier) @definition.parameter)
(record_declaration parameters: (formal_parameters (formal_parameter name: (identifier) @definition.lexical)))

; ---- members: `this.x`, `this.m()`, `obj.x`, `obj.m()`
(field_access object: (this) field: (identifier) @member.this)
(method_invocation object: (this) name: (identifier) @member.this)
(field_access object: (identifier) @member.object field: (identifier) @member.property)
(field_access field: (identifier) @member.property)
(method_invocation object: (identifier) @member.object name: (identifier) @member.property)
(method_invocation object: (_) name: (identifier) @member.property)
(scoped_identifier name: (identifier) @member.property)
(scoped_type_identifier (type_identifier) @member.property .)

; ---- imports and packages name other files: not resolved
(import_declaration (_) @skip)
(package_declaration (_) @skip)

; ---- references
(identifier) @reference
(type_identifier) @reference
