/**
 * The bindings model: a file's scopes, the names each declares, every
 * identifier occurrence with the binding it resolves to, and the file's
 * imports and exports — plus the lookups every consumer shares (the binding
 * a name refers to from a scope, the occurrence or scope at an offset). The
 * model is built by `bindings.ts` from the language's binding query.
 *
 * @module
 */
import type { Version } from "../fs/version.ts";

/** What kind of scope a node opens. */
export type ScopeKind = "module" | "function" | "block" | "class";

/** One scope of a file. */
export interface Scope {
  /** Index in {@linkcode FileBindings.scopes} (the module scope is 0). */
  id: number;
  /** module | function | block | class. */
  kind: ScopeKind;
  /** A class scope whose names the functions inside it do not see (Python). */
  closed: boolean;
  /** Start offset (UTF-16). */
  start: number;
  /** End offset, exclusive (UTF-16). */
  end: number;
  /** The enclosing scope (null for the module scope). */
  parent: Scope | null;
  /** Start offset of the scope node's own `name` (which binds in the parent scope), or -1. */
  nameStart: number;
  /** Names bound here. */
  bindings: Map<string, Binding>;
  /** Python `global`/`nonlocal` names: assignments here bind elsewhere. */
  passthrough?: Map<string, "global" | "nonlocal">;
  /**
   * A class scope declared apart from its type (a Rust `impl` block, a Go method): its members belong
   * to every class scope named like it (the name at `nameStart`).
   */
  impl?: boolean;
  /**
   * For a class that extends another (`class A extends Base`): the start offset of the base's name (a
   * reference occurrence of this file), whose class's members are this class's too.
   */
  base?: number;
  /** An interface that types satisfy without naming it (Go): its methods' implementations cannot be found. */
  implicit?: boolean;
  /** For a class that implements others (`implements I, J`): the start offsets of their names. */
  interfaces?: number[];
  /**
   * A block whose every member is declared by the supertype it implements (a Rust `impl Trait for T`): the start
   * offset of that supertype's name (also in `interfaces`). Its members' names are the supertype's.
   */
  membersOf?: number;
}

/** How a name was bound. */
export type BindingKind = "lexical" | "var" | "parameter" | "import";

/** One declared name: every declaration and reference of it share this object. */
export interface Binding {
  /** The name. */
  name: string;
  /** The scope it is bound in. */
  scope: Scope;
  /** lexical | var | parameter | import. */
  kind: BindingKind;
  /** The import that introduced it, for kind "import". */
  import?: ImportRecord;
  /**
   * Declared in another file that shares this module scope (a Go package's other file, a Rust `use m::*`):
   * the file's free uses of the name refer to it.
   */
  linked?: boolean;
  /**
   * The name of the type written where it is declared (`cmd *Command`, `x: &T`, `c: Context`, `x := T{}`),
   * when that type is certain: a member access on it (`cmd.f`) is a member of the type that name resolves to.
   */
  declaredType?: Occurrence;
  /**
   * A variable (a Rust `let`, pattern or parameter binding): a name that may only be an item — a path's first
   * segment, a macro's name (`@reference.item`) — never refers to it.
   */
  value?: boolean;
  /**
   * Declared under a build condition (a Rust `#[cfg(…)] let`): whether a later use reads it or the name it
   * shadows depends on the build, so neither can be renamed alone.
   */
  conditional?: boolean;
}

/** What an occurrence of a name is. */
export type OccurrenceKind =
  /** a declaration of the name */
  | "definition"
  /** a use of the name */
  | "reference"
  /** `{x}` in an object literal: the property x and the variable x */
  | "shorthand"
  /** `{x}` in a destructuring pattern: the property x bound to the variable x */
  | "shorthand_pattern"
  /** a shorthand reached as the member it names (`Foo { x }` when Foo's field x is renamed) */
  | "shorthand_key"
  /** the imported name of an aliased import (`a` in `import {a as b}`) */
  | "import_name"
  /** the exported name of an alias (`b` in `export {a as b}`) */
  | "export_alias"
  /** the source-side name of a re-export (`a` in `export {a} from "./m"`) */
  | "reexport_name"
  /** a class member's declaration */
  | "member_definition"
  /** `this.x` / `self.x` */
  | "member_this"
  /** `obj.x` with any other object */
  | "member_property"
  /** the name of a keyword argument (`a` in Python's `f(a=1)`) */
  | "keyword"
  /** a JSDoc tag's name (`{@link x}`, `@see x`, `@param x`) */
  | "doc"
  /** an entry of the module's list of exported names (Python's `__all__ = ["x"]`): renamed with x, not a use */
  | "export_entry";

/** One identifier of the file the query classified. */
export interface Occurrence {
  /** The name as written. */
  name: string;
  /** Start offset (UTF-16). */
  start: number;
  /** End offset, exclusive (UTF-16). */
  end: number;
  /** What it is. */
  kind: OccurrenceKind;
  /** The innermost scope around it. */
  scope: Scope;
  /** The binding it declares or refers to (definitions, references, shorthands); null when free (a global). */
  binding: Binding | null;
  /** For member_property (and a typed shorthand): the object's (the type's) start offset when a plain name. */
  objectStart?: number;
  /** For member_property (and a typed shorthand): the binding of that object name. */
  object?: Binding | null;
  /** For keyword: the callee expression's span. */
  callee?: { start: number; end: number };
  /** A parameter that is also a member of the class (TypeScript's `constructor(private x)`). */
  parameterProperty?: boolean;
  /** `{ x }` destructured from `this` (`const { x } = this`): the variable x, and the key is the class's member x. */
  thisKey?: boolean;
  /** `super.x`: the member x of the class's base class. */
  viaSuper?: boolean;
  /** A method whose name an interface outside the workspace may require (Go's `String`, `Error`): `@protocol`. */
  protocol?: boolean;
  /** A type named as an embedded field (Go's `struct { point }`): the field is named like the type, so `x.point` uses it. */
  embedded?: boolean;
  /** A class member declared `static` (a member of the class itself, which subclasses' instances do not inherit). */
  static?: boolean;
  /**
   * An import's local name that is not written as a name (Go's `import "a/pkg"` binds `pkg` from the path):
   * renaming it inserts an alias here instead of editing the path.
   */
  aliasAt?: number;
}

/** One import of a name or a module. */
export interface ImportRecord {
  /** named | default | namespace. */
  kind: "named" | "default" | "namespace";
  /** The module specifier as written ("./m", ".m", "pkg.mod"). */
  source: string;
  /** The exported name it takes ("default" for a default import, "*" for a namespace). */
  imported: string;
  /** The local binding it creates. */
  local: Binding;
  /** The imported name's occurrence when it differs from the local one (`a` in `import {a as b}`). */
  nameOccurrence?: Occurrence;
}

/** One name a file exports. */
export interface ExportRecord {
  /** The name importers use ("default" for a default export). */
  exported: string;
  /** The local binding exported, or null for a re-export from another module. */
  local: Binding | null;
  /**
   * For a re-export: the module specifier, and the name taken from it: "*" for `export * from` (then
   * `exported` is "*" too) and for `export * as ns from` (then `exported` is ns: the module's namespace).
   */
  from?: { source: string; imported: string; occurrence?: Occurrence };
  /** The `b` of `export {a as b}` (an occurrence of kind export_alias), when aliased. */
  aliasOccurrence?: Occurrence;
}

/** A file's scopes, bindings, occurrences, imports and exports. */
export interface FileBindings {
  /** Relative path. */
  path: string;
  /** Language id. */
  language: string;
  /** Version of the text. */
  version: Version;
  /** The decoded text. */
  text: string;
  /** Every scope; [0] is the module scope. */
  scopes: Scope[];
  /** Every classified identifier, in document order. */
  occurrences: Occurrence[];
  /** Imports, in document order. */
  imports: ImportRecord[];
  /** Exports, in document order. */
  exports: ExportRecord[];
  /** Whether every module-level name counts as exported (Python). */
  exportsAll: boolean;
  /** Doc comments whose tags name symbols (JSDoc `{@link x}`, `@see x`, `@param x`), in document order. */
  docs: { start: number; end: number }[];
  /** Modules whose every name this file imports (Rust `use m::*`): their specifiers, in document order. */
  globs?: string[];
  /** Modules this file imports at run time (`import("./m")`): their specifiers, in document order. */
  dynamicImports?: string[];
}

/**
 * The binding `name` refers to from inside `scope`: the innermost scope that
 * binds it, skipping closed class scopes seen from a function inside them.
 *
 * @param scope Where the name is used.
 * @param name The name.
 * @param options `item`: the name can only be an item (a Rust path's first segment, a macro), so variables
 *   (`Binding.value`) are passed over.
 * @returns The binding, or null when the name is free (a global or a built-in).
 */
export function lookup(scope: Scope, name: string, options: { item?: boolean } = {}): Binding | null {
  let s: Scope | null = scope;
  let crossedFunction = false;
  while (s) {
    if (!(s.closed && crossedFunction)) {
      const b = s.bindings.get(name);
      if (b && !(options.item && b.value)) return b;
    }
    if (s.kind === "function") crossedFunction = true;
    s = s.parent;
  }
  return null;
}

/**
 * The occurrence that covers an offset (start ≤ offset ≤ end), if any.
 *
 * @param fb The file's bindings.
 * @param offset UTF-16 offset.
 * @returns The occurrence, or null.
 */
export function occurrenceAt(fb: FileBindings, offset: number): Occurrence | null {
  let lo = 0;
  let hi = fb.occurrences.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const o = fb.occurrences[mid]!;
    if (o.end < offset) lo = mid + 1;
    else if (o.start > offset) hi = mid - 1;
    else return o;
  }
  return null;
}

/**
 * The innermost scope around an offset.
 *
 * @param fb The file's bindings.
 * @param offset UTF-16 offset.
 * @returns The scope (the module scope when no other holds the offset).
 */
export function scopeAtOffset(fb: FileBindings, offset: number): Scope {
  let best = fb.scopes[0]!;
  for (const s of fb.scopes) {
    if (s.start <= offset && offset < s.end && s.end - s.start <= best.end - best.start) best = s;
  }
  return best;
}

/**
 * The innermost class scope at or above a scope.
 *
 * @param scope A scope.
 * @returns The class scope, or null.
 */
export function classScopeOf(scope: Scope): Scope | null {
  let s: Scope | null = scope;
  while (s && s.kind !== "class") s = s.parent;
  return s;
}

/**
 * Whether `outer` is `inner` or one of its ancestors.
 *
 * @param outer A scope.
 * @param inner A scope.
 * @returns True when `inner` lies within `outer`.
 */
export function encloses(outer: Scope, inner: Scope): boolean {
  for (let s: Scope | null = inner; s; s = s.parent) if (s === outer) return true;
  return false;
}

/**
 * Index of the first occurrence starting at or after `offset`.
 *
 * @param occurrences Occurrences sorted by start.
 * @param offset UTF-16 offset.
 * @returns The index (the length when none does).
 */
export function firstAtOrAfter(occurrences: Occurrence[], offset: number): number {
  let lo = 0;
  let hi = occurrences.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (occurrences[mid]!.start < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The property a member access's object ends with: `b` for the `c` of `a.b.c` (or `a?.b.c`, or a type's
 * `a.b.C`), when only spaces separate them; null when the object ends otherwise (a call, a bracket).
 *
 * @param fb The file's bindings.
 * @param occ A member_property occurrence.
 * @returns The member_property occurrence of the object's last name, or null.
 */
export function objectProperty(fb: FileBindings, occ: Occurrence): Occurrence | null {
  const text = fb.text;
  let i = occ.start - 1;
  while (i >= 0 && /\s/.test(text[i]!)) i--;
  if (text[i] !== ".") return null;
  i--;
  if (text[i] === "?") i--;
  while (i >= 0 && /\s/.test(text[i]!)) i--;
  const end = i + 1;
  for (let k = firstAtOrAfter(fb.occurrences, occ.start) - 1; k >= 0; k--) {
    const o = fb.occurrences[k]!;
    if (o.end === end && o.kind === "member_property") return o;
    if (o.start < end - 256) break;
  }
  return null;
}

/**
 * The plain name a member access starts from and the properties between: for the `c` of `a.b.c`, the
 * occurrence of `a` and `["b"]` (for `a.c`, `a` and `[]`). Null when the object does not start with a plain
 * name (a call, a subscript, `self.x`).
 *
 * @param fb The file's bindings.
 * @param occ A member_property occurrence.
 * @returns The first name's binding (null when free), where the first name starts, and the property names in
 * order, or null.
 */
export function memberPath(
  fb: FileBindings,
  occ: Occurrence,
): { root: Binding | null; start: number; properties: string[] } | null {
  const properties: string[] = [];
  let at: Occurrence | null = occ;
  while (at && at.objectStart === undefined) {
    at = objectProperty(fb, at);
    if (at) properties.unshift(at.name);
    if (properties.length > 64) return null;
  }
  return at ? { root: at.object ?? null, start: at.objectStart!, properties } : null;
}

/**
 * A function that gives the innermost scope at an offset; its queries must
 * come in increasing offset order (one pass over the file).
 *
 * @param scopes The file's scopes, module scope first, sorted by start.
 * @returns The locator.
 */
export function scopeLocator(scopes: Scope[]): (offset: number) => Scope {
  const sorted = scopes.slice(1);
  let i = 0;
  const stack: Scope[] = [scopes[0]!];
  return (offset) => {
    while (stack.length > 1 && stack[stack.length - 1]!.end <= offset) stack.pop();
    while (i < sorted.length && sorted[i]!.start <= offset) {
      const s = sorted[i++]!;
      while (stack.length > 1 && stack[stack.length - 1]!.end <= s.start) stack.pop();
      if (s.end > offset) stack.push(s);
    }
    return stack[stack.length - 1]!;
  };
}

/**
 * The nearest function (or module) scope at or above `scope`: where `var` binds.
 *
 * @param scope A scope.
 * @returns The function or module scope.
 */
export function functionScope(scope: Scope): Scope {
  let s: Scope = scope;
  while (s.kind !== "function" && s.kind !== "module" && s.parent) s = s.parent;
  return s;
}

/**
 * Declare `name` in `scope` (the existing binding when it is already declared there).
 *
 * @param scope The scope.
 * @param name The name.
 * @param kind How it is bound.
 * @returns The binding.
 */
export function declare(scope: Scope, name: string, kind: BindingKind): Binding {
  const existing = scope.bindings.get(name);
  if (existing) return existing;
  const b: Binding = { name, scope, kind };
  scope.bindings.set(name, b);
  return b;
}
