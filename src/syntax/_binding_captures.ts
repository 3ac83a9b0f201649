/**
 * The first phase of building a file's bindings: reading the binding query's
 * matches into plain records keyed by where each name starts — the scopes'
 * spans, the definitions, pattern roots and leaves, references, members,
 * keyword arguments, and the markers (`@skip`, `@typed`, `@doc`, `@base`,
 * `@static`, …) — before any scope is built or name resolved. `bindings.ts`
 * turns these records into scopes and occurrences. Private to `src/syntax/`.
 *
 * @module
 */
import type { Node, QueryCapture } from "web-tree-sitter";
import type { OccurrenceKind, ScopeKind } from "./binding_model.ts";
import { type ModuleRecords, newModuleRecords, readModuleCapture, type Span } from "./_module_captures.ts";

/** A node the query captured as a scope, before scopes are nested. */
export interface ScopeSpan {
  /** Start offset. */
  start: number;
  /** End offset, exclusive. */
  end: number;
  /** What kind of scope it opens. */
  kind: ScopeKind;
  /** A class scope the functions inside it do not see (Python). */
  closed: boolean;
  /** Start of the scope node's own name (which binds in the scope around it), or -1. */
  nameStart: number;
  /** A class scope declared apart from its type (a Rust `impl` block). */
  impl?: boolean;
  /** An interface types satisfy without naming it (Go). */
  implicit?: boolean;
  /** Where the declaration whose names this scope holds starts (`@scope.within`, `@scope.after`). */
  declStart?: number;
}

/** A name captured as a definition. */
export interface DefinitionCapture {
  /** End offset of the name. */
  end: number;
  /** How it binds: lexical, var, parameter, global, nonlocal, … */
  kind: string;
  /** A parameter that is also a class member (`constructor(private x)`). */
  property?: boolean;
  /** A method's receiver (Go). */
  receiver?: boolean;
  /** A variable that an item-only name never refers to (Rust). */
  value?: boolean;
}

/** A name captured as a reference. */
export interface ReferenceCapture {
  /** End offset of the name. */
  end: number;
  /** `{x}`: a property and a variable at once. */
  shorthand: boolean;
  /** An entry of the module's list of exported names (Python's `__all__`). */
  entry?: boolean;
  /** A name that may only refer to an item (a Rust path's first segment). */
  item?: boolean;
  /** A type named as an embedded field (Go). */
  embedded?: boolean;
}

/** A name captured as a class member or a member access. */
export interface MemberCapture {
  /** End offset of the name. */
  end: number;
  /** member_definition, member_this or member_property. */
  kind: OccurrenceKind;
  /** The accessed object's start, when it is a plain name. */
  objectStart?: number;
}

/** A declaring pattern (`const { a, b } = …`): its leaves are definitions. */
export interface PatternRoot {
  /** Start offset. */
  start: number;
  /** End offset, exclusive. */
  end: number;
  /** How its names bind. */
  kind: string;
  /** Its names are variables (Rust). */
  value: boolean;
}

/** A supertype named in a class's heading (`extends Base`, `implements I`). */
export interface BaseCapture {
  /** The supertype name's start. */
  start: number;
  /** Implemented (an interface, a trait) rather than extended. */
  implemented: boolean;
  /** Every member of the block is the supertype's (a Rust trait impl). */
  whole?: boolean;
}

/** Everything one file's binding query captured, keyed by the start offset of each name. */
export interface CapturedNames {
  /** The file's text. */
  text: string;
  /** Nodes captured as scopes, in match order. */
  scopeSpans: ScopeSpan[];
  /** Definitions by start (the first capture of a name wins). */
  defs: Map<number, DefinitionCapture>;
  /** Names that are neither definitions nor references (`@skip`: a lifetime, a prototype's parameter). */
  skipped: Set<number>;
  /** References that another pattern may also capture as a definition (a C++ constructor's name). */
  forced: Set<number>;
  /** Shorthand field initialisers of a named type (Rust `Foo { x }`): the type name's start, by start. */
  shorthandTypes: Map<number, number>;
  /** Declaring patterns. */
  patternRoots: PatternRoot[];
  /** Names inside patterns, by start. */
  leaves: Map<number, { end: number; shorthand: boolean }>;
  /** References by start (the first capture of a name wins). */
  refs: Map<number, ReferenceCapture>;
  /** Starts of names that are no references (shared with the module records). */
  notRef: Set<number>;
  /** Members and member accesses by start. */
  members: Map<number, MemberCapture>;
  /** Keyword arguments' names (Python's `f(a=1)`) by start, with the callee's span. */
  keywords: Map<number, { end: number; callee: Span }>;
  /** Documentation comments' spans. */
  docs: Span[];
  /** Names declared with a written type (`cmd *Command`, `x: &T`): the type name's start, by the name's start. */
  typedNames: Map<number, number>;
  /** Supertypes named in class headings. */
  bases: BaseCapture[];
  /** `super.x`: the name's start. */
  supers: Set<number>;
  /** Members declared `static`: the name's start. */
  statics: Set<number>;
  /** Methods whose name an interface outside the workspace may require (`@protocol`: Go's `String`, `Error`). */
  protocols: Set<number>;
  /** Names declared under a build condition (`@conditional`: a Rust `#[cfg(…)] let`). */
  conditionals: Set<number>;
  /** Shorthand keys of a pattern destructuring `this` (`const { x } = this`): the name's start. */
  thisKeys: Set<number>;
  /** Imports, exports and the spans that hold no references. */
  modules: ModuleRecords;
}

/**
 * Read every match of a file's binding query into records by name start.
 *
 * @param file The file's text and language.
 * @param matches The captures of each match, in match order.
 * @returns The captured names.
 */
export function captureNames(
  file: { text: string; language: string },
  matches: QueryCapture[][],
): CapturedNames {
  const notRef = new Set<number>();
  const captured: CapturedNames = {
    text: file.text,
    scopeSpans: [],
    defs: new Map(),
    skipped: new Set(),
    forced: new Set(),
    shorthandTypes: new Map(),
    patternRoots: [],
    leaves: new Map(),
    refs: new Map(),
    notRef,
    members: new Map(),
    keywords: new Map(),
    docs: [],
    typedNames: new Map(),
    bases: [],
    supers: new Set(),
    statics: new Set(),
    protocols: new Set(),
    conditionals: new Set(),
    thisKeys: new Set(),
    modules: newModuleRecords([], notRef, { language: file.language, text: file.text }),
  };
  for (const captures of matches) readMatch(captured, captures);
  return captured;
}

/** Read one match by the head of its first public capture's name. */
function readMatch(c: CapturedNames, captures: QueryCapture[]): void {
  const first = captures.find((x) => !x.name.startsWith("_"));
  if (!first) return;
  const token = cap(captures, "_token");
  if (token && !writtenTogether(captures, token)) return;
  const head = parts(first.name)[0]!;
  if (head === "import" || head === "export" || head === "reexport") {
    readModuleCapture(c.modules, captures);
    return;
  }
  const marker = MARKER_READERS.get(head);
  if (marker) marker(c, first, captures);
  else readNameCaptures(c, captures);
}

/**
 * Whether a match's `@_token` (an operator token: `::`, `.`, `!`) sits right between the captures on its
 * sides, with no other token in between. A query's anchor (`.`) passes over anonymous tokens, so among a
 * macro's tokens `(identifier) . "::" . (identifier)` also matches `size_of :: < A`; this keeps `A::size`.
 */
function writtenTogether(captures: QueryCapture[], token: Node): boolean {
  let before: Node | null = null;
  let after: Node | null = null;
  for (const x of captures) {
    const n = x.node;
    if (n.endIndex <= token.startIndex && (!before || n.endIndex > before.endIndex)) before = n;
    if (n.startIndex >= token.endIndex && (!after || n.startIndex < after.startIndex)) after = n;
  }
  return (!before || token.previousSibling?.id === before.id) &&
    (!after || token.nextSibling?.id === after.id);
}

/** Readers of the matches that mark names rather than declare or use them, by capture head. */
const MARKER_READERS = new Map<
  string,
  (c: CapturedNames, first: QueryCapture, captures: QueryCapture[]) => void
>([
  ["skip", (c, _first, captures) => {
    for (const x of captures) if (x.name === "skip") c.skipped.add(x.node.startIndex);
  }],
  ["typed", (c, _first, captures) => {
    const name = cap(captures, "typed.name");
    const type = cap(captures, "typed.type");
    if (name && type) c.typedNames.set(name.startIndex, type.startIndex);
  }],
  ["doc", (c, first) => void c.docs.push(span(first.node))],
  ["base", (c, first) => {
    // `@base.implements.all`: every member of the block is the supertype's (a Rust trait impl).
    const whole = first.name === "base.implements.all";
    c.bases.push({
      start: first.node.startIndex,
      implemented: whole || first.name === "base.implements",
      whole,
    });
  }],
  ["conditional", (c, first) => void c.conditionals.add(first.node.startIndex)],
  ["protocol", (c, first) => void c.protocols.add(first.node.startIndex)],
  ["static", (c, first) => void c.statics.add(first.node.startIndex)],
  ["keyword", (c, _first, captures) => {
    const name = cap(captures, "keyword.name");
    const callee = cap(captures, "keyword.callee");
    if (name && callee) {
      c.keywords.set(name.startIndex, { end: name.endIndex, callee: span(callee) });
      c.notRef.add(name.startIndex);
    }
  }],
  ["member", readMemberMatch],
]);

/** A `@member.*` match: member declarations, `this.x`, `super.x`, and a property access. */
function readMemberMatch(c: CapturedNames, _first: QueryCapture, captures: QueryCapture[]): void {
  const object = cap(captures, "member.object");
  const key = cap(captures, "member.shorthand");
  // `Foo { x }` (Rust): the variable x, and the field x of the type named before it.
  if (key && object) c.shorthandTypes.set(key.startIndex, object.startIndex);
  for (const x of captures) {
    const n = x.node;
    if (x.name === "member.this.shorthand") c.thisKeys.add(n.startIndex);
    if (x.name === "member.super") c.supers.add(n.startIndex);
    if (x.name === "member.definition" || x.name === "member.this") readMemberName(c, x);
  }
  const prop = cap(captures, "member.property");
  if (prop) readMemberProperty(c, prop, object);
}

/** A member's declaration or a `this.x`: the member, and no reference. */
function readMemberName(c: CapturedNames, x: QueryCapture): void {
  const n = x.node;
  // Ruby's `@x` is the member x: its sigil is not part of the name.
  const at = n.startIndex + sigil(c.text, n.startIndex);
  if (at !== n.startIndex) {
    c.members.set(at, { end: identifierEnd(c.text, at) ?? n.endIndex, kind: "member_this" });
  } else {
    c.members.set(n.startIndex, {
      end: nameEnd(c.text, n),
      kind: x.name === "member.definition" ? "member_definition" : "member_this",
    });
  }
  c.notRef.add(n.startIndex);
}

/** `obj.x`: the property x, of the object when it is a plain name; a declared member keeps its kind. */
function readMemberProperty(c: CapturedNames, prop: Node, object: Node | undefined): void {
  c.notRef.add(prop.startIndex);
  const known = c.members.get(prop.startIndex);
  if (!known) {
    c.members.set(prop.startIndex, {
      end: nameEnd(c.text, prop),
      kind: "member_property",
      ...(object ? { objectStart: object.startIndex } : {}),
    });
  } else if (known.kind === "member_property" && object && known.objectStart === undefined) {
    known.objectStart = object.startIndex;
  }
}

/** A match of scopes, definitions, patterns and references: each capture by its kind. */
function readNameCaptures(c: CapturedNames, captures: QueryCapture[]): void {
  for (const x of captures) {
    const n = x.node;
    const [kind, sub, extra] = parts(x.name);
    if (kind === "scope") readScopeCapture(c, captures, { node: n, sub, extra });
    else if (kind === "definition") {
      if (!c.defs.has(n.startIndex)) {
        c.defs.set(n.startIndex, {
          end: nameEnd(c.text, n),
          kind: sub ?? "lexical",
          property: extra === "property",
          receiver: extra === "receiver",
          value: extra === "value",
        });
      }
    } else if (kind === "pattern") readPatternCapture(c, n, { sub, extra });
    else if (kind === "reference") readReferenceCapture(c, n, sub);
  }
}

/** One `@scope.*` capture (`@scope.name` and `@scope.from` are read with the scope they name). */
function readScopeCapture(
  c: CapturedNames,
  captures: QueryCapture[],
  { node: n, sub, extra }: { node: Node; sub: string | undefined; extra: string | undefined },
): void {
  if (sub === "name" || sub === "from") return;
  const from = cap(captures, "scope.from");
  if (sub === "within") {
    // A declaration whose names (at `@scope.from`) are visible in this node only (Rust's `if let`
    // binds in its consequence, not in its else branch).
    c.scopeSpans.push({
      start: n.startIndex,
      end: n.endIndex,
      kind: "block",
      closed: false,
      nameStart: -1,
      ...(from ? { declStart: from.startIndex } : {}),
    });
    return;
  }
  if (sub === "after") {
    // A declaration whose names (from `@scope.from`, or the node's own) are visible from the node's
    // end to the end of its parent.
    const end = n.parent?.endIndex ?? n.endIndex;
    c.scopeSpans.push({
      start: n.endIndex,
      end,
      kind: "block",
      closed: false,
      nameStart: -1,
      declStart: (from ?? n).startIndex,
    });
    return;
  }
  const name = cap(captures, "scope.name") ?? (sub === "block" ? null : n.childForFieldName("name"));
  c.scopeSpans.push({
    start: n.startIndex,
    end: n.endIndex,
    kind: sub as ScopeKind,
    closed: extra === "closed",
    nameStart: name ? name.startIndex : -1,
    ...(extra === "impl" ? { impl: true } : {}),
    ...(extra === "implicit" ? { implicit: true } : {}),
  });
}

/** A `@pattern.leaf` (a name inside a pattern) or a pattern's root. */
function readPatternCapture(
  c: CapturedNames,
  n: Node,
  { sub, extra }: { sub: string | undefined; extra: string | undefined },
): void {
  if (sub === "leaf") {
    c.leaves.set(n.startIndex, { end: nameEnd(c.text, n), shorthand: extra === "shorthand" });
    return;
  }
  c.patternRoots.push({
    start: n.startIndex,
    end: n.endIndex,
    kind: sub ?? "lexical",
    value: extra === "value",
  });
}

/**
 * A `@reference.*` capture (the first capture of a name wins, except that `item` — the name can only be an
 * item — holds whichever match says it: a pattern that ends after the name, such as a macro's name and its
 * `!` inside another macro's tokens, completes after the plain `@reference` of the same name).
 */
function readReferenceCapture(c: CapturedNames, n: Node, sub: string | undefined): void {
  if (sub === "constructor") c.forced.add(n.startIndex);
  const known = c.refs.get(n.startIndex);
  if (known) {
    if (sub === "item") known.item = true;
    return;
  }
  c.refs.set(n.startIndex, {
    end: nameEnd(c.text, n),
    shorthand: sub === "shorthand",
    ...(sub === "entry" ? { entry: true } : {}),
    ...(sub === "item" ? { item: true } : {}),
    ...(sub === "embedded" ? { embedded: true } : {}),
  });
}

/** The capture of `name` in a match, if any. */
function cap(captures: QueryCapture[], name: string): Node | undefined {
  return captures.find((c) => c.name === name)?.node;
}

/** A node's span. */
function span(n: Node): Span {
  return { start: n.startIndex, end: n.endIndex };
}

/** A name's end read from the text: cheaper than asking the tree (a call into wasm per node). */
function nameEnd(text: string, n: Node): number {
  return identifierEnd(text, n.startIndex) ?? n.endIndex;
}

/** The length of the `@` or `@@` that starts an instance or class variable at `start` (0 when none). */
function sigil(text: string, start: number): number {
  let i = start;
  while (text.charCodeAt(i) === 64) i++;
  return i - start;
}

const PARTS = new Map<string, string[]>();

/** A capture name's dot-separated parts (cached: the same few names come back for every match). */
function parts(name: string): string[] {
  let p = PARTS.get(name);
  if (!p) PARTS.set(name, p = name.split("."));
  return p;
}

/**
 * The end of the identifier starting at `start`, read from the text: ASCII
 * letters, digits, `_`, `$` and a leading `#`; null when the text there is not
 * a plain ASCII identifier (the caller then asks the tree).
 */
function identifierEnd(text: string, start: number): number | null {
  let i = start;
  if (text.charCodeAt(i) === 35) i++; // '#'
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const word = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 ||
      c === 36;
    if (word) continue;
    if (c >= 128) return null;
    break;
  }
  return i > start ? i : null;
}
