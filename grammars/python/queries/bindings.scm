; Bindings in Python for graver's find_references and edit_rename_symbol (written for graver: the
; grammar package ships no locals query). Capture names: see grammars/typescript/queries/bindings.scm
; and docs/refactors.md. Python binds a name in its whole function (or class, or module) as soon as
; it is assigned anywhere in it; a class body's names are not seen by the functions inside it.

; ---- scopes
[(function_definition) (lambda) (list_comprehension) (set_comprehension) (dictionary_comprehension)
 (generator_expression)] @scope.function
(class_definition) @scope.class.closed

; ---- definitions
(function_definition name: (identifier) @definition.lexical)
(class_definition name: (identifier) @definition.lexical)
(parameters (identifier) @definition.parameter)
(lambda_parameters (identifier) @definition.parameter)
(default_parameter name: (identifier) @definition.parameter)
(typed_parameter . (identifier) @definition.parameter)
(typed_default_parameter name: (identifier) @definition.parameter)
(list_splat_pattern (identifier) @definition.parameter)
(dictionary_splat_pattern (identifier) @definition.parameter)
(assignment left: (identifier) @definition.lexical)
(augmented_assignment left: (identifier) @definition.lexical)
(named_expression name: (identifier) @definition.lexical)
(for_statement left: (identifier) @definition.lexical)
(for_in_clause left: (identifier) @definition.lexical)
(as_pattern_target (identifier) @definition.lexical)
(global_statement (identifier) @definition.global)
(nonlocal_statement (identifier) @definition.nonlocal)
(assignment left: [(pattern_list) (tuple_pattern) (list_pattern)] @pattern.lexical)
(for_statement left: [(pattern_list) (tuple_pattern) (list_pattern)] @pattern.lexical)
(for_in_clause left: [(pattern_list) (tuple_pattern) (list_pattern)] @pattern.lexical)

; ---- destructuring leaves
(pattern_list (identifier) @pattern.leaf)
(tuple_pattern (identifier) @pattern.leaf)
(list_pattern (identifier) @pattern.leaf)
(list_splat_pattern (identifier) @pattern.leaf)

; ---- imports (`from m import a as b`, `import a.b as c`, `import a`)
(import_from_statement module_name: (_) @import.source
  name: (dotted_name . (identifier) @import.name .))
(import_from_statement module_name: (_) @import.source
  name: (aliased_import name: (dotted_name . (identifier) @import.name .) alias: (identifier) @import.alias)
  (#not-eq? @import.name @import.alias))
; `from m import X as X` is PEP 484's explicit re-export of X, the same name: no alias (a rename changes both
; sides); the second X is a use of the name it binds
(import_from_statement module_name: (_) @import.source
  name: (aliased_import name: (dotted_name . (identifier) @import.name .) alias: (identifier) @_same)
  (#eq? @import.name @_same))
(import_statement name: (aliased_import name: (dotted_name) @import.source alias: (identifier) @import.namespace))
(import_statement name: (dotted_name . (identifier) @import.namespace .) @import.source)
(import_statement name: (dotted_name . (identifier) @import.package) @import.source)
; `from m import *`: m's names are this module's (a package's __init__ re-exports its modules this way)
(import_from_statement module_name: (_) @import.glob (wildcard_import))

; ---- a class's bases (`class B(A, Mixin)`): a member of B may be one A or Mixin declares (keyword
; arguments such as `metaclass=` are not bases)
(class_definition superclasses: (argument_list . (identifier) @base))
(class_definition superclasses: (argument_list (_) . (identifier) @base.implements))

; ---- members
(attribute object: (identifier) @_self attribute: (identifier) @member.this (#any-of? @_self "self" "cls"))
(attribute object: (identifier) @member.object attribute: (identifier) @member.property)
(attribute attribute: (identifier) @member.property)

; ---- keyword arguments: `f(a=1)` names f's parameter `a`
(call function: (_) @keyword.callee arguments: (argument_list (keyword_argument name: (identifier) @keyword.name)))

; ---- references
(identifier) @reference
; `__all__ = ["a", "b"]` (or `+=`) at module level names the module's bindings a and b: renaming a renames
; its entry, or `from m import *` would fail on it
(module (expression_statement [(assignment left: (identifier) @_all
                                 right: [(list (string (string_content) @reference.entry))
                                         (tuple (string (string_content) @reference.entry))])
                               (augmented_assignment left: (identifier) @_all
                                 right: [(list (string (string_content) @reference.entry))
                                         (tuple (string (string_content) @reference.entry))])])
  (#eq? @_all "__all__") (#match? @reference.entry "^[A-Za-z_][A-Za-z0-9_]*$"))
