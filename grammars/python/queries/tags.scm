; Definitions in Python for graver's outline and symbol tools.
; Derived from tree-sitter-python@0.25.0 queries/tags.scm (class_definition,
; function_definition, module-level assignment); own additions: methods,
; constructors, class attributes, docstrings (@doc), constants.
; Earlier patterns win when two match the same node.

; classes (with a docstring first, so its @doc is kept)
(class_definition
  name: (identifier) @name
  body: (block . (expression_statement (string) @doc))) @definition.class
(class_definition name: (identifier) @name) @definition.class

; methods: functions directly in a class body (decorated or not)
(class_definition
  body: (block
    [(function_definition
       name: (identifier) @name
       body: (block . (expression_statement (string) @doc))
       (#eq? @name "__init__")) @definition.constructor
     (decorated_definition
       definition: (function_definition
         name: (identifier) @name
         body: (block . (expression_statement (string) @doc))
         (#eq? @name "__init__")) @definition.constructor)]))
(class_definition
  body: (block
    [(function_definition name: (identifier) @name (#eq? @name "__init__")) @definition.constructor
     (decorated_definition
       definition: (function_definition name: (identifier) @name (#eq? @name "__init__")) @definition.constructor)]))
(class_definition
  body: (block
    [(function_definition
       name: (identifier) @name
       body: (block . (expression_statement (string) @doc))) @definition.method
     (decorated_definition
       definition: (function_definition
         name: (identifier) @name
         body: (block . (expression_statement (string) @doc))) @definition.method)]))
(class_definition
  body: (block
    [(function_definition name: (identifier) @name) @definition.method
     (decorated_definition definition: (function_definition name: (identifier) @name) @definition.method)]))

; functions anywhere else (module level, nested)
(function_definition
  name: (identifier) @name
  body: (block . (expression_statement (string) @doc))) @definition.function
(function_definition name: (identifier) @name) @definition.function

; class attributes
(class_definition
  body: (block (expression_statement (assignment left: (identifier) @name) @definition.field)))

; module-level assignments: UPPER_CASE names are constants
(module
  (expression_statement
    (assignment left: (identifier) @name (#match? @name "^[A-Z][A-Z0-9_]*$")) @definition.constant))
(module (expression_statement (assignment left: (identifier) @name) @definition.variable))
