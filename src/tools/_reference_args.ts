/**
 * What find_references and edit_rename_symbol share on the tool side: the
 * `target` argument's schema and how sites are grouped by file in results.
 *
 * @module
 */
import type { ReferenceSite } from "../structural/references/references.ts";
import type { JsonSchema } from "./types.ts";

/** The target argument: a name path, or the 1-based line and column of one of the symbol's names. */
export const TARGET: JsonSchema = {
  type: ["string", "object"],
  minLength: 1,
  description:
    'The symbol: its name path in path ("Class/method", "helper"), or {"line": L, "column": C} (1-based) on any occurrence of its name — a declaration, a use, an import',
  properties: {
    line: { type: "integer", minimum: 1 },
    column: { type: "integer", minimum: 1 },
  },
  required: ["line", "column"],
  additionalProperties: false,
};

/**
 * `line` and `column` given beside `path` (as search results and read_file show them) instead of inside the
 * target argument: folded into it. Left alone when the target is given too, so the schema names the stray
 * arguments.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { positionAtTopLevel } from "./_reference_args.ts";
 *
 * const fold = positionAtTopLevel("target");
 * assert.deepEqual(fold({ path: "a.ts", line: 3, column: 7 }), { path: "a.ts", target: { line: 3, column: 7 } });
 * assert.deepEqual(fold({ path: "a.ts", target: "f", line: 3 }), { path: "a.ts", target: "f", line: 3 });
 * ```
 *
 * @param into The name of the tool's target argument (`target`, or `name_path` for edit_change_signature).
 * @returns The tool's `foldArgs`.
 */
export function positionAtTopLevel(into: string): (args: Record<string, unknown>) => Record<string, unknown> {
  return (args) => {
    if (args[into] !== undefined || (args["line"] === undefined && args["column"] === undefined)) return args;
    const { line, column, ...rest } = args;
    return { ...rest, [into]: { line, column } };
  };
}

/** One file's sites in a result. */
export interface FileReferences {
  /** Relative path. */
  path: string;
  /** Its sites, in document order. */
  references: { line: number; column: number; kind: string; text: string }[];
}

/**
 * Group sites by file, each with its line's text.
 *
 * @param sites Sites sorted by path and offset.
 * @param textOf The text of a file.
 * @returns One entry per file.
 */
export function groupByFile(sites: ReferenceSite[], textOf: (path: string) => string): FileReferences[] {
  const out: FileReferences[] = [];
  for (const s of sites) {
    let group = out[out.length - 1];
    if (!group || group.path !== s.path) out.push(group = { path: s.path, references: [] });
    const text = textOf(s.path);
    const start = s.start - (s.column - 1);
    const end = text.indexOf("\n", s.start);
    group.references.push({
      line: s.line,
      column: s.column,
      kind: s.kind,
      text: text.slice(start, end < 0 ? text.length : end).replace(/\r$/, ""),
    });
  }
  return out;
}
