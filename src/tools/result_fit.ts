/**
 * Results that fit a context window. Every top-level result passes through {@linkcode fitResult} before it
 * leaves dispatch: in a diff over {@linkcode DIFF_CHARS}, a line longer than {@linkcode DIFF_LINE_CHARS} (a
 * minified bundle's one line) is cut to a window around what changed; then, if the result as JSON is still over the budget (100,000 characters
 * by default, the workspace's `resultChars`), whole diffs give way to a one-line summary, largest first, and
 * last the longest strings of the data are cut. Each cut says so in the text itself and in a warning that
 * names how to get the rest (`full_diff: true`, a narrower read). Nothing is cut from an error.
 *
 * @module
 */
import type { ToolResult } from "./types.ts";

/** The characters a result holds by default, as JSON. */
export const DEFAULT_RESULT_CHARS = 100_000;

/** A diff line longer than this is shown as a window around its change, in a diff over {@linkcode DIFF_CHARS}. */
export const DIFF_LINE_CHARS = 400;

/** A diff up to this size is always whole (so `git apply` takes it); a larger one has its long lines cut. */
export const DIFF_CHARS = 20_000;

/** Characters kept on each side of a long line's change. */
const AROUND = 120;

/** How a result is fitted. */
export interface FitOptions {
  /** The budget, in characters of the result's JSON. */
  chars: number;
  /** Keep diffs whole (the caller asked for them: `full_diff: true`). */
  fullDiff: boolean;
}

/**
 * Where a removed line and the added line after it differ: the first index past their `-`/`+` marks, and
 * the end of the differing part in each (what follows is common to both).
 */
function differingSpan(a: string, b: string): { start: number; tailA: number; tailB: number } {
  let start = 1;
  const max = Math.min(a.length, b.length);
  while (start < max && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let common = 0;
  while (
    common < max - start && a.charCodeAt(a.length - 1 - common) === b.charCodeAt(b.length - 1 - common)
  ) common++;
  return { start, tailA: a.length - common, tailB: b.length - common };
}

/** One long line shown from `from` to `to` with the rest counted. */
function window(line: string, from: number, to: number): string {
  const s = Math.max(1, from - AROUND);
  const e = Math.min(line.length, Math.max(to, from) + AROUND);
  const before = s > 1 ? `…[${s - 1} characters]…` : "";
  const after = e < line.length ? `…[${line.length - e} characters]…` : "";
  return line[0] + before + line.slice(s, e) + after;
}

/**
 * A unified diff with each line longer than {@linkcode DIFF_LINE_CHARS} cut to a window around its change
 * (a removed line and the added line after it are compared; other long lines keep their start).
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { shortenDiffLines } from "./result_fit.ts";
 *
 * const long = "x".repeat(5000);
 * const diff = `@@ -1 +1 @@\n-${long}a${long}\n+${long}b${long}\n`;
 * const short = shortenDiffLines(diff)!;
 * assert.ok(short.length < 800);
 * assert.match(short, /^-…\[4880 characters\]…x+ax+…\[4880 characters\]…$/m);
 * ```
 *
 * @param diff A unified diff.
 * @returns The shortened diff, or null when no line was long.
 */
export function shortenDiffLines(diff: string): string | null {
  const lines = diff.split("\n");
  let cut = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.length <= DIFF_LINE_CHARS) continue;
    cut = true;
    const next = lines[i + 1];
    if (line[0] === "-" && next?.[0] === "+") {
      const span = differingSpan(line, next);
      lines[i] = window(line, span.start, span.tailA);
      if (next.length > DIFF_LINE_CHARS) {
        lines[i + 1] = window(next, span.start, span.tailB);
        i++;
      }
      continue;
    }
    lines[i] = window(line, 1, 1);
  }
  return cut ? lines.join("\n") : null;
}

/** A diff's one-line summary, when the result has no room for it. */
function diffSummary(diff: string): string {
  let added = 0;
  let removed = 0;
  for (const line of diff.split("\n")) {
    if (line.startsWith("+") && !line.startsWith("+++")) added++;
    else if (line.startsWith("-") && !line.startsWith("---")) removed++;
  }
  return `[diff of ${diff.length} characters left out to fit the result: +${added} −${removed} lines; ` +
    `call again with full_diff: true, or read the file]`;
}

/** The string leaves of a value, with a setter for each (objects and arrays walked without recursion). */
function stringLeaves(root: unknown): { value: string; set(v: string): void }[] {
  const out: { value: string; set(v: string): void }[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    const entries = Array.isArray(node) ? node.map((v, i) => [i, v] as const) : Object.entries(node);
    for (const [key, value] of entries) {
      if (typeof value === "string") {
        out.push({ value, set: (v) => ((node as Record<string | number, unknown>)[key] = v) });
      } else stack.push(value);
    }
  }
  return out;
}

/** Cut the longest strings of `data` until `over` characters are gone. */
function cutLongestStrings(data: unknown, over: number): number {
  const leaves = stringLeaves(data).sort((a, b) => b.value.length - a.value.length);
  let removed = 0;
  for (const leaf of leaves) {
    if (removed >= over || leaf.value.length < 200) break;
    const keep = Math.max(100, leaf.value.length - (over - removed) - 60);
    const dropped = leaf.value.length - keep;
    leaf.set(`${leaf.value.slice(0, keep)}…[${dropped} characters cut to fit the result]`);
    removed += dropped;
  }
  return removed;
}

/**
 * Fit a result into the budget (see the module documentation). A refusal is returned as it is.
 *
 * @param result A top-level result.
 * @param options The budget and whether diffs stay whole.
 * @returns The result, shortened where it had to be (a new object; the input is not changed).
 */
export function fitResult(result: ToolResult, options: FitOptions): ToolResult {
  if (!result.ok) return result;
  const bigDiff = !options.fullDiff && result.changes.some((c) => (c.diff?.length ?? 0) > DIFF_CHARS);
  if (!bigDiff && JSON.stringify(result).length <= options.chars) return result;
  const out = structuredClone(result);
  const notes: string[] = [];
  if (!options.fullDiff) {
    for (const change of out.changes) {
      const short = change.diff && change.diff.length > DIFF_CHARS ? shortenDiffLines(change.diff) : null;
      if (short !== null) {
        change.diff = short;
        notes.push(`long lines of the diff of "${change.path}" are shown around their change`);
      }
    }
  }
  let size = JSON.stringify(out).length;
  if (size > options.chars && !options.fullDiff) {
    for (const change of [...out.changes].sort((a, b) => (b.diff?.length ?? 0) - (a.diff?.length ?? 0))) {
      if (size <= options.chars || !change.diff || change.diff.length < 1000) break;
      const summary = diffSummary(change.diff);
      size -= change.diff.length - summary.length;
      change.diff = summary;
      notes.push(`the diff of "${change.path}" is summarised`);
    }
  }
  if (size > options.chars && cutLongestStrings(out.data, size - options.chars) > 0) {
    notes.push("the longest texts of data are cut (marked where)");
  }
  if (notes.length === 0) return result;
  // Long lines are windowed whatever the budget (a CLI asks for no budget at all): say which applies.
  const why = Number.isFinite(options.chars)
    ? `was shortened to fit ${options.chars} characters`
    : "is shortened";
  out.warnings.push(
    `This result ${why}: ${notes.join("; ")}. ` +
      "Pass full_diff: true for whole diffs, or read narrower ranges (read_file start_line/start_column).",
  );
  return out;
}
