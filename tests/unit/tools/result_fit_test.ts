import assert from "node:assert/strict";
import { DIFF_CHARS, fitResult, shortenDiffLines } from "../../../src/tools/result_fit.ts";
import type { ToolResult } from "../../../src/tools/types.ts";

const success = (diff: string, data: Record<string, unknown> = {}): ToolResult => ({
  ok: true,
  tool: "edit_file",
  status: "applied",
  changes: [{ path: "a.txt", before_version: "1", after_version: "2", diff } as never],
  data,
  warnings: [],
  reminders: [],
});

Deno.test("shortenDiffLines() shows a long changed line around its change, and leaves short diffs alone", () => {
  assert.equal(shortenDiffLines("@@ -1 +1 @@\n-a\n+b\n"), null);
  const long = "y".repeat(3000);
  const short = shortenDiffLines(`@@ -1 +1 @@\n-${long}OLD${long}\n+${long}NEW${long}\n`)!;
  assert.match(short, /OLD/);
  assert.match(short, /NEW/);
  assert.ok(short.length < 1000);
});

Deno.test("fitResult() keeps a result within budget as it is, and shortens a big diff with a warning saying how", () => {
  const small = success("@@ -1 +1 @@\n-a\n+b\n");
  assert.equal(fitResult(small, { chars: 100_000, fullDiff: false }), small);
  const lines = Array.from({ length: 4000 }, (_, i) => `+line ${i}`).join("\n");
  assert.ok(lines.length > DIFF_CHARS);
  const big = success(`@@ -0,0 +1,4000 @@\n${lines}\n`);
  const fitted = fitResult(big, { chars: 10_000, fullDiff: false });
  assert.ok(fitted.ok);
  assert.match(
    fitted.changes[0]!.diff!,
    /^\[diff of \d+ characters left out to fit the result: \+4000 −0 lines/,
  );
  assert.match(fitted.warnings[0]!, /shortened to fit 10000 characters/);
  assert.equal(big.ok && big.changes[0]!.diff!.length > DIFF_CHARS, true, "the input is not changed");
  // asked for whole diffs, the diff stays whole (nothing else in it can be cut)
  assert.equal(fitResult(big, { chars: 10_000, fullDiff: true }), big);
});

Deno.test("fitResult() cuts the longest texts of data last, and passes refusals through", () => {
  const result = success("", { content: "z".repeat(50_000), path: "a.txt" });
  const fitted = fitResult(result, { chars: 5_000, fullDiff: false });
  assert.ok(fitted.ok);
  assert.match(fitted.data["content"] as string, /…\[\d+ characters cut to fit the result\]$/);
  assert.equal(fitted.data["path"], "a.txt");
  const refusal: ToolResult = {
    ok: false,
    tool: "t",
    error: { code: "not_found", message: "x".repeat(50_000), hint: "" } as never,
    reminders: [],
  };
  assert.equal(fitResult(refusal, { chars: 10, fullDiff: false }), refusal);
});

Deno.test("fitResult() with no budget still windows a long changed line, and does not name a budget it lacks", () => {
  const long = "y".repeat(DIFF_CHARS);
  const fitted = fitResult(success(`@@ -1 +1 @@\n-${long}OLD${long}\n+${long}NEW${long}\n`), {
    chars: Infinity,
    fullDiff: false,
  });
  assert.ok(fitted.ok);
  assert.match(fitted.warnings[0]!, /^This result is shortened: long lines of the diff of "a\.txt"/);
  assert.doesNotMatch(fitted.warnings[0]!, /Infinity/);
});
