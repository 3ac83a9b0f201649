/**
 * A tool result as compact text for a model: what MCP puts in a result's text content beside the full
 * result in `structuredContent`. Not a second copy of the JSON: the status and each changed file with its
 * lines and new version on one line, the warnings and reminders, then the diffs and the data's texts (file
 * content, an outline) as plain text, unescaped; a refusal is its code, message, hint and the suggested call
 * as JSON (the call to make next). The text holds at most `chars` characters: the small parts always, then
 * the diffs and data texts in order until the budget is spent, each cut one ending in a note that says how
 * much is left out and where the rest is.
 *
 * @module
 */
import type { ToolResult } from "../tools/types.ts";

/** Options of {@linkcode resultText}. */
export interface ResultTextOptions {
  /** The most characters the text holds. */
  chars: number;
}

/** A scalar of data shown on the line of scalars; a longer string is a block of its own. */
const INLINE_STRING = 200;

/** The lines of the new file a diff's hunks cover ("3–5, 40"), from their `@@ -a,b +c,d @@` headers. */
function hunkLines(diff: string): string {
  const spans: string[] = [];
  for (const m of diff.matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm)) {
    const start = Number(m[1]);
    const count = m[2] === undefined ? 1 : Number(m[2]);
    if (count === 0) spans.push(`after ${start}`);
    else spans.push(count === 1 ? `${start}` : `${start}–${start + count - 1}`);
  }
  return spans.join(", ");
}

function json(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}

/** The parts of a success: the lines that always fit, and the blocks (diffs, data texts) that may be cut. */
function successParts(result: Extract<ToolResult, { ok: true }>): { head: string[]; blocks: string[] } {
  const files = result.changes.length;
  const counted = files === 0
    ? ""
    : `, ${files} file${files === 1 ? "" : "s"} ${result.status === "dry_run" ? "would change" : "changed"}`;
  const head = [`${result.tool}: ${result.status}${counted}`];
  const blocks: string[] = [];
  for (const c of result.changes) {
    const what = c.before_version === null ? "created" : c.after_version === null ? "deleted" : "edited";
    const lines = c.diff && c.after_version !== null ? hunkLines(c.diff) : "";
    head.push(
      `${c.path}: ${what}${lines ? `, lines ${lines}` : ""}` +
        (c.after_version ? ` (version ${c.after_version})` : ""),
    );
    if (c.diff) blocks.push(c.diff.endsWith("\n") ? c.diff.slice(0, -1) : c.diff);
  }
  const scalars: string[] = [];
  for (const [key, value] of Object.entries(result.data ?? {})) {
    if (typeof value === "string" && (value.length > INLINE_STRING || value.includes("\n"))) {
      blocks.push(`${key}:\n${value}`);
    } else if (value === null || typeof value !== "object") scalars.push(`${key}: ${json(value)}`);
    else blocks.push(`${key}: ${json(value)}`);
  }
  if (scalars.length) head.push(scalars.join(" · "));
  for (const w of result.warnings) head.push(`warning: ${w}`);
  return { head, blocks };
}

/** The parts of a refusal: code, message, hint and the suggested call always; its details may be cut. */
function failureParts(result: Extract<ToolResult, { ok: false }>): { head: string[]; blocks: string[] } {
  const e = result.error;
  const head = [`${result.tool} refused (${e.code}): ${e.message}`, `hint: ${e.hint}`];
  if (e.suggested_call) head.push(`suggested_call: ${json(e.suggested_call)}`);
  head.push("Nothing was written.");
  return { head, blocks: e.details ? [`details: ${json(e.details)}`] : [] };
}

/** Cut `text` to `room` characters with a note of what was left out (nothing when it fits). */
function cut(text: string, room: number): string {
  if (text.length <= room) return text;
  const note = (left: number) =>
    `\n…[${left} more characters not shown here; the whole result is in structuredContent]`;
  const keep = Math.max(0, room - note(text.length).length);
  return text.slice(0, keep) + note(text.length - keep);
}

/**
 * Render a result as compact text for a model.
 *
 * @example An edit: status, the file with its lines and version, then the diff
 * ```ts
 * import assert from "node:assert/strict";
 * import { resultText } from "./result_text.ts";
 *
 * const text = resultText({
 *   ok: true, tool: "edit_file", status: "applied", warnings: [], reminders: [],
 *   changes: [{ path: "a.ts", before_version: "v1", after_version: "v2", diff: "@@ -2,1 +2,1 @@\n-a\n+b\n" }],
 *   data: { replaced: 1 },
 * }, { chars: 10_000 });
 * assert.equal(text, "edit_file: applied, 1 file changed\na.ts: edited, lines 2 (version v2)\nreplaced: 1\n\n@@ -2,1 +2,1 @@\n-a\n+b");
 * ```
 *
 * @param result A dispatch result.
 * @param options `chars`: the most characters of text.
 * @returns The text.
 */
export function resultText(result: ToolResult, options: ResultTextOptions): string {
  const { head, blocks } = result.ok ? successParts(result) : failureParts(result);
  for (const r of result.reminders) head.push(`reminder (${r.provider}): ${r.text}`);
  let text = cut(head.join("\n"), options.chars);
  for (const block of blocks) {
    const room = options.chars - text.length - 2;
    if (room < 200) {
      text += `\n\n…[${blocks.length - blocks.indexOf(block)} more part(s) in structuredContent]`;
      break;
    }
    text += `\n\n${cut(block, room)}`;
  }
  return text;
}
