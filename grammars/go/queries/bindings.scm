; Bindings in Go for graver's find_references and edit_rename_symbol (written for graver: the grammar
; package ships no locals query). Capture names: see grammars/typescript/queries/bindings.scm and
; docs/refactors.md. Go's own rules on top of the shared ones:
;   - the package scope spans every file of a directory (src/structural/shared/project_files.ts links a file's
;     free names to its siblings' top-level declarations); Capitalised top-level names are exported;
;   - a local declared in a block (`x := …`, `var x`) is visible from the end of its statement on
;     (@scope.after), so `v := v` reads the outer v;
;   - a method belongs to its receiver's type: the method declaration is a class scope named by that type
;     (@scope.class.impl + @scope.name), and `r.f` on the receiver `r` is a member access like `this.f`.

; ---- scopes
[(function_declaration) (func_literal)] @scope.function
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [(type_identifier) @scope.name
             (pointer_type (type_identifier) @scope.name)
             (generic_type type: (type_identifier) @scope.name)
             (pointer_type (generic_type type: (type_identifier) @scope.name))]))) @scope.class.impl
(method_declaration body: (block) @scope.function)
[(block) (if_statement) (for_statement) (expression_switch_statement) (type_switch_statement)
 (select_statement) (expression_case) (type_case) (default_case) (communication_case)] @scope.block
(type_spec name: (type_identifier) type: (struct_type)) @scope.class
; an interface is satisfied without being named: its methods' implementations are not found
(type_spec name: (type_identifier) type: (interface_type)) @scope.class.implicit
(statement_list [(short_var_declaration) (var_declaration) (const_declaration)] @scope.after)
; a local type is visible from its own name on (types of one `type ( … )` group name each other): it binds in
; the block, not from the statement's end
; `if s, ok := s.(T); ok {`, `switch x := f(x); x {`: the initializer's value reads the outer name
(if_statement initializer: (short_var_declaration) @scope.after)
(expression_switch_statement initializer: (short_var_declaration) @scope.after)
(type_switch_statement initializer: (short_var_declaration) @scope.after)
; `switch v := v.(type)`: the value is read before v is declared
(type_switch_statement alias: (expression_list) @scope.from value: (_) @scope.after)

; ---- definitions
(function_declaration name: (identifier) @definition.lexical)
(type_spec name: (type_identifier) @definition.lexical)
(type_alias name: (type_identifier) @definition.lexical)
(var_spec name: (identifier) @definition.lexical)
(const_spec name: (identifier) @definition.lexical)
(short_var_declaration left: (expression_list (identifier) @definition.lexical))
(range_clause left: (expression_list (identifier) @definition.lexical) ":=")
(type_switch_statement alias: (expression_list (identifier) @definition.lexical))
(receive_statement left: (expression_list (identifier) @definition.lexical))
(method_declaration receiver: (parameter_list (parameter_declaration name: (identifier) @definition.parameter.receiver)))
(parameter_declaration name: (identifier) @definition.parameter)
(variadic_parameter_declaration name: (identifier) @definition.parameter)
(type_parameter_declaration name: (identifier) @definition.parameter)

; ---- written types: a name declared with its type (`cmd *Command`, `c *cobra.Command`, a receiver, `var x T`,
; `x := T{}`, `&T{}`, `new(T)`): `x.f` on it is a member of that type. The type is T, pkg.T or T[…] of either.
(parameter_declaration name: (identifier) @typed.name type: [
  (type_identifier) @typed.type
  (qualified_type name: (type_identifier) @typed.type)
  (generic_type type: [(type_identifier) @typed.type (qualified_type name: (type_identifier) @typed.type)])
  (pointer_type [
    (type_identifier) @typed.type
    (qualified_type name: (type_identifier) @typed.type)
    (generic_type type: [(type_identifier) @typed.type (qualified_type name: (type_identifier) @typed.type)])])])
(var_spec name: (identifier) @typed.name type: [
  (type_identifier) @typed.type
  (qualified_type name: (type_identifier) @typed.type)
  (generic_type type: [(type_identifier) @typed.type (qualified_type name: (type_identifier) @typed.type)])
  (pointer_type [
    (type_identifier) @typed.type
    (qualified_type name: (type_identifier) @typed.type)
    (generic_type type: [(type_identifier) @typed.type (qualified_type name: (type_identifier) @typed.type)])])])
; `x := T{}`, `x := &T{}`, `var x = T{}` (the first name and the first value)
(var_spec . name: (identifier) @typed.name . value: (expression_list . [
  (composite_literal type: [
    (type_identifier) @typed.type
    (qualified_type name: (type_identifier) @typed.type)
    (generic_type type: [(type_identifier) @typed.type (qualified_type name: (type_identifier) @typed.type)])])
  (unary_expression operator: "&" operand: (composite_literal type: [
    (type_identifier) @typed.type
    (qualified_type name: (type_identifier) @typed.type)
    (generic_type type: [(type_identifier) @typed.type (qualified_type name: (type_identifier) @typed.type)])]))]))
(short_var_declaration left: (expression_list . (identifier) @typed.name) right: (expression_list . [
  (composite_literal type: [
    (type_identifier) @typed.type
    (qualified_type name: (type_identifier) @typed.type)
    (generic_type type: [(type_identifier) @typed.type (qualified_type name: (type_identifier) @typed.type)])])
  (unary_expression operator: "&" operand: (composite_literal type: [
    (type_identifier) @typed.type
    (qualified_type name: (type_identifier) @typed.type)
    (generic_type type: [(type_identifier) @typed.type (qualified_type name: (type_identifier) @typed.type)])]))]))
; `x := new(T)`, `var x = new(T)`
((var_spec . name: (identifier) @typed.name . value: (expression_list . (call_expression
  function: (identifier) @_new
  arguments: (argument_list . [(type_identifier) @typed.type (qualified_type name: (type_identifier) @typed.type)] .))))
  (#eq? @_new "new"))
((short_var_declaration left: (expression_list . (identifier) @typed.name) right: (expression_list . (call_expression
  function: (identifier) @_new
  arguments: (argument_list . [(type_identifier) @typed.type (qualified_type name: (type_identifier) @typed.type)] .))))
  (#eq? @_new "new"))

; ---- imports: `import d "x/y/diff"` (the alias), `import "x/y/diff"` (the package's last path segment)
(import_spec name: (package_identifier) @import.namespace path: (_ (_) @import.source))
(import_spec !name path: (interpreted_string_literal (interpreted_string_literal_content) @import.source @import.path))

; ---- methods whose name a standard interface requires (fmt.Stringer, error, io.Reader, sort.Interface, json…):
; renaming one may quietly stop a type satisfying it
((method_declaration name: (field_identifier) @protocol)
 (#match? @protocol "^(String|GoString|Error|Format|Unwrap|Is|As|Read|Write|Close|Seek|ReadFrom|WriteTo|ReadByte|WriteByte|ReadRune|WriteString|Len|Less|Swap|Push|Pop|MarshalJSON|UnmarshalJSON|MarshalText|UnmarshalText|MarshalBinary|UnmarshalBinary|ServeHTTP|Scan|Value|Lock|Unlock|Get|Set|Reset|Err|Done|Deadline|Timeout|Temporary)$"))

; ---- members: fields, methods, `x.f`, struct literal keys
(field_declaration name: (field_identifier) @member.definition)
(method_elem name: (field_identifier) @member.definition)
(method_declaration name: (field_identifier) @member.definition)
(selector_expression operand: (identifier) @member.object field: (field_identifier) @member.property)
(selector_expression field: (field_identifier) @member.property)
(qualified_type package: (package_identifier) @member.object name: (type_identifier) @member.property)
(composite_literal type: (type_identifier) @member.object
  body: (literal_value (keyed_element key: (literal_element (identifier) @member.property))))
(composite_literal type: [(type_identifier) (qualified_type) (generic_type)]
  body: (literal_value (keyed_element key: (literal_element (identifier) @member.property))))
(literal_element (literal_value (keyed_element key: (literal_element (identifier) @member.property))))

; ---- an embedded field (`struct { point; *Node }`) is named like its type: `x.point` is that field
(field_declaration !name type: [(type_identifier) @reference.embedded
                                (generic_type type: (type_identifier) @reference.embedded)])

; ---- the blank identifier `_` binds nothing and names nothing
((identifier) @skip (#eq? @skip "_"))

; ---- references
(qualified_type package: (package_identifier) @reference)
(identifier) @reference
(type_identifier) @reference
