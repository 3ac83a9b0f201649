; Bindings in C++ for graver's find_references and edit_rename_symbol, within one file (written for graver:
; the grammar package ships no locals query). Capture names: see grammars/typescript/queries/bindings.scm and
; docs/refactors.md; the C rules (grammars/c/queries/bindings.scm) plus classes: fields and methods bind in
; their class scope, so a bare `size_` or `helper()` in the class resolves to them like `this->size_`; the
; name of a constructor is the class's. A method defined outside its class (`void Box<T>::set()`) is not
; tied to it: same-name free names there are listed as unresolved. Other files are not resolved: a symbol
; other files may use is refused for a project-wide rename (src/structural/file_local.ts).

; ---- scopes
(function_definition declarator: (function_declarator declarator: [(identifier) (field_identifier)] @scope.name))
  @scope.function
(function_definition
  declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @scope.name)))
  @scope.function
(function_definition
  declarator: (reference_declarator (function_declarator declarator: (identifier) @scope.name)))
  @scope.function
(function_definition) @scope.function
(lambda_expression) @scope.function
[(compound_statement) (for_statement) (for_range_loop) (catch_clause)] @scope.block
[(class_specifier) (struct_specifier) (union_specifier)] @scope.class
(compound_statement (declaration) @scope.after)
; a template's parameters are its own; the class or function it declares binds outside it
(template_declaration [(class_specifier name: (type_identifier) @scope.name)
                       (struct_specifier name: (type_identifier) @scope.name)
                       (function_definition declarator: (function_declarator declarator: (identifier) @scope.name))])
  @scope.block
(template_declaration) @scope.block

; ---- definitions
(function_definition declarator: (function_declarator declarator: (identifier) @definition.lexical))
(function_definition
  declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @definition.lexical)))
(function_definition
  declarator: (reference_declarator (function_declarator declarator: (identifier) @definition.lexical)))
(function_definition declarator: (function_declarator declarator: (field_identifier) @definition.lexical))
(field_declaration declarator: (function_declarator declarator: (field_identifier) @definition.lexical))
(field_declaration declarator: (field_identifier) @definition.lexical)
(field_declaration declarator: (pointer_declarator declarator: (field_identifier) @definition.lexical))
(field_declaration declarator: (reference_declarator (field_identifier) @definition.lexical))
(field_declaration declarator: (array_declarator declarator: (field_identifier) @definition.lexical))
(declaration declarator: (identifier) @definition.lexical)
(declaration declarator: (_) @pattern.lexical)
(type_definition declarator: (type_identifier) @definition.lexical)
(alias_declaration name: (type_identifier) @definition.lexical)
(class_specifier name: (type_identifier) @definition.lexical body: (_))
(struct_specifier name: (type_identifier) @definition.lexical body: (_))
(union_specifier name: (type_identifier) @definition.lexical body: (_))
(enum_specifier name: (type_identifier) @definition.lexical body: (_))
(enumerator name: (identifier) @definition.lexical)
(preproc_def name: (identifier) @definition.lexical)
(preproc_function_def name: (identifier) @definition.lexical)
(parameter_declaration declarator: (identifier) @definition.parameter)
(parameter_declaration declarator: (_) @pattern.parameter)
(optional_parameter_declaration declarator: (identifier) @definition.parameter)
(optional_parameter_declaration declarator: (_) @pattern.parameter)
(type_parameter_declaration (type_identifier) @definition.parameter)
(for_range_loop declarator: (identifier) @definition.lexical)
(for_range_loop declarator: (_) @pattern.lexical)
(catch_clause parameters: (parameter_list (parameter_declaration declarator: (identifier) @definition.lexical)))
(init_declarator declarator: (identifier) @pattern.leaf)
(pointer_declarator declarator: (identifier) @pattern.leaf)
(reference_declarator (identifier) @pattern.leaf)
(array_declarator declarator: (identifier) @pattern.leaf)
(function_declarator declarator: (identifier) @pattern.leaf)
(parenthesized_declarator (identifier) @pattern.leaf)
(structured_binding_declarator (identifier) @pattern.leaf)
; the parameters of a prototype and of a macro bind nowhere graver can see
(declaration declarator: (function_declarator parameters: (parameter_list (parameter_declaration
  declarator: [(identifier) @skip (pointer_declarator declarator: (identifier) @skip)
               (reference_declarator (identifier) @skip)]))))
(field_declaration declarator: (function_declarator parameters: (parameter_list (parameter_declaration
  declarator: [(identifier) @skip (pointer_declarator declarator: (identifier) @skip)
               (reference_declarator (identifier) @skip)]))))
(preproc_params (identifier) @skip)
(namespace_identifier) @skip

; ---- members: `this->x`, `p.x`, `q->x`, constructor initialisers
(field_expression argument: (this) field: (field_identifier) @member.this)
(field_initializer (field_identifier) @member.this)
(field_expression argument: (identifier) @member.object field: (field_identifier) @member.property)
(field_expression field: (field_identifier) @member.property)
(qualified_identifier name: (identifier) @member.property)
(initializer_pair designator: (field_designator (field_identifier) @member.property))

; ---- a constructor's name is its class's
((class_specifier name: (type_identifier) @_class
  body: (field_declaration_list
    [(function_definition declarator: (function_declarator declarator: (identifier) @reference.constructor))
     (declaration declarator: (function_declarator declarator: (identifier) @reference.constructor))]))
  (#eq? @_class @reference.constructor))

; ---- references
(identifier) @reference
(type_identifier) @reference
