; Definitions in Lua for graver's outline and symbol tools.
; Derived from @tree-sitter-grammars/tree-sitter-lua@0.4.1 queries/tags.scm
; (function declarations, functions assigned to names and table fields); own
; additions: M.f / M:f keep "M" as @qualifier, top-level variables.

(function_declaration name: (identifier) @name) @definition.function
(function_declaration
  name: (dot_index_expression table: (_) @qualifier field: (identifier) @name)) @definition.function
(function_declaration
  name: (method_index_expression table: (_) @qualifier method: (identifier) @name)) @definition.method

(chunk
  (assignment_statement
    (variable_list . name: [(identifier) @name (dot_index_expression field: (identifier) @name)])
    (expression_list . value: (function_definition))) @definition.function)
(chunk
  (variable_declaration
    (assignment_statement
      (variable_list . name: (identifier) @name)
      (expression_list . value: (function_definition))) @definition.function))
(table_constructor
  (field name: (identifier) @name value: (function_definition)) @definition.function)
(chunk (variable_declaration (assignment_statement (variable_list . name: (identifier) @name)) @definition.variable))
(chunk (variable_declaration (variable_list . name: (identifier) @name)) @definition.variable)
