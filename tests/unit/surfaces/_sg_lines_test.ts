/**
 * `graver sg`'s match lines with `-A`/`-B`/`-C`: each line once, a multi-line match's further lines, `--`
 * between groups and between PATHs; the options' refusals; through the real CLI on a real file.
 */
import assert from "node:assert/strict";
import { contextArgs, matchLines, type PrintedMatch } from "../../../src/surfaces/_sg_lines.ts";
import { inProcess, project } from "./_cli.ts";

const plain = { cyan: (s: string) => s, green: (s: string) => s, bold: (s: string) => s } as never;

Deno.test("matchLines: without context one line a match line; with it, overlaps once and -- between groups", () => {
  const multi: PrintedMatch = { path: "a.js", line: 2, column: 3, text: "f(1,\n  2)" };
  assert.deepEqual(matchLines([multi, { path: "b.js", line: 1, column: 1, text: "g()" }], plain), [
    "a.js:2:3:f(1,",
    "a.js-3-  2)",
    "b.js:1:1:g()",
  ]);
  const withContext = (m: PrintedMatch, before: string[], after: string[]) => ({
    ...m,
    context_before: before,
    context_after: after,
  });
  assert.deepEqual(
    matchLines([
      withContext(multi, ["function x() {"], ["  return;"]),
      withContext({ path: "a.js", line: 4, column: 3, text: "return" }, ["  2)"], ["}"]),
      withContext({ path: "a.js", line: 9, column: 1, text: "h()" }, [""], []),
      withContext({ path: "b.js", line: 1, column: 1, text: "g()" }, [], ["x"]),
    ], plain),
    [
      "a.js-1-function x() {",
      "a.js:2:3:f(1,",
      "a.js-3-  2)",
      "a.js:4:3:return",
      "a.js-5-}",
      "--",
      "a.js-8-",
      "a.js:9:1:h()",
      "--",
      "b.js:1:1:g()",
      "b.js-2-x",
    ],
  );
  // A match inside another prints its own lines again (a reader of the lines finds each match whole).
  const outer: PrintedMatch = { path: "a.js", line: 1, column: 1, text: "return f(() => {\n  return 2;\n})" };
  const inner: PrintedMatch = { path: "a.js", line: 2, column: 3, text: "return 2" };
  assert.deepEqual(matchLines([outer, inner], plain), [
    "a.js:1:1:return f(() => {",
    "a.js-2-  return 2;",
    "a.js-3-})",
    "a.js:2:3:return 2",
  ]);
  const nested = [
    withContext(outer, [], ["x"]),
    withContext({ ...inner, text: "return 2;\n  y" }, [], ["})"]),
  ];
  assert.deepEqual(matchLines(nested, plain), [
    "a.js:1:1:return f(() => {",
    "a.js-2-  return 2;",
    "a.js-3-})",
    "a.js:2:3:return 2;",
    "a.js-3-  y",
    "a.js-4-})", // the line after both, once
  ]);
  // Two matches on one line: each prints its first line, the context after them once.
  const twice = [
    withContext({ path: "a.js", line: 1, column: 1, text: "f(1)" }, [], ["y"]),
    withContext({ path: "a.js", line: 1, column: 8, text: "f(2)" }, [], ["y"]),
  ];
  assert.deepEqual(matchLines(twice, plain), ["a.js:1:1:f(1)", "a.js:1:8:f(2)", "a.js-2-y"]);
});

Deno.test("contextArgs: whole numbers for a search printed as lines; refused with -r or --format", () => {
  assert.deepEqual(contextArgs({ context: "2", after: "0" }, { rewriting: false, astGrep: false }), {
    context: 2,
    context_after: 0,
  });
  assert.match(
    (contextArgs({ before: "x" }, { rewriting: false, astGrep: false }) as { problem: string }).problem,
    /"--before" takes a whole number of lines, not "x"/,
  );
  assert.match(
    (contextArgs({ context: "1" }, { rewriting: true, astGrep: false }) as { problem: string }).problem,
    /takes neither -r nor --format/,
  );
});

Deno.test("graver sg -C prints the lines around each match of a real file, as graver grep -C frames its lines", async () => {
  const dir = await project({ "src/string.js": "fixtures/text/string.js" });
  try {
    const run = await inProcess(["sg", "-p", "return $X", "-C", "1", "src"], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    const text = await Deno.readTextFile(`${dir}/src/string.js`);
    const fileLines = text.split("\n");
    const lines = run.stdout.split("\n").filter((l) => l !== "");
    const numbered = lines.filter((l) => l !== "--").map((l) => /^src\/string\.js[:-](\d+)[:-]/.exec(l)!);
    assert.ok(numbered.every((m) => m !== null), run.stdout);
    const numbers = numbered.map((m) => Number(m[1]));
    assert.deepEqual(numbers, [...new Set(numbers)].sort((a, b) => a - b), "each line once, in order");
    // Every context line is the file's own line.
    for (const l of lines.filter((l) => /^src\/string\.js-\d+-/.test(l))) {
      const [, n, t] = /^src\/string\.js-(\d+)-(.*)$/.exec(l)!;
      assert.equal(t, fileLines[Number(n) - 1], l);
    }
    const plainRun = await inProcess(["sg", "-p", "return $X", "src"], { cwd: dir });
    const firsts = (t: string) => t.split("\n").filter((l) => /^\S+:\d+:\d+:/.test(l));
    assert.deepEqual(firsts(run.stdout), firsts(plainRun.stdout), "the same matches");
    assert.ok(lines.length > firsts(plainRun.stdout).length + 3);
    assert.ok(lines.includes("--"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
