; Bindings in C# for graver's find_references and edit_rename_symbol, within one file (written for graver:
; the grammar package ships no locals query). Capture names: see grammars/typescript/queries/bindings.scm and
; docs/refactors.md. Fields, properties and methods bind in their type's scope, so a bare `count` or
; `Helper()` inside the class resolves to them like `this.count`; a local is visible from the end of its
; declaration on (@scope.after). Names in other files (namespaces, usings) are not resolved: a symbol other
; files may use is refused for a project-wide rename (src/structural/shared/file_local.ts).

; ---- scopes
[(method_declaration) (constructor_declaration) (destructor_declaration) (operator_declaration)
 (conversion_operator_declaration) (local_function_statement) (lambda_expression) (anonymous_method_expression)
 (accessor_declaration)] @scope.function
[(block) (for_statement) (foreach_statement) (catch_clause) (using_statement) (switch_section)] @scope.block
[(class_declaration) (struct_declaration) (interface_declaration) (record_declaration) (enum_declaration)]
  @scope.class
(block (local_declaration_statement) @scope.after)

; ---- definitions
(class_declaration name: (identifier) @definition.lexical)
(struct_declaration name: (identifier) @definition.lexical)
(interface_declaration name: (identifier) @definition.lexical)
(record_declaration name: (identifier) @definition.lexical)
(enum_declaration name: (identifier) @definition.lexical)
(delegate_declaration name: (identifier) @definition.lexical)
(method_declaration name: (identifier) @definition.lexical)
(local_function_statement name: (identifier) @definition.lexical)
(property_declaration name: (identifier) @definition.lexical)
(event_declaration name: (identifier) @definition.lexical)
(field_declaration (variable_declaration (variable_declarator name: (identifier) @definition.lexical)))
(event_field_declaration (variable_declaration (variable_declarator name: (identifier) @definition.lexical)))
(enum_member_declaration name: (identifier) @definition.lexical)
(local_declaration_statement (variable_declaration (variable_declarator name: (identifier) @definition.lexical)))
(variable_declarator (tuple_pattern name: (identifier) @definition.lexical))
(for_statement initializer: (variable_declaration (variable_declarator name: (identifier) @definition.lexical)))
(using_statement (variable_declaration (variable_declarator name: (identifier) @definition.lexical)))
(foreach_statement left: (identifier) @definition.lexical)
(catch_declaration name: (identifier) @definition.lexical)
(declaration_expression name: (identifier) @definition.lexical)
(declaration_pattern name: (identifier) @definition.lexical)
(parameter name: (identifier) @definition.parameter)
(implicit_parameter) @definition.parameter
(type_parameter name: (identifier) @definition.parameter)

; ---- members: `this.x`, `obj.x`
(member_access_expression expression: "this" name: (identifier) @member.this)
(member_access_expression expression: (identifier) @member.object name: (identifier) @member.property)
(member_access_expression name: (identifier) @member.property)
(member_binding_expression name: (identifier) @member.property)
(qualified_name name: (identifier) @member.property)

; ---- namespaces and usings name other files: not resolved
(using_directive (_) @skip)
(namespace_declaration name: (_) @skip)
(file_scoped_namespace_declaration name: (_) @skip)

; ---- references
(identifier) @reference
