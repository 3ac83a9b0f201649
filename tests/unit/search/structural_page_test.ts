/**
 * A structural search's page: entries with lines and columns found by bisection in the text's line starts
 * (checked against a count of line ends on real matches), metavariable ranges, ids, and the budget.
 */
import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { LineStarts } from "../../../src/search/matched_lines.ts";
import { normalizeStructuralArgs } from "../../../src/search/structural_args.ts";
import { finish, matchEntries } from "../../../src/search/structural_page.ts";
import { patternMatcherOf } from "../../../src/structural/search/mod.ts";

const HONO = new URL("../../../node_modules/hono/dist/", import.meta.url);
const VERSION = "a".repeat(64);

/** Line and 1-based column of `offset`, by counting line ends from the start. */
function counted(text: string, offset: number): [number, number] {
  const before = text.slice(0, offset);
  return [before.split("\n").length, offset - (before.lastIndexOf("\n") + 1) + 1];
}

Deno.test("entries of many matches (multi-line ones and their metavariables) are where a count of line ends puts them", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
  for (const name of ["hono-base.js", "context.js"]) {
    const text = await Deno.readTextFile(new URL(name, HONO));
    const program = await patternMatcherOf(ws).compile("javascript", { pattern: "return $X" });
    const hits = await program.match({ path: name, text, version: VERSION });
    assert.ok(hits.length > 10, `${name}: ${hits.length} matches`);
    const found = {
      path: name,
      language: "javascript",
      text,
      version: VERSION,
      hits,
      lines: new LineStarts(text),
    };
    const entries = matchEntries(found, { from: 0, to: hits.length });
    entries.forEach((m, i) => {
      const hit = hits[i]!;
      assert.deepEqual([m.line, m.column], counted(text, hit.start));
      assert.deepEqual([m.end_line, m.end_column], counted(text, hit.end));
      const x = m.metavariables["X"]!;
      assert.deepEqual([x.line, x.column], counted(text, hit.metavariables["X"]!.start));
      assert.deepEqual([x.end_line, x.end_column], counted(text, hit.metavariables["X"]!.end));
      assert.equal(m.text, text.slice(hit.start, hit.end));
      assert.equal(m.id, `${name}:${m.line}:${m.column}@${VERSION.slice(0, 12)}`);
    });
    // A later part of the page alone: positions do not depend on where the page starts.
    assert.deepEqual(matchEntries(found, { from: 10, to: 12 }), entries.slice(10, 12));
  }
});

Deno.test("a metavariable bound before the match's start (a rule's `inside`) and one that bound nothing", () => {
  const text = "f(a) {\n  g(\n    b);\n}\n";
  const hit = {
    start: 9,
    end: 17,
    metavariables: { OUT: { start: 0, end: 4, text: "f(a)" }, REST: { start: -1, end: -1, text: "" } },
  };
  const [m] = matchEntries({
    path: "a.js",
    language: "javascript",
    text,
    version: VERSION,
    hits: [hit],
    lines: new LineStarts(text),
  }, {
    from: 0,
    to: 1,
  });
  assert.deepEqual([m!.line, m!.column, m!.end_line, m!.end_column], [2, 3, 3, 6]);
  assert.deepEqual(m!.metavariables["OUT"], { text: "f(a)", line: 1, column: 1, end_line: 1, end_column: 5 });
  assert.deepEqual(m!.metavariables["REST"], { text: "" });
});

Deno.test("a page over its budget is cut to texts of 200 characters, then to counts per file", () => {
  const text = `x(${"y".repeat(5000)});\n`;
  const hit = { start: 0, end: text.length - 2, metavariables: {} };
  const found = {
    path: "a.js",
    language: "javascript",
    text,
    version: VERSION,
    hits: [hit, hit],
    lines: new LineStarts(text),
  };
  const page = matchEntries(found, { from: 0, to: 2 });
  const stats = {
    scanned: 1,
    parsed: 1,
    matched: 1,
    skipped: { ignored: 0, binary: 0, too_large: 0, unreadable: 0 },
    refused: new Map(),
    overParseLimit: 0,
  };
  const at = (max_chars: number) =>
    finish({
      query: normalizeStructuralArgs({ pattern: "x($A)", max_chars }),
      page,
      truncated: false,
      started: 0,
      stats,
    });
  assert.equal(at(1e6).summary.shortened, "none");
  const short = at(2000);
  assert.equal(short.summary.shortened, "truncated_text");
  assert.equal(short.matches![0]!.text.length, 201);
  const counts = at(150);
  assert.equal(counts.summary.shortened, "counts");
  assert.deepEqual(counts.counts, [{ path: "a.js", count: 2, version: VERSION }]);
});
