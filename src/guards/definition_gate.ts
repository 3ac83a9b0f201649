/**
 * The definition gate: decides from the parse tree whether a freeform text
 * edit of one file rewrites a definition — its header, or a whole definition
 * removed or added — which the structural tools do by name path instead
 * (`replace_symbol`, `remove_symbol`, `insert_code`, a rename tool). Only the
 * changed lines count (a line diff of the two texts: unchanged context lines
 * never do), so an edit of statements inside a body passes however much
 * context it quotes.
 *
 * The rule, per hunk of changed lines:
 * - a hunk of several lines that touches the header rows of a definition (from
 *   its first line to where its body starts; for one without a body, its first
 *   line and its name's line) of a guarded kind (function, method, class,
 *   struct, interface, enum, trait, impl, module, type …) in the old text (the
 *   lines it removes) or the new text (the lines it adds) is refused;
 * - so is a hunk with a definition keyword of the language (the floor table:
 *   Rust `fn`, Python `def`, Go `func` …) heading a declaration on a changed
 *   line — a token of the tree, never a comment or a string;
 * - a one-line hunk passes unless it changes a definition's name (routed to
 *   the rename tool), or the same edit also changes that definition's own
 *   body (a rewrite of the definition, routed to `replace_symbol`).
 *
 * Files with no grammar, data and markup files (JSON, YAML, TOML, CSS, HTML;
 * Markdown has no grammar) and languages with neither a tags query nor a
 * keyword table pass. The engine takes the narrowest host ({@linkcode Parsing})
 * and knows no tool: the dispatch step that applies it lives in `src/tools/`.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError, type SuggestedCall } from "../errors.ts";
import { versionOf } from "../fs/version.ts";
import { HEAD_CHARS } from "../syntax/grammars.ts";
import { resolveNamePath } from "../syntax/name_path.ts";
import { querySource, symbolRules } from "../syntax/queries.ts";
import { outlineOf, symbolNode } from "../syntax/symbols.ts";
import { TextIndex } from "../syntax/text_index.ts";
import type { Parsing, SymbolInfo } from "../syntax/types.ts";
import { GATED_KINDS, type KeywordRule, keywordRules } from "./_definition_keywords.ts";
import { type LineHunk, lineHunks } from "./_line_hunks.ts";

/**
 * The rename tool the gate names in a rename's `suggested_call`:
 * `{ tool, args: { path, name_path, new_name } }` (`name_path` is an alias of
 * edit_rename_symbol's `target`). Pass `renameTool: null` in the options for
 * a refusal that only says a rename needs a rename tool.
 */
export const RENAME_TOOL: string | null = "edit_rename_symbol";

/** What kind of definition edit a finding is, and so which tool it routes to. */
export type DefinitionEditKind = "remove" | "insert" | "replace" | "rename";

/** A span of lines (1-based, inclusive). */
export interface LineSpan {
  /** First line. */
  start_line: number;
  /** Last line. */
  end_line: number;
}

/** A definition an edit touches. */
export interface TouchedDefinition {
  /** Symbol kind (`function`, `class` …); for a definition found by its keyword only, the keyword's kind. */
  kind: string;
  /** Its name ("" when the tree gives none). */
  name: string;
  /** Its name path in the file's outline (absent when the tags query does not list it). */
  name_path?: string;
  /** Which text it is in: the file before the edit or after it. */
  side: "before" | "after";
  /** Its lines in that text. */
  lines: LineSpan;
}

/** One refused (or, in warn mode, reported) hunk of an edit. */
export interface DefinitionFinding {
  /** What the hunk does to a definition. */
  edit: DefinitionEditKind;
  /** The lines of the old text the hunk removes or changes (absent for a pure insertion). */
  before_lines?: LineSpan;
  /** The lines of the new text the hunk adds (absent for a pure removal). */
  after_lines?: LineSpan;
  /** The definitions whose headers it touches. */
  definitions: TouchedDefinition[];
  /** For a rename: the definition's name path and its old and new names. */
  rename?: { name_path: string; from: string; to: string };
  /** The structural call that does the same, arguments filled in, when it can be inferred. */
  suggested_call?: SuggestedCall;
  /** The structural tool to use (also when no call could be filled in); null for a rename without a rename tool. */
  tool: string | null;
}

/** The gate's decision on one file. */
export interface DefinitionGateVerdict {
  /** Relative path. */
  path: string;
  /** Language id, or null when no grammar applies. */
  language: string | null;
  /** Why the gate did not look at the edit, when it did not. */
  skipped?: "unchanged" | "no_grammar" | "not_code";
  /** The hunks that edit definitions (empty: the edit passes). */
  findings: DefinitionFinding[];
}

/** One file's edit for {@linkcode judgeDefinitionEdit}. */
export interface DefinitionEditInput {
  /** Relative path (the parse cache's key, and the `path` of suggested calls). */
  path: string;
  /** The text before the edit (BOM excluded). */
  before: string;
  /** The text after it. */
  after: string;
  /** Version of the old bytes (the parse cache's key; computed from the text when absent). */
  beforeVersion?: string;
  /** Version of the new bytes (likewise). */
  afterVersion?: string;
}

/** Options of {@linkcode judgeDefinitionEdit}. */
export interface DefinitionGateOptions {
  /** The rename tool to suggest (default {@linkcode RENAME_TOOL}; null: none). */
  renameTool?: string | null;
}

/** A definition of one side, as plain data (its tree may be freed once the other side is parsed). */
interface Def {
  kind: string;
  name: string;
  namePath: string | null;
  /** Rows (0-based, inclusive) of the definition node. */
  start: number;
  end: number;
  /** Header rows, as inclusive intervals. */
  header: [number, number][];
  startOffset: number;
  endOffset: number;
}

/** What the gate knows of one side of the edit. */
interface Side {
  text: string;
  lines: string[];
  symbols: SymbolInfo[];
  defs: Def[];
}

type Rows = [number, number];

const ENCODER = new TextEncoder();

function overlaps(a: Rows, b: Rows): boolean {
  return a[0] <= b[1] && b[0] <= a[1];
}

/** The rows a hunk removes (old text) or adds (new text), or null when it removes/adds none. */
function removedRows(h: LineHunk): Rows | null {
  return h.removed > 0 ? [h.beforeStart, h.beforeStart + h.removed - 1] : null;
}

function addedRows(h: LineHunk): Rows | null {
  return h.added > 0 ? [h.afterStart, h.afterStart + h.added - 1] : null;
}

/** Where a hunk sits in one text: its rows, or for a pure insertion/removal the gap between two rows. */
function placeIn(h: LineHunk, side: "before" | "after"): Rows {
  const rows = side === "before" ? removedRows(h) : addedRows(h);
  if (rows) return rows;
  const at = side === "before" ? h.beforeStart : h.afterStart;
  return [at - 1, at];
}

/** The row where a definition's header ends: the last token before its body, comments skipped. */
function headerEndRow(
  node: Node,
  bodyStart: number,
  text: string,
  comments: string[],
  index: TextIndex,
): number {
  const start = node.startIndex;
  let k = bodyStart - 1;
  for (;;) {
    while (k >= start && /\s/.test(text[k]!)) k--;
    if (k < start) return index.line(start) - 1;
    const leaf = node.descendantForIndex(k);
    let c: Node | null = leaf;
    while (c && c.id !== node.id && !comments.includes(c.type)) c = c.parent;
    if (!c || c.id === node.id) return index.line(k) - 1;
    k = c.startIndex - 1;
  }
}

/** Header rows of a definition node: to where its body starts, or its first line and its name's line. */
function headerOf(
  node: Node,
  bodyStart: number | undefined,
  name: string,
  text: string,
  comments: string[],
  index: TextIndex,
): [number, number][] {
  const first = index.line(node.startIndex) - 1;
  if (bodyStart !== undefined && bodyStart > node.startIndex) {
    return [[first, headerEndRow(node, bodyStart, text, comments, index)]];
  }
  const at = name === "" ? -1 : text.indexOf(name, node.startIndex);
  const nameRow = at >= 0 && at < node.endIndex ? index.line(at) - 1 : first;
  return nameRow === first ? [[first, first]] : [[first, first], [nameRow, nameRow]];
}

/** The body of a definition node found by its keyword: its `body` field, or a child of a body type. */
function bodyNodeOf(node: Node, bodies: readonly string[]): Node | null {
  const body = node.childForFieldName("body");
  if (body) return body;
  for (const c of node.namedChildren) if (c && bodies.includes(c.type)) return c;
  return null;
}

/** A definition found by its keyword: the declaration node, or in a parse error the name after the keyword. */
interface KeywordHit {
  /** The declaration, or (recovered) the name node that follows the keyword inside an ERROR node. */
  node: Node;
  /** True when the parser could not build the declaration (its keyword and name sit in an ERROR node). */
  recovered: boolean;
}

const NAME_LIKE = /identifier|constant|name/;

/** The token right after `leaf` on its line (the first leaf of its next sibling), or null. */
function tokenAfter(leaf: Node): Node | null {
  let n = leaf.nextSibling;
  while (n && n.childCount > 0) n = n.firstChild;
  return n && n.startPosition.row === leaf.endPosition.row ? n : null;
}

/** The definition a keyword token heads, or null when it heads an expression or a type. */
function keywordDefinition(leaf: Node, rules: KeywordRule[]): KeywordHit | null {
  for (const rule of rules) {
    if (rule.chain.length === 1 && rule.chain[0] === "ERROR") {
      // inside a parse error, the keyword followed by a name is still a declaration
      const name = leaf.parent?.type === "ERROR" ? tokenAfter(leaf) : null;
      if (name && NAME_LIKE.test(name.type)) return { node: name, recovered: true };
      continue;
    }
    let n: Node | null = leaf;
    let ok = true;
    for (let i = rule.chain.length - 1; i >= 0; i--) {
      n = n?.parent ?? null;
      if (!n || n.type !== rule.chain[i]) {
        ok = false;
        break;
      }
    }
    if (!ok || !n) continue;
    if (rule.needsBody && !n.childForFieldName("body")) continue;
    return { node: n, recovered: false };
  }
  return null;
}

const KEYWORD_KINDS: Record<string, string> = {
  fn: "function",
  def: "function",
  func: "function",
  fun: "function",
  function: "function",
};

/** Function-like kinds: what is defined inside them is local to a call. */
const SCOPES = new Set(["function", "method", "constructor"]);

/** The symbols of guarded kinds, depth first, each marked when it sits inside a function-like symbol. */
function guardedSymbols(symbols: SymbolInfo[]): { symbol: SymbolInfo; local: boolean }[] {
  const out: { symbol: SymbolInfo; local: boolean }[] = [];
  const walk = (list: SymbolInfo[], local: boolean) => {
    for (const s of list) {
      if (GATED_KINDS.has(s.kind)) out.push({ symbol: s, local });
      if (s.children.length > 0) walk(s.children, local || SCOPES.has(s.kind));
    }
  };
  walk(symbols, false);
  return out;
}

/** Whether a definition keyword of the language's table heads `node` (a declaration, not a bound expression). */
function declaredByKeyword(node: Node, keywords: Map<string, KeywordRule[]>): boolean {
  if (keywords.size === 0) return false;
  for (const leaf of node.descendantsOfType([...keywords.keys()])) {
    const hit = leaf ? keywordDefinition(leaf, keywords.get(leaf.type) ?? []) : null;
    if (hit && !hit.recovered && hit.node.id === node.id) return true;
  }
  return false;
}

/**
 * Parse one side and collect its guarded definitions near `region` (rows), plus
 * the definitions the keyword floor finds on `changed` rows. Everything is
 * copied out of the tree before returning.
 */
async function sideOf(
  ws: Parsing,
  path: string,
  language: string,
  text: string,
  version: string,
  region: Rows,
  changed: Rows[],
): Promise<Side> {
  const parsed = await ws.trees!.parse(path, language, version, text);
  let symbols: SymbolInfo[] = [];
  if (querySource(language, "tags") !== null) {
    try {
      symbols = (await outlineOf(ws, path, text, version)).symbols;
    } catch (err) {
      if (!(err instanceof RecoverableError && err.code === "unsupported_language")) throw err;
    }
  }
  const rules = symbolRules(language);
  const comments = rules.comments;
  const bodies = rules.bodies ?? [];
  const index = new TextIndex(text);
  const defs: Def[] = [];
  const seen = new Set<string>();
  const keywords = keywordRules(language);
  for (const { symbol: s, local } of guardedSymbols(symbols)) {
    const start = s.range.start_line - 1;
    const end = s.range.end_line - 1;
    if (end < region[0] || start > region[1]) continue;
    const node = symbolNode(s);
    if (!node) continue;
    // inside a function, only a declaration counts (a nested `def`), not a closure bound to a local
    if (local && !declaredByKeyword(node, keywords)) continue;
    seen.add(`${node.startIndex}:${node.endIndex}`);
    defs.push({
      kind: s.kind,
      name: s.name,
      namePath: s.name_path,
      start,
      end,
      header: headerOf(node, s.body_range?.start_utf16, s.name, text, comments, index),
      startOffset: s.range.start_utf16,
      endOffset: s.range.end_utf16,
    });
  }
  if (keywords.size > 0) {
    const types = [...keywords.keys()];
    for (const rows of changed) {
      const found = parsed.tree.rootNode.descendantsOfType(types, { row: rows[0], column: 0 }, {
        row: rows[1] + 1,
        column: 0,
      });
      for (const leaf of found) {
        if (!leaf || leaf.startPosition.row < rows[0] || leaf.startPosition.row > rows[1]) continue;
        const hit = keywordDefinition(leaf, keywords.get(leaf.type) ?? []);
        if (!hit) continue;
        const def = hit.node;
        const key = `${def.startIndex}:${def.endIndex}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const kind = KEYWORD_KINDS[leaf.type] ?? leaf.type;
        if (hit.recovered) {
          // no declaration node: its keyword and name are the header
          defs.push({
            kind,
            name: def.text,
            namePath: null,
            start: leaf.startPosition.row,
            end: def.endPosition.row,
            header: [[leaf.startPosition.row, def.endPosition.row]],
            startOffset: leaf.startIndex,
            endOffset: def.endIndex,
          });
          continue;
        }
        const name = def.childForFieldName("name")?.text ?? "";
        const body = bodyNodeOf(def, bodies);
        defs.push({
          kind,
          name,
          namePath: null,
          start: def.startPosition.row,
          end: def.endPosition.row,
          header: headerOf(def, body?.startIndex, name, text, comments, index),
          startOffset: def.startIndex,
          endOffset: def.endIndex,
        });
      }
    }
  }
  return { text, lines: text.split("\n"), symbols, defs };
}

function touching(side: Side, rows: Rows | null): Def[] {
  if (!rows) return [];
  return side.defs.filter((d) => d.header.some((iv) => overlaps(iv, rows))).sort((a, b) =>
    a.start - b.start || b.end - a.end
  );
}

/** Rows as 1-based lines, the empty "line" after a final newline left out. */
function span(side: Side, rows: Rows | null): LineSpan | undefined {
  if (!rows) return undefined;
  const last = Math.max(1, side.text.endsWith("\n") ? side.lines.length - 1 : side.lines.length);
  const end = Math.min(rows[1] + 1, last);
  return { start_line: Math.min(rows[0] + 1, end), end_line: end };
}

function allBlank(side: Side, rows: Rows | null): boolean {
  if (!rows) return true;
  for (let r = rows[0]; r <= rows[1]; r++) if ((side.lines[r] ?? "").trim() !== "") return false;
  return true;
}

function linesOf(side: Side, rows: Rows | null): string {
  return rows ? side.lines.slice(rows[0], rows[1] + 1).join("\n") : "";
}

function describe(d: Def, side: "before" | "after"): TouchedDefinition {
  const out: TouchedDefinition = {
    kind: d.kind,
    name: d.name,
    side,
    lines: { start_line: d.start + 1, end_line: d.end + 1 },
  };
  if (d.namePath !== null) out.name_path = d.namePath;
  return out;
}

/** Renamed pairs: the touched definitions of both sides paired in order, same kind, different name. */
function renames(before: Def[], after: Def[]): { from: Def; to: Def }[] {
  if (before.length === 0 || before.length !== after.length) return [];
  const out: { from: Def; to: Def }[] = [];
  for (let i = 0; i < before.length; i++) {
    const b = before[i]!;
    const a = after[i]!;
    if (b.kind !== a.kind && !(SCOPES.has(b.kind) && SCOPES.has(a.kind))) return []; // `__init__` renamed is a method
    if (b.name !== a.name && b.name !== "" && a.name !== "") out.push({ from: b, to: a });
  }
  return out;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Whether the hunk only renames: its old lines with the names swapped are its new lines. */
function onlyRenames(pairs: { from: Def; to: Def }[], removed: string, added: string): boolean {
  let text = removed;
  for (const { from, to } of pairs) {
    text = text.replace(new RegExp(`(?<![\\w$])${escapeRegExp(from.name)}(?![\\w$])`, "g"), to.name);
  }
  return text === added;
}

/** The innermost guarded definition (with a name path) of `side` holding `place`. */
function containers(side: Side, place: Rows): Def[] {
  return side.defs.filter((d) => d.namePath !== null && d.start <= place[0] && place[1] <= d.end)
    .sort((a, b) => (a.end - a.start) - (b.end - b.start));
}

/** Whether another hunk changes `def`'s own lines (not those of a definition nested in it). */
function bodyChangedElsewhere(def: Def, side: Side, which: "before" | "after", others: LineHunk[]): boolean {
  for (const h of others) {
    const place = placeIn(h, which);
    if (!(def.start <= place[0] && place[1] <= def.end)) continue;
    const nested = side.defs.some((d) =>
      d !== def && def.start <= d.start && d.end <= def.end && (d.start > def.start || d.end < def.end) &&
      d.start <= place[0] && place[1] <= d.end
    );
    if (!nested) return true;
  }
  return false;
}

/** Where insert_code would put a definition the new text adds: next to a sibling the old text has. */
function insertionAnchor(
  added: Def,
  after: Side,
  before: Side,
  addedRows: Rows,
): { name_path: string; position: "before" | "after" | "start_of_body" | "end_of_body" } | null {
  if (added.namePath === null) return null;
  const inBefore = (s: SymbolInfo): string | null => {
    const r = resolveNamePath(before.symbols, s.name_path, { suggest: false });
    return r.status === "unique" ? r.symbol.name_path : null;
  };
  const isNew = (s: SymbolInfo) =>
    s.range.start_line - 1 >= addedRows[0] && s.range.end_line - 1 <= addedRows[1];
  const find = (list: SymbolInfo[], parent: SymbolInfo | null): [SymbolInfo[], SymbolInfo | null] | null => {
    for (const s of list) {
      if (s.name_path === added.namePath) return [list, parent];
      const deeper = find(s.children, s);
      if (deeper) return deeper;
    }
    return null;
  };
  const place = find(after.symbols, null);
  if (!place) return null;
  const [siblings, parent] = place;
  const i = siblings.findIndex((s) => s.name_path === added.namePath);
  for (let j = i - 1; j >= 0; j--) {
    const s = siblings[j]!;
    if (isNew(s)) continue;
    const np = inBefore(s);
    if (np) return { name_path: np, position: "after" };
  }
  for (let j = i + 1; j < siblings.length; j++) {
    const s = siblings[j]!;
    if (isNew(s)) continue;
    const np = inBefore(s);
    if (np) return { name_path: np, position: "before" };
  }
  if (parent) {
    const np = inBefore(parent);
    if (np) return { name_path: np, position: i === 0 ? "start_of_body" : "end_of_body" };
  }
  return null;
}

function trimBlankLines(code: string): string {
  return code.replace(/^(?:[ \t]*\r?\n)+/, "").replace(/(?:\r?\n[ \t]*)+$/, "");
}

/**
 * The call a rename would take, or undefined while the workspace has no rename
 * tool. The hook for `edit_rename_symbol`: its arguments are `path`,
 * `name_path` and `new_name`.
 *
 * @param path Relative path.
 * @param namePath The definition's name path before the rename.
 * @param newName The name the edit gives it.
 * @param renameTool The rename tool's name (default {@linkcode RENAME_TOOL}).
 * @returns The suggested call, or undefined.
 */
export function renameCall(
  path: string,
  namePath: string,
  newName: string,
  renameTool: string | null = RENAME_TOOL,
): SuggestedCall | undefined {
  return renameTool
    ? { tool: renameTool, args: { path, name_path: namePath, new_name: newName } }
    : undefined;
}

/** Classify a refused hunk and fill in the structural call that does the same. */
function classify(
  path: string,
  h: LineHunk,
  touchedBefore: Def[],
  touchedAfter: Def[],
  before: Side,
  after: Side,
  renameTool: string | null,
): DefinitionFinding {
  const bRows = removedRows(h);
  const aRows = addedRows(h);
  const base = {
    ...(bRows ? { before_lines: span(before, bRows)! } : {}),
    ...(aRows ? { after_lines: span(after, aRows)! } : {}),
    definitions: [
      ...touchedBefore.map((d) => describe(d, "before")),
      ...touchedAfter.map((d) => describe(d, "after")),
    ],
  };
  // new text empty: a removal
  if (touchedBefore.length > 0 && allBlank(after, aRows)) {
    const whole = touchedBefore.filter((d) => bRows && d.start >= bRows[0] && d.end <= bRows[1]);
    const target = [...whole, ...touchedBefore].find((d) => d.namePath !== null);
    const out: DefinitionFinding = { edit: "remove", ...base, tool: "remove_symbol" };
    if (target) out.suggested_call = { tool: "remove_symbol", args: { path, name_path: target.namePath } };
    return out;
  }
  // old text empty: an addition
  if (touchedAfter.length > 0 && allBlank(before, bRows)) {
    const out: DefinitionFinding = { edit: "insert", ...base, tool: "insert_code" };
    const first = touchedAfter.find((d) => d.namePath !== null);
    const anchor = first && aRows ? insertionAnchor(first, after, before, aRows) : null;
    if (anchor) {
      out.suggested_call = {
        tool: "insert_code",
        args: { path, ...anchor, code: trimBlankLines(linesOf(after, aRows)) },
      };
    }
    return out;
  }
  // a name changed
  const pairs = renames(touchedBefore, touchedAfter);
  if (
    pairs.length > 0 &&
    (h.removed <= 1 && h.added <= 1 || onlyRenames(pairs, linesOf(before, bRows), linesOf(after, aRows)))
  ) {
    const { from, to } = pairs[0]!;
    const namePath = from.namePath ?? from.name;
    const out: DefinitionFinding = {
      edit: "rename",
      ...base,
      rename: { name_path: namePath, from: from.name, to: to.name },
      tool: renameTool,
    };
    const call = renameCall(path, namePath, to.name, renameTool);
    if (call) out.suggested_call = call;
    return out;
  }
  // a rewrite: replace the innermost definition that holds the whole hunk on both sides
  const out: DefinitionFinding = { edit: "replace", ...base, tool: "replace_symbol" };
  const placeAfter = placeIn(h, "after");
  for (const d of containers(before, placeIn(h, "before"))) {
    const twin = containers(after, placeAfter).find((a) => a.namePath === d.namePath && a.kind === d.kind);
    if (!twin) continue;
    out.suggested_call = {
      tool: "replace_symbol",
      args: { path, name_path: d.namePath, new_text: after.text.slice(twin.startOffset, twin.endOffset) },
    };
    break;
  }
  return out;
}

/**
 * Judge one file's edit: the hunks that rewrite, remove, add or rename a
 * definition, each with the structural call that does the same.
 *
 * @param ws Grammars and the parse cache.
 * @param input The path and the texts before and after (versions, when known, spare parses).
 * @param options `renameTool`: the rename tool to suggest (default none yet).
 * @returns The verdict: no findings means the edit passes.
 *
 * @example A body edit passes, a removed function does not
 * ```ts
 * import { createMemoryBackend, createWorkspace } from "@graver/core";
 * import { createWasmLoader } from "@graver/core/adapters/deno";
 * import { judgeDefinitionEdit } from "./definition_gate.ts";
 * import assert from "node:assert/strict";
 *
 * const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
 * const before = "def f(x):\n    y = x + 1\n    return y\n\n\ndef g():\n    pass\n";
 * const body = await judgeDefinitionEdit(ws, {
 *   path: "a.py",
 *   before,
 *   after: before.replace("    y = x + 1\n    return y", "    y = x + 2\n    return y * 2"),
 * });
 * assert.equal(body.findings.length, 0);
 * const removal = await judgeDefinitionEdit(ws, {
 *   path: "a.py",
 *   before,
 *   after: before.replace("\n\ndef g():\n    pass\n", ""),
 * });
 * assert.equal(removal.findings[0]!.edit, "remove");
 * assert.deepEqual(removal.findings[0]!.suggested_call, {
 *   tool: "remove_symbol",
 *   args: { path: "a.py", name_path: "g" },
 * });
 * ```
 */
export async function judgeDefinitionEdit(
  ws: Parsing,
  input: DefinitionEditInput,
  options: DefinitionGateOptions = {},
): Promise<DefinitionGateVerdict> {
  const { path, before, after } = input;
  const language = ws.grammars?.languageOf(path, after.slice(0, HEAD_CHARS)) ?? null;
  const verdict: DefinitionGateVerdict = { path, language, findings: [] };
  if (language === null || !ws.trees) return { ...verdict, skipped: "no_grammar" };
  if (symbolRules(language).data) return { ...verdict, skipped: "not_code" };
  if (querySource(language, "tags") === null && keywordRules(language).size === 0) {
    return { ...verdict, skipped: "not_code" };
  }
  const hunks = lineHunks(before, after);
  if (hunks.length === 0) return { ...verdict, skipped: "unchanged" };
  const region = (which: "before" | "after"): Rows => {
    const places = hunks.map((h) => placeIn(h, which));
    return [Math.min(...places.map((p) => p[0])), Math.max(...places.map((p) => p[1]))];
  };
  const beforeVersion = input.beforeVersion ?? await versionOf(ENCODER.encode(before));
  const afterVersion = input.afterVersion ?? await versionOf(ENCODER.encode(after));
  const old = await sideOf(
    ws,
    path,
    language,
    before,
    beforeVersion,
    region("before"),
    hunks.map(removedRows).filter((r): r is Rows => r !== null),
  );
  const now = await sideOf(
    ws,
    path,
    language,
    after,
    afterVersion,
    region("after"),
    hunks.map(addedRows).filter((r): r is Rows => r !== null),
  );
  const renameTool = options.renameTool === undefined ? RENAME_TOOL : options.renameTool;
  for (const h of hunks) {
    const touchedBefore = touching(old, removedRows(h));
    const touchedAfter = touching(now, addedRows(h));
    if (touchedBefore.length === 0 && touchedAfter.length === 0) continue;
    if (h.removed <= 1 && h.added <= 1) {
      // one line: only a new name, or a header changed along with the same definition's body
      const others = hunks.filter((o) => o !== h);
      const renamed = renames(touchedBefore, touchedAfter).length > 0;
      const rewritten = touchedBefore.some((d) => bodyChangedElsewhere(d, old, "before", others)) ||
        touchedAfter.some((d) => bodyChangedElsewhere(d, now, "after", others));
      if (!renamed && !rewritten) continue;
    }
    verdict.findings.push(classify(path, h, touchedBefore, touchedAfter, old, now, renameTool));
  }
  return verdict;
}

function lines(s: LineSpan): string {
  return s.start_line === s.end_line ? `line ${s.start_line}` : `lines ${s.start_line}–${s.end_line}`;
}

function label(d: TouchedDefinition): string {
  return `${d.kind} "${d.name_path ?? d.name}"`;
}

/** What a finding does, said for a message: "lines 3–9 remove function "f"". */
function what(f: DefinitionFinding): string {
  const where = f.before_lines ? lines(f.before_lines) : `${lines(f.after_lines!)} (of the new text)`;
  const olds = f.definitions.filter((d) => d.side === "before");
  const news = f.definitions.filter((d) => d.side === "after");
  const main = olds[0] ?? news[0]!;
  switch (f.edit) {
    case "remove":
      return `${where} remove ${label(main)}`;
    case "insert":
      return `${lines(f.after_lines!)} of the new text add ${label(news[0] ?? main)}`;
    case "rename":
      return `${where} rename${
        f.before_lines && f.before_lines.start_line === f.before_lines.end_line ? "s" : ""
      } ${olds[0]?.kind ?? main.kind} "${f.rename!.name_path}" to "${f.rename!.to}"`;
    default:
      return `${where} rewrite the header of ${label(main)}`;
  }
}

function hintOf(f: DefinitionFinding): string {
  const call = f.suggested_call;
  const bodies = "edits inside a body that leave every definition's header alone pass as text";
  switch (f.edit) {
    case "remove":
      return call
        ? `Call remove_symbol with name_path "${
          call.args["name_path"]
        }" (the suggested call): it removes the definition with its decorators, doc comment and blank lines`
        : "Find the definition's name path with outline, then call remove_symbol";
    case "insert":
      return call
        ? `Call insert_code (the suggested call puts this code ${call.args["position"]} "${
          call.args["name_path"]
        }"); it re-indents the code and keeps the blank-line convention`
        : "Call insert_code with the name path of a neighbouring definition (see outline) and position before/after";
    case "rename":
      return call
        ? `Call ${call.tool} (the suggested call): it renames the definition and updates every reference`
        : `A rename needs the rename tool, which also updates every reference, and this workspace has none yet: keep the name "${
          f.rename!.from
        }" (${bodies}), or rewrite the whole definition with replace_symbol if nothing else refers to it`;
    default:
      return call
        ? `Call replace_symbol with name_path "${
          call.args["name_path"]
        }" and the whole new definition, signature included, as new_text (the suggested call carries the text this edit would leave); ${bodies}`
        : `Call replace_symbol with the name path of the definition (see outline) and the whole new definition as new_text; ${bodies}`;
  }
}

/**
 * The `definition_gate` refusal for a verdict with findings: what the edit
 * does to which definition, where (path, lines), and the structural call to
 * make instead (`suggested_call`, arguments filled in when inferable).
 *
 * @param verdict A verdict with at least one finding.
 * @param options `tool`: the freeform tool refused (for the message; default "a text edit").
 * @returns The error to throw.
 */
export function definitionGateError(
  verdict: DefinitionGateVerdict,
  options: { tool?: string } = {},
): RecoverableError {
  const first = verdict.findings[0];
  if (!first) throw new TypeError("definitionGateError needs a verdict with findings");
  const more = verdict.findings.length - 1;
  const use = first.tool ? `; use ${first.tool}` : "; a rename needs the rename tool";
  const message = `Cannot edit "${verdict.path}" with ${options.tool ?? "a text edit"}: ${what(first)}${use}${
    more > 0 ? ` (and ${more} more definition edit${more === 1 ? "" : "s"} in this file)` : ""
  }`;
  return new RecoverableError("definition_gate", message, {
    hint: hintOf(first),
    ...(first.suggested_call ? { suggestedCall: first.suggested_call } : {}),
    details: { path: verdict.path, language: verdict.language, findings: verdict.findings },
  });
}
