/**
 * `graver sg`'s match lines: `path:line:column:text` for a match's first line, `path-line-text` for its further
 * lines and for the context lines `-A`/`-B`/`-C` ask for (as `graver grep` and ripgrep print context), each
 * line of a file printed once, and `--` between groups of lines that do not follow one another.
 *
 * @module
 */
import type { CliFlag } from "./_cli_contract.ts";
import type { Paint } from "./cli_output.ts";

/** ast-grep's `-A`, `-B` and `-C` as `graver sg` declares them. */
export const CONTEXT_OPTIONS: Readonly<Record<string, CliFlag>> = {
  after: {
    kind: "string",
    short: "A",
    value: "NUM",
    help: "print NUM lines after each match, as ast-grep's -A",
  },
  before: {
    kind: "string",
    short: "B",
    value: "NUM",
    help: "print NUM lines before each match, as ast-grep's -B",
  },
  context: {
    kind: "string",
    short: "C",
    value: "NUM",
    help: "print NUM lines around each match, as ast-grep's -C",
  },
};

/** What one match of a search_structural result holds (the part printed here). */
export interface PrintedMatch {
  path: string;
  line: number;
  column: number;
  end_line?: number;
  text: string;
  context_before?: string[];
  context_after?: string[];
}

/** One line to print: its file, number and text, and what it is (a match's first line, its further one, context). */
interface Row {
  path: string;
  line: number;
  text: string;
  kind: "first" | "match" | "context";
  column: number;
}

/** A match's rows: its context before, its own lines, its context after. */
function rowsOf(m: PrintedMatch): Row[] {
  const own = m.text.split("\n");
  const before = m.context_before ?? [];
  const row = (line: number, text: string, kind: Row["kind"]): Row => ({ ...m, line, text, kind });
  return [
    ...before.map((text, i) => row(m.line - before.length + i, text, "context")),
    ...own.map((text, i) => row(m.line + i, text, i === 0 ? "first" : "match")),
    ...(m.context_after ?? []).map((text, i) => row(m.line + own.length + i, text, "context")),
  ];
}

/** A row as printed: a match's first line `path:line:column:text`, any other `path-line-text`. */
function rowText(row: Row, paint: Paint): string {
  const at = paint.cyan(row.path);
  if (row.kind === "first") {
    return `${at}:${paint.green(String(row.line))}:${row.column}:${paint.bold(row.text)}`;
  }
  return `${at}-${row.line}-${row.kind === "match" ? paint.bold(row.text) : row.text}`;
}

/**
 * The lines of a search's matches, with their context: each match prints all its own lines (a match inside
 * another prints its lines again, as without context), a context line already printed (context that overlaps
 * another match or its context) is not printed again; with context, `--` stands between groups that do not
 * follow one another.
 *
 * @example Two matches a line apart, one line of context each
 * ```ts
 * import { matchLines } from "./_sg_lines.ts";
 * import assert from "node:assert/strict";
 *
 * const plain = { cyan: (s: string) => s, green: (s: string) => s, bold: (s: string) => s } as never;
 * const m = (line: number, text: string) => ({ path: "a.js", line, column: 1, text, context_before: ["x"], context_after: ["y"] });
 * assert.deepEqual(matchLines([m(2, "f(1)"), m(4, "f(2)"), m(9, "f(3)")], plain), [
 *   "a.js-1-x", "a.js:2:1:f(1)", "a.js-3-y", "a.js:4:1:f(2)", "a.js-5-y", "--", "a.js-8-x", "a.js:9:1:f(3)", "a.js-10-y",
 * ]);
 * ```
 *
 * @param matches The matches, in the result's order (a file's together, in document order).
 * @param paint The colours.
 * @returns The lines, without line ends.
 */
export function matchLines(matches: readonly PrintedMatch[], paint: Paint): string[] {
  const context = matches.some((m) => m.context_before !== undefined || m.context_after !== undefined);
  const out: string[] = [];
  let last: { path: string; line: number } | null = null;
  matches.forEach((m, i) => {
    const next = matches[i + 1];
    const until = next?.path === m.path ? next.line - 1 : Infinity; // the next match prints its own lines
    for (const row of rowsOf(m)) {
      const sameFile = last?.path === row.path;
      if (sameFile && row.line <= last!.line && row.kind === "context") continue;
      if (row.kind === "context" && row.line > until) continue;
      if (context && last !== null && (!sameFile || row.line > last.line + 1)) out.push("--");
      out.push(rowText(row, paint));
      if (!sameFile || row.line > last!.line) last = { path: row.path, line: row.line };
    }
  });
  return out;
}

/** ast-grep's context flags, each with the argument it sets. */
const CONTEXT_FLAGS = { after: "context_after", before: "context_before", context: "context" } as const;

/**
 * The `search_structural` arguments `-A`, `-B` and `-C` ask for (a search printed as lines only), or the problem.
 *
 * @param flags The parsed options.
 * @param on Whether the command rewrites, and whether it prints ast-grep's JSON (neither takes context).
 * @returns `context_after`, `context_before`, `context`, or the problem.
 */
export function contextArgs(
  flags: Record<string, string | boolean>,
  on: { rewriting: boolean; astGrep: boolean },
): Record<string, number> | { problem: string } {
  const out: Record<string, number> = {};
  for (const [flag, arg] of Object.entries(CONTEXT_FLAGS)) {
    const value = flags[flag];
    if (value === undefined) continue;
    if (typeof value !== "string" || !/^\d+$/.test(value)) {
      return { problem: `option "--${flag}" takes a whole number of lines, not "${String(value)}"` };
    }
    if (on.rewriting || on.astGrep) {
      return {
        problem: `--${flag} prints lines around a search's matches: it takes neither -r nor --format`,
      };
    }
    out[arg] = Number(value);
  }
  return out;
}
