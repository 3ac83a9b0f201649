; inherits: c
; Bindings in C++ for graver's find_references and edit_rename_symbol, within one file (written for graver:
; the grammar package ships no locals query). Capture names: see grammars/typescript/queries/bindings.scm and
; docs/refactors.md. The C rules (grammars/c/queries/bindings.scm, appended) plus classes: fields and methods
; bind in their class scope, so a bare `size_` or `helper()` in the class resolves to them like `this->size_`;
; the name of a constructor is the class's. A method defined outside its class (`void Box<T>::set()`) is not
; tied to it: same-name free names there are listed as unresolved. Other files are not resolved: a symbol
; other files may use is refused for a project-wide rename (src/structural/shared/file_local.ts).

; ---- scopes
(function_definition declarator: (function_declarator declarator: (field_identifier) @scope.name)) @scope.function
(function_definition
  declarator: (reference_declarator (function_declarator declarator: (identifier) @scope.name)))
  @scope.function
(lambda_expression) @scope.function
[(for_range_loop) (catch_clause)] @scope.block
(class_specifier) @scope.class
; a template's parameters are its own; the class or function it declares binds outside it
(template_declaration [(class_specifier name: (type_identifier) @scope.name)
                       (struct_specifier name: (type_identifier) @scope.name)
                       (function_definition declarator: (function_declarator declarator: (identifier) @scope.name))])
  @scope.block
(template_declaration) @scope.block

; ---- definitions
(function_definition
  declarator: (reference_declarator (function_declarator declarator: (identifier) @definition.lexical)))
(function_definition declarator: (function_declarator declarator: (field_identifier) @definition.lexical))
(field_declaration declarator: (function_declarator declarator: (field_identifier) @definition.lexical))
(field_declaration declarator: (reference_declarator (field_identifier) @definition.lexical))
(alias_declaration name: (type_identifier) @definition.lexical)
(class_specifier name: (type_identifier) @definition.lexical body: (_))
(optional_parameter_declaration declarator: (identifier) @definition.parameter)
(optional_parameter_declaration declarator: (_) @pattern.parameter)
(type_parameter_declaration (type_identifier) @definition.parameter)
(for_range_loop declarator: (identifier) @definition.lexical)
(for_range_loop declarator: (_) @pattern.lexical)
(catch_clause parameters: (parameter_list (parameter_declaration declarator: (identifier) @definition.lexical)))
(reference_declarator (identifier) @pattern.leaf)
(structured_binding_declarator (identifier) @pattern.leaf)
; the parameters of a method's declaration bind nowhere graver can see
(field_declaration declarator: (function_declarator parameters: (parameter_list (parameter_declaration
  declarator: [(identifier) @skip (pointer_declarator declarator: (identifier) @skip)
               (reference_declarator (identifier) @skip)]))))
(declaration declarator: (function_declarator parameters: (parameter_list (parameter_declaration
  declarator: (reference_declarator (identifier) @skip)))))
(namespace_identifier) @skip

; ---- members: `this->x`, constructor initialisers, `A::x`
(field_expression argument: (this) field: (field_identifier) @member.this)
(field_initializer (field_identifier) @member.this)
(qualified_identifier name: (identifier) @member.property)

; ---- a constructor's name is its class's
((class_specifier name: (type_identifier) @_class
  body: (field_declaration_list
    [(function_definition declarator: (function_declarator declarator: (identifier) @reference.constructor))
     (declaration declarator: (function_declarator declarator: (identifier) @reference.constructor))]))
  (#eq? @_class @reference.constructor))
