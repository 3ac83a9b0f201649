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
import type { Node, QueryCapture } from "web-tree-sitter";
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
  ScopeKind,
} from "./binding_model.ts";
import { declare, firstAtOrAfter, functionScope, lookup, scopeLocator } from "./binding_model.ts";
import { afterScopeOf, exportsAll, exportsByCase } from "./_binding_rules.ts";
import { newModuleRecords, readModuleCapture, type Span } from "./_module_captures.ts";

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

const CACHE = new WeakMap<object, Map<string, FileBindings>>();

/**
 * The bindings of a file: parses it through the host's parse cache and runs
 * the language's binding query (cached per parse cache, path and version).
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
  let byPath = CACHE.get(parsing.trees);
  const hit = byPath?.get(file.path);
  if (hit && hit.version === file.version && hit.language === file.language) return hit;
  const query = await loadQuery(parsing.grammars, file.language, "bindings");
  if (!query) return null;
  const parsed = await parsing.trees.parse(file.path, file.language, file.version, file.text);
  const matches = query.matches(parsed.tree.rootNode);
  const fb = buildBindings(file, matches.map((m) => m.captures));
  if (!byPath) CACHE.set(parsing.trees, byPath = new Map());
  byPath.set(file.path, fb);
  return fb;
}

/** Sort spans by start, outer first. */
function byStart(a: Span, b: Span): number {
  return a.start - b.start || b.end - a.end;
}

/** The capture of `name` in a match, if any. */
function cap(captures: QueryCapture[], name: string): Node | undefined {
  return captures.find((c) => c.name === name)?.node;
}

/**
 * Build a file's bindings from the binding query's matches (each a list of
 * captures). Exposed for tests; {@linkcode fileBindings} is the entry point.
 *
 * @param file Path, language, version and text.
 * @param matches The captures of each match, in match order.
 * @returns The file's bindings.
 */
export function buildBindings(
  file: { path: string; language: string; version: Version; text: string },
  matches: QueryCapture[][],
): FileBindings {
  const text = file.text;
  const module: Scope = {
    id: 0,
    kind: "module",
    closed: false,
    start: 0,
    end: text.length,
    parent: null,
    nameStart: -1,
    bindings: new Map(),
  };
  const scopeSpans: {
    start: number;
    end: number;
    kind: ScopeKind;
    closed: boolean;
    nameStart: number;
    impl?: boolean;
    implicit?: boolean;
    declStart?: number;
  }[] = [];
  const defs = new Map<
    number,
    { end: number; kind: string; property?: boolean; receiver?: boolean; value?: boolean }
  >();
  /** Names that are neither definitions nor references (`@skip`: a lifetime, a prototype's parameter). */
  const skipped = new Set<number>();
  /** References that another pattern may also capture as a definition (a C++ constructor's name). */
  const forced = new Set<number>();
  /** Shorthand field initialisers of a named type (Rust `Foo { x }`): the type name's start, by start. */
  const shorthandTypes = new Map<number, number>();
  const patternRoots: { start: number; end: number; kind: string; value: boolean }[] = [];
  const leaves = new Map<number, { end: number; shorthand: boolean }>();
  const refs = new Map<
    number,
    { end: number; shorthand: boolean; entry?: boolean; item?: boolean; embedded?: boolean }
  >();
  const notRef = new Set<number>();
  const noRefSpans: Span[] = [];
  const members = new Map<number, { end: number; kind: OccurrenceKind; objectStart?: number }>();
  const keywords = new Map<number, { end: number; callee: Span }>();
  const docs: Span[] = [];
  /** Names declared with a written type (`cmd *Command`, `x: &T`): the type name's start, by the name's start. */
  const typedNames = new Map<number, number>();
  /** Supertypes named in a class's heading (`extends Base`, `implements I`): the name's start, and which. */
  const bases: { start: number; implemented: boolean; whole?: boolean }[] = [];
  /** `super.x`: the name's start. */
  const supers = new Set<number>();
  /** Members declared `static`: the name's start. */
  const statics = new Set<number>();
  /** Methods whose name an interface outside the workspace may require (`@protocol`: Go's `String`, `Error`). */
  const protocols = new Set<number>();
  /** Names declared under a build condition (`@conditional`: a Rust `#[cfg(…)] let`). */
  const conditionals = new Set<number>();
  /** Shorthand keys of a pattern destructuring `this` (`const { x } = this`): the name's start. */
  const thisKeys = new Set<number>();
  const moduleRecords = newModuleRecords(noRefSpans, notRef, { language: file.language });
  const { imports: rawImports, exports: rawExports, globs, dynamic } = moduleRecords;
  const span = (n: Node): Span => ({ start: n.startIndex, end: n.endIndex });
  // A name's end read from the text: cheaper than asking the tree (a call into wasm per node).
  const nameEnd = (n: Node): number => identifierEnd(text, n.startIndex) ?? n.endIndex;

  for (const captures of matches) {
    const first = captures.find((c) => !c.name.startsWith("_"));
    if (!first) continue;
    const head = parts(first.name)[0];
    if (head === "import" || head === "export" || head === "reexport") {
      readModuleCapture(head, captures, text, moduleRecords);
      continue;
    }
    if (head === "skip") {
      for (const c of captures) if (c.name === "skip") skipped.add(c.node.startIndex);
      continue;
    }
    if (head === "typed") {
      const name = cap(captures, "typed.name");
      const type = cap(captures, "typed.type");
      if (name && type) typedNames.set(name.startIndex, type.startIndex);
      continue;
    }
    if (head === "doc") {
      docs.push(span(first.node));
      continue;
    }
    if (head === "base") {
      // `@base.implements.all`: every member of the block is the supertype's (a Rust trait impl).
      const whole = first.name === "base.implements.all";
      bases.push({
        start: first.node.startIndex,
        implemented: whole || first.name === "base.implements",
        whole,
      });
      continue;
    }
    if (head === "conditional") {
      conditionals.add(first.node.startIndex);
      continue;
    }
    if (head === "protocol") {
      protocols.add(first.node.startIndex);
      continue;
    }
    if (head === "static") {
      statics.add(first.node.startIndex);
      continue;
    }
    if (head === "keyword") {
      const name = cap(captures, "keyword.name");
      const callee = cap(captures, "keyword.callee");
      if (name && callee) {
        keywords.set(name.startIndex, { end: name.endIndex, callee: span(callee) });
        notRef.add(name.startIndex);
      }
      continue;
    }
    if (head === "member") {
      const prop = cap(captures, "member.property");
      const object = cap(captures, "member.object");
      const key = cap(captures, "member.shorthand");
      // `Foo { x }` (Rust): the variable x, and the field x of the type named before it.
      if (key && object) shorthandTypes.set(key.startIndex, object.startIndex);
      for (const c of captures) {
        const n = c.node;
        if (c.name === "member.this.shorthand") thisKeys.add(n.startIndex);
        if (c.name === "member.super") supers.add(n.startIndex);
        if (c.name === "member.definition" || c.name === "member.this") {
          // Ruby's `@x` is the member x: its sigil is not part of the name.
          const at = n.startIndex + sigil(text, n.startIndex);
          if (at !== n.startIndex) {
            members.set(at, { end: identifierEnd(text, at) ?? n.endIndex, kind: "member_this" });
            notRef.add(n.startIndex);
            continue;
          }
          members.set(n.startIndex, {
            end: nameEnd(n),
            kind: c.name === "member.definition" ? "member_definition" : "member_this",
          });
          notRef.add(n.startIndex);
        }
      }
      if (prop) {
        notRef.add(prop.startIndex);
        const known = members.get(prop.startIndex);
        if (!known) {
          members.set(prop.startIndex, {
            end: nameEnd(prop),
            kind: "member_property",
            ...(object ? { objectStart: object.startIndex } : {}),
          });
        } else if (known.kind === "member_property" && object && known.objectStart === undefined) {
          known.objectStart = object.startIndex;
        }
      }
      continue;
    }
    for (const c of captures) {
      const n = c.node;
      const [kind, sub, extra] = parts(c.name);
      if (kind === "scope") {
        if (sub === "name" || sub === "from") continue;
        if (sub === "within") {
          // A declaration whose names (at `@scope.from`) are visible in this node only (Rust's `if let`
          // binds in its consequence, not in its else branch).
          const from = cap(captures, "scope.from");
          scopeSpans.push({
            start: n.startIndex,
            end: n.endIndex,
            kind: "block",
            closed: false,
            nameStart: -1,
            ...(from ? { declStart: from.startIndex } : {}),
          });
          continue;
        }
        if (sub === "after") {
          // A declaration whose names (from `@scope.from`, or the node's own) are visible from the node's
          // end to the end of its parent.
          const end = n.parent?.endIndex ?? n.endIndex;
          scopeSpans.push({
            start: n.endIndex,
            end,
            kind: "block",
            closed: false,
            nameStart: -1,
            declStart: (cap(captures, "scope.from") ?? n).startIndex,
          });
          continue;
        }
        const name = cap(captures, "scope.name") ?? (sub === "block" ? null : n.childForFieldName("name"));
        scopeSpans.push({
          start: n.startIndex,
          end: n.endIndex,
          kind: sub as ScopeKind,
          closed: extra === "closed",
          nameStart: name ? name.startIndex : -1,
          ...(extra === "impl" ? { impl: true } : {}),
          ...(extra === "implicit" ? { implicit: true } : {}),
        });
      } else if (kind === "definition") {
        if (!defs.has(n.startIndex)) {
          defs.set(n.startIndex, {
            end: nameEnd(n),
            kind: sub ?? "lexical",
            property: extra === "property",
            receiver: extra === "receiver",
            value: extra === "value",
          });
        }
      } else if (kind === "pattern") {
        if (sub === "leaf") leaves.set(n.startIndex, { end: nameEnd(n), shorthand: extra === "shorthand" });
        else {
          patternRoots.push({
            start: n.startIndex,
            end: n.endIndex,
            kind: sub ?? "lexical",
            value: extra === "value",
          });
        }
      } else if (kind === "reference") {
        if (sub === "constructor") forced.add(n.startIndex);
        if (!refs.has(n.startIndex)) {
          refs.set(n.startIndex, {
            end: nameEnd(n),
            shorthand: sub === "shorthand",
            ...(sub === "entry" ? { entry: true } : {}),
            ...(sub === "item" ? { item: true } : {}),
            ...(sub === "embedded" ? { embedded: true } : {}),
          });
        }
      }
    }
  }

  // Scopes: a tree by containment.
  // Of two captures of one node, the one that names the scope wins (`@scope.name`).
  scopeSpans.sort((a, b) => byStart(a, b) || b.nameStart - a.nameStart);
  const scopes: Scope[] = [module];
  const stack: Scope[] = [module];
  const seen = new Set<string>();
  const declStarts = new Map<Scope, number>();
  const byKey = new Map<string, Scope>();
  for (const s of scopeSpans) {
    const key = `${s.start}:${s.end}`;
    if (seen.has(key)) {
      // The same node captured as a block and as where a declaration's names live (`@scope.within`).
      if (s.declStart !== undefined) declStarts.set(byKey.get(key)!, s.declStart);
      continue;
    }
    seen.add(key);
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

  // Pattern leaves inside a declaring pattern are definitions; the others are references (assignments).
  patternRoots.sort(byStart);
  for (const [start, leaf] of leaves) {
    let root: { kind: string; value: boolean } | null = null;
    for (const r of patternRoots) {
      if (r.start > start) break;
      if (r.end >= leaf.end) root = r;
    }
    if (root) {
      if (!defs.has(start)) defs.set(start, { end: leaf.end, kind: root.kind, value: root.value });
      if (leaf.shorthand) refs.set(start, { end: leaf.end, shorthand: true });
    } else if (leaf.shorthand) refs.set(start, { end: leaf.end, shorthand: true });
  }

  // Every identifier of interest, in document order, with its innermost scope.
  interface Raw {
    start: number;
    end: number;
    role: "def" | "ref" | "member" | "keyword";
  }
  const raws: Raw[] = [];
  // A name captured both as a member and as a definition (a Rust method) is a member.
  for (const start of skipped) notRef.add(start);
  for (const [start, d] of defs) {
    if (!members.has(start) && !skipped.has(start) && !forced.has(start)) {
      raws.push({ start, end: d.end, role: "def" });
    }
  }
  noRefSpans.sort(byStart);
  const inNoRef = (start: number) => {
    let lo = 0;
    let hi = noRefSpans.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = noRefSpans[mid]!;
      if (s.end <= start) lo = mid + 1;
      else if (s.start > start) hi = mid - 1;
      else return true;
    }
    return false;
  };
  for (const [start, r] of refs) {
    if ((defs.has(start) && !forced.has(start)) || notRef.has(start) || members.has(start)) continue;
    if (keywords.has(start)) continue;
    if (noRefSpans.length > 0 && inNoRef(start)) continue;
    raws.push({ start, end: r.end, role: "ref" });
  }
  const importNames = new Set(rawImports.flatMap((r) => [r.local.start, r.name?.start ?? -1]));
  for (const [start, m] of members) {
    // A path inside an import (Rust `use a::b::C`) names modules, not members.
    if (importNames.has(start) || (noRefSpans.length > 0 && inNoRef(start))) continue;
    raws.push({ start, end: m.end, role: "member" });
  }
  for (const [start, k] of keywords) raws.push({ start, end: k.end, role: "keyword" });
  raws.sort((a, b) => a.start - b.start);
  const importLocals = new Map(rawImports.map((r) => [r.local.start, r]));
  for (const r of rawImports) {
    if (!defs.has(r.local.start)) raws.push({ start: r.local.start, end: r.local.end, role: "def" });
  }
  raws.sort((a, b) => a.start - b.start);

  const scopeAt = scopeLocator(scopes);
  const afterScope = afterScopeOf(declStarts);
  // A locator walks forward only: the bases get their own, in order.
  const baseScopeAt = scopeLocator(scopes);
  for (const { start, implemented, whole } of bases.sort((a, b) => a.start - b.start)) {
    const cls = baseScopeAt(start);
    if (cls.kind !== "class") continue;
    if (whole) cls.membersOf = start;
    if (implemented) (cls.interfaces ??= []).push(start);
    else cls.base ??= start;
  }
  const occurrences: Occurrence[] = [];
  const pendingRefs: Occurrence[] = [];
  const receivers = new Set<Binding>();
  for (const raw of raws) {
    const name = text.slice(raw.start, raw.end);
    let scope = scopeAt(raw.start);
    // The name of a function or class binds in the scope around it.
    while (scope.nameStart === raw.start && scope.parent) scope = scope.parent;
    if (raw.role === "def") {
      scope = afterScope(scope, raw.start);
      const d = defs.get(raw.start);
      const imp = importLocals.get(raw.start);
      const kind = imp ? "import" : d?.kind ?? "lexical";
      if (kind === "global" || kind === "nonlocal") {
        (scope.passthrough ??= new Map()).set(name, kind);
        continue;
      }
      const occ: Occurrence = {
        name,
        start: raw.start,
        end: raw.end,
        kind: refs.get(raw.start)?.shorthand ? "shorthand_pattern" : "definition",
        scope,
        binding: null,
      };
      if (d?.property) occ.parameterProperty = true;
      if (thisKeys.has(raw.start)) occ.thisKey = true;
      if (imp?.aliasAt !== undefined) occ.aliasAt = imp.aliasAt;
      let home = scope;
      if (kind === "var") home = functionScope(scope);
      occ.binding = declare(home, name, kind as BindingKind);
      if (d?.receiver) receivers.add(occ.binding);
      if (d?.value) occ.binding.value = true;
      if (conditionals.has(raw.start)) occ.binding.conditional = true;
      occurrences.push(occ);
    } else if (raw.role === "ref") {
      const occ: Occurrence = {
        name,
        start: raw.start,
        end: raw.end,
        kind: refs.get(raw.start)?.shorthand
          ? "shorthand"
          : refs.get(raw.start)?.entry
          ? "export_entry"
          : "reference",
        scope,
        binding: null,
      };
      if (refs.get(raw.start)?.embedded) occ.embedded = true;
      const typeStart = shorthandTypes.get(raw.start);
      if (typeStart !== undefined) occ.objectStart = typeStart;
      occurrences.push(occ);
      pendingRefs.push(occ);
    } else if (raw.role === "member") {
      const m = members.get(raw.start)!;
      const occ: Occurrence = { name, start: raw.start, end: raw.end, kind: m.kind, scope, binding: null };
      if (m.objectStart !== undefined) occ.objectStart = m.objectStart;
      if (statics.has(raw.start)) occ.static = true;
      if (protocols.has(raw.start)) occ.protocol = true;
      if (supers.has(raw.start)) occ.viaSuper = true;
      occurrences.push(occ);
    } else {
      const k = keywords.get(raw.start)!;
      occurrences.push({
        name,
        start: raw.start,
        end: raw.end,
        kind: "keyword",
        scope,
        binding: null,
        callee: k.callee,
      });
    }
  }
  // Python's `global x` / `nonlocal x`: an assignment in that function binds outside it.
  for (const occ of occurrences) {
    const b = occ.binding;
    if (!b || occ.kind !== "definition") continue;
    const mode = b.scope.passthrough?.get(b.name);
    if (!mode) continue;
    b.scope.bindings.delete(b.name);
    occ.binding = mode === "global" ? declare(module, b.name, "lexical") : lookup(b.scope.parent!, b.name);
    if (occ.binding) occ.kind = "definition";
  }
  for (const occ of pendingRefs) {
    occ.binding = lookup(occ.scope, occ.name, { item: refs.get(occ.start)?.item === true });
  }
  const byStartOcc = new Map(occurrences.map((o) => [o.start, o]));
  for (const occ of occurrences) {
    if (occ.objectStart === undefined) continue;
    occ.object = byStartOcc.get(occ.objectStart)?.binding ?? null;
    // `r.f` on a method's receiver (Go) is a member access like `this.f`.
    if (occ.object && receivers.has(occ.object)) occ.kind = "member_this";
  }

  declaredTypes(typedNames, byStartOcc);

  const imports: ImportRecord[] = [];
  for (const r of rawImports) {
    const local = byStartOcc.get(r.local.start)?.binding;
    if (!local) continue;
    const rec: ImportRecord = { kind: r.kind, source: r.source, imported: r.imported, local };
    if (r.name) {
      const occ: Occurrence = {
        name: text.slice(r.name.start, r.name.end),
        start: r.name.start,
        end: r.name.end,
        kind: "import_name",
        scope: module,
        binding: null,
      };
      occurrences.push(occ);
      rec.nameOccurrence = occ;
    }
    local.import = rec;
    imports.push(rec);
  }

  occurrences.sort((a, b) => a.start - b.start);
  const exports: ExportRecord[] = [];
  for (const e of rawExports) {
    const aliasOcc = e.alias ? pushOccurrence(occurrences, text, e.alias, "export_alias", module) : undefined;
    if (e.from) {
      const nameOcc = e.from.name
        ? pushOccurrence(occurrences, text, e.from.name, "reexport_name", module)
        : undefined;
      exports.push({
        exported: e.exported ?? e.from.imported,
        local: null,
        from: {
          source: e.from.source,
          imported: e.from.imported,
          ...(nameOcc ? { occurrence: nameOcc } : {}),
        },
        ...(aliasOcc ? { aliasOccurrence: aliasOcc } : {}),
      });
    } else if (e.local) {
      const b = byStartOcc.get(e.local.start)?.binding ?? null;
      if (b) {
        exports.push({ exported: e.exported!, local: b, ...(aliasOcc ? { aliasOccurrence: aliasOcc } : {}) });
      }
    } else if (e.decl) {
      const decl = e.decl;
      for (let i = firstAtOrAfter(occurrences, decl.start); i < occurrences.length; i++) {
        const occ = occurrences[i]!;
        if (occ.start >= decl.end) break;
        if (occ.kind !== "definition" && occ.kind !== "shorthand_pattern") continue;
        if (occ.binding?.scope !== module) continue;
        exports.push({ exported: e.exported ?? occ.name, local: occ.binding });
        if (e.exported === "default") break;
      }
    }
  }
  if (exportsByCase(file.language)) {
    for (const [name, b] of module.bindings) {
      if (b.kind !== "import" && /^\p{Lu}/u.test(name)) exports.push({ exported: name, local: b });
    }
  }
  occurrences.sort((a, b) => a.start - b.start);
  return {
    path: file.path,
    language: file.language,
    version: file.version,
    text,
    scopes,
    occurrences,
    imports,
    exports,
    exportsAll: exportsAll(file.language),
    docs: docs.sort(byStart),
    ...(globs.length > 0 ? { globs } : {}),
    ...(dynamic.length > 0 ? { dynamicImports: dynamic } : {}),
  };
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
