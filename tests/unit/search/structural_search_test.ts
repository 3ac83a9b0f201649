/**
 * The structural search engine: files as a text search selects them, the literal prefilter (files without
 * the pattern's texts are never parsed), trees reused by version on the next search, languages the pattern
 * does not parse in, pages, cursors and the character budget.
 */
import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace, type Workspace } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { RecoverableError } from "../../../src/errors.ts";
import { normalizeStructuralArgs } from "../../../src/search/structural_args.ts";
import { searchStructural } from "../../../src/search/structural_search.ts";
import type { SearchFiles } from "../../../src/search/types.ts";
import { patternMatcherOf } from "../../../src/structural/search/mod.ts";

const TEXTS: Record<string, string> = {
  "src/app.ts": "import x from 'y';\nfunction run() {\n  if (a && a) go(a);\n  if (b && c) go(b);\n}\n",
  "src/util.ts": "export const twice = (n: number) => n && n;\n",
  "src/other.ts": "export const z = 1;\n",
  "lib/tool.py": "def go(a):\n    return a and a\n",
  "README.md": "a && a\n",
};

function filesOf(texts: Record<string, string>): SearchFiles {
  return {
    async *files() {
      for (const path of Object.keys(texts)) yield { path };
    },
    read: (path: string) => Promise.resolve(new TextEncoder().encode(texts[path])),
  };
}

async function workspace(): Promise<Workspace> {
  return await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
}

Deno.test("a pattern matches whole nodes in every language it parses in; other files are not parsed", async () => {
  const ws = await workspace();
  const r = await searchStructural(filesOf(TEXTS), normalizeStructuralArgs({ pattern: "$A && $A" }), {
    matcher: patternMatcherOf(ws),
  });
  assert.deepEqual(
    r.matches!.map((m) => [m.path, m.line, m.column, m.end_column, m.metavariables["A"]!.text]),
    [["src/app.ts", 3, 7, 13, "a"], ["src/util.ts", 1, 37, 43, "n"]],
  );
  // `&&` is a text every match holds: other.ts lacks it and is not parsed; README.md has no grammar.
  assert.equal(r.summary.files_parsed, 2);
  assert.equal(r.summary.skipped.ignored, 1);
  // Python reads `$A && $A` as an error: the language is named, the search goes on.
  assert.ok(r.summary.languages_refused?.["python"]?.includes("Cannot parse"));
  const m = r.matches![0]!;
  assert.deepEqual(m.metavariables["A"], { text: "a", line: 3, column: 7, end_line: 3, end_column: 8 });
  assert.match(m.id, /^src\/app\.ts:3:7@[0-9a-f]{12}$/);
});

Deno.test("a second search reuses every tree by version (no parse)", async () => {
  const ws = await workspace();
  const search = () =>
    searchStructural(filesOf(TEXTS), normalizeStructuralArgs({ pattern: "go($X)" }), {
      matcher: patternMatcherOf(ws),
    });
  const first = await search();
  const parses = ws.trees!.fullParses + ws.trees!.incrementalParses;
  const second = await search();
  assert.deepEqual(second.matches, first.matches);
  assert.equal(ws.trees!.fullParses + ws.trees!.incrementalParses, parses);
});

Deno.test("a language given refuses a pattern its grammar cannot read, saying what it saw", async () => {
  const ws = await workspace();
  await assert.rejects(
    searchStructural(filesOf(TEXTS), normalizeStructuralArgs({ pattern: "$A && $A", language: "py" }), {
      matcher: patternMatcherOf(ws),
    }),
    (e: unknown) =>
      e instanceof RecoverableError && e.code === "invalid_query" &&
      /grammar reads it as \(module/.test(e.message),
  );
  // No language given, and none of the files' languages reads it: refused too, every language named.
  await assert.rejects(
    searchStructural(filesOf({ "a.py": "x\n" }), normalizeStructuralArgs({ pattern: "$A && $A" }), {
      matcher: patternMatcherOf(ws),
    }),
    (e: unknown) =>
      e instanceof RecoverableError && e.code === "invalid_query" && /tried python/.test(e.message),
  );
});

Deno.test("a pattern one language reads finds nothing where no file holds its texts: no refusal from another language", async () => {
  const ws = await workspace();
  // No language given: JSON cannot read a call, JavaScript can; no JavaScript file names `nothing_here`, so
  // nothing is parsed — a search that found nothing, not a pattern no language reads.
  const texts = { "a.js": "run(1);\n", "package.json": '{ "name": "x" }\n' };
  const r = await searchStructural(filesOf(texts), normalizeStructuralArgs({ pattern: "nothing_here($A)" }), {
    matcher: patternMatcherOf(ws),
  });
  assert.deepEqual(r.matches, []);
  assert.equal(r.summary.files_parsed, 0);
  await assert.rejects(
    searchStructural(filesOf(texts), normalizeStructuralArgs({ pattern: "run(" }), {
      matcher: patternMatcherOf(ws),
    }),
    (e: unknown) =>
      e instanceof RecoverableError && e.code === "invalid_query" && /tried .*json/.test(e.message),
  );
});

Deno.test("pages: one past the page decides truncated; the cursor continues; a cursor of another pattern is refused", async () => {
  const ws = await workspace();
  const texts = { "a.ts": Array.from({ length: 5 }, (_, i) => `go(${i});`).join("\n") + "\n" };
  const matcher = patternMatcherOf(ws);
  const first = await searchStructural(
    filesOf(texts),
    normalizeStructuralArgs({ pattern: "go($X)", max_results: 2 }),
    { matcher },
  );
  assert.deepEqual(first.matches!.map((m) => m.line), [1, 2]);
  assert.equal(first.summary.truncated, true);
  const second = await searchStructural(
    filesOf(texts),
    normalizeStructuralArgs({ pattern: "go($X)", max_results: 2, cursor: first.next_cursor }),
    { matcher },
  );
  assert.deepEqual(second.matches!.map((m) => m.line), [3, 4]);
  assert.throws(
    () => normalizeStructuralArgs({ pattern: "stop($X)", cursor: first.next_cursor }),
    (e: unknown) => e instanceof RecoverableError && e.code === "invalid_args",
  );
});

Deno.test("over max_chars, texts are cut, then the page becomes counts per file", async () => {
  const ws = await workspace();
  const long = `go(${"x + ".repeat(200)}1);\n`;
  const matcher = patternMatcherOf(ws);
  const cut = await searchStructural(
    filesOf({ "a.ts": long }),
    normalizeStructuralArgs({ pattern: "go($X)", max_chars: 1200 }),
    { matcher },
  );
  assert.equal(cut.summary.shortened, "truncated_text");
  assert.ok(cut.matches![0]!.text.endsWith("…") && cut.matches![0]!.text.length <= 201);
  const counted = await searchStructural(
    filesOf({ "a.ts": long.repeat(3) }),
    normalizeStructuralArgs({ pattern: "go($X)", max_chars: 100 }),
    { matcher },
  );
  assert.equal(counted.summary.shortened, "counts");
  assert.equal(counted.counts![0]!.count, 3);
});

Deno.test("path, glob and type select files as a text search does", async () => {
  const ws = await workspace();
  const r = await searchStructural(
    filesOf(TEXTS),
    normalizeStructuralArgs({ pattern: "$A && $A", glob: ["*.ts", "!util.ts"] }),
    { matcher: patternMatcherOf(ws) },
  );
  assert.deepEqual(r.matches!.map((m) => m.path), ["src/app.ts"]);
  assert.throws(
    () => normalizeStructuralArgs({ pattern: "x($A)", language: "cobol" }),
    (e: unknown) => e instanceof RecoverableError && e.code === "invalid_args",
  );
});

Deno.test("a file where a pattern's identifier occurs only inside longer words is not parsed; one where it is a whole word is", async () => {
  const ws = await workspace();
  const texts: Record<string, string> = {
    "a.js": "c.req.header('x');\n",
    "b.js": "c.req.headers.get(x); // request\n", // `header` only inside `headers`
    "c.js": "c.req\n  .header /* a comment */ (y);\nconst s = 'header';\n",
    "d.js": "c.req.header2(z);\n", // `header2` is another name
    "f.js": "_c.req.header(w);\n", // and so is `_c`
    "e.js": "$c.req.header(v);\n", // `$` is not an ASCII word character: parsed, and `$c` is no match
  };
  const r = await searchStructural(
    filesOf(texts),
    normalizeStructuralArgs({ pattern: "c.req.header($A)" }),
    { matcher: patternMatcherOf(ws) },
  );
  assert.deepEqual(r.matches!.map((m) => [m.path, m.metavariables["A"]!.text]), [["a.js", "'x'"], [
    "c.js",
    "y",
  ]]);
  assert.equal(r.summary.files_parsed, 3);
});

Deno.test("a search that stops at a full page closes the file listing, and counts only the files it took", async () => {
  const ws = await workspace();
  const texts: Record<string, string> = {};
  for (let i = 0; i < 40; i++) {
    texts[`f${String(i).padStart(2, "0")}.js`] = `log(${i});\n`;
    texts[`f${String(i).padStart(2, "0")}_other.js`] = `other(${i});\n`; // no "log": not parsed
  }
  let closed = false;
  let listed = 0;
  const files: SearchFiles = {
    async *files() {
      try {
        for (const path of Object.keys(texts)) {
          listed++;
          yield { path };
        }
      } finally {
        closed = true;
      }
    },
    read: (path: string) => Promise.resolve(new TextEncoder().encode(texts[path])),
  };
  const r = await searchStructural(files, normalizeStructuralArgs({ pattern: "log($A)", max_results: 2 }), {
    matcher: patternMatcherOf(ws),
  });
  assert.deepEqual(r.matches!.map((m) => m.path), ["f00.js", "f01.js"]);
  assert.ok(r.next_cursor);
  assert.equal(closed, true);
  assert.ok(listed < 80, `listed ${listed}`);
  // The page's two files and the one that shows there is more, and the files before them: not the files
  // read ahead of the stop.
  assert.equal(r.summary.files_parsed, 3);
  assert.equal(r.summary.files_scanned, 5);
});

Deno.test("a language that refuses the pattern after the files a full page needs does not fail the page; before them it does", async () => {
  const ws = await workspace();
  const texts: Record<string, string> = {};
  for (let i = 0; i < 5; i++) texts[`f${i}.js`] = `new Foo(${i});\n`;
  texts["z.py"] = "x = 1\n"; // `new Foo($A)` is no Python: with "language" given, the search is refused
  const page = normalizeStructuralArgs({ pattern: "new Foo($A)", language: ["js", "py"], max_results: 2 });
  const r = await searchStructural(filesOf(texts), page, { matcher: patternMatcherOf(ws) });
  assert.deepEqual(r.matches!.map((m) => m.path), ["f0.js", "f1.js"]);
  assert.equal(r.summary.truncated, true);
  const all = normalizeStructuralArgs({ pattern: "new Foo($A)", language: ["js", "py"] });
  await assert.rejects(
    () => searchStructural(filesOf(texts), all, { matcher: patternMatcherOf(ws) }),
    (err: RecoverableError) => err.code === "invalid_query" && /python/.test(err.message),
  );
});

Deno.test("a program with matches in flight gives the same files, hits, counts, limits and early stop as one at a time", async () => {
  const ws = await workspace();
  const texts: Record<string, string> = {};
  for (let i = 0; i < 40; i++) texts[`src/f${String(i).padStart(2, "0")}.ts`] = `go(${i});\ngo(${i} + 1);\n`;
  texts["src/f07.ts"] = "go(big);\n"; // refused below as over the parse limit
  const inner = patternMatcherOf(ws);
  // Matches resolve out of order (a later file's first, by a timer of its own), as a pool's workers answer.
  const matcherWith = (inFlight: number | undefined) => ({
    languageOf: inner.languageOf,
    async compile(language: string, query: { pattern?: string }) {
      const program = await inner.compile(language, query);
      return {
        ...program,
        ...(inFlight !== undefined ? { inFlight } : {}),
        async match(file: { path: string; text: string; version: string }) {
          await new Promise((resolve) => setTimeout(resolve, (40 - Number(file.path.slice(5, 7))) % 7));
          if (file.text.includes("big")) {
            throw new RecoverableError("limit_exceeded", "too big", {
              hint: "-",
              details: { limit_bytes: 10 },
            });
          }
          return program.match(file);
        },
      };
    },
  });
  for (const page of [{}, { max_results: 5 }, { max_results: 9, offset: 20 }, { max_results: 1000 }]) {
    const query = normalizeStructuralArgs({ pattern: "go($A)", ...page });
    const once = await searchStructural(filesOf(texts), query, { matcher: matcherWith(undefined) });
    const inFlight = await searchStructural(filesOf(texts), query, { matcher: matcherWith(12) });
    for (const r of [once, inFlight]) delete (r.summary as { elapsed_ms?: number }).elapsed_ms;
    assert.deepEqual(inFlight, once, JSON.stringify(page));
    // A page of 5 is full at the third file: neither scan counted f07 (the in-flight one matched it ahead).
    assert.equal(once.summary.skipped.too_large, page.max_results === 5 ? 0 : 1, JSON.stringify(page));
  }
});

Deno.test("a program with matches in flight starts on the first candidates while the listing is still read", async () => {
  const ws = await workspace();
  const texts: Record<string, string> = {};
  for (let i = 0; i < 200; i++) {
    texts[`f${String(i).padStart(3, "0")}.js`] = i % 50 === 0 ? "go(1);\n" : "x;\n";
  }
  const events: string[] = [];
  const enc = new TextEncoder();
  const files: SearchFiles = {
    ...filesOf(texts),
    list: () => Promise.resolve(Object.keys(texts).map((path) => ({ path }))),
    // Each batch takes a while to come (a disk's reads): 32, 64 and then 104 files.
    readMany: async (paths) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      events.push(`read ${paths.length}`);
      return paths.map((p) => enc.encode(texts[p]));
    },
  };
  const inner = patternMatcherOf(ws);
  const matcher = {
    languageOf: inner.languageOf,
    async compile(language: string, query: { pattern?: string }) {
      const program = (await inner.compile(language, query))!;
      // A pool's window of 32 files in flight: four candidates never fill it.
      return {
        ...program,
        inFlight: 32,
        match: (f: { path: string }) => (events.push(`match ${f.path}`), program.match(f as never)),
      };
    },
  };
  const r = await searchStructural(files, normalizeStructuralArgs({ pattern: "go($A)" }), { matcher });
  assert.deepEqual(r.matches!.map((m) => m.path), ["f000.js", "f050.js", "f100.js", "f150.js"]);
  assert.deepEqual(events.filter((e) => e.startsWith("read")), ["read 32", "read 64", "read 104"]);
  assert.ok(events.indexOf("match f000.js") < events.indexOf("read 104"), events.join(", "));
});

/** A source that holds every file's bytes (as a warm session's read cache does): the same array each time. */
function heldFiles(texts: Record<string, string>): SearchFiles {
  const bytes = new Map(Object.entries(texts).map(([path, text]) => [path, new TextEncoder().encode(text)]));
  const list = () => [...bytes.keys()].map((path) => ({ path }));
  return {
    async *files() {
      yield* list();
    },
    list: () => Promise.resolve(list()),
    read: (path) => Promise.resolve(bytes.get(path)!),
    readHeld: (path) => bytes.get(path),
  };
}

/** The result without its timing. */
function untimed<T extends { summary: { elapsed_ms?: number } }>(r: T): T {
  delete r.summary.elapsed_ms;
  return r;
}

Deno.test("a warm search (files held, versions known, trees parsed) takes no await per file", async () => {
  const ws = await workspace();
  const texts: Record<string, string> = {};
  for (let i = 0; i < 300; i++) texts[`f${String(i).padStart(3, "0")}.js`] = `log(${i});\nother(${i});\n`;
  const files = heldFiles(texts);
  const query = normalizeStructuralArgs({ pattern: "log($A)", max_results: 1000, max_chars: 1e9 });
  const cold = await searchStructural(files, query, { matcher: patternMatcherOf(ws) });
  assert.equal(cold.matches!.length, 300);
  let done = false;
  const warm = searchStructural(files, query, { matcher: patternMatcherOf(ws) }).finally(() => done = true);
  let turns = 0; // turns of the microtask queue the search takes (a scan with an await per file takes 1,000s)
  while (!done) {
    await null;
    turns++;
  }
  assert.deepEqual(untimed(await warm), untimed(cold));
  assert.ok(turns < 100, `${turns} turns for 300 files`);
});

Deno.test("a warm search that stops at a full page counts only the files it took, as a cold one does", async () => {
  const ws = await workspace();
  const texts: Record<string, string> = {};
  for (let i = 0; i < 300; i++) {
    texts[`f${String(i).padStart(3, "0")}.js`] = `log(${i});\n`;
    texts[`f${String(i).padStart(3, "0")}_other.js`] = `other(${i});\n`; // no "log": not parsed
  }
  const files = heldFiles(texts);
  const page = normalizeStructuralArgs({ pattern: "log($A)", max_results: 2 });
  const cold = await searchStructural(filesOf(texts), page, { matcher: patternMatcherOf(ws) });
  await searchStructural(files, normalizeStructuralArgs({ pattern: "log($A)" }), {
    matcher: patternMatcherOf(ws),
  });
  const warm = await searchStructural(files, page, { matcher: patternMatcherOf(ws) });
  assert.deepEqual(untimed(warm), untimed(cold));
  // The page's two files and the one that shows there is more, and the files before them.
  assert.equal(warm.summary.files_parsed, 3);
  assert.equal(warm.summary.files_scanned, 5);
});

Deno.test("a match past the matcher's steps fails the search naming the file and line (it is not a file too large)", async () => {
  const ws = await workspace();
  const texts = {
    "src/ok.js": "f(0, 1, 5, 2, 3, 7, 7);\n",
    "src/long.js": `x();\nf(${Array.from({ length: 3000 }, (_, i) => i % 10).join(", ")});\n`,
  };
  await assert.rejects(
    searchStructural(
      filesOf(texts),
      normalizeStructuralArgs({ pattern: "f($$$A, 1, $$$B, 2, $$$C, 3, $$$D, $X, $X)", language: "js" }),
      { matcher: patternMatcherOf(ws) },
    ),
    (e: unknown) =>
      e instanceof RecoverableError && e.code === "limit_exceeded" &&
      e.message.startsWith(`Cannot match the pattern in "src/long.js" at line 2:`) &&
      e.details?.["path"] === "src/long.js" && /Anchor the pattern's lists/.test(e.hint ?? ""),
  );
  // The same pattern where the lists are short: found.
  const found = await searchStructural(
    filesOf({ "src/ok.js": texts["src/ok.js"] }),
    normalizeStructuralArgs({ pattern: "f($$$A, 1, $$$B, 2, $$$C, 3, $$$D, $X, $X)", language: "js" }),
    { matcher: patternMatcherOf(ws) },
  );
  assert.equal(found.matches?.length, 1);
});
