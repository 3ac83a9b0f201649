; Definitions in Ruby for graver's outline and symbol tools.
; Derived from tree-sitter-ruby@0.23.1 queries/tags.scm (method, singleton_method,
; class, module definitions); own additions: singleton classes, constants.

(method name: (_) @name) @definition.method
(singleton_method name: (_) @name) @definition.method
(class name: [(constant) @name (scope_resolution name: (_) @name)]) @definition.class
(singleton_class value: (_) @name) @definition.class
(module name: [(constant) @name (scope_resolution name: (_) @name)]) @definition.module
(program (assignment left: (constant) @name) @definition.constant)
(body_statement (assignment left: (constant) @name) @definition.constant)
