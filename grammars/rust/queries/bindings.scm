; Bindings in Rust for graver's find_references and edit_rename_symbol (written for graver: the grammar
; package ships no locals query). Capture names: see grammars/typescript/queries/bindings.scm and
; docs/refactors.md. Rust's own rules on top of the shared ones:
;   - `let` binds from the end of its statement on (@scope.after): `let x = x + 1;` reads the outer x and a
;     second `let x` shadows the first;
;   - an `impl` block belongs to its type (@scope.class.impl + @scope.name): its methods and `self.f` are
;     members of the struct or enum of that name;
;   - `mod x;` and `use` paths (`crate::`, `super::`, `self::`, a child module) are resolved within the crate
;     by src/syntax/module_resolution.ts; every module-level item is reachable by path.
;   - names in patterns that start with an upper-case letter are constants or variants, not bindings;
;   - names of the value namespace (`let`, patterns, parameters, and the items `fn`, `const`, `static`:
;     `.value`) live apart from modules, types and macros: a path's first segment and a macro's name
;     (@reference.item) skip them (`smallvec::SmallVec` in a test whose `fn smallvec()` is beside it).

; ---- scopes
[(function_item) (closure_expression) (function_signature_item)] @scope.function
[(block) (match_arm) (if_expression) (while_expression)] @scope.block
(mod_item body: (_)) @scope.function
[(struct_item) (enum_item) (union_item) (trait_item)] @scope.class
(impl_item type: [(type_identifier) @scope.name
                  (generic_type type: (type_identifier) @scope.name)
                  (scoped_type_identifier name: (type_identifier) @scope.name)]) @scope.class.impl
; an `impl` for a type without a name of its own (`impl<A> ToSmallVec<A> for [A::Item]`, `for &T`, `for u8`)
; is a class too, so that its members are the implemented trait's
(impl_item type: [(array_type) (reference_type) (tuple_type) (pointer_type) (primitive_type)
                  (dynamic_type) (abstract_type) (function_type) (unit_type)] @scope.name) @scope.class.impl
(block (let_declaration) @scope.after)
; `if let P = v { … } else { … }`, `while let`: P's names live in the first block only; v reads the outer names
(if_expression condition: [(let_condition) (let_chain)] @scope.from consequence: (block) @scope.within)
(while_expression condition: [(let_condition) (let_chain)] @scope.from body: (block) @scope.within)
; `for p in v { … }`: p's names live in the body only; v reads the outer names (`for lhs in lhs`)
(for_expression pattern: (_) @scope.from body: (block) @scope.within)
; `impl Trait for T`: every member of the block is the trait's (renamed with it, or not at all)
(impl_item trait: [(type_identifier) @base.implements.all
                   (generic_type type: (type_identifier) @base.implements.all)
                   (scoped_type_identifier name: (type_identifier) @base.implements.all)
                   (generic_type type: (scoped_type_identifier name: (type_identifier) @base.implements.all))])

; ---- definitions
(function_item name: (identifier) @definition.lexical.value)
(function_signature_item name: (identifier) @definition.lexical.value)
(struct_item name: (type_identifier) @definition.lexical)
(enum_item name: (type_identifier) @definition.lexical)
(union_item name: (type_identifier) @definition.lexical)
(trait_item name: (type_identifier) @definition.lexical)
(type_item name: (type_identifier) @definition.lexical)
(const_item name: (identifier) @definition.lexical.value)
(static_item name: (identifier) @definition.lexical.value)
(macro_definition name: (identifier) @definition.lexical)
(mod_item name: (identifier) @definition.lexical body: (_))
(type_parameter name: (type_identifier) @definition.parameter)
(const_parameter name: (identifier) @definition.parameter)
(parameter pattern: (identifier) @definition.parameter.value)
(parameter pattern: (_) @pattern.parameter.value)
(let_declaration pattern: (identifier) @definition.lexical.value)
(let_declaration pattern: (_) @pattern.lexical.value)
(for_expression pattern: (identifier) @definition.lexical.value)
(for_expression pattern: (_) @pattern.lexical.value)
(let_condition pattern: (_) @pattern.lexical.value)
(match_arm pattern: (match_pattern) @pattern.lexical.value)
(closure_parameters (identifier) @definition.parameter.value)

; ---- a `let` under `#[cfg(…)]`: whether later uses read it depends on the build
; (`let x`, `let ref x`, `let mut x`)
((block (attribute_item (attribute (identifier) @_cfg)) . (let_declaration pattern: [(identifier) @conditional
   (ref_pattern (identifier) @conditional) (mut_pattern (identifier) @conditional)]))
 (#eq? @_cfg "cfg"))
((block (attribute_item (attribute (identifier) @_cfg)) . [(line_comment) (block_comment)]
  . (let_declaration pattern: [(identifier) @conditional
   (ref_pattern (identifier) @conditional) (mut_pattern (identifier) @conditional)]))
 (#eq? @_cfg "cfg"))

; ---- written types: a name declared with its type (`x: &T`, `x: &a::T`, `let x: T`, `let x = T { .. }`): `x.f` on
; it is a member of that type (a smart pointer's `x: Rc<T>` is an Rc, so `x.f` stays a candidate)
(parameter pattern: (identifier) @typed.name type: [
  (type_identifier) @typed.type
  (scoped_type_identifier name: (type_identifier) @typed.type)
  (generic_type type: [(type_identifier) @typed.type (scoped_type_identifier name: (type_identifier) @typed.type)])
  (reference_type type: [
    (type_identifier) @typed.type
    (scoped_type_identifier name: (type_identifier) @typed.type)
    (generic_type type: [(type_identifier) @typed.type (scoped_type_identifier name: (type_identifier) @typed.type)])])])
(let_declaration pattern: (identifier) @typed.name type: [
  (type_identifier) @typed.type
  (scoped_type_identifier name: (type_identifier) @typed.type)
  (generic_type type: [(type_identifier) @typed.type (scoped_type_identifier name: (type_identifier) @typed.type)])
  (reference_type type: [
    (type_identifier) @typed.type
    (scoped_type_identifier name: (type_identifier) @typed.type)
    (generic_type type: [(type_identifier) @typed.type (scoped_type_identifier name: (type_identifier) @typed.type)])])])
(let_declaration pattern: (identifier) @typed.name !type value: (struct_expression name: [
  (type_identifier) @typed.type
  (scoped_type_identifier name: (type_identifier) @typed.type)]))

; ---- pattern leaves (a leading capital is a constant or a variant, not a binding)
((match_pattern (identifier) @pattern.leaf) (#match? @pattern.leaf "^[a-z_]"))
((tuple_pattern (identifier) @pattern.leaf) (#match? @pattern.leaf "^[a-z_]"))
((tuple_struct_pattern type: (_) (identifier) @pattern.leaf) (#match? @pattern.leaf "^[a-z_]"))
((slice_pattern (identifier) @pattern.leaf) (#match? @pattern.leaf "^[a-z_]"))
((or_pattern (identifier) @pattern.leaf) (#match? @pattern.leaf "^[a-z_]"))
(field_pattern name: (shorthand_field_identifier) @pattern.leaf.shorthand)
(field_pattern pattern: (identifier) @pattern.leaf)
(ref_pattern (identifier) @pattern.leaf)
(mut_pattern (identifier) @pattern.leaf)
(reference_pattern (identifier) @pattern.leaf)
(captured_pattern (identifier) @pattern.leaf)

; ---- imports: `use a::b::C;`, `use a::{B, C as D};`, `use a::b::*;`, `mod x;`
; Grouped and nested uses (`use crate::{a::{b, c}, d, e::{self, F}, {G, H}}`): every `@import.source` of a match
; is one segment of the module path, outer first (joined: `crate::a`); `a::{self}` imports the module a itself.
(use_declaration argument: (scoped_identifier path: (_) @import.source name: (identifier) @import.name))
(use_declaration argument: (use_as_clause
  path: (scoped_identifier path: (_) @import.source name: (identifier) @import.name) alias: (identifier) @import.alias))
(use_declaration argument: (use_wildcard (_) @import.glob))
(use_declaration argument: (scoped_use_list
  path: (scoped_identifier path: (_) @import.source name: (identifier) @import.name) list: (use_list (self))))
(use_declaration argument: (scoped_use_list path: (_) @import.source list: (use_list [(identifier) @import.name
     (scoped_identifier path: (_) @import.source name: (identifier) @import.name)
     (use_as_clause path: (identifier) @import.name alias: (identifier) @import.alias)
     (use_as_clause path: (scoped_identifier path: (_) @import.source name: (identifier) @import.name)
       alias: (identifier) @import.alias)
     (scoped_use_list path: (identifier) @import.name list: (use_list (self)))
     (scoped_use_list path: (scoped_identifier path: (_) @import.source name: (identifier) @import.name)
       list: (use_list (self)))
     (use_wildcard (_) @import.glob)])))
(use_declaration argument: (scoped_use_list path: (_) @import.source list: (use_list (use_list [(identifier) @import.name
     (scoped_identifier path: (_) @import.source name: (identifier) @import.name)
     (use_as_clause path: (identifier) @import.name alias: (identifier) @import.alias)
     (use_as_clause path: (scoped_identifier path: (_) @import.source name: (identifier) @import.name)
       alias: (identifier) @import.alias)
     (scoped_use_list path: (identifier) @import.name list: (use_list (self)))
     (scoped_use_list path: (scoped_identifier path: (_) @import.source name: (identifier) @import.name)
       list: (use_list (self)))
     (use_wildcard (_) @import.glob)]))))
(use_declaration argument: (scoped_use_list path: (_) @import.source
  list: (use_list (scoped_use_list path: (_) @import.source list: (use_list [(identifier) @import.name
     (scoped_identifier path: (_) @import.source name: (identifier) @import.name)
     (use_as_clause path: (identifier) @import.name alias: (identifier) @import.alias)
     (use_as_clause path: (scoped_identifier path: (_) @import.source name: (identifier) @import.name)
       alias: (identifier) @import.alias)
     (scoped_use_list path: (identifier) @import.name list: (use_list (self)))
     (scoped_use_list path: (scoped_identifier path: (_) @import.source name: (identifier) @import.name)
       list: (use_list (self)))
     (use_wildcard (_) @import.glob)])))))
(use_declaration argument: (scoped_use_list path: (_) @import.source
  list: (use_list (scoped_use_list path: (_) @import.source
    list: (use_list (scoped_use_list path: (_) @import.source list: (use_list [(identifier) @import.name
     (scoped_identifier path: (_) @import.source name: (identifier) @import.name)
     (use_as_clause path: (identifier) @import.name alias: (identifier) @import.alias)
     (use_as_clause path: (scoped_identifier path: (_) @import.source name: (identifier) @import.name)
       alias: (identifier) @import.alias)
     (scoped_use_list path: (identifier) @import.name list: (use_list (self)))
     (scoped_use_list path: (scoped_identifier path: (_) @import.source name: (identifier) @import.name)
       list: (use_list (self)))
     (use_wildcard (_) @import.glob)])))))))
(mod_item !body name: (identifier) @import.source @import.namespace)

; ---- members: fields, variants, methods, `self.f`, `x.f`, `Type::item`
(field_declaration name: (field_identifier) @member.definition)
(enum_variant name: (identifier) @member.definition)
(impl_item body: (declaration_list (function_item name: (identifier) @member.definition)))
(impl_item body: (declaration_list (const_item name: (identifier) @member.definition)))
(trait_item body: (declaration_list (function_item name: (identifier) @member.definition)))
(trait_item body: (declaration_list (function_signature_item name: (identifier) @member.definition)))
(field_expression value: (self) field: (field_identifier) @member.this)
((scoped_identifier path: (identifier) @_self name: (identifier) @member.this) (#eq? @_self "Self"))
((scoped_type_identifier path: (identifier) @_self name: (type_identifier) @member.this) (#eq? @_self "Self"))
((struct_expression name: (type_identifier) @_self
  body: (field_initializer_list (field_initializer field: (field_identifier) @member.this))) (#eq? @_self "Self"))
(field_expression value: (identifier) @member.object field: (field_identifier) @member.property)
; inside a macro's tokens (`write!(f, "{}", self.major)`): `self.x` and `a.x`. An anchor passes over anonymous
; tokens, so each operator is captured as @_token, which must sit right between its neighbours (no `size_of::<A>`
; read as `size_of::A`)
(token_tree (self) . "." @_token . (identifier) @member.this)
(token_tree (identifier) @member.object . "." @_token . (identifier) @member.property)
(token_tree "." @_token . (identifier) @member.property)
; a macro called inside another's tokens (`vec![…]` in `assert_eq!(…)`) is a macro's name
(token_tree (identifier) @reference.item . "!" @_token)
; and paths: `Self::inline_capacity()` in `assert!(…)`, `$crate::SmallVec::from_vec(…)` in a macro_rules body
((token_tree (identifier) @_self . "::" @_token . (identifier) @member.this) (#eq? @_self "Self"))
(token_tree (identifier) @member.object . "::" @_token . (identifier) @member.property)
(field_expression field: (field_identifier) @member.property)
(struct_expression name: (type_identifier) @member.object
  body: (field_initializer_list (field_initializer field: (field_identifier) @member.property)))
(field_initializer field: (field_identifier) @member.property)
(struct_expression name: (type_identifier) @member.object
  body: (field_initializer_list (shorthand_field_initializer (identifier) @member.shorthand)))
(shorthand_field_initializer (identifier) @reference.shorthand)
(scoped_identifier path: (identifier) @member.object name: (identifier) @member.property)
(scoped_identifier name: (identifier) @member.property)
(scoped_type_identifier path: (identifier) @member.object name: (type_identifier) @member.property)
(scoped_type_identifier name: (type_identifier) @member.property)

; ---- not names of values or types: lifetimes, loop labels
(lifetime (identifier) @skip)
(label (identifier) @skip)

; ---- names that can only be items (a module, a type, a macro), never a variable: a path's first segment
; (`ptr::copy` beside `let ptr`) and a macro's name (`vec![]` beside `let vec`)
(scoped_identifier path: (identifier) @reference.item)
(scoped_type_identifier path: (identifier) @reference.item)
(macro_invocation macro: (identifier) @reference.item)
; an attribute's name (`#[test]` above `fn test()`): a built-in or a macro, never a function or a variable
(attribute (identifier) @reference.item)

; ---- references
(identifier) @reference
(type_identifier) @reference
