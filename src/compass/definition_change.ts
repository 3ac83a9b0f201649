/**
 * What a text edit does to a file's definitions, judged by comparing the
 * file's outline before and after the edit (and, for a local's rename, where
 * the file declares names): a structural tool is worth
 * suggesting only when the edit renames a definition or changes its shape
 * (adds or removes a definition, or changes its header: name, parameters,
 * type), never for an edit inside a body (a one-line statement change) or at
 * a call site (`c.displayName()` → `c.DisplayName()` renames nothing).
 *
 * @module
 */
import type { SymbolInfo } from "../syntax/types.ts";
import { renameOf } from "./edit_shape.ts";
import type { FileFacts, ShapeHunk } from "./types.ts";

/** What an edit does to the definitions of one file. */
export type DefinitionChange =
  /** A definition's name changed, and the edit reads as that one identifier renamed. */
  | { kind: "rename"; from: string; to: string }
  /** Definitions were added or removed, or a header (name, parameters, type) changed. */
  | { kind: "shape" }
  /** Only bodies (or text outside any definition's header) changed. */
  | { kind: "body" }
  /** Cannot tell: the old text is not in the file as written, or the file has no outline. */
  | { kind: "unknown" };

/** Where `search` is in `text`, line by line with indentation and trailing spaces ignored (one place only). */
function lineMatch(text: string, search: string): { start: number; end: number } | null {
  const want = search.split("\n").map((l) => l.trim());
  while (want.length > 0 && want[want.length - 1] === "") want.pop();
  if (want.length === 0) return null;
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  const lines = starts.map((s, k) => text.slice(s, k + 1 < starts.length ? starts[k + 1]! - 1 : text.length));
  let found: { start: number; end: number } | null = null;
  for (let i = 0; i + want.length <= lines.length; i++) {
    if (!want.every((w, k) => lines[i + k]!.trim() === w)) continue;
    if (found) return null; // ambiguous
    const last = i + want.length - 1;
    found = { start: starts[i]!, end: starts[last]! + lines[last]!.length };
  }
  return found;
}

/**
 * The text with the hunks applied in order, each at its first exact
 * occurrence (every occurrence with `all`), else where its lines match with
 * indentation ignored; null when a hunk's old text is not found.
 *
 * @param text The file's text.
 * @param hunks The replacements.
 * @param options `all`: replace every occurrence (a `replace_all` call).
 * @returns The edited text, or null.
 *
 * @example
 * ```ts
 * import { applyHunks } from "./definition_change.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(applyHunks("a(1);\nb(1);\n", [{ oldText: "b(1)", newText: "b(2)" }]), "a(1);\nb(2);\n");
 * assert.equal(applyHunks("a(1);\n", [{ oldText: "c", newText: "d" }]), null);
 * ```
 */
export function applyHunks(
  text: string,
  hunks: readonly ShapeHunk[],
  options: { all?: boolean } = {},
): string | null {
  let out = text;
  for (const h of hunks) {
    const at = out.indexOf(h.oldText);
    if (at >= 0) {
      out = options.all
        ? out.replaceAll(h.oldText, h.newText)
        : out.slice(0, at) + h.newText + out.slice(at + h.oldText.length);
      continue;
    }
    const lines = lineMatch(out, h.oldText);
    if (!lines) return null;
    out = out.slice(0, lines.start) + h.newText.replace(/\n$/, "") + out.slice(lines.end);
  }
  return out;
}

/** A definition's header: its text before its body (a bodyless one's before its value), spaces collapsed. */
function header(text: string, s: SymbolInfo): string {
  const head = text.slice(s.range.start_utf16, s.body_range?.start_utf16 ?? s.range.end_utf16);
  const cut = s.body_range ? head : head.split("=")[0]!;
  return cut.replace(/\s+/g, " ").trim();
}

/**
 * Every definition of an outline as one comparable line: kind, name path and
 * header, depth first in document order.
 *
 * @param text The text the outline is of.
 * @param symbols Its top-level symbols.
 * @returns One signature per definition.
 */
export function definitionSignatures(text: string, symbols: readonly SymbolInfo[]): string[] {
  const out: string[] = [];
  const walk = (list: readonly SymbolInfo[]) => {
    for (const s of list) {
      out.push(`${s.kind} ${s.name_path} ${header(text, s)}`);
      walk(s.children);
    }
  };
  walk(symbols);
  return out;
}

/** How many definitions are named `name`. */
function named(symbols: readonly SymbolInfo[], name: string): number {
  let n = 0;
  for (const s of symbols) n += (s.name === name ? 1 : 0) + named(s.children, name);
  return n;
}

/**
 * What an edit of one file does to its definitions: the outline of the text
 * before and after (`file.outline`, from the tool layer) compared.
 *
 * @param file The file's facts (its text, and how to outline a text).
 * @param edit The hunks (and `all` for replace_all), or the whole new text (`after`); `renames`: the
 *   language can rename a symbol (edit_rename_symbol).
 * @returns rename, shape, body or unknown.
 */
export async function definitionChange(
  file: FileFacts,
  edit: { hunks?: readonly ShapeHunk[]; all?: boolean; after?: string; renames?: boolean },
): Promise<DefinitionChange> {
  if (file.text === null || !file.outline) return { kind: "unknown" };
  const after = edit.after ?? applyHunks(file.text, edit.hunks ?? [], { all: edit.all === true });
  if (after === null) return { kind: "unknown" };
  const [before, then] = [await file.outline(file.text), await file.outline(after)];
  if (!before || !then) return { kind: "unknown" };
  const a = definitionSignatures(file.text, before);
  const b = definitionSignatures(after, then);
  const rename = edit.renames && edit.hunks?.length === 1 ? renameOf(edit.hunks[0]!) : null;
  if (a.length === b.length && a.every((s, i) => s === b[i])) {
    // No outline definition changed; a local's declaration renamed by the edit still is a definition's name.
    const local = rename &&
      await declaresIn(file, edit.hunks![0]!, { name: rename.from, all: edit.all === true });
    return local ? { kind: "rename", ...rename } : { kind: "body" };
  }
  if (rename && named(then, rename.from) < named(before, rename.from)) return { kind: "rename", ...rename };
  return { kind: "shape" };
}

/** Whether the old text (each place it replaces) holds a declaration of `name` (a local's, a parameter's). */
async function declaresIn(
  file: FileFacts,
  hunk: ShapeHunk,
  options: { name: string; all: boolean },
): Promise<boolean> {
  const declared = await file.declarations?.();
  if (!declared || file.text === null) return false;
  const own = declared.filter((d) => d.name === options.name);
  for (let at = file.text.indexOf(hunk.oldText); at >= 0; at = file.text.indexOf(hunk.oldText, at + 1)) {
    const end = at + hunk.oldText.length;
    if (own.some((d) => at <= d.start && d.end <= end)) return true;
    if (!options.all) break;
  }
  return false;
}
