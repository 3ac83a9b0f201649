; Bindings in PHP for graver's find_references and edit_rename_symbol, within one file (written for graver:
; the grammar package ships no locals query). Capture names: see grammars/typescript/queries/bindings.scm and
; docs/refactors.md. A variable (`$x`, renamed without its `$`) binds in its whole function, as PHP has no
; block scope; a closure sees the variables of its `use` clause, an arrow function those around it.
; Properties, constants and methods are members (`$this->x`, `self::X`, `Box::X`); a promoted constructor
; parameter is both. Other files (`namespace`, `use`, includes) are not resolved: a symbol other files may use
; is refused for a project-wide rename (src/structural/shared/file_local.ts).

; ---- scopes
[(function_definition) (method_declaration) (anonymous_function) (arrow_function)] @scope.function
[(class_declaration) (interface_declaration) (trait_declaration) (enum_declaration)] @scope.class

; ---- definitions
(function_definition name: (name) @definition.lexical)
(class_declaration name: (name) @definition.lexical)
(interface_declaration name: (name) @definition.lexical)
(trait_declaration name: (name) @definition.lexical)
(enum_declaration name: (name) @definition.lexical)
(assignment_expression left: (variable_name (name) @definition.lexical))
(list_literal (variable_name (name) @definition.lexical))
(simple_parameter name: (variable_name (name) @definition.parameter))
(variadic_parameter name: (variable_name (name) @definition.parameter))
(property_promotion_parameter name: (variable_name (name) @definition.parameter.property))
(foreach_statement (pair (variable_name (name) @definition.lexical)))
(foreach_statement (pair (by_ref (variable_name (name) @definition.lexical))))
(foreach_statement (_) . (variable_name (name) @definition.lexical) . body: (_))
(catch_clause name: (variable_name (name) @definition.lexical))
(global_declaration (variable_name (name) @definition.global))
(static_variable_declaration name: (variable_name (name) @definition.lexical))

; ---- members: properties, constants, methods, `$this->x`, `self::X`, `$obj->x`, `Box::X`
(property_element name: (variable_name (name) @member.definition))
(const_element (name) @member.definition)
(method_declaration name: (name) @member.definition)
((member_access_expression object: (variable_name (name) @_this) name: (name) @member.this) (#eq? @_this "this"))
((member_call_expression object: (variable_name (name) @_this) name: (name) @member.this) (#eq? @_this "this"))
(class_constant_access_expression (relative_scope) (name) @member.this)
(scoped_call_expression scope: (relative_scope) name: (name) @member.this)
(scoped_property_access_expression scope: (relative_scope) name: (variable_name (name) @member.this))
(member_access_expression object: (variable_name (name) @member.object) name: (name) @member.property)
(member_call_expression object: (variable_name (name) @member.object) name: (name) @member.property)
(member_access_expression name: (name) @member.property)
(member_call_expression name: (name) @member.property)
(nullsafe_member_access_expression name: (name) @member.property)
(nullsafe_member_call_expression name: (name) @member.property)
(class_constant_access_expression (name) @member.object . (name) @member.property)
(scoped_call_expression scope: (name) @member.object name: (name) @member.property)

; ---- `$this`, namespaces and imports: not names graver resolves
((variable_name (name) @skip) (#eq? @skip "this"))
(namespace_definition name: (namespace_name (name) @skip))
(namespace_use_clause (qualified_name (namespace_name (name) @skip)))
(namespace_use_clause (qualified_name (name) @skip))
(namespace_use_clause (name) @skip)

; ---- references
(name) @reference
