import assert from "node:assert/strict";
import { compileTextPattern } from "../../../src/search/text_pattern.ts";
import { scanText, scanTextFor } from "../../../src/search/text_scan.ts";
import { matchedLines } from "../../../src/search/matched_lines.ts";

const base = { literal: false, ignoreCase: false, smartCase: false, word: false, multiline: false };

/** The matched texts. */
async function found(pattern: string, text: string, flags: Partial<typeof base> = {}): Promise<string[]> {
  const hits = scanText(await compileTextPattern({ ...base, ...flags, pattern }), text);
  const out: string[] = [];
  for (let k = 0; k < hits.length; k += 2) out.push(text.slice(hits[k], hits[k + 1]));
  return out;
}

Deno.test("text_scan: a match never runs across a line end unless multiline", async () => {
  assert.deepEqual(await found("a\\s+b", "a\nb\na  b\n"), ["a  b"]);
  // The whole-text match would be "x\ny"; the line alone still has "x" matching `x\s*`.
  assert.deepEqual(await found("x\\s*", "x\ny"), ["x"]);
  assert.deepEqual(await found("[^q]+", "ab\ncd"), ["ab", "cd"]);
  assert.deepEqual(await found("a\\s+b", "a\nb\n", { multiline: true }), ["a\nb"]);
  assert.deepEqual(await found("^b", "ab\nb\n"), ["b"]);
});

Deno.test("text_scan: the prefilter finds candidates; the program decides", async () => {
  assert.deepEqual(await found("new\\s+Error\\(", "Error(\nnew  Error(x)\n"), ["new  Error("]);
  assert.deepEqual(await found("TODO|FIXME", "a TODO\nb\nFIXME c TODO\n"), ["TODO", "FIXME", "TODO"]);
  assert.deepEqual(await found("needle", "NEEDLE Needle", { ignoreCase: true }), ["NEEDLE", "Needle"]);
  // RE2 folds "ſ" (long s) with "s", and so does the case-folded prefilter.
  assert.deepEqual(await found("sun", "ſun", { ignoreCase: true }), ["ſun"]);
});

Deno.test("text_scan: whole words, side by side and at line edges", async () => {
  assert.deepEqual(await found("foo", "foo foo,foox xfoo foo", { word: true }), ["foo", "foo", "foo"]);
  assert.deepEqual(await found("foo", "foo\nfoo", { word: true, literal: true }), ["foo", "foo"]);
});

Deno.test("text_scan: a fixed string's hits are its matches; an empty pattern matches every line", async () => {
  assert.deepEqual(await found("a.b", "a.b axb a.b", { literal: true }), ["a.b", "a.b"]);
  const text = "x\ny";
  const lines = matchedLines(text, scanText(await compileTextPattern({ ...base, pattern: "" }), text));
  assert.deepEqual(lines.map((l) => l.line), [1, 2]);
});

Deno.test("text_scan: a pattern without a literal is still linear (no backtracking blow-up)", async () => {
  const text = "a".repeat(20_000);
  assert.deepEqual(await found("^(a|aa)+c$", text), []);
});

Deno.test("text_scan: a case-folded fixed string takes the prefilter's hits as its matches, as the program finds them", async () => {
  // A minified bundle's one long line (rxjs's UMD bundle from npm), with case variants, the Kelvin sign and
  // the long s added around it.
  const bundle = Deno.readTextFileSync(
    new URL("../../../node_modules/rxjs/dist/bundles/rxjs.umd.min.js", import.meta.url),
  );
  const text = `Subscriber SUBSCRIBER \u212Aey key ſubscriber\n${bundle}\nsubScriber\n`;
  const cases: [string, Partial<typeof base>][] = [
    ["subscriber", { ignoreCase: true }],
    ["Subscriber", { ignoreCase: true, literal: true }],
    ["subscriber", { smartCase: true }],
    ["key", { ignoreCase: true }],
    ["PROTOTYPE.next", { ignoreCase: true, literal: true }],
  ];
  for (const [pattern, flags] of cases) {
    const p = await compileTextPattern({ ...base, ...flags, pattern }, { program: true });
    assert.equal(p.foldedPlain, pattern, pattern);
    const groups: (string | null)[][] = [];
    const fast = scanText(p, text, groups);
    const programGroups: (string | null)[][] = [];
    const program = scanText({ ...p, foldedPlain: null }, text, programGroups);
    assert.ok(fast.length > 2, pattern);
    assert.deepEqual(fast, program, pattern);
    assert.deepEqual(groups, programGroups, pattern);
  }
  assert.deepEqual(await found("key", text.slice(0, 40), { ignoreCase: true }), ["\u212Aey", "key"]);
  // Not a fixed string of ASCII, or in word mode: the program decides.
  for (
    const [pattern, flags] of [
      ["sub.criber", { ignoreCase: true }],
      ["subscriber", { ignoreCase: true, word: true }],
      ["ſubscriber", { ignoreCase: true, literal: true }],
      ["subscriber", {}],
    ] as [string, Partial<typeof base>][]
  ) {
    assert.equal((await compileTextPattern({ ...base, ...flags, pattern })).foldedPlain, null, pattern);
  }
});

Deno.test("text_scan: the first match of each line, and of the file, are those of the whole scan", async () => {
  const text = [
    "foo foo foo",
    "x = foo(bar, foo)",
    "",
    "nothing here",
    "FOO and Foo",
    "a\tb  foo",
    "foo",
    "multi a",
    "b line a",
    "  b",
    "end foo",
  ].join("\n");
  const cases: [string, Partial<typeof base>][] = [
    ["foo", { literal: true }],
    ["foo", { ignoreCase: true }],
    ["f[o]+", {}],
    ["foo", { word: true }],
    ["", {}],
    ["a\\s+b", { multiline: true }],
    ["a\\s+b", {}],
    ["x\\s*", {}],
    ["[^q]+", {}],
    ["(?m)^", {}],
  ];
  for (const [pattern, flags] of cases) {
    const p = await compileTextPattern({ ...base, ...flags, pattern });
    const all = scanText(p, text);
    // The first match of each line a match starts on, from the whole scan.
    const firsts: number[] = [];
    for (const l of matchedLines(text, all)) firsts.push(l.spans[0]!, l.spans[1]!);
    assert.deepEqual(scanTextFor(p, text, "line"), firsts, `${pattern} ${JSON.stringify(flags)}: each line`);
    assert.deepEqual(scanTextFor(p, text, "file"), all.slice(0, 2), `${pattern}: the file`);
  }
});
