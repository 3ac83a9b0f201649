/**
 * Reading a binding query's module captures — `@import.*`, `@export.*`,
 * `@reexport.*` — into raw records (spans and names) that `bindings.ts` then
 * ties to the file's bindings. Private to `src/syntax/`.
 *
 * @module
 */
import type { Node, QueryCapture } from "web-tree-sitter";
import type { ImportRecord } from "./binding_model.ts";
import { importPathLocal } from "./_binding_rules.ts";
import { ModuleResolver } from "./module_resolution.ts";

/** A span of the text (UTF-16 offsets). */
export interface Span {
  /** Start offset. */
  start: number;
  /** End offset, exclusive. */
  end: number;
}

/** One import as captured. */
export interface RawImport {
  /** named | default | namespace. */
  kind: ImportRecord["kind"];
  /** The module specifier. */
  source: string;
  /** The name taken ("default", "*"). */
  imported: string;
  /** The local name's span. */
  local: Span;
  /** The imported name's span when aliased. */
  name?: Span;
  /** Where an alias would go when the local name is not written (Go's `import "a/pkg"`: the opening quote). */
  aliasAt?: number;
}

/** One export as captured. */
export interface RawExport {
  /** The exported name (null: the declared names). */
  exported: string | null;
  /** The local name exported (`export {a}`). */
  local?: Span;
  /** The declaration exported (`export function f`). */
  decl?: Span;
  /** The alias (`b` in `export {a as b}`). */
  alias?: Span;
  /** A re-export's source, name and name span. */
  from?: { source: string; imported: string; name?: Span };
}

/** What the module captures of a file add up to. */
export interface ModuleRecords {
  /** Imports in match order. */
  imports: RawImport[];
  /** Exports in match order. */
  exports: RawExport[];
  /** Specifiers of glob imports (Rust `use m::*`). */
  globs: string[];
  /** Specifiers of run-time imports (`import("./m")`). */
  dynamic: string[];
  /** Spans whose identifiers are no references (import sources). */
  noRefSpans: Span[];
  /** Starts of identifiers that are no references (imported names, aliases). */
  notRef: Set<number>;
  /** The file's language (how the segments of a nested import's module path join). */
  language: string;
  /** The file's text. */
  text: string;
}

/**
 * Empty records that share the caller's no-reference sets.
 *
 * @param noRefSpans Spans whose identifiers are no references.
 * @param notRef Starts of identifiers that are no references.
 * @param options The file's language and text.
 * @returns The records.
 */
export function newModuleRecords(
  noRefSpans: Span[],
  notRef: Set<number>,
  options: { language: string; text: string },
): ModuleRecords {
  return {
    imports: [],
    exports: [],
    globs: [],
    dynamic: [],
    noRefSpans,
    notRef,
    language: options.language,
    text: options.text,
  };
}

/**
 * The module path an import names: every capture of the match named `import.source` (and `import.glob`) is
 * one segment, outer first (Rust's `use crate::{a::{b}}`: `crate` and `a` make `crate::a`), joined as the
 * language joins a module and its submodule. Each segment is no reference.
 */
function modulePath(r: ModuleRecords, captures: QueryCapture[]): string {
  const segments = captures.filter((c) => c.name === "import.source" || c.name === "import.glob")
    .map((c) => c.node)
    .sort((a, b) => a.startIndex - b.startIndex);
  let path = "";
  for (const n of segments) {
    const segment = r.text.slice(n.startIndex, n.endIndex);
    path = path === "" ? segment : ModuleResolver.submodule(r.language, path, segment) ?? segment;
    r.noRefSpans.push({ start: n.startIndex, end: n.endIndex });
  }
  return path;
}

/** The capture of `name` in a match, if any. */
function cap(captures: QueryCapture[], name: string): Node | undefined {
  return captures.find((c) => c.name === name)?.node;
}

/** A node's span. */
function span(n: Node): Span {
  return { start: n.startIndex, end: n.endIndex };
}

/** A node's text ("" for no node). */
function textOf(r: ModuleRecords, n: Node | undefined): string {
  return n ? r.text.slice(n.startIndex, n.endIndex) : "";
}

/**
 * Read one match whose first capture is an `@import.*`, `@export.*` or `@reexport.*`.
 *
 * @param r The records to add to.
 * @param captures The match's captures.
 */
export function readModuleCapture(r: ModuleRecords, captures: QueryCapture[]): void {
  const first = captures.find((c) => !c.name.startsWith("_"));
  const head = first?.name.split(".", 1)[0];
  if (head === "import") readImport(r, captures);
  else if (head === "export") readExport(r, captures);
  else if (head === "reexport") readReexport(r, captures);
}

/** An `@import.*` match: a run-time import, a glob, a Go path import, or a named, default or namespace import. */
function readImport(r: ModuleRecords, captures: QueryCapture[]): void {
  const dynamic = cap(captures, "import.dynamic");
  if (dynamic) {
    r.dynamic.push(textOf(r, dynamic));
    return;
  }
  if (cap(captures, "import.glob")) {
    r.globs.push(modulePath(r, captures));
    return;
  }
  const source = cap(captures, "import.source");
  if (!source) return;
  const src = modulePath(r, captures);
  if (cap(captures, "import.path")) {
    // Go's `import "a/b/pkg"`: the package's name is the path's last segment.
    const local = importPathLocal(src, source.startIndex);
    if (local) {
      r.imports.push({
        kind: "namespace",
        source: src,
        imported: "*",
        local,
        aliasAt: source.startIndex - 1,
      });
    }
    return;
  }
  readImportedName(r, captures, src);
}

/** The name an import binds: `{a as b}`, a default, or a namespace or package. */
function readImportedName(r: ModuleRecords, captures: QueryCapture[], src: string): void {
  const name = cap(captures, "import.name");
  const alias = cap(captures, "import.alias");
  const def = cap(captures, "import.default");
  const ns = cap(captures, "import.namespace") ?? cap(captures, "import.package");
  if (name) {
    const local = alias ?? name;
    r.imports.push({
      kind: "named",
      source: src,
      imported: textOf(r, name),
      local: span(local),
      ...(alias ? { name: span(name) } : {}),
    });
    r.notRef.add(name.startIndex).add(local.startIndex);
  } else if (def) {
    r.imports.push({ kind: "default", source: src, imported: "default", local: span(def) });
    r.notRef.add(def.startIndex);
  } else if (ns) {
    const isPackage = cap(captures, "import.package") !== undefined && !cap(captures, "import.namespace");
    if (isPackage && r.imports.some((i) => i.local.start === ns.startIndex)) return;
    r.imports.push({
      kind: "namespace",
      source: isPackage ? textOf(r, ns) : src,
      imported: "*",
      local: span(ns),
    });
    r.notRef.add(ns.startIndex);
  }
}

/** An `@export.*` match: a default export, an exported declaration, or `export {a as b}`. */
function readExport(r: ModuleRecords, captures: QueryCapture[]): void {
  const def = cap(captures, "export.default");
  const value = cap(captures, "export.default_value");
  const decl = cap(captures, "export.declaration");
  const local = cap(captures, "export.local");
  if (def) {
    const i = r.exports.findIndex((e) => e.exported === null && e.decl?.start === def.startIndex);
    if (i >= 0) r.exports.splice(i, 1);
    r.exports.push({ exported: "default", decl: span(def) });
  } else if (value) r.exports.push({ exported: "default", local: span(value) });
  else if (decl) {
    if (!r.exports.some((e) => e.exported === "default" && e.decl?.start === decl.startIndex)) {
      r.exports.push({ exported: null, decl: span(decl) });
    }
  } else if (local) {
    const alias = cap(captures, "export.alias");
    r.exports.push({
      exported: textOf(r, alias ?? local),
      local: span(local),
      ...(alias ? { alias: span(alias) } : {}),
    });
    if (alias) r.notRef.add(alias.startIndex);
  }
}

/** A `@reexport.*` match: `export * from`, `export * as ns from`, or `export {a as b} from`. */
function readReexport(r: ModuleRecords, captures: QueryCapture[]): void {
  const all = cap(captures, "reexport.all");
  if (all) {
    r.exports.push({ exported: "*", from: { source: textOf(r, all), imported: "*" } });
    return;
  }
  const source = cap(captures, "reexport.source");
  const namespace = cap(captures, "reexport.namespace");
  if (namespace && source) {
    // `export * as ns from "m"`: m's namespace, exported as ns (its name is an alias a rename may change).
    r.exports.push({
      exported: textOf(r, namespace),
      from: { source: textOf(r, source), imported: "*" },
      alias: span(namespace),
    });
    r.notRef.add(namespace.startIndex);
    return;
  }
  const name = cap(captures, "reexport.name");
  if (!name || !source) return;
  const alias = cap(captures, "reexport.alias");
  r.exports.push({
    exported: textOf(r, alias ?? name),
    from: { source: textOf(r, source), imported: textOf(r, name), name: span(name) },
    ...(alias ? { alias: span(alias) } : {}),
  });
  r.notRef.add(name.startIndex);
  if (alias) r.notRef.add(alias.startIndex);
}
