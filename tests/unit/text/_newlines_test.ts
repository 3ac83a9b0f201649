import assert from "node:assert/strict";
import { fixtureUrl } from "../../_helpers.ts";
import {
  appendLineStarts,
  countNewlines,
  fastNewlines,
  type Offsets,
  useFastNewlines,
} from "../../../src/text/_newlines.ts";
import { TextDoc } from "../../../src/text/_doc.ts";
import { matchBlockIn } from "../../../src/text/match_block.ts";
import { closestWindow } from "../../../src/text/did_you_mean.ts";
import { applyMatch } from "../../../src/text/apply_edit_ops.ts";

const fixtures: string[] = [];
for (const name of ["string.js", "idb-keyval.ts", "scanner.c", "typed_array_names.js", "binding.cc"]) {
  fixtures.push(await Deno.readTextFile(fixtureUrl("text", name)));
}
/** A large real text (the fixtures many times over, > 2 of the scanner's chunks), plus edge cases. */
const big = fixtures.join("").repeat(12);
const texts = [
  ...fixtures,
  big,
  big.replace(/\n/g, "\r\n"),
  big.slice(0, 70000) + "caf\u00e9 \u2192 \u201cq\u201d \ud83d\ude00\n" + big.slice(70000),
  "",
  "\n",
  "a",
  "a\n",
  "\n\n\nabc",
  "x".repeat(32767) + "\n" + "y".repeat(32768) + "\n\n" + "z".repeat(40000),
];

function plainStarts(text: string, from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) out.push(i + 1);
  return out;
}

Deno.test("the WebAssembly newline scanner is in use in Deno", () => {
  assert.ok(fastNewlines());
});

Deno.test("countNewlines and appendLineStarts give what an indexOf loop gives, on every range, fast or not", () => {
  for (const text of texts) {
    const n = text.length;
    const ranges = [[0, n], [1, n], [0, Math.floor(n / 2)], [Math.floor(n / 3), n], [32767, 65537], [n, n]];
    for (const [from, to] of ranges) {
      const a = Math.min(from!, n);
      const b = Math.min(to!, n);
      const want = plainStarts(text, a, b);
      for (const fast of [true, false]) {
        assert.equal(
          countNewlines(text, { from: a, to: b }, { fast }),
          want.length,
          `count ${a}-${b} of ${n}, fast ${fast}`,
        );
        const out: Offsets = { data: new Int32Array(1), length: 0 };
        appendLineStarts(text, { from: a, to: b, out }, { fast });
        assert.deepEqual(
          [...out.data.subarray(0, out.length)],
          want,
          `starts ${a}-${b} of ${n}, fast ${fast}`,
        );
      }
    }
  }
});

/** Every line and line number a document gives, and the ladder's answers on a few blocks of it. */
function observe(text: string): string {
  const doc = new TextDoc(text);
  const seen: unknown[] = [];
  // Line numbers first (counted, not listed), then lines in order, then every line number again.
  for (let o = text.length; o >= 0; o -= 997) seen.push(doc.lineAt(o));
  for (let i = 0; doc.hasLine(i); i++) seen.push(doc.line(i), doc.offsetOf(i));
  seen.push(doc.lineCount, doc.eol, doc.lineAt(text.length + 5));
  for (let o = 0; o <= text.length; o += 331) seen.push(doc.lineAt(o));
  const lines = text.split("\n");
  for (let s = 0; s + 4 < lines.length; s += Math.max(1, Math.floor(lines.length / 7))) {
    const search = lines.slice(s, s + 4).map((l) => l.replace(/\r$/, ""));
    const blocks = [
      { search, replace: [search[0]!, "x();", ...search.slice(1)], inputLine: 1 },
      { search: search.map((l) => "  " + l), replace: search.map((l) => "  " + l), inputLine: 1 },
      { search: [search[0]!, "", ...search.slice(1)], replace: search, inputLine: 1 },
      { search: search.map((l, i) => i % 2 ? l : "stale();"), replace: search, inputLine: 1 },
    ];
    for (const block of blocks) {
      const d = new TextDoc(text);
      const out = matchBlockIn(d, block);
      seen.push(out, out.ok ? applyMatch(d, out.match, block) : closestWindow(d, block.search));
    }
  }
  return JSON.stringify(seen);
}

Deno.test("TextDoc and the ladder answer the same with the scanner off", () => {
  for (const text of texts) {
    const fast = observe(text);
    useFastNewlines(false);
    try {
      assert.equal(observe(text), fast);
    } finally {
      useFastNewlines(true);
    }
  }
});
