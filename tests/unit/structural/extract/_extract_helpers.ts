/**
 * What the Go and Rust extraction tests share: a plan made on a one-file workspace (checked to re-parse), and
 * slices of programs and plans to compare.
 *
 * @module
 */
import assert from "node:assert/strict";
import { Stage } from "../../../../src/fs/stage.ts";
import { type ExtractPlan, planExtract } from "../../../../src/structural/extract/extract.ts";
import { assertReparses, workspaceOf } from "../../tools/_bindings_fixtures.ts";

/** The plan of extracting lines `start_line..end_line` of a one-file workspace as `name`, checked to re-parse. */
export async function extracted(
  path: string,
  text: string,
  start_line: number,
  end_line: number,
  name: string,
): Promise<ExtractPlan> {
  const ws = await workspaceOf({ [`/${path}`]: text });
  const plan = await planExtract(ws, new Stage(ws.fs, ws.sandbox), {
    path,
    range: { start_line, end_line },
    name,
    tool: "test",
  });
  await assertReparses(path.endsWith(".go") ? "go" : "rust", text, plan.text, path);
  return plan;
}

/** Lines `from..to` (1-based, inclusive) of a program: the statements moved as they were. */
export function linesOf(text: string, from: number, to: number): string[] {
  return text.split("\n").slice(from - 1, to);
}

/** The text between two markers of a plan (inclusive of the first, exclusive of the second). */
export function between(text: string, from: string, to: string): string {
  const a = text.indexOf(from);
  assert.ok(a >= 0, from);
  return text.slice(a, text.indexOf(to, a + from.length));
}
