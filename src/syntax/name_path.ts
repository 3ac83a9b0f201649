/**
 * Name paths: how agents address a symbol. `name` matches at any depth,
 * `Outer/inner` matches the end of a symbol's path, `/Outer/inner` matches
 * from the top level, `name[i]` picks the i-th of same-name siblings
 * (overloads, 0-based), `\/` escapes a slash inside a name. A symbol also
 * answers to its aliases (the type of a Rust impl block) and its qualifier
 * may stand as the segment before it (a Go method's receiver type). When a
 * match is nested in another match (a constructor named like its class), the
 * outer one wins; `Class/Class` names the inner one.
 *
 * @module
 */
import { nearestNames } from "../fs/stage.ts";
import type { SymbolInfo } from "./types.ts";

/** One parsed segment of a name path. */
export interface NamePathSegment {
  /** The name (unescaped). */
  name: string;
  /** The `[i]` overload index, if given. */
  index?: number;
}

/** A parsed name path. */
export interface ParsedNamePath {
  /** Whether it started with "/" (match from the top level). */
  absolute: boolean;
  /** Segments, outermost first. */
  segments: NamePathSegment[];
}

/** Result of {@linkcode resolveNamePath}. */
export type NamePathResolution =
  | { status: "unique"; symbol: SymbolInfo }
  | { status: "ambiguous"; candidates: SymbolInfo[] }
  | { status: "not_found"; suggestions: string[] };

/**
 * Parse a name path.
 *
 * @param namePath E.g. `/Outer/inner[1]`, `a\/b`.
 * @returns Absolute flag and unescaped segments.
 */
export function parseNamePath(namePath: string): ParsedNamePath {
  let s = namePath.trim();
  const absolute = s.startsWith("/");
  if (absolute) s = s.slice(1);
  const raw: string[] = [];
  let cur = "";
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === "\\" && i + 1 < s.length) {
      cur += s[++i];
    } else if (ch === "/") {
      raw.push(cur);
      cur = "";
    } else cur += ch;
  }
  raw.push(cur);
  const segments = raw.filter((r) => r !== "").map((r) => {
    const m = /^(.*\S)\s*\[(\d+)\]$/.exec(r);
    return m ? { name: m[1]!, index: Number(m[2]) } : { name: r };
  });
  return { absolute, segments };
}

/**
 * Escape one name for a name path ("/" -> "\/", "\" -> "\\").
 *
 * @param name A symbol's name as written.
 * @returns The name as one segment of a name path.
 */
export function escapeName(name: string): string {
  if (!name.includes("/") && !name.includes("\\")) return name;
  return name.replaceAll("\\", "\\\\").replaceAll("/", "\\/");
}

/**
 * A symbol as a person reads it: its kind, then its name, the kind left out
 * when the name already starts with it (a Rust impl block is named by its
 * header, `impl Display for Point`: not `impl impl Display for Point`).
 *
 * @param kind The symbol's kind.
 * @param name Its name (or name path).
 * @returns `function run`, `impl Display for Point`.
 *
 * @example
 * ```ts
 * import { symbolLabel } from "./name_path.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(symbolLabel("function", "run"), "function run");
 * assert.equal(symbolLabel("impl", "impl Ignore"), "impl Ignore");
 * assert.equal(symbolLabel("impl", "impl<T> Sink for W<T>"), "impl<T> Sink for W<T>");
 * ```
 */
export function symbolLabel(kind: string, name: string): string {
  return name.startsWith(kind) && /^[\s<]/.test(name.slice(kind.length)) ? name : `${kind} ${name}`;
}

/**
 * A name path split into its container's path and its last segment (as written, escapes and an
 * overload index kept): `A/B/run[1]` → `["A/B", "run[1]"]`, a top-level name → `["", name]`.
 *
 * @param namePath A name path.
 * @returns The container's path ("" at the top level) and the last segment.
 */
export function splitNamePath(namePath: string): [string, string] {
  const segments = parseNamePath(namePath).segments.map((s) =>
    escapeName(s.name) + (s.index === undefined ? "" : `[${s.index}]`)
  );
  const last = segments.pop() ?? "";
  return [segments.join("/"), last];
}

/**
 * The name paths of sibling symbols under `prefix`: each name escaped, and
 * `[i]` after a name several siblings share (0-based, in document order).
 *
 * @param prefix The parent's name path ("" at the top level).
 * @param siblings The siblings' names, in document order.
 * @returns One name path per sibling.
 */
export function siblingNamePaths(prefix: string, siblings: readonly { name: string }[]): string[] {
  let repeated: Map<string, number> | null = null; // names used by several siblings -> next overload index
  if (siblings.length > 1) {
    const once = new Set<string>();
    for (const s of siblings) {
      if (!once.has(s.name)) once.add(s.name);
      else (repeated ??= new Map()).set(s.name, 0);
    }
  }
  return siblings.map((s) => {
    let segment = escapeName(s.name);
    const i = repeated?.get(s.name);
    if (i !== undefined) {
      repeated!.set(s.name, i + 1);
      segment += `[${i}]`;
    }
    return prefix === "" ? segment : `${prefix}/${segment}`;
  });
}

interface Entry {
  symbol: SymbolInfo;
  /** The chain from the top level to the symbol. */
  chain: SymbolInfo[];
  /** Overload index of each chain element among its same-name siblings (undefined: unique name). */
  indexes: (number | undefined)[];
}

interface Index {
  entries: Entry[];
  /** Every name and alias, for a fast miss. */
  names: Set<string>;
}

const INDEXES = new WeakMap<SymbolInfo[], Index>();

/** The entries of an outline, cached per symbols array (outlines are cached per file version). */
function indexOf(symbols: SymbolInfo[]): Index {
  let index = INDEXES.get(symbols);
  if (!index) {
    const list = entries(symbols);
    const names = new Set<string>();
    for (const e of list) {
      names.add(e.symbol.name);
      for (const a of e.symbol.aliases ?? []) names.add(a);
    }
    INDEXES.set(symbols, index = { entries: list, names });
  }
  return index;
}

function entries(symbols: SymbolInfo[]): Entry[] {
  const out: Entry[] = [];
  const walk = (list: SymbolInfo[], chain: SymbolInfo[], indexes: (number | undefined)[]) => {
    const counts = new Map<string, number>();
    for (const s of list) counts.set(s.name, (counts.get(s.name) ?? 0) + 1);
    const seen = new Map<string, number>();
    for (const s of list) {
      const i = seen.get(s.name) ?? 0;
      seen.set(s.name, i + 1);
      const c = [...chain, s];
      const ix = [...indexes, (counts.get(s.name) ?? 0) > 1 ? i : undefined];
      out.push({ symbol: s, chain: c, indexes: ix });
      walk(s.children, c, ix);
    }
  };
  walk(symbols, [], []);
  return out;
}

function nameMatches(s: SymbolInfo, seg: NamePathSegment, substring: boolean): boolean {
  if (s.name === seg.name || s.aliases?.includes(seg.name)) return true;
  if (!substring) return false;
  const want = seg.name.toLowerCase();
  return s.name.toLowerCase().includes(want) || (s.aliases ?? []).some((a) => a.toLowerCase().includes(want));
}

function indexMatches(actual: number | undefined, seg: NamePathSegment): boolean {
  if (seg.index === undefined) return true;
  return actual === undefined ? seg.index === 0 : actual === seg.index;
}

/** Whether the entry's chain (plus a qualifier) ends with (or, absolute, equals) the segments. */
function matches(e: Entry, p: ParsedNamePath, substring: boolean): boolean {
  const segs = p.segments;
  const last = segs.length - 1;
  // the chain as (symbol | qualifier) elements
  const tryChain = (
    chain: { sym: SymbolInfo | null; qual?: string; index: number | undefined }[],
  ): boolean => {
    if (chain.length < segs.length || (p.absolute && chain.length !== segs.length)) return false;
    const off = chain.length - segs.length;
    for (let i = 0; i < segs.length; i++) {
      const el = chain[off + i]!;
      const seg = segs[i]!;
      if (el.sym === null) {
        if (el.qual !== seg.name || seg.index !== undefined) return false;
        continue;
      }
      if (!nameMatches(el.sym, seg, substring && i === last)) return false;
      if (!indexMatches(el.index, seg)) return false;
    }
    return true;
  };
  const base = e.chain.map((sym, i) => ({ sym, index: e.indexes[i] }));
  if (tryChain(base)) return true;
  const q = e.symbol.qualifier;
  if (q !== undefined) {
    const qualified = [
      ...base.slice(0, -1),
      { sym: null, qual: q, index: undefined },
      base[base.length - 1]!,
    ];
    if (tryChain(qualified)) return true;
  }
  return false;
}

/**
 * Resolve a name path against an outline.
 *
 * @param symbols The outline's top-level symbols.
 * @param namePath What to find.
 * @param options `substring`: the last segment may match part of a name (exact hits win);
 *   `suggest: false` skips computing did-you-mean names (faster when searching many files).
 * @returns unique | ambiguous (every candidate) | not_found (did-you-mean name paths).
 *
 * @example Pick an overload
 * ```ts
 * import { resolveNamePath, type SymbolInfo } from "@graver/core/syntax";
 * import assert from "node:assert/strict";
 *
 * const r = { start_line: 1, end_line: 1, start_utf16: 0, end_utf16: 0, start_byte: 0, end_byte: 0 };
 * const sym = (name: string, name_path: string, children: SymbolInfo[] = []): SymbolInfo =>
 *   ({ kind: "method", name, name_path, range: r, full_range: r, children });
 * const outline = [sym("A", "A", [sym("f", "A/f[0]"), sym("f", "A/f[1]")])];
 * assert.equal(resolveNamePath(outline, "A/f").status, "ambiguous");
 * const hit = resolveNamePath(outline, "f[1]");
 * assert.ok(hit.status === "unique" && hit.symbol.name_path === "A/f[1]");
 * ```
 */
export function resolveNamePath(
  symbols: SymbolInfo[],
  namePath: string,
  options: { substring?: boolean; suggest?: boolean } = {},
): NamePathResolution {
  const p = parseNamePath(namePath);
  if (p.segments.length === 0) return { status: "not_found", suggestions: [] };
  const index = indexOf(symbols);
  const all = index.entries;
  const lastSegment = p.segments[p.segments.length - 1]!.name;
  if (!options.substring && options.suggest === false && !index.names.has(lastSegment)) {
    return { status: "not_found", suggestions: [] };
  }
  let hits = all.filter((e) => matches(e, p, false));
  if (hits.length === 0 && options.substring) hits = all.filter((e) => matches(e, p, true));
  if (hits.length > 1) {
    // A match nested in another match (a Java constructor named like its class) yields to its ancestor.
    const matched = new Set(hits.map((h) => h.symbol));
    hits = hits.filter((h) => !h.chain.slice(0, -1).some((a) => matched.has(a)));
  }
  if (hits.length === 1) return { status: "unique", symbol: hits[0]!.symbol };
  if (hits.length > 1) return { status: "ambiguous", candidates: hits.map((h) => h.symbol) };
  if (options.suggest === false) return { status: "not_found", suggestions: [] };
  const lastName = p.segments[p.segments.length - 1]!.name;
  const byName = new Map<string, string[]>();
  for (const e of all) {
    for (const n of [e.symbol.name, ...(e.symbol.aliases ?? [])]) {
      const list = byName.get(n) ?? [];
      list.push(e.symbol.name_path);
      byName.set(n, list);
    }
  }
  // Names much shorter than the query ("f" for "frist") are substring noise, not suggestions.
  const near = nearestNames(lastName, [...byName.keys()], 8).filter((n) => n.length * 2 > lastName.length)
    .slice(0, 5);
  const suggestions = [...new Set(near.flatMap((n) => byName.get(n) ?? []))].slice(0, 8);
  return { status: "not_found", suggestions };
}
