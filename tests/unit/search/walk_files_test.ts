import assert from "node:assert/strict";
import { createDiskBackend, createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { type Backend, BackendFs, Sandbox, Stage } from "../../../src/fs/mod.ts";
import { createMemoryBackend, createWorkspace } from "../../../src/mod.ts";
import {
  normalizeSearchTextArgs,
  normalizeStructuralArgs,
  searchStructural,
  searchText,
} from "../../../src/search/mod.ts";
import { patternMatcherOf } from "../../../src/structural/search/mod.ts";
import type { FileScope } from "../../../src/search/types.ts";
import { isHiddenPath, walkSearchFiles } from "../../../src/search/walk_files.ts";
import { RACY_MS, ReadCache } from "../../../src/project/read_cache.ts";

async function tree(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "graver-walk-files-" });
  const files: Record<string, string> = {
    ".gitignore": "out/\n",
    "a.ts": "a\n",
    "src/b.ts": "b\n",
    "src/.env": "secret\n",
    ".config/c.ts": "c\n",
    "out/d.js": "d\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    await Deno.mkdir(`${root}/${rel}`.replace(/\/[^/]+$/, ""), { recursive: true });
    await Deno.writeTextFile(`${root}/${rel}`, text);
  }
  return root;
}

async function listed(
  root: string,
  scope: Partial<FileScope> = {},
): Promise<{ paths: string[]; ignored: number }> {
  const files = walkSearchFiles(new Stage(BackendFs.wrap(createDiskBackend()), new Sandbox(root)));
  const paths: string[] = [];
  for await (const f of files.files({ path: "", hidden: false, noIgnore: false, ...scope })) {
    paths.push(f.path);
  }
  return { paths, ignored: files.skipped!().ignored };
}

Deno.test("walk_files: hidden files and ignored folders are left out unless asked for", async () => {
  const root = await tree();
  try {
    assert.deepEqual(await listed(root), { paths: ["a.ts", "src/b.ts"], ignored: 4 });
    const all = await listed(root, { hidden: true, noIgnore: true });
    assert.deepEqual(all.paths.sort(), [
      ".config/c.ts",
      ".gitignore",
      "a.ts",
      "out/d.js",
      "src/.env",
      "src/b.ts",
    ]);
    assert.deepEqual((await listed(root, { path: "src/b.ts" })).paths, ["src/b.ts"]);
    assert.deepEqual((await listed(root, { path: "src" })).paths, ["src/b.ts"]);
    await assert.rejects(listed(root, { path: "nope" }), { code: "not_found", message: /"nope"/ });
    // A FIFO named as the scope is refused as what it is, never opened (nor walked as a folder, finding nothing).
    const made = await new Deno.Command("mkfifo", { args: [`${root}/pipe`] }).output();
    assert.ok(made.success, "mkfifo");
    await assert.rejects(listed(root, { path: "pipe" }), {
      code: "binary_file",
      message: /"pipe": it is a named pipe/,
    });
    // Outside the root, or above it: refused as such, not as missing.
    await assert.rejects(listed(root, { path: "../x" }), { code: "sandbox_violation" });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("walk_files: a hidden part anywhere in the path makes it hidden", () => {
  assert.ok(isHiddenPath(".github/x.yml") && isHiddenPath("a/.b/c"));
  assert.ok(!isHiddenPath("a/b.c/d") && !isHiddenPath("a."));
});

Deno.test("walk_files: list is what files yields; with a warm cache, readHeld is the bytes read gave", async () => {
  const root = await tree();
  try {
    const fs = BackendFs.wrap(createDiskBackend());
    const cache = new ReadCache(fs, { now: () => Date.now() + 10 * RACY_MS }); // every file old enough to keep
    const scope: FileScope = { path: "", hidden: false, noIgnore: false };
    const files = walkSearchFiles(new Stage(fs, new Sandbox(root)), { cache });
    const yielded: string[] = [];
    for await (const f of files.files(scope)) yielded.push(f.path);
    assert.deepEqual(yielded, ["a.ts", "src/b.ts"]);
    assert.equal(files.readHeld!("a.ts"), undefined, "nothing read yet");
    const bytes = await files.read("a.ts");
    const again = walkSearchFiles(new Stage(fs, new Sandbox(root)), { cache });
    assert.deepEqual((await again.list!(scope)).map((f) => f.path), yielded);
    assert.equal(again.readHeld!("a.ts"), bytes, "the very array the read gave");
    assert.equal(again.readHeld!("src/b.ts"), undefined, "never read");
    // A remembered walk is taken as it was: the same list, no name or path built again.
    const third = walkSearchFiles(new Stage(fs, new Sandbox(root)), { cache });
    assert.equal(await third.list!(scope), await again.list!(scope));
    // A file written on the stage is read through it, never held.
    const staged = new Stage(fs, new Sandbox(root));
    await staged.write("a.ts", new TextEncoder().encode("staged\n"));
    const withWrite = walkSearchFiles(staged, { cache });
    await withWrite.list!(scope);
    assert.equal(withWrite.readHeld!("a.ts"), undefined);
    assert.equal(new TextDecoder().decode(await withWrite.read("a.ts")), "staged\n");
    // Without a cache, nothing is held.
    const cold = walkSearchFiles(new Stage(fs, new Sandbox(root)));
    await cold.list!(scope);
    assert.equal(cold.readHeld!("a.ts"), undefined);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** The disk backend without `readMany`: every file read on its own, as before batched reads. */
function oneReadEach(): Backend {
  const { readMany: _, ...plain } = createDiskBackend();
  return plain;
}

/**
 * A tool's answer with its timing left out (it differs from run to run), and, for a search that stopped at a
 * full page, how many files it scanned: that counts the files read ahead of the stop, which depends on how
 * many are read at once (a warm run takes the whole tree at once either way).
 */
function untimed(result: unknown): unknown {
  return JSON.parse(JSON.stringify(result, (k, v) => {
    if (k === "elapsed_ms") return 0;
    if (k === "summary" && v.truncated) return { ...v, files_scanned: "(read ahead)" };
    return v;
  }));
}

/** A tree with what the read path must get right: links in and out of the root, a FIFO, binary, big, empty. */
async function edgeTree(): Promise<{ root: string; outside: string }> {
  const root = await Deno.makeTempDir({ prefix: "graver-walk-batched-" });
  const outside = await Deno.makeTempDir({ prefix: "graver-walk-batched-outside-" });
  await Deno.mkdir(`${root}/src/deep`, { recursive: true });
  for (let i = 0; i < 300; i++) {
    const text = i % 7 === 0
      ? `export const needle${i} = find(needle, ${i});\n`
      : `export const hay${i} = ${i};\n`;
    await Deno.writeTextFile(`${root}/src/${i % 2 ? "deep/" : ""}f${i}.ts`, text);
  }
  await Deno.writeTextFile(`${root}/empty.ts`, "");
  await Deno.writeFile(`${root}/bin.ts`, new Uint8Array([110, 101, 101, 100, 108, 101, 0, 1]));
  await Deno.writeTextFile(`${root}/big.ts`, "x;\n".repeat(900_000) + "find(needle, 'big');\n");
  await Deno.writeTextFile(`${outside}/secret.ts`, "find(needle, 'outside');\n");
  await Deno.symlink(`${outside}/secret.ts`, `${root}/to_outside.ts`);
  await Deno.symlink(outside, `${root}/outside_dir`);
  await Deno.symlink(`${root}/src/f0.ts`, `${root}/to_inside.ts`);
  const { success } = await new Deno.Command("mkfifo", { args: [`${root}/pipe.ts`] }).output();
  assert.ok(success, "mkfifo");
  return { root, outside };
}

Deno.test("walk_files: searches answer the same with batched reads (readMany) as with one read each", async () => {
  const { root, outside } = await edgeTree();
  const calls: [string, Record<string, unknown>][] = [
    ["search_text", { pattern: "needle", literal: true }],
    ["search_text", { pattern: "needle\\d+", output_mode: "count" }],
    ["search_text", { pattern: "find", output_mode: "files_with_matches", max_results: 3 }],
    ["search_structural", { pattern: "find(needle, $A)", language: "typescript" }],
    ["search_structural", { pattern: "find($$$A)", language: "typescript", max_results: 5 }],
  ];
  try {
    const answers = [];
    for (const backend of [createDiskBackend(), oneReadEach()]) {
      const ws = await createWorkspace({ backend, root, wasm: createWasmLoader() });
      const got = [];
      for (const [tool, args] of calls) {
        for (const _warm of [0, 1]) got.push(untimed(await ws.call(tool, args)));
      }
      answers.push(got);
    }
    const [batched, each] = answers as [unknown[], unknown[]];
    assert.deepEqual(batched, each);
    const first = batched[0] as { ok: boolean; data: { matches: { path: string; text: string }[] } };
    assert.ok(first.ok, JSON.stringify(first));
    const paths = new Set(first.data.matches.map((m) => m.path));
    assert.ok(paths.has("big.ts") && paths.has("src/f0.ts"), [...paths].join()); // to_inside.ts is src/f0.ts, once
    assert.ok(!JSON.stringify(batched).includes("outside"), "nothing read through a link out of the root");
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("walk_files: readMany reads a staged file through the stage and the rest as read does", async () => {
  const { root, outside } = await edgeTree();
  try {
    const fs = BackendFs.wrap(createDiskBackend());
    const stage = new Stage(fs, new Sandbox(root));
    await stage.write("src/f0.ts", new TextEncoder().encode("staged\n"));
    for (const cache of [undefined, new ReadCache(fs)]) {
      const files = walkSearchFiles(stage, cache ? { cache } : {});
      const listed = (await files.list!({ path: "", hidden: false, noIgnore: false })).map((f) => f.path);
      assert.ok(
        listed.includes("src/f0.ts") && !listed.includes("pipe.ts") && !listed.includes("to_outside.ts"),
      );
      const many = await files.readMany!([...listed, "gone.ts"]);
      const each = await Promise.all([...listed, "gone.ts"].map((p) => files.read(p).catch(() => null)));
      assert.deepEqual(many, each);
      assert.equal(new TextDecoder().decode(many[listed.indexOf("src/f0.ts")]!), "staged\n");
      assert.equal(many.at(-1), null);
    }
    assert.equal(
      walkSearchFiles(new Stage(BackendFs.wrap(oneReadEach()), new Sandbox(root))).readMany,
      undefined,
    );
    const custom = walkSearchFiles(stage, { readBytes: (real) => fs.read(`${root}/${real}`) });
    assert.equal(custom.readMany, undefined, "a reader of the caller's own is used as given");
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("walk_files: a folder swapped for a link after the listing: its files are not read out of the workspace", async () => {
  const { root, outside } = await edgeTree();
  try {
    const fs = BackendFs.wrap(createDiskBackend());
    // outside/ holds files of the same names (f1.ts synchronously, big.ts the asynchronous way).
    await Deno.writeTextFile(`${outside}/f1.ts`, "find(needle, 'outside');\n");
    await Deno.writeTextFile(`${outside}/big.ts`, "find(needle, 'outside');\n".repeat(120_000));
    await Deno.writeTextFile(`${root}/src/deep/big.ts`, "x;\n".repeat(900_000));
    for (const cache of [undefined, new ReadCache(fs, { now: () => Date.now() + 60_000 })]) {
      const files = walkSearchFiles(new Stage(fs, new Sandbox(root)), cache ? { cache } : {});
      const listed = (await files.list!({ path: "", hidden: false, noIgnore: false })).map((f) => f.path);
      assert.ok(listed.includes("src/deep/f1.ts") && listed.includes("src/deep/big.ts"));
      await Deno.rename(`${root}/src/deep`, `${root}/src/deep_real`);
      await Deno.symlink(outside, `${root}/src/deep`); // between the listing and the reads
      try {
        const many = await files.readMany!(["src/deep/f1.ts", "src/deep/big.ts", "src/f2.ts"]);
        const one = await files.read("src/deep/f1.ts").catch(() => null);
        for (const got of [...many.slice(0, 2), one]) {
          const text = got === null || got === undefined ? "" : new TextDecoder().decode(got);
          assert.ok(!text.includes("outside"), `read out of the workspace (cache: ${cache !== undefined})`);
        }
        assert.deepEqual(many.slice(0, 2), [null, null], "counted unreadable");
        assert.equal(new TextDecoder().decode(many[2]!), "export const hay2 = 2;\n");
      } finally {
        await Deno.remove(`${root}/src/deep`);
        await Deno.rename(`${root}/src/deep_real`, `${root}/src/deep`);
        await cache?.close();
      }
    }
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("walk_files: a folder swapped for a link between its stat and its listing: none of the outside names are listed", async () => {
  const { root, outside } = await edgeTree();
  try {
    await Deno.mkdir(`${outside}/deep`);
    for (const name of ["secret_a.ts", "secret_b.ts"]) {
      await Deno.writeTextFile(`${outside}/deep/${name}`, "find(needle, 'outside');\n");
    }
    const disk = createDiskBackend();
    let swaps = 0;
    // The swap lands in the window between the walk's decision to list `src/deep` and the listing itself.
    const racing: Backend = {
      ...disk,
      readdirStated: Object.assign(async (path: string) => {
        if (path === `${root}/src/deep` && swaps++ === 0) {
          await Deno.rename(`${root}/src`, `${root}/src_real`);
          await Deno.symlink(outside, `${root}/src`);
        }
        return await disk.readdirStated!(path);
      }, { of: disk.readdir }),
    };
    const ws = await createWorkspace({ backend: racing, root, wasm: createWasmLoader() });
    try {
      const listed = await ws.call("list_files", { recursive: true });
      assert.ok(listed.ok, JSON.stringify(listed));
      const entries = listed.data["entries"] as string[];
      assert.ok(!entries.some((e) => e.includes("secret")), `outside names listed: ${entries.join(", ")}`);
      assert.ok(entries.includes("src/f0.ts"), "the folder's own files before the swap are listed");
      assert.deepEqual(listed.data["unreadable"], ["src/deep"]);
      assert.equal(swaps, 1);
      // Put back, a search lists the real folder; swapped again under it, its names never show.
      await Deno.remove(`${root}/src`);
      await Deno.rename(`${root}/src_real`, `${root}/src`);
      swaps = 0;
      const found = await ws.call("search_text", {
        pattern: "needle",
        literal: true,
        output_mode: "files_with_matches",
      });
      assert.ok(found.ok, JSON.stringify(found));
      const paths = (found.data["files"] as { path: string }[]).map((f) => f.path);
      assert.ok(!paths.some((p) => p.includes("secret")), paths.join(", "));
      assert.equal(swaps, 1);
    } finally {
      await ws.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("walk_files: a file swapped for a link after the listing is not read through it, batched or not, cached or not", async () => {
  const { root, outside } = await edgeTree();
  try {
    const fs = BackendFs.wrap(createDiskBackend());
    // big.ts is read asynchronously (past a turn's bytes), src/f7.ts synchronously: both ways are checked.
    for (const swapped of ["src/deep/f7.ts", "big.ts"]) {
      for (const cache of [undefined, new ReadCache(fs, { now: () => Date.now() + 60_000 })]) {
        const files = walkSearchFiles(new Stage(fs, new Sandbox(root)), cache ? { cache } : {});
        const listed = (await files.list!({ path: "", hidden: false, noIgnore: false })).map((f) => f.path);
        assert.ok(listed.includes(swapped));
        const kept = await Deno.readFile(`${root}/${swapped}`);
        await Deno.remove(`${root}/${swapped}`);
        await Deno.symlink(`${outside}/secret.ts`, `${root}/${swapped}`); // between the listing and the read
        try {
          const [many] = await files.readMany!([swapped]);
          const one = await files.read(swapped).catch(() => null);
          for (const got of [many, one]) {
            const text = got === null || got === undefined ? "" : new TextDecoder().decode(got);
            assert.ok(
              !text.includes("outside"),
              `${swapped} (cache: ${cache !== undefined}) read through the link`,
            );
          }
          assert.equal(many, null, "counted unreadable");
        } finally {
          await Deno.remove(`${root}/${swapped}`);
          await Deno.writeFile(`${root}/${swapped}`, kept);
          await cache?.close();
        }
      }
    }
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

/** hono's published package: a real tree of a few hundred files in some two hundred folders. */
const HONO = Deno.realPathSync(new URL("../../../node_modules/hono", import.meta.url).pathname);
const ALL: FileScope = { path: "", hidden: false, noIgnore: false };

/** Each run listRuns hands on, as paths; `each` runs after each run is taken (a slow consumer). */
async function runsOf(
  files: ReturnType<typeof walkSearchFiles>,
  each: (run: number) => Promise<void> | void = () => {},
): Promise<string[][]> {
  const runs: string[][] = [];
  for await (const run of files.listRuns!(ALL)) {
    runs.push(run.map((f) => f.path));
    await each(runs.length);
  }
  return runs;
}

Deno.test("walk_files: listRuns hands on the walk's files in runs as it finds them, in list's order, with list's counts", async () => {
  const fs = BackendFs.wrap(createDiskBackend());
  const whole = walkSearchFiles(new Stage(fs, new Sandbox(HONO)));
  const listed = (await whole.list!(ALL)).map((f) => f.path);
  assert.ok(listed.length > 500, `${listed.length} files`);
  for (const cache of [undefined, new ReadCache(fs)]) {
    const files = walkSearchFiles(new Stage(fs, new Sandbox(HONO)), cache ? { cache } : {});
    const runs = await runsOf(files);
    // 16 files, then twice as many each run up to 512, the rest last: a few runs, not one a folder.
    const sizes = runs.map((r) => r.length);
    assert.deepEqual(sizes, [16, 32, 64, 128, 256, listed.length - 496]);
    assert.deepEqual(runs.flat(), listed);
    await files.finished!();
    assert.deepEqual(files.skipped!(), whole.skipped!());
    // Each file handed on reads as the listing names it.
    const last = runs.at(-1)!.at(-1)!;
    assert.deepEqual(await files.read(last), await Deno.readFile(`${HONO}/${last}`));
    await cache?.close();
  }
});

Deno.test("walk_files: a consumer slower than the walk still gets every file", async () => {
  // The walk may end while a run is being handed on: the files it found after that run came last.
  const fs = BackendFs.wrap(createDiskBackend());
  const listed = (await walkSearchFiles(new Stage(fs, new Sandbox(HONO))).list!(ALL)).map((f) => f.path);
  const files = walkSearchFiles(new Stage(fs, new Sandbox(HONO)));
  const runs = await runsOf(
    files,
    (n) => n < 3 ? new Promise((resolve) => setTimeout(resolve, 30)) : undefined,
  );
  assert.deepEqual(runs.flat(), listed);
});

/** The first page of 3 matches of a text search for `return`: how many it found. */
async function searchTextPage(files: ReturnType<typeof walkSearchFiles>): Promise<number> {
  const r = await searchText(files, normalizeSearchTextArgs({ pattern: "return", max_results: 3 }));
  return r.matches?.length ?? 0;
}

/** A workspace whose JavaScript grammar is loaded (a session past its first search). */
const WARM = await (async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
  await ws.grammars!.parser("javascript").then((p) => p.delete());
  return ws;
})();

/** The first page of 3 matches of a structural search for `return $X` in JavaScript. */
async function searchStructuralPage(files: ReturnType<typeof walkSearchFiles>): Promise<number> {
  const query = normalizeStructuralArgs({ pattern: "return $X", language: "js", max_results: 3 });
  return (await searchStructural(files, query, { matcher: patternMatcherOf(WARM) })).matches?.length ?? 0;
}

/** The disk, counting the folders it lists. */
function countingDisk(): { fs: BackendFs; folders: () => number } {
  let folders = 0;
  const raw = BackendFs.wrap(createDiskBackend()).raw;
  const counted: Backend = { ...raw, readdir: (p, o) => (folders++, raw.readdir(p, o)) };
  if (raw.readdirStated) {
    counted.readdirStated = Object.assign((p: string) => (folders++, raw.readdirStated!(p)), {
      of: counted.readdir,
    });
  }
  return { fs: BackendFs.wrap(counted), folders: () => folders };
}

Deno.test("walk_files: a search that stops early stops the walk; the next one walks the whole tree", async () => {
  const listed =
    (await walkSearchFiles(new Stage(BackendFs.wrap(createDiskBackend()), new Sandbox(HONO))).list!(ALL))
      .map((f) => f.path);
  const { fs, folders } = countingDisk();
  const cache = new ReadCache(fs);
  try {
    const early = walkSearchFiles(new Stage(fs, new Sandbox(HONO)), { cache });
    for await (const run of early.listRuns!(ALL)) if (run.length > 0) break;
    await early.finished!(); // the walk has ended where it was stopped
    const stoppedAt = folders();
    assert.ok(
      stoppedAt > 0 && stoppedAt < 50,
      `${stoppedAt} folders listed for a search that took one run of ~200`,
    );
    // The stopped walk is not remembered as the tree: the next search lists it all.
    const next = walkSearchFiles(new Stage(fs, new Sandbox(HONO)), { cache });
    assert.deepEqual((await runsOf(next)).flat(), listed);
  } finally {
    await cache.close();
  }
  // A page of a text search and of a structural search stops the walk as well.
  for (const search of [searchTextPage, searchStructuralPage]) {
    const { fs, folders } = countingDisk();
    assert.equal(await search(walkSearchFiles(new Stage(fs, new Sandbox(HONO)))), 3);
    assert.ok(folders() < 100, `${search.name}: ${folders()} folders listed for a page of 3, of ~200`);
  }
});

Deno.test("walk_files: a walk the cache remembers comes whole, handed on in the same runs; a scope that names nothing is refused", async () => {
  const fs = BackendFs.wrap(createDiskBackend());
  const cache = new ReadCache(fs, { now: () => Date.now() + 10 * RACY_MS });
  try {
    const first = await runsOf(walkSearchFiles(new Stage(fs, new Sandbox(HONO)), { cache }));
    const again = await runsOf(walkSearchFiles(new Stage(fs, new Sandbox(HONO)), { cache }));
    assert.deepEqual(again, first);
    const missing = walkSearchFiles(new Stage(fs, new Sandbox(HONO)), { cache });
    await assert.rejects(async () => {
      for await (const _ of missing.listRuns!({ ...ALL, path: "nope" })) { /* nothing */ }
    }, { code: "not_found" });
  } finally {
    await cache.close();
  }
});

Deno.test("walk_files: a search that stops early counts what was left out up to where it stopped, cold or remembered alike", async () => {
  // Sixty folders, each with a file searched, a file .gitignore leaves out and a hidden one.
  const root = await Deno.makeTempDir({ prefix: "graver-walk-stop-counts-" });
  try {
    await Deno.writeTextFile(`${root}/.gitignore`, "*.log\n");
    for (let i = 0; i < 60; i++) {
      const dir = `${root}/d${String(i).padStart(2, "0")}`;
      await Deno.mkdir(dir);
      for (const name of ["a.ts", "b.log", ".hid"]) await Deno.writeTextFile(`${dir}/${name}`, "x\n");
    }
    await new Promise((resolve) => setTimeout(resolve, RACY_MS + 100)); // old enough for a cache to keep
    const fs = BackendFs.wrap(createDiskBackend());
    const cache = new ReadCache(fs);
    const stoppedAfterOneRun = async (files: ReturnType<typeof walkSearchFiles>) => {
      for await (const run of files.listRuns!(ALL)) if (run.length > 0) break;
      await files.finished!();
      return files.skipped!();
    };
    try {
      const cold = await stoppedAfterOneRun(walkSearchFiles(new Stage(fs, new Sandbox(root))));
      await runsOf(walkSearchFiles(new Stage(fs, new Sandbox(root)), { cache })); // the walk remembered
      const warm = await stoppedAfterOneRun(walkSearchFiles(new Stage(fs, new Sandbox(root)), { cache }));
      const whole = walkSearchFiles(new Stage(fs, new Sandbox(root)));
      await runsOf(whole);
      await whole.finished!();
      // The first run is 16 files, d00/a.ts … d15/a.ts: before the last, 16 .log files and 17 hidden ones
      // (the root's .gitignore and d00 … d15's .hid).
      assert.deepEqual(cold, { ignored: 16 + 17, unreadable: 0 });
      assert.deepEqual(warm, cold);
      assert.deepEqual(whole.skipped!(), { ignored: 60 + 61, unreadable: 0 });
    } finally {
      await cache.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("walk_files: a scope named through a link is walked where the link leads inside the root, and refused as a link when it leads out", async () => {
  const root = await tree();
  const outside = await Deno.makeTempDir({ prefix: "graver-walk-files-out-" });
  try {
    await Deno.writeTextFile(`${outside}/secret.ts`, "secret\n");
    await Deno.symlink(`${root}/src`, `${root}/via`); // a folder inside the root, named through a link
    await Deno.symlink(outside, `${root}/out_link`);
    await Deno.symlink(`${outside}/secret.ts`, `${root}/out_file.ts`);
    // Before: the walk started at the link's own path and its listing, landing in `src`, was refused ELOOP.
    assert.deepEqual((await listed(root, { path: "via" })).paths, ["src/b.ts"]);
    for await (
      const f of walkSearchFiles(new Stage(BackendFs.wrap(createDiskBackend()), new Sandbox(root))).files({
        path: "via",
        hidden: false,
        noIgnore: false,
      })
    ) assert.equal(f.path, "src/b.ts");
    for (const path of ["out_link", "out_file.ts"]) {
      await assert.rejects(
        () => listed(root, { path }),
        (err: Error & { code?: string }) =>
          err.code === "sandbox_violation" && err.message.includes("outside the workspace root"),
        `${path}: refused as a link leading out, not "no such file"`,
      );
    }
    await assert.rejects(
      () => listed(root, { path: "nothing" }),
      (err: Error & { code?: string }) => err.code === "not_found",
    );
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("walk_files: a search handed its files as the walk found them does not stat them all again once it ends", async () => {
  const root = await Deno.makeTempDir({ prefix: "graver-walk-files-prime-" });
  try {
    for (let d = 0; d < 120; d++) {
      await Deno.mkdir(`${root}/d${d}`);
      for (let f = 0; f < 2; f++) {
        await Deno.writeTextFile(`${root}/d${d}/f${f}.ts`, `export const x${f} = ${d};\n`);
      }
    }
    const disk = createDiskBackend();
    const primed: string[] = [];
    const counting: Backend = {
      ...disk,
      // The files stat'ed together (a prime's batch); a file's own read stats it alone.
      statMany: (
        paths: readonly string[],
      ) => (paths.length > 1 && primed.push(...paths.filter((p) => p.endsWith(".ts"))),
        disk.statMany!(paths)),
    };
    const fs = BackendFs.wrap(counting);
    const cache = new ReadCache(fs);
    try {
      for (const round of ["cold", "after a change"]) {
        primed.length = 0;
        const files = walkSearchFiles(new Stage(fs, new Sandbox(root)), { cache });
        let read = 0;
        for await (const run of files.listRuns!({ path: "", hidden: false, noIgnore: false })) {
          for (const f of run) read += (await files.read(f.path)).length > 0 ? 1 : 0;
        }
        await files.finished!();
        assert.equal(read, 240, round);
        // Before: the prime at the walk's end stat'ed every file the search had read already (240 paths).
        assert.equal(primed.length, 0, `${round}: ${primed.length} paths primed after they were read`);
        await Deno.writeTextFile(`${root}/d0/f0.ts`, "export const x0 = 99;\n");
        await new Promise((resolve) => setTimeout(resolve, RACY_MS + 50));
      }
    } finally {
      await cache.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
