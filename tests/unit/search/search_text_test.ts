import assert from "node:assert/strict";
import { versionOf } from "../../../src/fs/version.ts";
import { parseOccurrenceId } from "../../../src/search/occurrence_id.ts";
import { MAX_SUBMATCHES_PER_LINE, readScopedRuns, searchText } from "../../../src/search/search_text.ts";
import { normalizeSearchTextArgs } from "../../../src/search/text_args.ts";
import type { LineMatch, SearchFiles } from "../../../src/search/types.ts";
import { diskSearchFiles } from "./_rg.ts";

const HONO = Deno.realPathSync(new URL("../../../node_modules/hono", import.meta.url));

/** Files held in memory; a value of null cannot be read. */
function held(files: Record<string, string | Uint8Array | null>): SearchFiles {
  return {
    async *files() {
      for (const path of Object.keys(files)) yield { path };
    },
    read(path) {
      const v = files[path];
      if (v === null || v === undefined) return Promise.reject(new Error("EACCES"));
      return Promise.resolve(typeof v === "string" ? new TextEncoder().encode(v) : v);
    },
  };
}

const search = (files: SearchFiles, args: Record<string, unknown>) =>
  searchText(files, normalizeSearchTextArgs(args));

Deno.test("search_text: pages follow each other through the cursor and add up to the whole", async () => {
  const files = diskSearchFiles(HONO);
  const whole = await search(files, { pattern: "return c\\.", max_results: 100_000, max_chars: 1e9 });
  assert.equal(whole.summary.truncated, false);
  assert.ok(whole.matches!.length > 120, "the query finds enough to page");
  const paged: LineMatch[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await search(files, {
      pattern: "return c\\.",
      max_results: 50,
      ...(cursor ? { cursor } : {}),
    });
    paged.push(...page.matches!);
    if (!page.summary.truncated) break;
    assert.equal(page.matches!.length, 50);
    cursor = page.next_cursor!;
  }
  assert.deepEqual(paged, whole.matches);
});

Deno.test("search_text: truncated is decided by finding one past the page", async () => {
  const files = held({ "a.txt": "x\nx\n", "b.txt": "x\n" });
  const exact = await search(files, { pattern: "x", max_results: 3 });
  assert.equal(exact.summary.truncated, false);
  assert.equal(exact.next_cursor, undefined);
  const short = await search(files, { pattern: "x", max_results: 2 });
  assert.equal(short.summary.truncated, true);
  const next = await search(files, { pattern: "x", max_results: 2, cursor: short.next_cursor });
  assert.deepEqual(next.matches!.map((m) => [m.path, m.line]), [["b.txt", 1]]);
});

Deno.test("search_text: binary, too large and unreadable files are counted, not searched", async () => {
  const files = held({
    "bin.dat": new Uint8Array([120, 0, 120]),
    "big.txt": "x".repeat(100),
    "gone.txt": null,
    "ok.txt": "x\n",
  });
  const r = await search(files, { pattern: "x", max_file_bytes: 50 });
  assert.deepEqual(r.summary.skipped, { ignored: 0, binary: 1, too_large: 1, unreadable: 1 });
  assert.equal(r.summary.files_scanned, 2);
  assert.equal(r.summary.files_matched, 1);
  assert.deepEqual(r.matches!.map((m) => m.path), ["ok.txt"]);
});

Deno.test("search_text: each match carries its file's version and ids that point at it", async () => {
  const text = "héllo wörld\n  say wörld\n";
  const r = await search(held({ "a.txt": text }), { pattern: "wörld" });
  const version = await versionOf(new TextEncoder().encode(text));
  const lines = text.split("\n");
  for (const m of r.matches!) {
    assert.equal(m.version, version);
    for (const s of m.submatches) {
      const id = parseOccurrenceId(s.id);
      assert.deepEqual([id.path, id.line, id.column], [m.path, m.line, s.column]);
      assert.ok(version.startsWith(id.version));
      assert.equal(lines[id.line - 1]!.slice(id.column - 1, s.end_column - 1), "wörld");
    }
  }
  assert.deepEqual(r.matches!.map((m) => [m.line, m.column]), [[1, 7], [2, 7]]);
});

Deno.test("search_text: files_with_matches and count; context lines", async () => {
  const files = held({ "a.ts": "a\nhit\nb\nhit\n", "b.ts": "none\n", "c.ts": "hit\n" });
  const listed = await search(files, { pattern: "hit", output_mode: "files_with_matches" });
  assert.deepEqual(listed.files!.map((f) => f.path), ["a.ts", "c.ts"]);
  const counted = await search(files, { pattern: "hit", "-c": true });
  assert.deepEqual(counted.counts!.map((c) => [c.path, c.count]), [["a.ts", 2], ["c.ts", 1]]);
  const ctx = await search(files, { pattern: "hit", "-C": 1 });
  assert.deepEqual(ctx.matches!.map((m) => [m.context_before, m.context_after]), [
    [["a"], ["b"]],
    [["b"], []],
    [[], []],
  ]);
});

Deno.test("search_text: over the character budget, lines are shortened, then counted", async () => {
  const long = `${"x".repeat(3000)} hit ${"y".repeat(3000)}\n`;
  const files = held({ "a.txt": long.repeat(3), "b.txt": long });
  const r = await search(files, { pattern: "hit", max_chars: 2000 });
  assert.equal(r.summary.shortened, "truncated_lines");
  assert.ok(r.matches!.every((m) => m.text.length < 300 && m.text.includes("hit")));
  const c = await search(files, { pattern: "hit", max_chars: 300 });
  assert.equal(c.summary.shortened, "counts");
  assert.deepEqual(c.counts!.map((x) => [x.path, x.count]), [["a.txt", 3], ["b.txt", 1]]);
});

Deno.test("search_text: globs and types leave files out, counted as ignored; bad patterns are refused", async () => {
  const files = held({ "a.ts": "hit\n", "b.py": "hit\n", "c.md": "hit\n" });
  const r = await search(files, { pattern: "hit", type: ["ts", "py"], glob: "!b.*" });
  assert.deepEqual(r.matches!.map((m) => m.path), ["a.ts"]);
  assert.equal(r.summary.skipped.ignored, 2);
  await assert.rejects(search(files, { pattern: "(?<=a)b" }), {
    code: "invalid_args",
    message: /look-behind/,
  });
  await assert.rejects(search(files, { pattern: "x", type: "nope" }), { code: "invalid_args" });
});

Deno.test("search_text: files the source holds are taken without a read, in the source's order among those it reads", async () => {
  // Every third file is held; the others are read, finishing in reverse order of asking.
  const texts: Record<string, string> = {};
  for (let i = 0; i < 60; i++) {
    texts[`f${String(i).padStart(2, "0")}.ts`] = i % 7 === 0 ? "binary\0\n" : `x ${i}\n`;
  }
  const enc = new TextEncoder();
  const bytes = new Map(Object.entries(texts).map(([p, t]) => [p, enc.encode(t)]));
  const isHeld = (path: string) => Number(path.slice(1, 3)) % 3 === 0;
  const reads: string[] = [];
  let listings = 0;
  const source: SearchFiles = {
    async *files() {
      yield* Object.keys(texts).map((path) => ({ path }));
    },
    list: () => (listings++, Promise.resolve(Object.keys(texts).map((path) => ({ path })))),
    read: (path) => {
      reads.push(path);
      const wait = 20 - (reads.length % 16);
      return new Promise((resolve) => setTimeout(() => resolve(bytes.get(path)!), wait));
    },
    readHeld: (path) => isHeld(path) ? bytes.get(path) : undefined,
  };
  const args = { pattern: "x \\d+", max_results: 1000 };
  const got = await search(source, args);
  const plain = await search(held(texts), args); // the same files through `files` and `read` alone
  assert.deepEqual(
    got.matches!.map((m) => [m.path, m.text, m.version]),
    plain.matches!.map((m) => [m.path, m.text, m.version]),
  );
  assert.deepEqual(got.summary.skipped, plain.summary.skipped);
  assert.equal(got.summary.files_scanned, 60);
  assert.equal(listings, 1, "the list asked for once");
  assert.deepEqual(reads, Object.keys(texts).filter((p) => !isHeld(p)), "a held file is never read");
});

Deno.test("search_text: a source that reads many at once is read in growing batches, in order, and not far past a full page", async () => {
  const texts: Record<string, string | null> = {};
  for (let i = 0; i < 1000; i++) texts[`f${String(i).padStart(4, "0")}.ts`] = `const x${i} = needle;\n`;
  texts["f0005.ts"] = null; // cannot be read: counted, the batch goes on
  const asked: number[] = [];
  const files: SearchFiles = {
    ...held(texts),
    list: () => Promise.resolve(Object.keys(texts).map((path) => ({ path }))),
    readMany(paths) {
      asked.push(paths.length);
      return Promise.resolve(paths.map((p) => texts[p] == null ? null : new TextEncoder().encode(texts[p]!)));
    },
  };
  const page = await search(files, { pattern: "needle", max_results: 3 });
  assert.deepEqual(page.matches!.map((m) => m.path), ["f0000.ts", "f0001.ts", "f0002.ts"]);
  assert.ok(page.summary.truncated);
  // The first batch, and the one asked for before it was searched: never the whole tree.
  assert.deepEqual(asked, [32, 64]);
  asked.length = 0;
  const all = await search(files, {
    pattern: "needle",
    max_results: 10_000,
    max_chars: 1e9,
    output_mode: "count",
  });
  assert.equal(all.counts!.length, 999);
  assert.equal(all.summary.skipped.unreadable, 1);
  assert.deepEqual(asked, [32, 64, 128, 256, 256, 256, 8]);
  assert.deepEqual(all.counts!.map((c) => c.path), Object.keys(texts).filter((p) => texts[p] !== null));
});

Deno.test("readScopedRuns() hands a warm source's held files on a few hundred at a time, in order", async () => {
  // Every file held: they come in one run; decoding it whole would keep every text alive at once.
  const sources = ["request.js", "context.js", "hono-base.js", "compose.js"];
  const texts = await Promise.all(sources.map((f) => Deno.readFile(`${HONO}/dist/${f}`)));
  const paths = Array.from({ length: 600 }, (_, i) => `f${i}.js`);
  const bytes = new Map(paths.map((p, i) => [p, texts[i % texts.length]!]));
  const source: SearchFiles = {
    async *files() {
      yield* paths.map((path) => ({ path }));
    },
    list: () => Promise.resolve(paths.map((path) => ({ path }))),
    read: (path) => Promise.resolve(bytes.get(path)!),
    readHeld: (path) => bytes.get(path),
  };
  const stats = { scanned: 0, matched: 0, skipped: { ignored: 0, binary: 0, too_large: 0, unreadable: 0 } };
  const filters = normalizeSearchTextArgs({ pattern: "x" }); // every file in scope
  const runs: string[][] = [];
  for await (const run of readScopedRuns(source, { filters, stats })) runs.push(run.map((t) => t.file.path));
  assert.deepEqual(runs.flat(), paths);
  assert.ok(runs.every((run) => run.length <= 256), `runs of ${runs.map((r) => r.length)}`);
  assert.equal(stats.scanned, 600);
});

Deno.test("search_text: a line lists its first MAX_SUBMATCHES_PER_LINE matches and counts the rest", async () => {
  // 150 lines of 100,000 `x`s built 15 million submatches and ran the process out of memory.
  const line = "x".repeat(250);
  const files = held({ "min.js": `${line}\nshort x x\n` });
  for (const pattern of ["x", "[x]"]) {
    const { matches } = await search(files, { pattern });
    assert.equal(matches![0]!.submatches.length, MAX_SUBMATCHES_PER_LINE, pattern);
    assert.equal(matches![0]!.submatches_omitted, 250 - MAX_SUBMATCHES_PER_LINE, pattern);
    assert.deepEqual(matches![0]!.submatches.at(-1)!.column, MAX_SUBMATCHES_PER_LINE, pattern);
    assert.equal(matches![1]!.submatches.length, 2, pattern);
    assert.equal(matches![1]!.submatches_omitted, undefined, pattern);
  }
});

Deno.test("search_text: a file with a NUL anywhere is binary, as ripgrep leaves it out of a walk", async () => {
  const late = new Uint8Array(200_000).fill(97); // "a"
  late[150_000] = 0;
  const early = new Uint8Array([97, 0, 97]);
  const files = held({ "late.txt": late, "early.bin": early, "text.txt": "a\n" });
  const r = await search(files, { pattern: "a", output_mode: "count" });
  assert.deepEqual(r.counts!.map((c) => c.path), ["text.txt"]);
  assert.equal(r.summary.skipped.binary, 2);
});
