; Definitions in Bash for graver's outline and symbol tools (the grammar package
; ships no tags query): functions, and top-level variables.

(function_definition name: (word) @name) @definition.function
(program (variable_assignment name: (variable_name) @name) @definition.variable)
(program (declaration_command (variable_assignment name: (variable_name) @name) @definition.variable))
