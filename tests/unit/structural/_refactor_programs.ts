/**
 * Real programs for the refactor tests: jsdiff's UMD bundle (node_modules/diff/dist/diff.js, a pinned
 * dependency) and Python's textwrap module (/usr/lib/python3.11, Debian), with a small program for each
 * that prints what the library computes — run before and after an edit, the output must not change.
 *
 * @module
 */
import assert from "node:assert/strict";

export const DIFF_JS = Deno.readTextFileSync(
  new URL("../../../node_modules/diff/dist/diff.js", import.meta.url),
);
export const TEXTWRAP = Deno.readTextFileSync("/usr/lib/python3.11/textwrap.py");

/** The 1-based lines from the first line containing `needle`, `count` lines long. */
export function linesAt(
  text: string,
  needle: string,
  count: number,
): { start_line: number; end_line: number } {
  const i = text.indexOf(needle);
  assert.ok(i >= 0, `"${needle}" not found`);
  const start = text.slice(0, i).split("\n").length;
  return { start_line: start, end_line: start + count - 1 };
}

/** Run `program` with `file` (named `name`) in a fresh directory; its stdout. */
export async function run(cmd: string, args: string[], name: string, file: string): Promise<string> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/${name}`, file);
    const out = await new Deno.Command(cmd, { args, cwd: dir, stdout: "piped", stderr: "piped" }).output();
    const err = new TextDecoder().decode(out.stderr);
    assert.ok(out.success, `${cmd} failed: ${err}`);
    return new TextDecoder().decode(out.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const JS_PROGRAM = `
const d = require("./diff.js");
const a = "one\\ntwo\\nthree\\r\\nfour\\n", b = "one\\n2\\nthree\\nfour\\nfive\\n";
console.log(JSON.stringify(d.diffLines(a, b)));
console.log(JSON.stringify(d.diffLines(a, b, { stripTrailingCr: true, newlineIsToken: true })));
console.log(JSON.stringify(d.diffWords("the quick brown fox", "the slow brown dog")));
console.log(JSON.stringify(d.diffChars("kitten", "sitting")));
console.log(JSON.stringify(d.diffWords("a  b c  ", " a b  c d")));
console.log(JSON.stringify(d.diffWords("foo bar baz", "foo  qux baz ")));
const patch = d.createPatch("f.txt", a, b);
console.log(patch);
console.log(JSON.stringify(d.applyPatch(a, patch)));
console.log(JSON.stringify(d.parsePatch(patch)));
`;

const PY_PROGRAM = `
import tw
text = "The quick brown fox jumps over the lazy dog. " * 4
print(tw.wrap(text, 20))
print(tw.fill(text, width=31, initial_indent="> ", subsequent_indent="  "))
print(tw.shorten(text, 40))
print(tw.wrap("supercalifragilisticexpialidocious and more", 10))
print(tw.wrap("a  b   " * 5, 6, drop_whitespace=True, max_lines=2))
print(repr(tw.dedent("    a\\n      b\\n\\t\\n    c\\n")))
print(repr(tw.dedent("  x\\n\\ty\\n")))
print(repr(tw.indent("a\\n\\nb\\n", "# ")))
`;

/** jsdiff's output as shipped (computed once). */
let jsBefore: Promise<string> | null = null;
let pyBefore: Promise<string> | null = null;

/** Assert that jsdiff edited as `plan.text` prints what jsdiff as shipped prints. */
export async function sameJs(plan: { text: string }): Promise<void> {
  const args = ["-e", JS_PROGRAM];
  jsBefore ??= run("node", args, "diff.js", DIFF_JS);
  assert.equal(await run("node", args, "diff.js", plan.text), await jsBefore);
}

/** Assert that textwrap edited as `plan.text` prints what textwrap as shipped prints. */
export async function samePy(plan: { text: string }): Promise<void> {
  const args = ["-c", PY_PROGRAM];
  pyBefore ??= run("python3", args, "tw.py", TEXTWRAP);
  assert.equal(await run("python3", args, "tw.py", plan.text), await pyBefore);
}
