/**
 * The target of a name search: the declaring occurrence of a name path, or
 * the name at a 1-based line and column — with the errors a model can act on
 * when it names nothing, several things, or something graver cannot resolve.
 *
 * @module
 */
import { RecoverableError } from "../../errors.ts";
import { classScopeOf, type FileBindings, type Occurrence, occurrenceAt } from "../../syntax/bindings.ts";
import { resolveNamePath } from "../../syntax/name_path.ts";
import { outlineOf } from "../../syntax/symbols.ts";
import { TextIndex } from "../../syntax/text_index.ts";
import type { Parsing } from "../../syntax/types.ts";

/** A symbol to find: a name path in the file, or a 1-based position on one of its names. */
export type ReferenceTarget = string | { line: number; column: number };

/** The declaration of `name` inside a symbol's range. */
function declaredName(
  fb: FileBindings,
  r: { start_utf16: number; end_utf16: number },
  name: string,
): Occurrence | undefined {
  return fb.occurrences.find((o) =>
    o.start >= r.start_utf16 && o.start < r.end_utf16 && o.name === name &&
    (o.kind === "definition" || o.kind === "member_definition")
  );
}

/**
 * The `unresolved` refusal for a target graver cannot tie to a declaration.
 *
 * @param path The file.
 * @param occ The occurrence targeted.
 * @param at Its 1-based line and column; `why` it cannot be resolved; `hint`, what to call instead (default:
 *   target the declaration).
 * @returns The error to throw.
 */
export function unresolvedTarget(
  path: string,
  occ: Occurrence,
  { at, why, hint }: { at: { line: number; column: number }; why: string; hint?: string },
): RecoverableError {
  return new RecoverableError(
    "unresolved",
    `Cannot resolve "${occ.name}" at "${path}" line ${at.line} column ${at.column}: ${why}`,
    {
      hint: hint ?? "Target the declaration instead (its name path, or the line and column of its name)",
      details: { path, line: at.line, column: at.column, name: occ.name, kind: occ.kind },
    },
  );
}

/** The distinct names on a 1-based line, with the column of their first occurrence there (at most 8). */
function namesOnLine(fb: FileBindings, index: TextIndex, line: number): { name: string; column: number }[] {
  const out: { name: string; column: number }[] = [];
  for (const o of fb.occurrences) {
    const p = index.position(o.start);
    if (p.line !== line || out.some((n) => n.name === o.name)) continue;
    out.push({ name: o.name, column: p.column });
  }
  return out.sort((a, b) => a.column - b.column).slice(0, 8);
}

/**
 * The occurrence a target names: the declaration of a name path, or the name at a position.
 *
 * @param parsing Grammars and parse cache (for the outline).
 * @param fb The file's bindings.
 * @param target Name path or 1-based position.
 * @param tool Tool name for messages.
 * @returns The occurrence.
 */
export async function targetOccurrence(
  parsing: Parsing,
  fb: FileBindings,
  { target, tool }: { target: ReferenceTarget; tool: string },
): Promise<Occurrence> {
  if (typeof target !== "string") {
    const index = new TextIndex(fb.text);
    const offset = index.offset(target.line, target.column);
    const occ = offset === null ? null : occurrenceAt(fb, offset);
    if (!occ) {
      const lines = index.position(fb.text.length).line - (fb.text.endsWith("\n") ? 1 : 0);
      const lineStart = target.line <= lines ? index.offset(target.line, 1) : null;
      const onLine = lineStart === null ? [] : namesOnLine(fb, index, target.line);
      const why = lineStart === null
        ? `: the file has ${lines} line(s)`
        : onLine.length > 0
        ? `; names on that line: ${onLine.map((n) => `${n.name} (column ${n.column})`).join(", ")}`
        : ": that line holds no name";
      throw new RecoverableError(
        "not_found",
        `Cannot find a name at "${fb.path}" line ${target.line} column ${target.column}${why}`,
        {
          hint: onLine.length > 0
            ? `Call again with the column of one of those names, or give the symbol's name path`
            : "Give the line and column (1-based) of a character of the name, or its name path (read_file shows the lines)",
          details: { path: fb.path, line: target.line, column: target.column, names_on_line: onLine },
        },
      );
    }
    return occ;
  }
  const outline = await outlineOf(parsing, fb.path, { text: fb.text, version: fb.version });
  let res = resolveNamePath(outline.symbols, target);
  if (res.status === "ambiguous") {
    // Overloads (and declaration merging) are one symbol: accept when every candidate declares the same one.
    // Candidates that declare no such name (a Rust `impl Type` block) only use it.
    const declaring = res.candidates.filter((c) => declaredName(fb, c.range, c.name) !== undefined);
    const decls = declaring.map((c) => declaredName(fb, c.range, c.name));
    const key = (o: Occurrence | undefined) =>
      o?.binding ?? (o ? `${classScopeOf(o.scope)?.id}:${o.name}` : undefined);
    const first = key(decls[0]);
    if (first !== undefined && decls.every((d) => key(d) === first)) {
      res = { status: "unique", symbol: declaring[0]! };
    }
  }
  if (res.status !== "unique") {
    const near = res.status === "not_found"
      ? res.suggestions
      : res.candidates.map((c: { name_path: string }) => c.name_path);
    throw new RecoverableError(
      res.status === "ambiguous" ? "ambiguous" : "not_found",
      `Cannot find symbol "${target}" in "${fb.path}"${res.status === "ambiguous" ? ": several match" : ""}`,
      {
        hint: near.length > 0
          ? `Did you mean ${near.slice(0, 5).map((n) => `"${n}"`).join(", ")}? Or give {line, column}`
          : `Call outline with {"path": "${fb.path}"} to see the symbols of the file`,
        suggestedCall: { tool: "outline", args: { path: fb.path } },
        details: { path: fb.path, name_path: target, candidates: near, tool },
      },
    );
  }
  const r = res.symbol.range;
  const occ = declaredName(fb, r, res.symbol.name);
  if (!occ) {
    throw new RecoverableError(
      "unresolved",
      `Cannot follow "${target}" (${res.symbol.kind}, "${fb.path}" line ${r.start_line}): the outline lists it, but graver follows no references of this kind of declaration (a trait's associated type, for one)`,
      {
        hint:
          `Find its uses with search_text (pattern "${res.symbol.name}", word: true) and change them with edit_replace_text or apply_edits`,
        suggestedCall: { tool: "search_text", args: { pattern: res.symbol.name, word: true } },
        details: { path: fb.path, name_path: target, line: r.start_line, kind: res.symbol.kind },
      },
    );
  }
  return occ;
}
