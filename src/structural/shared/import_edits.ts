/**
 * Text edits on import statements shared by the move refactors: taking items
 * out of a comma-separated list (`{ a, b }`, `from m import a, b`) and
 * adding lines after a statement.
 *
 * @module
 */
import { blankLinesBelow, indentOfLine, lineEndAfter, lineStart } from "../../fs/lines.ts";
import type { TextEdit } from "../edit/source.ts";
import { type FamilyStrategy, strategyFor } from "./family_strategies.ts";

/**
 * The edits that remove some items of a comma-separated list, with the
 * separators between them (a trailing comma after the last item stays).
 *
 * @param items The list's items, in order (spans).
 * @param drop Indexes of the items to remove (not all of them).
 * @returns The edits.
 */
export function listItemRemovals(
  items: { start: number; end: number }[],
  drop: ReadonlySet<number>,
): TextEdit[] {
  let lastKept = -1;
  for (let i = 0; i < items.length; i++) if (!drop.has(i)) lastKept = i;
  if (lastKept < 0) throw new RangeError("Cannot remove every item of a list this way");
  const edits: TextEdit[] = [];
  for (const i of [...drop].sort((a, b) => a - b)) {
    if (i < lastKept) edits.push({ start: items[i]!.start, end: items[i + 1]!.start, text: "" });
  }
  if (lastKept < items.length - 1) {
    edits.push({ start: items[lastKept]!.end, end: items[items.length - 1]!.end, text: "" });
  }
  return edits;
}

/**
 * The edit that adds lines after the line a statement ends on, at the statement's indentation.
 *
 * @param text The file's text.
 * @param statement The statement's span.
 * @param lines The lines to add (no line endings).
 * @param eol The file's line ending.
 * @returns The edit.
 */
export function linesAfter(
  text: string,
  statement: { start: number; end: number },
  { lines, eol }: { lines: string[]; eol: string },
): TextEdit {
  const indent = indentOfLine(text, statement.start);
  const at = lineEndAfter(text, statement.end);
  const body = lines.map((l) => indent + l).join(eol);
  if (at >= text.length && !text.endsWith("\n")) return { start: at, end: at, text: eol + body };
  return { start: at, end: at, text: body + eol };
}

/** One name an import statement binds. */
export interface ImportItem {
  /** named: `{ imported as local }` / `from m import imported as local`; default; namespace (`* as local`, Python `import m as local`). */
  kind: "named" | "default" | "namespace";
  /** The exported name taken ("default", "*" for a namespace). */
  imported: string;
  /** The local name. */
  local: string;
  /** TypeScript `type` import. */
  typeOnly?: boolean;
}

/** How a file writes its ECMAScript imports. */
export interface ImportStyle {
  /** The quote around module specifiers. */
  quote: string;
  /** Whether statements end with `;`. */
  semi: boolean;
}

/**
 * How a file writes imports: the quote and semicolon habit of its first import (else of its code).
 *
 * @param text The file's text.
 * @returns The style (double quotes and semicolons when the file says nothing).
 */
export function importStyleOf(text: string): ImportStyle {
  const first = /^(?:import|export)\b[^\n]*?\bfrom\s*(["'])[^"'\n]*\1(;?)/m.exec(text);
  if (first) return { quote: first[1]!, semi: first[2] === ";" };
  const code = text.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, "");
  return {
    quote: /'[^'\n]*'/.test(code) && !/"[^"\n]*"/.test(code) ? "'" : '"',
    semi: !/\S[^;{},\s]\s*$/m.test(code),
  };
}

/**
 * The import statements that bind `items` from the module `spec` (one per namespace item; the rest in one).
 *
 * @param system "ecmascript" or "python".
 * @param spec The module specifier as it is to be written.
 * @param items The names.
 * @param style ECMAScript quote and semicolon habit.
 * @returns The statements, without line endings.
 *
 * @example
 * ```ts
 * import { importStatements } from "./import_edits.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(
 *   importStatements("ecmascript", "./a", {
 *     items: [{ kind: "named", imported: "x", local: "y" }],
 *     style: { quote: "'", semi: true },
 *   }),
 *   ["import { x as y } from './a';"],
 * );
 * assert.deepEqual(
 *   importStatements("python", ".a", {
 *     items: [{ kind: "named", imported: "x", local: "x" }],
 *     style: { quote: "", semi: false },
 *   }),
 *   ["from .a import x"],
 * );
 * ```
 */
export function importStatements(
  system: "ecmascript" | "python",
  spec: string,
  { items, style }: { items: ImportItem[]; style: ImportStyle },
): string[] {
  return strategyFor(IMPORT_WRITERS, system).write(spec, items, style);
}

/** One module system's way of writing imports. */
interface ImportWriter extends FamilyStrategy {
  write(spec: string, items: ImportItem[], style: ImportStyle): string[];
}

/** `name` or `name as local`. */
const spelled = (i: ImportItem) => i.imported === i.local ? i.local : `${i.imported} as ${i.local}`;

/** Python: `import a.b [as c]` per namespace, then one `from m import …`. */
function pythonImports(spec: string, items: ImportItem[]): string[] {
  const named = items.filter((i) => i.kind === "named");
  const out: string[] = [];
  for (const i of items) {
    if (i.kind !== "namespace") continue;
    const bare = spec === i.local || spec.startsWith(`${i.local}.`); // `import a.b` binds `a`
    out.push(`import ${spec}${bare ? "" : ` as ${i.local}`}`);
  }
  if (named.length > 0) out.push(`from ${spec} import ${named.map(spelled).join(", ")}`);
  return out;
}

/** ECMAScript: `import * as ns` per namespace, then one `import def, { a, type b }` (all types: `import type`). */
function ecmaImports(spec: string, items: ImportItem[], style: ImportStyle): string[] {
  const named = items.filter((i) => i.kind === "named");
  const out: string[] = [];
  const from = ` from ${style.quote}${spec}${style.quote}${style.semi ? ";" : ""}`;
  for (const i of items) {
    if (i.kind === "namespace") out.push(`import ${i.typeOnly ? "type " : ""}* as ${i.local}${from}`);
  }
  const def = items.find((i) => i.kind === "default");
  const allTypes = [...named, ...(def ? [def] : [])].every((i) => i.typeOnly);
  const parts: string[] = [];
  if (def) parts.push(def.local);
  if (named.length > 0) {
    parts.push(
      `{ ${named.map((i) => `${i.typeOnly && !allTypes ? "type " : ""}${spelled(i)}`).join(", ")} }`,
    );
  }
  if (parts.length > 0) out.push(`import ${allTypes ? "type " : ""}${parts.join(", ")}${from}`);
  return out;
}

/** Each module system's writer, by the system's name. */
const IMPORT_WRITERS: readonly ImportWriter[] = [
  { family: "ecmascript", write: ecmaImports },
  { family: "python", write: pythonImports },
];

/**
 * The edit that removes an import statement: its whole lines when it stands
 * on lines of its own (with the blank lines below when it was the only line
 * of its block, so no blank run doubles), else just its span.
 *
 * @param text The file's text.
 * @param statement The statement's span.
 * @returns The edit.
 */
export function statementRemoval(text: string, statement: { start: number; end: number }): TextEdit {
  const from = lineStart(text, statement.start);
  const to = lineEndAfter(text, statement.end);
  const alone = text.slice(from, statement.start).trim() === "" &&
    text.slice(statement.end, to).replace(/^\s*;/, "").trim() === "";
  if (!alone) return { start: statement.start, end: statement.end, text: "" };
  return blockRemoval(text, from, to);
}

/**
 * Whole lines [from, to) removed; when they were a block of their own (a
 * blank line or the file's start above them), the blank lines below go too.
 *
 * @param text The file's text.
 * @param from A line start.
 * @param to A line start after it.
 * @returns The edit.
 */
export function blockRemoval(text: string, from: number, to: number): TextEdit {
  const above = text.slice(0, from).replace(/\r?\n$/, "");
  const blankAbove = from === 0 || above.slice(above.lastIndexOf("\n") + 1).trim() === "";
  return { start: from, end: blankAbove ? blankLinesBelow(text, to).to : to, text: "" };
}
