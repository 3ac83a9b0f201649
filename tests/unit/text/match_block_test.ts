import assert from "node:assert/strict";
import { fixtureUrl } from "../../_helpers.ts";
import { applyMatch } from "../../../src/text/apply_edit_ops.ts";
import { TextDoc } from "../../../src/text/_doc.ts";
import { isElision, matchBlock, matchBlockIn, type MatchOutcome } from "../../../src/text/match_block.ts";
import type { EditBlock, MatchTier } from "../../../src/text/types.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { createWorkspace } from "../../../src/workspace.ts";

const files: Record<string, string> = {};
for (const name of ["string.js", "idb-keyval.ts", "scanner.c", "typed_array_names.js", "binding.cc"]) {
  files[name] = await Deno.readTextFile(fixtureUrl("text", name));
}

/** Lines a..b (1-based, inclusive) of a fixture, without endings. */
function slice(file: string, a: number, b: number): string[] {
  return files[file]!.split("\n").slice(a - 1, b);
}

/** The fixture with lines a..b replaced. */
function replaced(file: string, a: number, b: number, lines: string[]): string {
  const all = files[file]!.split("\n");
  all.splice(a - 1, b - a + 1, ...lines);
  return all.join("\n");
}

interface Case {
  name: string;
  file: string;
  /** The lines the model means (1-based inclusive) and how it wrote them. */
  at: [number, number];
  search: (lines: string[]) => string[];
  /** The replacement as the model writes it, from the original lines. */
  replace: (lines: string[]) => string[];
  /** The lines that should land in the file. */
  intended: (lines: string[]) => string[];
  tier: MatchTier;
  hint?: number;
}

const same = (l: string[]) => l;
const indentBy = (n: number) => (l: string[]) => l.map((x) => x.trim() === "" ? x : " ".repeat(n) + x);
const dedent = (n: number) => (l: string[]) =>
  l.map((x) => x.slice(Math.min(n, x.length - x.trimStart().length)));
const tabsToSpaces = (l: string[]) => l.map((x) => x.replace(/^\t+/, (t) => "    ".repeat(t.length)));
const changeLast = (l: string[]) => [...l.slice(0, -1), l[l.length - 1]!.replace(/(\S)/, "/* changed */ $1")];

const CASES: Case[] = [
  {
    name: "exact (JavaScript)",
    file: "string.js",
    at: [4, 6],
    search: same,
    replace: changeLast,
    intended: changeLast,
    tier: "exact",
  },
  {
    name: "trailing whitespace (C)",
    file: "scanner.c",
    at: [28, 31],
    search: (l) => l.map((x) => x + "  "),
    replace: (l) => changeLast(l.map((x) => x + "  ")),
    intended: (l) => changeLast(l).map((x, i, a) => i === a.length - 1 ? x + "  " : x),
    tier: "trailing_whitespace",
  },
  {
    name: "indentation removed (JavaScript, 4 spaces)",
    file: "string.js",
    at: [18, 22],
    search: dedent(4),
    replace: (l) => [...dedent(4)(l), "    // added"],
    intended: (l) => [...l, "        // added"],
    tier: "indentation",
  },
  {
    name: "indentation added (TypeScript, 2 spaces)",
    file: "idb-keyval.ts",
    at: [31, 34],
    search: indentBy(2),
    replace: (l) => [...indentBy(2)(l), "        done();"],
    intended: (l) => [...l, "      done();"],
    tier: "indentation",
  },
  {
    name: "tabs written as spaces (tab-indented JavaScript)",
    file: "typed_array_names.js",
    at: [5, 7],
    search: tabsToSpaces,
    replace: (l) => [...tabsToSpaces(l), "    'Float128Array',"],
    intended: (l) => [...l, "\t'Float128Array',"],
    tier: "indentation",
  },
  {
    name: "4-space code written with 2 spaces (JavaScript)",
    file: "string.js",
    at: [18, 22],
    search: (l) => l.map((x) => x.replace(/^( +)/, (m) => " ".repeat(m.length / 2))),
    replace: (l) => [...l.map((x) => x.replace(/^( +)/, (m) => " ".repeat(m.length / 2))), "    // added"],
    intended: (l) => [...l, "        // added"],
    tier: "indentation",
  },
  {
    name: "missing blank line (C)",
    file: "scanner.c",
    at: [29, 35],
    search: (l) => l.filter((x) => x.trim() !== ""),
    replace: (l) => changeLast(l.filter((x) => x.trim() !== "")),
    intended: (l) => changeLast(l.filter((x) => x.trim() !== "")),
    tier: "blank_lines",
  },
  {
    name: "spurious leading and trailing blank lines (TypeScript)",
    file: "idb-keyval.ts",
    at: [55, 58],
    search: (l) => ["", ...l, ""],
    replace: (l) => ["", ...changeLast(l), ""],
    intended: changeLast,
    tier: "blank_lines",
  },
  {
    name: "elided middle (C)",
    file: "scanner.c",
    at: [28, 57],
    search: (l) => [...l.slice(0, 3), "        // ... existing code ...", ...l.slice(-3)],
    replace: (l) => [...changeLast(l.slice(0, 3)), "        // ... existing code ...", ...l.slice(-3)],
    intended: (l) => [...changeLast(l.slice(0, 3)), ...l.slice(3)],
    tier: "elision",
  },
  {
    name: "smart quotes (JavaScript)",
    file: "string.js",
    at: [15, 17],
    search: (l) => l.map((x) => x.replace(/''/g, "\u2018\u2019")),
    replace: (l) => l.map((x) => x.replace(/''/g, "\u2018\u2019").replace("return", "return /* empty */")),
    intended: (l) => l.map((x) => x.replace("return", "return /* empty */")),
    tier: "unicode",
  },
  {
    name: "line numbers copied from read_file (TypeScript)",
    file: "idb-keyval.ts",
    at: [54, 58],
    search: (l) => l.map((x, i) => `${String(54 + i).padStart(3)}\t${x}`),
    replace: (l) => changeLast(l),
    intended: changeLast,
    tier: "line_numbers",
  },
  {
    name: "line numbers with a bar (C++)",
    file: "binding.cc",
    at: [1, 3],
    search: (l) => l.map((x, i) => `${1 + i} | ${x}`),
    replace: (l) => l.map((x, i) => `${1 + i} | ${x}`),
    intended: same,
    tier: "line_numbers",
  },
  {
    name: "one-token typo (C)",
    file: "scanner.c",
    at: [42, 50],
    search: (l) => l.map((x) => x.replace("advance(lexer);", "advanse(lexer);")),
    replace: (l) => changeLast(l.map((x) => x.replace("advance(lexer);", "advanse(lexer);"))),
    intended: (l) => changeLast(l),
    tier: "fuzzy",
  },
];

for (const c of CASES) {
  Deno.test(`matchBlock() places a block by tier "${c.tier}": ${c.name}`, () => {
    const lines = slice(c.file, c.at[0], c.at[1]);
    const block: EditBlock = { search: c.search(lines), replace: c.replace(lines), inputLine: 1 };
    if (c.hint !== undefined) block.lineHint = c.hint;
    const doc = new TextDoc(files[c.file]!);
    const out = matchBlockIn(doc, block, c.tier === "fuzzy" ? { fuzzy: true } : {});
    assert.ok(out.ok, `expected a match, got ${JSON.stringify(out)}`);
    assert.equal(out.match.tier, c.tier);
    assert.equal(out.match.start + 1, c.at[0]);
    assert.equal(out.match.end, c.at[1]);
    assert.equal(out.match.confidence, c.tier === "fuzzy" ? "low" : out.match.confidence);
    assert.equal(applyMatch(doc, out.match, block), replaced(c.file, c.at[0], c.at[1], c.intended(lines)));
  });
}

function failure(out: MatchOutcome): Exclude<MatchOutcome, { ok: true }> {
  assert.ok(!out.ok, `expected a refusal, got ${JSON.stringify(out)}`);
  return out;
}

Deno.test("matchBlock() refuses text present twice as ambiguous, listing both places", () => {
  const out = failure(
    matchBlock(files["string.js"]!, { search: ["    let i;"], replace: ["    let j;"], inputLine: 1 }),
  );
  assert.equal(out.code, "ambiguous");
  assert.deepEqual(out.candidates.map((c) => c.start_line), [2, 11, 155]);
});

Deno.test("matchBlock() lets a line hint pick one of several matches", () => {
  const out = matchBlock(files["string.js"]!, {
    search: ["    let i;"],
    replace: ["    let j;"],
    inputLine: 1,
    lineHint: 12,
  });
  assert.ok(out.ok);
  assert.equal(out.match.start + 1, 11);
});

Deno.test("matchBlock() keeps refusing when the line hint is far from every candidate", () => {
  const out = failure(
    matchBlock(files["string.js"]!, {
      search: ["    let i;"],
      replace: ["    let j;"],
      inputLine: 1,
      lineHint: 80,
    }),
  );
  assert.equal(out.code, "ambiguous");
});

Deno.test("matchBlock() refuses ambiguity at the indentation tier too", () => {
  const text = "a() {\n  x = 1;\n}\nb() {\n    x = 1;\n}\n";
  const out = failure(matchBlock(text, { search: ["x = 1;"], replace: ["x = 2;"], inputLine: 1 }));
  assert.equal(out.code, "ambiguous");
  assert.equal(out.tier, "indentation");
  assert.deepEqual(out.candidates, [{ start_line: 2, end_line: 2 }, { start_line: 5, end_line: 5 }]);
});

Deno.test("matchBlock() reports text absent from the file as no_match", () => {
  const search = slice("idb-keyval.ts", 28, 35);
  const out = failure(matchBlock(files["scanner.c"]!, { search, replace: ["x"], inputLine: 1 }));
  assert.equal(out.code, "no_match");
});

Deno.test("matchBlock() reports already_applied when the REPLACE text is there", () => {
  const lines = slice("string.js", 4, 6);
  const out = failure(
    matchBlock(files["string.js"]!, { search: ["nothing like this();"], replace: lines, inputLine: 1 }),
  );
  assert.equal(out.code, "already_applied");
  assert.deepEqual(out.candidates, [{ start_line: 4, end_line: 6 }]);
});

Deno.test("matchBlock() reports already_applied for an insertion that is already there", () => {
  const text = "a();\nb();\nc();\n";
  const out = failure(matchBlock(text, { search: ["a();"], replace: ["a();", "b();"], inputLine: 1 }));
  assert.equal(out.code, "already_applied");
});

Deno.test("matchBlock() refuses an elided SEARCH whose REPLACE drops the elision", () => {
  const lines = slice("scanner.c", 28, 57);
  const out = failure(
    matchBlock(files["scanner.c"]!, {
      search: [...lines.slice(0, 2), "// ...", ...lines.slice(-2)],
      replace: ["x"],
      inputLine: 1,
    }),
  );
  assert.equal(out.code, "no_match");
  assert.match(out.reason ?? "", /elides/);
});

Deno.test("matchBlock() does not place a single drifted line fuzzily", () => {
  const out = failure(
    matchBlock(files["string.js"]!, {
      search: ["    retrun str1.slice(0, i);"],
      replace: ["x"],
      inputLine: 1,
    }),
  );
  assert.equal(out.code, "no_match");
});

Deno.test("matchBlock() honours *** End of File and @@ anchors", () => {
  const text = "def a():\n    return 1\n\ndef b():\n    return 1\n";
  const end = matchBlock(text, {
    search: ["    return 1"],
    replace: ["    return 2"],
    inputLine: 1,
    atEnd: true,
  });
  assert.ok(end.ok);
  assert.equal(end.match.start + 1, 5);
  const anchored = matchBlock(text, {
    search: ["    return 1"],
    replace: ["    return 2"],
    inputLine: 1,
    anchors: ["def a():"],
  });
  assert.ok(anchored.ok);
  assert.equal(anchored.match.start + 1, 2);
});

Deno.test("isElision() recognises elision comments but not code", () => {
  for (const s of ["...", "// ... existing code ...", "# ...", "/* ... */", "  // …", "<!-- ... -->"]) {
    assert.ok(isElision(s), s);
  }
  for (const s of ["...args", "foo(...)", "return ...;", "// TODO"]) assert.ok(!isElision(s), s);
});

const BOM = [0xef, 0xbb, 0xbf];

for (const c of CASES) {
  Deno.test(`apply_edits lands tier "${c.tier}" on a CRLF file with a BOM: ${c.name}`, async () => {
    const lines = slice(c.file, c.at[0], c.at[1]);
    const crlf = (s: string) => s.replace(/\n/g, "\r\n");
    const bytes = new Uint8Array([...BOM, ...new TextEncoder().encode(crlf(files[c.file]!))]);
    const ws = await createWorkspace({
      backend: createMemoryBackend({ [`/${c.file}`]: bytes as unknown as string }),
    });
    const text = `${c.file}\n<<<<<<< SEARCH\n${c.search(lines).join("\n")}\n=======\n${
      c.replace(lines).join("\n")
    }\n>>>>>>> REPLACE\n`;
    const res = await ws.call("apply_edits", c.tier === "fuzzy" ? { text, fuzzy: true } : { text });
    assert.ok(res.ok, JSON.stringify(res));
    assert.equal((res.data["blocks"] as { tier: string }[])[0]!.tier, c.tier);
    const want = new Uint8Array([
      ...BOM,
      ...new TextEncoder().encode(crlf(replaced(c.file, c.at[0], c.at[1], c.intended(lines)))),
    ]);
    assert.deepEqual((await ws.fs.read(`/${c.file}`))!, want);
  });
}

Deno.test("matchBlock() refuses a typo'd block whose text is present twice, and places it when one copy differs more", () => {
  const block = slice("scanner.c", 42, 50);
  const typo = block.map((l) => l.replace("advance(lexer);", "advanse(lexer);"));
  const twice = [...block, "", ...block].join("\n") + "\n";
  const out = failure(matchBlock(twice, { search: typo, replace: typo, inputLine: 1 }, { fuzzy: true }));
  assert.equal(out.code, "ambiguous");
  assert.equal(out.tier, "fuzzy");
  const variant = block.map((l) => l.replace("return false;", "return true;"));
  const near = [...variant, "", ...block].join("\n") + "\n";
  const placed = matchBlock(near, { search: typo, replace: typo, inputLine: 1 }, { fuzzy: true });
  assert.ok(placed.ok, JSON.stringify(placed));
  assert.equal(placed.match.start, block.length + 1);
  assert.equal(placed.match.confidence, "low");
});

Deno.test("a SEARCH whose first line lost its indentation matches at the indentation tier, with high confidence", async () => {
  // Real: hono's context.d.ts, two members with the same doc comment; the model's selection started at `/**`.
  const text = await Deno.readTextFile(fixtureUrl("symbols", "context.d.ts"));
  const ws = await createWorkspace({ backend: createMemoryBackend({ "/c.d.ts": text }) });
  const search = "/**\n   * For compatibility with Wrangler 4.x.\n   */\n  props: any;";
  const replace = "/**\n   * For compatibility with Wrangler 4.x and later.\n   */\n  props: unknown;";
  const res = await ws.call("apply_edits", {
    text: `c.d.ts\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n`,
  });
  assert.ok(res.ok, JSON.stringify(res));
  const block = (res.data["blocks"] as { tier: string; confidence: string }[])[0]!;
  assert.equal(block.tier, "indentation");
  assert.equal(block.confidence, "high");
  const after = new TextDecoder().decode((await ws.fs.read("/c.d.ts"))!);
  assert.equal(after, text.replace(`  ${search}`, `  ${replace}`));
});

Deno.test("a SEARCH/REPLACE block whose text holds a ======= line is read the way the file matches", async () => {
  const apply = async (file: string, text: string, edit: string) => {
    const ws = await createWorkspace({ backend: createMemoryBackend({ [`/${file}`]: text }) });
    const res = await ws.call("apply_edits", { text: edit });
    return { res, after: new TextDecoder().decode((await ws.fs.read(`/${file}`))!) };
  };
  // A Markdown underline in SEARCH and REPLACE: "# Title" alone matches too, at the same place; the longer
  // reading, which holds the file's ======= line, is the one meant.
  const md = await apply(
    "README.md",
    "# Title\n=======\n\nSome text.\n",
    "README.md\n<<<<<<< SEARCH\n# Title\n=======\n=======\n# New title\n=======\n>>>>>>> REPLACE\n",
  );
  assert.ok(md.res.ok, JSON.stringify(md.res));
  assert.equal(md.after, "# New title\n=======\n\nSome text.\n");
  // Only a later divider gives a SEARCH the file holds.
  const conflict = await apply(
    "notes.txt",
    "before\n<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\nafter\n",
    "notes.txt\n<<<<<<< SEARCH\nx\n=======\ny\n=======\nx or y\n>>>>>>> REPLACE\n",
  );
  assert.ok(conflict.res.ok, JSON.stringify(conflict.res));
  assert.equal(conflict.after, "before\n<<<<<<< ours\nx or y\n>>>>>>> theirs\nafter\n");
  // No reading matches: the first reading's no_match, nothing written.
  const twice = await apply(
    "t.txt",
    "a\nb\n=======\nc\n",
    "t.txt\n<<<<<<< SEARCH\nq\n=======\nb\n=======\nz\n>>>>>>> REPLACE\n",
  );
  assert.ok(!twice.res.ok);
  assert.equal(twice.res.error.code, "no_match");
  assert.equal(twice.after, "a\nb\n=======\nc\n");
});

Deno.test("matchBlock() does not report already_applied for a replacement standing elsewhere (click utils.py)", () => {
  // Issue 27, item 8: `        return self` stands at lines 192 and 217, but the SEARCH is a near miss of line 167
  // (`return self._f`): the edit has not landed, and dropping it would lose it.
  const text = Deno.readTextFileSync(fixtureUrl("real", "click_utils.py"));
  const block = {
    search: ["            return self._ff"],
    replace: ["            return self"],
    inputLine: 1,
  };
  const out = failure(matchBlock(text, block));
  assert.equal(out.code, "no_match");
  const landed = text.replace("            return self._f\n", "            return self\n");
  const again = failure(matchBlock(landed, block));
  assert.equal(again.code, "already_applied");
  assert.deepEqual(again.candidates, [{ start_line: 167, end_line: 167 }]);
});

Deno.test("matchBlock() does not report already_applied when the replacement stands at several equally likely places", () => {
  // `        return self` is at lines 192 and 217 of click's utils.py: which one the search meant cannot be told.
  const text = Deno.readTextFileSync(fixtureUrl("real", "click_utils.py"));
  const block = { search: ["        return slef"], replace: ["        return self"], inputLine: 1 };
  assert.equal(failure(matchBlock(text, block)).code, "no_match");
  const picked = failure(matchBlock(text, { ...block, lineHint: 217 }));
  assert.equal(picked.code, "already_applied");
  assert.deepEqual(picked.candidates, [{ start_line: 217, end_line: 217 }]);
});

/** Re-indent lines from one indent unit to another (leading spaces only). */
function reunit(lines: string[], from: number, to: number): string[] {
  return lines.map((l) => {
    const lead = l.length - l.trimStart().length;
    return " ".repeat((lead / from) * to) + l.slice(lead);
  });
}

Deno.test("matchBlock() matches a two-level function written with 4-space indentation in a 2-space file", () => {
  // idb-keyval.ts's get (lines 54-59) has two levels: this matched before issue 27's item 9 too.
  const lines = slice("idb-keyval.ts", 54, 59);
  const search = reunit(lines, 2, 4);
  const out = matchBlock(files["idb-keyval.ts"]!, { search, replace: search, inputLine: 1 });
  assert.ok(out.ok, JSON.stringify(out));
  assert.equal(out.match.tier, "indentation");
  assert.deepEqual(out.match.replacement, lines);
});

Deno.test("matchBlock() matches a one-level function written with 4-space indentation in a 2-space file", () => {
  // Issue 27, item 9: idb-keyval.ts's getDefaultStore (lines 49-52) has one level of indentation.
  const lines = slice("idb-keyval.ts", 49, 52);
  const search = reunit(lines, 2, 4);
  const replace = [
    ...search.slice(0, 2),
    "    if (!store.ready) {",
    "        throw new Error('not ready');",
    "    }",
    ...search.slice(2),
  ];
  const out = matchBlock(files["idb-keyval.ts"]!, { search, replace, inputLine: 1 });
  assert.ok(out.ok, JSON.stringify(out));
  assert.equal(out.match.tier, "indentation");
  assert.deepEqual([out.match.start, out.match.end], [48, 52]);
  assert.deepEqual(out.match.replacement, [
    ...lines.slice(0, 2),
    "  if (!store.ready) {",
    "    throw new Error('not ready');",
    "  }",
    ...lines.slice(2),
  ]);
});

Deno.test("matchBlock() matches one level and deeper bodies written with 2-space indentation in a 4-space Python file (click utils.py)", () => {
  const text = Deno.readTextFileSync(fixtureUrl("real", "click_utils.py"));
  const all = text.split("\n");
  // _posixify (lines 33-34): one level; make_str (lines 49-57): two levels.
  for (const [a, b] of [[33, 34], [49, 57]] as const) {
    const lines = all.slice(a - 1, b);
    const search = reunit(lines, 4, 2);
    const replace = [search[0]!, "  # checked", ...search.slice(1)];
    const out = matchBlock(text, { search, replace, inputLine: 1 });
    assert.ok(out.ok, `lines ${a}-${b}: ${JSON.stringify(out)}`);
    assert.equal(out.match.tier, "indentation");
    assert.deepEqual(out.match.replacement, [lines[0]!, "    # checked", ...lines.slice(1)]);
  }
});

Deno.test("matchBlock() refuses a one-level indentation change that is no indent unit, and says why", () => {
  const lines = slice("idb-keyval.ts", 49, 52);
  const search = reunit(lines, 2, 5);
  const out = failure(matchBlock(files["idb-keyval.ts"]!, { search, replace: search, inputLine: 1 }));
  assert.equal(out.code, "no_match");
});
