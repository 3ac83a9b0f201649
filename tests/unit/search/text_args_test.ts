import assert from "node:assert/strict";
import {
  cursorFor,
  DEFAULT_MAX_RESULTS,
  MAX_RESULTS_UNLIMITED,
  normalizeSearchTextArgs,
} from "../../../src/search/text_args.ts";

Deno.test("text_args: Claude Code's Grep arguments fold into graver's", () => {
  const q = normalizeSearchTextArgs({
    pattern: "x",
    "-i": true,
    "-n": true,
    "-A": 1,
    "-B": 2,
    head_limit: 7,
    offset: 3,
    output_mode: "count",
    glob: "*.{ts,tsx}",
    type: "ts",
    multiline: true,
  });
  assert.equal(q.ignoreCase, true);
  assert.equal(q.contextAfter, 1);
  assert.equal(q.contextBefore, 2);
  assert.equal(q.maxResults, 7);
  assert.equal(q.offset, 3);
  assert.equal(q.outputMode, "count");
  assert.deepEqual(q.globs, ["*.{ts,tsx}"]);
  assert.deepEqual(q.types, ["ts"]);
  assert.equal(q.multiline, true);
});

Deno.test("text_args: Serena's search_for_pattern arguments fold into graver's", () => {
  const q = normalizeSearchTextArgs({
    substring_pattern: "def \\w+",
    relative_path: "./src/",
    paths_include_glob: "**/*.py",
    paths_exclude_glob: "**/test_*",
    context_lines_before: 1,
    context_lines_after: 4,
    max_answer_chars: 500,
  });
  assert.equal(q.pattern, "def \\w+");
  assert.equal(q.scope.path, "src");
  assert.deepEqual(q.globs, ["**/*.py", "!**/test_*"]);
  assert.equal(q.contextBefore, 1);
  assert.equal(q.contextAfter, 4);
  assert.equal(q.maxChars, 500);
});

Deno.test("text_args: -C sets both sides; -l and -c choose the output; defaults", () => {
  const q = normalizeSearchTextArgs({ pattern: "x", "-C": 3, "-l": true });
  assert.equal(q.contextBefore, 3);
  assert.equal(q.contextAfter, 3);
  assert.equal(q.outputMode, "files_with_matches");
  const d = normalizeSearchTextArgs({ pattern: "x", path: "." });
  assert.equal(d.maxResults, DEFAULT_MAX_RESULTS);
  assert.equal(d.outputMode, "content");
  assert.equal(d.scope.path, "");
  assert.equal(normalizeSearchTextArgs({ pattern: "x", path: ".github" }).scope.path, ".github");
});

Deno.test("text_args: refusals name the argument and what to pass", () => {
  assert.throws(() => normalizeSearchTextArgs({}), {
    code: "invalid_args",
    message: /"pattern" is required/,
  });
  assert.throws(() => normalizeSearchTextArgs({ pattern: "x", colour: true }), {
    code: "invalid_args",
    message: /unknown argument "colour"/,
  });
  assert.throws(() => normalizeSearchTextArgs({ pattern: "x", "-A": -1 }), { message: /whole number/ });
  assert.throws(() => normalizeSearchTextArgs({ pattern: "x", "-i": true, ignore_case: false }), {
    message: /say different things/,
  });
  assert.throws(() => normalizeSearchTextArgs({ pattern: "a\nb" }), { hint: /"multiline": true/ });
});

Deno.test("text_args: a cursor reads back its offset, and only for the same search", () => {
  const q = normalizeSearchTextArgs({ pattern: "x", glob: "*.ts" });
  const cursor = cursorFor(q, 40);
  assert.equal(normalizeSearchTextArgs({ pattern: "x", glob: "*.ts", cursor }).offset, 40);
  assert.throws(() => normalizeSearchTextArgs({ pattern: "y", glob: "*.ts", cursor }), {
    code: "invalid_args",
    message: /does not belong to this search/,
  });
});

Deno.test("text_args: max_results 0 (Claude Code's head_limit 0) is no limit but the budget, not a page of one", () => {
  assert.equal(normalizeSearchTextArgs({ pattern: "x", head_limit: 0 }).maxResults, MAX_RESULTS_UNLIMITED);
  assert.equal(normalizeSearchTextArgs({ pattern: "x", max_results: 0 }).maxResults, MAX_RESULTS_UNLIMITED);
  assert.equal(normalizeSearchTextArgs({ pattern: "x", max_results: 1 }).maxResults, 1);
  assert.equal(normalizeSearchTextArgs({ pattern: "x" }).maxResults, DEFAULT_MAX_RESULTS);
});
