; Bindings in C for graver's find_references and edit_rename_symbol, within one file (written for graver:
; the grammar package ships no locals query). Capture names: see grammars/typescript/queries/bindings.scm and
; docs/refactors.md. A declarator nests its name (`*p`, `a[]`, `(*fp)(int)`): the declaration is a pattern
; whose leaves are the names. A function's name binds outside it (@scope.name); a local is visible from the
; end of its declaration on (@scope.after); parameter names of a prototype bind nowhere. Struct fields bind
; in the struct's scope; `p.x` and `q->x` are members. Other files (headers, `extern`) are not resolved: a symbol other files may use is
; refused for a project-wide rename (src/structural/shared/file_local.ts), and so is a name used in a macro body.

; ---- scopes
(function_definition declarator: (function_declarator declarator: (identifier) @scope.name)) @scope.function
(function_definition
  declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @scope.name)))
  @scope.function
(function_definition) @scope.function
[(compound_statement) (for_statement)] @scope.block
[(struct_specifier) (union_specifier)] @scope.class
(compound_statement (declaration) @scope.after)

; ---- definitions
(function_definition declarator: (function_declarator declarator: (identifier) @definition.lexical))
(function_definition
  declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @definition.lexical)))
(declaration declarator: (identifier) @definition.lexical)
(declaration declarator: (_) @pattern.lexical)
(type_definition declarator: (type_identifier) @definition.lexical)
(struct_specifier name: (type_identifier) @definition.lexical body: (_))
(union_specifier name: (type_identifier) @definition.lexical body: (_))
(enum_specifier name: (type_identifier) @definition.lexical body: (_))
(enumerator name: (identifier) @definition.lexical)
(preproc_def name: (identifier) @definition.lexical)
(preproc_function_def name: (identifier) @definition.lexical)
(parameter_declaration declarator: (identifier) @definition.parameter)
(parameter_declaration declarator: (_) @pattern.parameter)
(init_declarator declarator: (identifier) @pattern.leaf)
(pointer_declarator declarator: (identifier) @pattern.leaf)
(array_declarator declarator: (identifier) @pattern.leaf)
(function_declarator declarator: (identifier) @pattern.leaf)
(parenthesized_declarator (identifier) @pattern.leaf)
; the parameters of a prototype and of a macro bind nowhere graver can see
(declaration declarator: (function_declarator parameters: (parameter_list (parameter_declaration
  declarator: [(identifier) @skip (pointer_declarator declarator: (identifier) @skip)
               (array_declarator declarator: (identifier) @skip)]))))
(preproc_params (identifier) @skip)

; ---- members: struct fields (bound in the struct's scope), `p.x`, `q->x`
(field_declaration declarator: (field_identifier) @definition.lexical)
(field_declaration declarator: (pointer_declarator declarator: (field_identifier) @definition.lexical))
(field_declaration declarator: (array_declarator declarator: (field_identifier) @definition.lexical))
(field_expression argument: (identifier) @member.object field: (field_identifier) @member.property)
(field_expression field: (field_identifier) @member.property)
(initializer_pair designator: (field_designator (field_identifier) @member.property))

; ---- references
(identifier) @reference
(type_identifier) @reference
