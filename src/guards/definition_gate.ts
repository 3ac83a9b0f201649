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
import type { SuggestedCall } from "../errors.ts";
import { versionOf } from "../fs/version.ts";
import { wordPattern } from "../project/words.ts";
import { HEAD_CHARS } from "../syntax/grammars.ts";
import { resolveNamePath } from "../syntax/name_path.ts";
import { querySource, symbolRules } from "../syntax/queries.ts";
import type { Parsing, SymbolInfo } from "../syntax/types.ts";
import { keywordRules } from "./_definition_keywords.ts";
import { type LineHunk, lineHunks } from "../fs/text_changes.ts";
import {
  addedRows,
  allBlank,
  type Def,
  describe,
  linesOf,
  placeIn,
  removedRows,
  type Rows,
  SCOPES,
  type Side,
  sideOf,
  span,
  touching,
} from "./_definition_sides.ts";
import type { DefinitionFinding, DefinitionGateVerdict } from "./definition_findings.ts";
import { maxOf, minOf } from "../arrays.ts";

export { definitionGateError } from "./definition_findings.ts";
export type {
  DefinitionEditKind,
  DefinitionFinding,
  DefinitionGateVerdict,
  LineSpan,
  TouchedDefinition,
} from "./definition_findings.ts";

/**
 * The rename tool the gate names in a rename's `suggested_call`:
 * `{ tool, args: { path, name_path, new_name } }` (`name_path` is an alias of
 * edit_rename_symbol's `target`). Pass `renameTool: null` in the options for
 * a refusal that only says a rename needs a rename tool.
 */
export const RENAME_TOOL: string | null = "edit_rename_symbol";

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

const ENCODER = new TextEncoder();

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

/** Whether the hunk only renames: its old lines with the names swapped are its new lines. */
function onlyRenames(pairs: { from: Def; to: Def }[], removed: string, added: string): boolean {
  let text = removed;
  for (const { from, to } of pairs) {
    text = text.replace(wordPattern(from.name, "g"), to.name);
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
 * @param options `newName`, the name the edit gives it; `renameTool`, the rename tool's name (default
 *   {@linkcode RENAME_TOOL}; null when the workspace has none).
 * @returns The suggested call, or undefined.
 */
export function renameCall(
  path: string,
  namePath: string,
  { newName, renameTool = RENAME_TOOL }: { newName: string; renameTool?: string | null | undefined },
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
    const call = renameCall(path, namePath, { newName: to.name, renameTool });
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
    return [minOf(places.map((p) => p[0])), maxOf(places.map((p) => p[1]))];
  };
  const beforeVersion = input.beforeVersion ?? await versionOf(ENCODER.encode(before));
  const afterVersion = input.afterVersion ?? await versionOf(ENCODER.encode(after));
  const old = await sideOf(ws, {
    path,
    language,
    text: before,
    version: beforeVersion,
    region: region("before"),
    changed: hunks.map(removedRows).filter((r): r is Rows => r !== null),
  });
  const now = await sideOf(ws, {
    path,
    language,
    text: after,
    version: afterVersion,
    region: region("after"),
    changed: hunks.map(addedRows).filter((r): r is Rows => r !== null),
  });
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
