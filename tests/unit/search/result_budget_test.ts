import assert from "node:assert/strict";
import { fitBudget, fits, jsonLengthAtMost, LINE_WINDOW } from "../../../src/search/result_budget.ts";
import type { LineMatch } from "../../../src/search/types.ts";

function line(path: string, n: number, text: string): LineMatch {
  return {
    path,
    line: n,
    column: 1,
    text,
    version: "v".repeat(64),
    submatches: [{
      column: 1,
      end_line: n,
      end_column: 2,
      text: text[0]!,
      id: `${path}:${n}:1@vvvvvvvvvvvv`,
    }],
    context_before: ["before"],
  };
}

Deno.test("result_budget: lines, then truncated lines, then counts per file, then fewer counts", () => {
  const small = [line("a.ts", 1, "x")];
  assert.equal(fitBudget({ kind: "content", matches: small }, 10_000).shortened, "none");
  const long = [line("a.ts", 1, "y".repeat(5000)), line("a.ts", 2, "z".repeat(5000)), line("b.ts", 1, "w")];
  const cut = fitBudget({ kind: "content", matches: long }, 2000);
  assert.equal(cut.shortened, "truncated_lines");
  assert.equal(cut.kept, 3);
  const m = (cut.entries as { matches: LineMatch[] }).matches;
  assert.ok(m[0]!.text.length <= LINE_WINDOW + 2 && m[0]!.context_before === undefined);
  const many = Array.from(
    { length: 200 },
    (_, i) => line(`f${Math.floor(i / 70)}.ts`, i + 1, "q".repeat(300)),
  );
  const counts = fitBudget({ kind: "content", matches: many }, 2000);
  assert.equal(counts.shortened, "counts");
  assert.deepEqual((counts.entries as { counts: { count: number }[] }).counts.map((c) => c.count), [
    70,
    70,
    60,
  ]);
  assert.equal(counts.kept, 200);
  const few = fitBudget({ kind: "content", matches: many }, 150);
  assert.equal(few.shortened, "counts");
  assert.equal(few.kept, 70); // one file's count fits: the next page starts after its lines
});

Deno.test("jsonLengthAtMost() bounds the JSON of search entries (escapes, numbers, nesting), so fits() can answer without writing it", () => {
  const entries = [
    {
      path: 'a\\b".ts',
      line: 12,
      column: -3.5e-300,
      text: "\u0001\u001f\ttab \u2028 é 😀",
      ok: true,
      none: null,
    },
    {
      metavariables: { A: { text: "x", line: 1 }, B: { text: "" } },
      parts: [[1, 2], [], {}],
      gone: undefined,
    },
    [],
    "",
  ];
  for (const e of [...entries, entries]) {
    assert.ok(jsonLengthAtMost(e) >= JSON.stringify(e).length, JSON.stringify(e));
  }
  const page = Array.from({ length: 50 }, (_, i) => ({ path: `f${i}.ts`, text: "\u0000".repeat(i) }));
  const exact = JSON.stringify(page).length;
  assert.equal(fits(page, exact), true);
  assert.equal(fits(page, exact - 1), false);
  assert.equal(fits(page, jsonLengthAtMost(page)), true);
});

Deno.test("fits() answers for a page whose JSON is longer than a string can be, entry by entry", () => {
  // 1,000 matches, each carrying its line of a minified file (1 MB): a gigabyte of JSON, past V8's longest
  // string, which JSON.stringify of the page threw on ("Invalid string length").
  const line = "x".repeat(1_000_000);
  const page = Array.from({ length: 1000 }, (_, i) => ({ line: i, lines: line }));
  assert.equal(fits(page, 50_000_000), false);
  assert.equal(fits(page.slice(0, 10), 50_000_000), true);
  const small = [{ a: "x" }, { a: "y" }];
  assert.equal(fits(small, JSON.stringify(small).length), true);
  assert.equal(fits(small, JSON.stringify(small).length - 1), false);
  assert.equal(fits([undefined, 1], JSON.stringify([undefined, 1]).length), true);
});
