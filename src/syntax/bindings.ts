/**
 * Bindings: which declaration each identifier of a file refers to, from
 * graver's own per-language binding queries (`grammars/<lang>/queries/bindings.scm`).
 * The query says what is a scope, a definition, a destructuring pattern, a
 * reference, an import, an export and a class member; this module applies the
 * scoping rules every language here shares: a name is visible in its whole
 * scope (hoisting, and Python's "assigned anywhere in the function"), `var`
 * binds in the nearest function, the `name` of a scope node (a function or
 * class declaration) binds in the scope around it, inner declarations shadow
 * outer ones, and a "closed" class scope (Python) is not seen by the
 * functions inside it. Cross-file resolution (imports to exports) lives in
 * `src/structural/references/references.ts`, on top of the records kept here.
 *
 * @module
 */
import type { QueryCapture } from "web-tree-sitter";
import { languagesWithQuery, loadQuery } from "./queries.ts";
import type { Parsing } from "./types.ts";
import type { Version } from "../fs/version.ts";
import type {
  Binding,
  BindingKind,
  ExportRecord,
  FileBindings,
  ImportRecord,
  Occurrence,
  OccurrenceKind,
  Scope,
} from "./binding_model.ts";
import { declare, firstAtOrAfter, functionScope, lookup, scopeLocator } from "./binding_model.ts";
import { afterScopeOf, exportsAll, exportsByCase } from "./_binding_rules.ts";
import type { Span } from "./_module_captures.ts";
import { type CapturedNames, captureNames, type ScopeSpan } from "./_binding_captures.ts";

// Importers of bindings reach the model through this module too.
export type * from "./binding_model.ts";
export {
  classScopeOf,
  encloses,
  lookup,
  memberPath,
  objectProperty,
  occurrenceAt,
  scopeAtOffset,
} from "./binding_model.ts";

/**
 * Languages graver has a binding query for.
 *
 * @returns Language ids.
 */
export function bindingLanguages(): string[] {
  return languagesWithQuery("bindings");
}

/**
 * Most characters of text whose bindings are kept per parse cache (the least recently used go first): a
 * file's bindings take some ten bytes per character of its text, so about 80 MiB.
 */
export const MAX_BINDINGS_CHARS = 8 * 1024 * 1024;

/** Bindings kept per parse cache: by path, least recently used first, and the characters of text they cover. */
interface KeptBindings {
  byPath: Map<string, FileBindings>;
  chars: number;
}

const CACHE = new WeakMap<object, KeptBindings>();

/** Keep a file's bindings, the least recently used going while over {@linkcode MAX_BINDINGS_CHARS}. */
function keepBindings(kept: KeptBindings, fb: FileBindings): void {
  const old = kept.byPath.get(fb.path);
  if (old) {
    kept.byPath.delete(fb.path);
    kept.chars -= old.text.length;
  }
  if (fb.text.length > MAX_BINDINGS_CHARS) return;
  for (const [path, other] of kept.byPath) {
    if (kept.chars + fb.text.length <= MAX_BINDINGS_CHARS) break;
    kept.byPath.delete(path);
    kept.chars -= other.text.length;
  }
  kept.byPath.set(fb.path, fb);
  kept.chars += fb.text.length;
}

/**
 * The bindings of a file: parses it through the host's parse cache and runs
 * the language's binding query (cached per parse cache, path and version,
 * within {@linkcode MAX_BINDINGS_CHARS}).
 *
 * @param parsing Grammars and parse cache.
 * @param file Path, language, version and text of the file.
 * @returns The bindings, or null when the language has no binding query.
 */
export async function fileBindings(
  parsing: Parsing,
  file: { path: string; language: string; version: Version; text: string },
): Promise<FileBindings | null> {
  if (!parsing.grammars || !parsing.trees) return null;
  let kept = CACHE.get(parsing.trees);
  const hit = kept?.byPath.get(file.path);
  if (hit && hit.version === file.version && hit.language === file.language) {
    kept!.byPath.delete(file.path); // the most recently used now
    kept!.byPath.set(file.path, hit);
    return hit;
  }
  const query = await loadQuery(parsing.grammars, file.language, "bindings");
  if (!query) return null;
  const parsed = await parsing.trees.parse(file.path, file.language, file.version, file.text);
  const matches = query.matches(parsed.tree.rootNode);
  const fb = buildBindings(file, matches.map((m) => m.captures));
  if (!kept) CACHE.set(parsing.trees, kept = { byPath: new Map(), chars: 0 });
  keepBindings(kept, fb);
  return fb;
}

/** Sort spans by start, outer first. */
function byStart(a: Span, b: Span): number {
  return a.start - b.start || b.end - a.end;
}

/**
 * Build a file's bindings from the binding query's matches (each a list of
 * captures). Exposed for tests; {@linkcode fileBindings} is the entry point.
 * The phases: read the captures, nest the scopes, list the identifiers in
 * document order, bind each in its scope, resolve the references, then tie
 * the imports and exports to the bindings.
 *
 * @param file Path, language, version and text.
 * @param matches The captures of each match, in match order.
 * @returns The file's bindings.
 */
export function buildBindings(
  file: { path: string; language: string; version: Version; text: string },
  matches: QueryCapture[][],
): FileBindings {
  const captured = captureNames(file, matches);
  const module = moduleScope(file.text.length);
  const { scopes, declStarts } = nestScopes(captured.scopeSpans, module);
  classifyPatternLeaves(captured);
  const identifiers = identifiersInOrder(captured);
  attachSupertypes(scopes, captured.bases);
  const bound = bindIdentifiers(captured, { identifiers, scopes, declStarts });
  redirectPassthroughs(bound.occurrences, module);
  for (const occ of bound.pendingRefs) {
    occ.binding = lookup(occ.scope, occ.name, { item: captured.refs.get(occ.start)?.item === true });
  }
  const byStartOcc = linkObjects(bound.occurrences, bound.receivers);
  declaredTypes(captured.typedNames, byStartOcc);
  const resolved: Resolved = { captured, module, occurrences: bound.occurrences, byStartOcc };
  const imports = importRecords(resolved);
  bound.occurrences.sort((a, b) => a.start - b.start);
  const exports = exportRecords(resolved, file.language);
  bound.occurrences.sort((a, b) => a.start - b.start);
  const { globs, dynamic } = captured.modules;
  return {
    path: file.path,
    language: file.language,
    version: file.version,
    text: file.text,
    scopes,
    occurrences: bound.occurrences,
    imports,
    exports,
    exportsAll: exportsAll(file.language),
    docs: captured.docs.sort(byStart),
    ...(globs.length > 0 ? { globs } : {}),
    ...(dynamic.length > 0 ? { dynamicImports: dynamic } : {}),
  };
}

/** The file's outermost scope. */
function moduleScope(length: number): Scope {
  return {
    id: 0,
    kind: "module",
    closed: false,
    start: 0,
    end: length,
    parent: null,
    nameStart: -1,
    bindings: new Map(),
  };
}

/**
 * Scopes as a tree by containment, module first, and the start of the declaration each "within" or
 * "after" scope holds. Of two captures of one node, the one that names the scope wins (`@scope.name`).
 */
function nestScopes(
  scopeSpans: ScopeSpan[],
  module: Scope,
): { scopes: Scope[]; declStarts: Map<Scope, number> } {
  scopeSpans.sort((a, b) => byStart(a, b) || b.nameStart - a.nameStart);
  const scopes: Scope[] = [module];
  const stack: Scope[] = [module];
  const declStarts = new Map<Scope, number>();
  const byKey = new Map<string, Scope>();
  for (const s of scopeSpans) {
    const key = `${s.start}:${s.end}`;
    const same = byKey.get(key);
    if (same) {
      // The same node captured as a block and as where a declaration's names live (`@scope.within`).
      if (s.declStart !== undefined) declStarts.set(same, s.declStart);
      continue;
    }
    while (stack.length > 1 && stack[stack.length - 1]!.end <= s.start) stack.pop();
    const scope: Scope = {
      id: scopes.length,
      kind: s.kind,
      closed: s.closed,
      start: s.start,
      end: s.end,
      parent: stack[stack.length - 1]!,
      nameStart: s.nameStart,
      bindings: new Map(),
    };
    if (s.impl) scope.impl = true;
    if (s.implicit) scope.implicit = true;
    if (s.declStart !== undefined) declStarts.set(scope, s.declStart);
    byKey.set(key, scope);
    scopes.push(scope);
    stack.push(scope);
  }
  return { scopes, declStarts };
}

/** Pattern leaves inside a declaring pattern are definitions; the others are references (assignments). */
function classifyPatternLeaves(c: CapturedNames): void {
  c.patternRoots.sort(byStart);
  for (const [start, leaf] of c.leaves) {
    let root: { kind: string; value: boolean } | null = null;
    for (const r of c.patternRoots) {
      if (r.start > start) break;
      if (r.end >= leaf.end) root = r;
    }
    if (root && !c.defs.has(start)) c.defs.set(start, { end: leaf.end, kind: root.kind, value: root.value });
    if (leaf.shorthand) c.refs.set(start, { end: leaf.end, shorthand: true });
  }
}

/** An identifier of interest and what the query made of it. */
interface Identifier {
  start: number;
  end: number;
  role: "def" | "ref" | "member" | "keyword";
}

/**
 * Every identifier of interest, in document order: definitions, references that are no definition,
 * member or keyword, members outside imports, keyword arguments, and imports' local names.
 */
function identifiersInOrder(c: CapturedNames): Identifier[] {
  const out: Identifier[] = [];
  // A name captured both as a member and as a definition (a Rust method) is a member.
  for (const start of c.skipped) c.notRef.add(start);
  for (const [start, d] of c.defs) {
    if (!c.members.has(start) && !c.skipped.has(start) && !c.forced.has(start)) {
      out.push({ start, end: d.end, role: "def" });
    }
  }
  const noRef = noReferenceSpans(c.modules.noRefSpans);
  for (const [start, r] of c.refs) {
    if ((c.defs.has(start) && !c.forced.has(start)) || c.notRef.has(start) || c.members.has(start)) continue;
    if (c.keywords.has(start) || noRef(start)) continue;
    out.push({ start, end: r.end, role: "ref" });
  }
  const imports = c.modules.imports;
  const importNames = new Set(imports.flatMap((r) => [r.local.start, r.name?.start ?? -1]));
  for (const [start, m] of c.members) {
    // A path inside an import (Rust `use a::b::C`) names modules, not members.
    if (importNames.has(start) || noRef(start)) continue;
    out.push({ start, end: m.end, role: "member" });
  }
  for (const [start, k] of c.keywords) out.push({ start, end: k.end, role: "keyword" });
  out.sort((a, b) => a.start - b.start);
  for (const r of imports) {
    if (!c.defs.has(r.local.start)) out.push({ start: r.local.start, end: r.local.end, role: "def" });
  }
  out.sort((a, b) => a.start - b.start);
  return out;
}

/** Whether an offset lies in one of the spans that hold no references (import sources): a binary search. */
function noReferenceSpans(spans: Span[]): (start: number) => boolean {
  spans.sort(byStart);
  return (start) => {
    let lo = 0;
    let hi = spans.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = spans[mid]!;
      if (s.end <= start) lo = mid + 1;
      else if (s.start > start) hi = mid - 1;
      else return true;
    }
    return false;
  };
}

/** Give each class scope the supertypes its heading names (`extends Base`, `implements I`). */
function attachSupertypes(scopes: Scope[], bases: CapturedNames["bases"]): void {
  // A locator walks forward only: the bases get their own, in order.
  const baseScopeAt = scopeLocator(scopes);
  for (const { start, implemented, whole } of bases.sort((a, b) => a.start - b.start)) {
    const cls = baseScopeAt(start);
    if (cls.kind !== "class") continue;
    if (whole) cls.membersOf = start;
    if (implemented) (cls.interfaces ??= []).push(start);
    else cls.base ??= start;
  }
}

/** The occurrences of a file before references are resolved. */
interface Bound {
  /** Every occurrence, in document order. */
  occurrences: Occurrence[];
  /** The references, to resolve once every definition is declared. */
  pendingRefs: Occurrence[];
  /** Bindings of methods' receivers (Go): `r.f` on one is a member access like `this.f`. */
  receivers: Set<Binding>;
}

/** What binding one identifier needs besides the captures. */
interface BindContext {
  captured: CapturedNames;
  /** Imports by the start of their local name. */
  importLocals: Map<number, CapturedNames["modules"]["imports"][number]>;
  /** The "after" scope a definition at an offset binds in. */
  afterScope: (scope: Scope, offset: number) => Scope;
  bound: Bound;
}

/**
 * One occurrence per identifier, in its innermost scope: definitions declare their binding (`var` in
 * the nearest function), the others wait for resolution.
 */
function bindIdentifiers(
  captured: CapturedNames,
  { identifiers, scopes, declStarts }: {
    identifiers: Identifier[];
    scopes: Scope[];
    declStarts: Map<Scope, number>;
  },
): Bound {
  const ctx: BindContext = {
    captured,
    importLocals: new Map(captured.modules.imports.map((r) => [r.local.start, r])),
    afterScope: afterScopeOf(declStarts),
    bound: { occurrences: [], pendingRefs: [], receivers: new Set() },
  };
  const scopeAt = scopeLocator(scopes);
  for (const id of identifiers) {
    let scope = scopeAt(id.start);
    // The name of a function or class binds in the scope around it.
    while (scope.nameStart === id.start && scope.parent) scope = scope.parent;
    const occ: Occurrence = {
      name: captured.text.slice(id.start, id.end),
      start: id.start,
      end: id.end,
      kind: "reference",
      scope,
      binding: null,
    };
    if (id.role === "def") bindDefinition(ctx, occ);
    else if (id.role === "ref") addReference(ctx, occ);
    else if (id.role === "member") addMember(ctx, occ);
    else addKeyword(ctx, occ);
  }
  return ctx.bound;
}

/** A definition: declared in its scope (after-scope, or the function for `var`); `global`/`nonlocal` pass through. */
function bindDefinition(ctx: BindContext, occ: Occurrence): void {
  const c = ctx.captured;
  const scope = occ.scope = ctx.afterScope(occ.scope, occ.start);
  const d = c.defs.get(occ.start);
  const imp = ctx.importLocals.get(occ.start);
  const kind = imp ? "import" : d?.kind ?? "lexical";
  if (kind === "global" || kind === "nonlocal") {
    (scope.passthrough ??= new Map()).set(occ.name, kind);
    return;
  }
  occ.kind = c.refs.get(occ.start)?.shorthand ? "shorthand_pattern" : "definition";
  if (d?.property) occ.parameterProperty = true;
  if (c.thisKeys.has(occ.start)) occ.thisKey = true;
  if (imp?.aliasAt !== undefined) occ.aliasAt = imp.aliasAt;
  const home = kind === "var" ? functionScope(scope) : scope;
  occ.binding = declare(home, occ.name, kind as BindingKind);
  if (d?.receiver) ctx.bound.receivers.add(occ.binding);
  if (d?.value) occ.binding.value = true;
  if (c.conditionals.has(occ.start)) occ.binding.conditional = true;
  ctx.bound.occurrences.push(occ);
}

/** A reference (a shorthand, an export list's entry): resolved once every definition is declared. */
function addReference(ctx: BindContext, occ: Occurrence): void {
  const ref = ctx.captured.refs.get(occ.start);
  occ.kind = ref?.shorthand ? "shorthand" : ref?.entry ? "export_entry" : "reference";
  if (ref?.embedded) occ.embedded = true;
  const typeStart = ctx.captured.shorthandTypes.get(occ.start);
  if (typeStart !== undefined) occ.objectStart = typeStart;
  ctx.bound.occurrences.push(occ);
  ctx.bound.pendingRefs.push(occ);
}

/** A member's declaration or access, with what the markers say of it. */
function addMember(ctx: BindContext, occ: Occurrence): void {
  const c = ctx.captured;
  const m = c.members.get(occ.start)!;
  occ.kind = m.kind;
  if (m.objectStart !== undefined) occ.objectStart = m.objectStart;
  if (c.statics.has(occ.start)) occ.static = true;
  if (c.protocols.has(occ.start)) occ.protocol = true;
  if (c.supers.has(occ.start)) occ.viaSuper = true;
  ctx.bound.occurrences.push(occ);
}

/** A keyword argument's name, with its callee. */
function addKeyword(ctx: BindContext, occ: Occurrence): void {
  occ.kind = "keyword";
  occ.callee = ctx.captured.keywords.get(occ.start)!.callee;
  ctx.bound.occurrences.push(occ);
}

/** Python's `global x` / `nonlocal x`: an assignment in that function binds outside it. */
function redirectPassthroughs(occurrences: Occurrence[], module: Scope): void {
  for (const occ of occurrences) {
    const b = occ.binding;
    if (!b || occ.kind !== "definition") continue;
    const mode = b.scope.passthrough?.get(b.name);
    if (!mode) continue;
    b.scope.bindings.delete(b.name);
    occ.binding = mode === "global" ? declare(module, b.name, "lexical") : lookup(b.scope.parent!, b.name);
    if (occ.binding) occ.kind = "definition";
  }
}

/**
 * Tie each member access to the binding of its object's name; `r.f` on a method's receiver (Go) is a
 * member access like `this.f`.
 *
 * @returns The occurrences by start.
 */
function linkObjects(occurrences: Occurrence[], receivers: Set<Binding>): Map<number, Occurrence> {
  const byStartOcc = new Map(occurrences.map((o) => [o.start, o]));
  for (const occ of occurrences) {
    if (occ.objectStart === undefined) continue;
    occ.object = byStartOcc.get(occ.objectStart)?.binding ?? null;
    if (occ.object && receivers.has(occ.object)) occ.kind = "member_this";
  }
  return byStartOcc;
}

/** The resolved occurrences the import and export records are tied to. */
interface Resolved {
  captured: CapturedNames;
  module: Scope;
  occurrences: Occurrence[];
  byStartOcc: Map<number, Occurrence>;
}

/** Each import with the binding of its local name, and an occurrence for the imported name when aliased. */
function importRecords({ captured, module, occurrences, byStartOcc }: Resolved): ImportRecord[] {
  const imports: ImportRecord[] = [];
  for (const r of captured.modules.imports) {
    const local = byStartOcc.get(r.local.start)?.binding;
    if (!local) continue;
    const rec: ImportRecord = { kind: r.kind, source: r.source, imported: r.imported, local };
    if (r.name) {
      rec.nameOccurrence = pushOccurrence(occurrences, captured.text, r.name, "import_name", module);
    }
    local.import = rec;
    imports.push(rec);
  }
  return imports;
}

/**
 * Each export with its binding: re-exports, `export {a as b}`, the names an exported declaration
 * defines, and (Go) every capitalised name of the module.
 */
function exportRecords(resolved: Resolved, language: string): ExportRecord[] {
  const { captured, module, occurrences, byStartOcc } = resolved;
  const exports: ExportRecord[] = [];
  for (const e of captured.modules.exports) {
    const aliasOcc = e.alias
      ? pushOccurrence(occurrences, captured.text, e.alias, "export_alias", module)
      : undefined;
    const alias = aliasOcc ? { aliasOccurrence: aliasOcc } : {};
    if (e.from) {
      const nameOcc = e.from.name
        ? pushOccurrence(occurrences, captured.text, e.from.name, "reexport_name", module)
        : undefined;
      exports.push({
        exported: e.exported ?? e.from.imported,
        local: null,
        from: {
          source: e.from.source,
          imported: e.from.imported,
          ...(nameOcc ? { occurrence: nameOcc } : {}),
        },
        ...alias,
      });
    } else if (e.local) {
      const b = byStartOcc.get(e.local.start)?.binding ?? null;
      if (b) exports.push({ exported: e.exported!, local: b, ...alias });
    } else if (e.decl) exports.push(...declaredExports(resolved, { decl: e.decl, exported: e.exported }));
  }
  if (exportsByCase(language)) {
    for (const [name, b] of module.bindings) {
      if (b.kind !== "import" && /^\p{Lu}/u.test(name)) exports.push({ exported: name, local: b });
    }
  }
  return exports;
}

/** The module-level names an exported declaration defines (only the first for a default export). */
function declaredExports(
  { module, occurrences }: Resolved,
  { decl, exported }: { decl: Span; exported: string | null },
): ExportRecord[] {
  const out: ExportRecord[] = [];
  for (let i = firstAtOrAfter(occurrences, decl.start); i < occurrences.length; i++) {
    const occ = occurrences[i]!;
    if (occ.start >= decl.end) break;
    if (occ.kind !== "definition" && occ.kind !== "shorthand_pattern") continue;
    if (occ.binding?.scope !== module) continue;
    out.push({ exported: exported ?? occ.name, local: occ.binding });
    if (exported === "default") break;
  }
  return out;
}

/**
 * Give each binding declared with a written type (`@typed.name` + `@typed.type`) the occurrence of that
 * type's name. A binding declared twice with different types gets none: its type is not certain.
 */
function declaredTypes(typedNames: Map<number, number>, byStart: Map<number, Occurrence>): void {
  const uncertain = new Set<Binding>();
  for (const [nameStart, typeStart] of typedNames) {
    const b = byStart.get(nameStart)?.binding;
    const type = byStart.get(typeStart);
    const named = type?.kind === "reference" || type?.kind === "member_property"; // T, or pkg.T / a::T
    if (!b || !type || !named || uncertain.has(b)) continue;
    if (b.declaredType && b.declaredType.name !== type.name) {
      delete b.declaredType;
      uncertain.add(b);
    } else b.declaredType = type;
  }
}

function pushOccurrence(
  occurrences: Occurrence[],
  text: string,
  s: Span,
  kind: OccurrenceKind,
  scope: Scope,
): Occurrence {
  const occ: Occurrence = {
    name: text.slice(s.start, s.end),
    start: s.start,
    end: s.end,
    kind,
    scope,
    binding: null,
  };
  occurrences.push(occ);
  return occ;
}
