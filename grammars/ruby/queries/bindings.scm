; Bindings in Ruby for graver's find_references and edit_rename_symbol, within one file (written for graver:
; the grammar package ships no locals query). Capture names: see grammars/typescript/queries/bindings.scm and
; docs/refactors.md. Methods and instance variables are members: `def m` in a class or module, `@x`
; (renamed without its sigil), `self.m` and a bare call with arguments `m(1)` inside the class; a bare name
; that is no local may be a method call, so it is listed as unresolved when a member is renamed. A class or
; module body is closed: its methods do not see its locals. Other files (`require`) are not resolved: a
; symbol other files may use is refused for a project-wide rename (src/structural/shared/file_local.ts).

; ---- scopes
[(method) (singleton_method) (block) (do_block) (lambda)] @scope.function
[(class) (module) (singleton_class)] @scope.class.closed

; ---- definitions
(class name: (constant) @definition.lexical)
(module name: (constant) @definition.lexical)
(assignment left: (constant) @definition.lexical)
(assignment left: (identifier) @definition.lexical)
(assignment left: (left_assignment_list (identifier) @definition.lexical))
(method_parameters (identifier) @definition.parameter)
(lambda_parameters (identifier) @definition.parameter)
(block_parameters (identifier) @definition.parameter)
(optional_parameter name: (identifier) @definition.parameter)
(keyword_parameter name: (identifier) @definition.parameter)
(splat_parameter name: (identifier) @definition.parameter)
(hash_splat_parameter name: (identifier) @definition.parameter)
(block_parameter name: (identifier) @definition.parameter)
(for pattern: (identifier) @definition.lexical)
(rescue variable: (exception_variable (identifier) @definition.lexical))
(program (method name: (identifier) @definition.lexical))

; ---- members: methods, `@x`, `self.m`, `m(…)`, `obj.m`
(class (body_statement (method name: (identifier) @member.definition)))
(module (body_statement (method name: (identifier) @member.definition)))
(singleton_method name: (identifier) @member.definition)
(instance_variable) @member.this
(call receiver: (self) method: (identifier) @member.this)
(call !receiver method: (identifier) @member.this arguments: (_))
(call receiver: (identifier) @member.object method: (identifier) @member.property)
(call receiver: (constant) @member.object method: (identifier) @member.property)
(call method: (identifier) @member.property)
(scope_resolution scope: (constant) @member.object name: (constant) @member.property)

; ---- references
(identifier) @reference
(constant) @reference
