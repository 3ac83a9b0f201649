; Bindings in Kotlin for graver's find_references and edit_rename_symbol, within one file (written for
; graver: the grammar package ships no locals query). Capture names: see
; grammars/typescript/queries/bindings.scm and docs/refactors.md. Properties, constructor parameters and
; functions of a class bind in its scope, so a bare `count` or `helper()` in the class resolves to them like
; `this.count`; a local is visible from the end of its declaration on (@scope.after). Other files (packages,
; imports) are not resolved: a symbol other files may use is refused for a project-wide rename
; (src/structural/shared/file_local.ts).

; ---- scopes
[(function_declaration) (lambda_literal) (anonymous_function) (secondary_constructor) (getter) (setter)]
  @scope.function
[(block) (for_statement) (catch_block) (when_entry)] @scope.block
[(class_declaration) (object_declaration) (companion_object)] @scope.class
(block (property_declaration) @scope.after)

; ---- definitions
(class_declaration name: (identifier) @definition.lexical)
(object_declaration name: (identifier) @definition.lexical)
(function_declaration name: (identifier) @definition.lexical)
(type_alias type: (identifier) @definition.lexical)
(property_declaration (variable_declaration (identifier) @definition.lexical))
(property_declaration (multi_variable_declaration (variable_declaration (identifier) @definition.lexical)))
(class_parameter (identifier) @definition.lexical)
(enum_entry (identifier) @definition.lexical)
(parameter (identifier) @definition.parameter)
(lambda_parameters (variable_declaration (identifier) @definition.parameter))
(for_statement (variable_declaration (identifier) @definition.lexical))
(catch_block (identifier) @definition.parameter)
(type_parameter (identifier) @definition.parameter)

; ---- members: `this.x`, `obj.x`
(navigation_expression (this_expression) (identifier) @member.this)
(navigation_expression (identifier) @member.object . (identifier) @member.property)
(navigation_expression (_) (identifier) @member.property .)

; ---- packages and imports name other files: not resolved
(package_header (qualified_identifier (identifier) @skip))
(import (qualified_identifier (identifier) @skip))

; ---- references
(identifier) @reference
