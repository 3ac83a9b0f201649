import assert from "node:assert/strict";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";
import { type Backend, BackendFs } from "../../../src/fs/backend.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { RACY_MS, ReadCache } from "../../../src/project/read_cache.ts";
import { readCacheOf } from "../../../src/project/session_caches.ts";
import { createWorkspace } from "../../../src/mod.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import { Stage } from "../../../src/fs/stage.ts";
import { openProject } from "../../../src/project/project_view.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();
/** A clock far enough ahead that every file looks old (its stat trusted). */
const LATER = () => Date.now() + 10 * RACY_MS;

/** A backend that counts reads, stats and listings. */
function counting(raw: Backend): { backend: Backend; calls: Record<string, number> } {
  const calls: Record<string, number> = { readFile: 0, stat: 0, readdir: 0, statMany: 0 };
  const backend: Backend = {
    ...raw,
    readFile: (p) => (calls.readFile!++, raw.readFile(p)),
    stat: (p) => (calls.stat!++, raw.stat(p)),
    readdir: (p, o) => (calls.readdir!++, raw.readdir(p, o)),
  };
  if (raw.statMany) backend.statMany = (ps) => (calls.statMany!++, raw.statMany!(ps));
  // A read of real paths goes through readManyStated where the backend has it: each path is one read.
  if (raw.readManyStated) {
    backend.readManyStated = (ps) => (calls.readFile! += ps.length, raw.readManyStated!(ps));
  }
  return { backend, calls };
}

Deno.test("ReadCache: an unchanged file is the same bytes without a read; a change is read", async () => {
  const raw = createMemoryBackend({ "/w/a.ts": "one\n" });
  const { backend, calls } = counting(raw);
  const cache = new ReadCache(BackendFs.wrap(backend), { now: LATER });
  const first = await cache.read("/w/a.ts");
  assert.equal(await cache.read("/w/a.ts"), first);
  assert.equal(calls.readFile, 1);
  await raw.writeFile("/w/a.ts", enc.encode("one, then two\n"));
  assert.equal(dec.decode((await cache.read("/w/a.ts"))!), "one, then two\n");
  assert.equal(calls.readFile, 2);
  assert.equal(await cache.read("/w/absent.ts"), null);
  assert.deepEqual({ ...cache.counts(), bytes: 0 }, {
    hits: 1,
    misses: 3,
    files: 1,
    bytes: 0,
    folders: 0,
    walks: 0,
  });
});

Deno.test("ReadCache: a file changed just before its read is read again next time (racily clean)", async () => {
  const raw = createMemoryBackend({ "/w/a.ts": "one\n" });
  const { backend, calls } = counting(raw);
  const cache = new ReadCache(BackendFs.wrap(backend)); // the real clock: the file is seconds old at most
  await cache.read("/w/a.ts");
  await cache.read("/w/a.ts");
  assert.equal(calls.readFile, 2);
  assert.equal(cache.counts().files, 0);
});

Deno.test("ReadCache: at most maxBytes are held, the least recently used going first", async () => {
  const raw = createMemoryBackend({ "/w/a": "aaaa", "/w/b": "bbbb", "/w/c": "cccc" });
  const cache = new ReadCache(BackendFs.wrap(raw), { now: LATER, maxBytes: 8 });
  await cache.read("/w/a");
  await cache.read("/w/b");
  await cache.read("/w/a"); // a is now the most recent
  await cache.read("/w/c"); // b goes
  assert.deepEqual(cache.counts(), { hits: 1, misses: 3, files: 2, bytes: 8, folders: 0, walks: 0 });
  await cache.read("/w/a");
  assert.equal(cache.counts().hits, 2);
});

Deno.test("ReadCache: an unchanged folder keeps its listing; an added entry is seen", async () => {
  const raw = createMemoryBackend({ "/w/a.ts": "", "/w/sub/b.ts": "" });
  const { backend, calls } = counting(raw);
  const cache = new ReadCache(BackendFs.wrap(backend), { now: LATER });
  const first = await cache.listTyped("/w");
  assert.deepEqual(first, [{ name: "a.ts", kind: "file" }, { name: "sub", kind: "dir" }]);
  assert.equal(await cache.listTyped("/w"), first);
  assert.equal(calls.readdir, 1);
  await new Promise((r) => setTimeout(r, 5)); // a later modification time for the folder
  await raw.writeFile("/w/c.ts", enc.encode(""));
  assert.deepEqual((await cache.listTyped("/w")).map((e) => e.name), ["a.ts", "c.ts", "sub"]);
  assert.equal(calls.readdir, 2);
});

Deno.test("ReadCache.prime: one statMany call stands in for a stat per file on the disk", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const n of ["a", "b", "c"]) await Deno.writeTextFile(`${dir}/${n}.ts`, n);
    const { backend, calls } = counting(createDiskBackend());
    const cache = new ReadCache(BackendFs.wrap(backend), { now: LATER });
    const paths = ["a", "b", "c"].map((n) => `${dir}/${n}.ts`);
    for (const p of paths) await cache.read(p);
    await cache.prime(paths);
    for (const p of paths) assert.equal(dec.decode((await cache.read(p))!), p.slice(-4, -3));
    // Each first read stats its own file (a statMany of one), prime the three kept ones in one call, and the
    // second reads none.
    assert.deepEqual(calls, { readFile: 3, stat: 0, readdir: 0, statMany: 4 });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

for (const stated of [true, false]) {
  const how = stated
    ? "each with the stat its read took"
    : "each stat'ed first (a backend without readManyStated)";
  Deno.test(`ReadCache.readMany: what read answers for each file, the same kept, one backend read for the rest, ${how}`, async () => {
    await readManyAnswersAsReadDoes(stated);
  });
}

async function readManyAnswersAsReadDoes(stated: boolean): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    for (const n of ["a", "b", "c"]) await Deno.writeTextFile(`${dir}/${n}.ts`, n);
    await Deno.mkdir(`${dir}/sub`);
    const raw = createDiskBackend();
    let batches = 0;
    const { backend, calls } = counting(raw);
    backend.readMany = (ps) => (batches++, raw.readMany!(ps));
    const countedStated = backend.readManyStated;
    if (stated) backend.readManyStated = (ps) => (batches++, countedStated!(ps));
    else delete backend.readManyStated;
    const cache = new ReadCache(BackendFs.wrap(backend), { now: LATER });
    const [a, b, c] = ["a", "b", "c"].map((n) => `${dir}/${n}.ts`) as [string, string, string];
    const first = await cache.read(a);
    batches = 0; // a's own read (a stated read of one where the backend has them) is not the batch
    await cache.prime([a, b]);
    const got = await cache.readMany([a, b, c, `${dir}/sub`, `${dir}/gone.ts`]);
    assert.equal(got[0], first, "a kept file is the same array");
    assert.deepEqual(got.slice(1, 3).map((x) => dec.decode(x as Uint8Array)), ["b", "c"]);
    assert.equal((got[3] as { code?: string }).code, "EISDIR", "a folder fails as read fails");
    assert.equal(got[4], null);
    assert.equal(batches, 1, "b, c, the folder and the absent file in one read of the backend");
    // a's read stats it; prime stats a, the one file kept (nothing is kept of b); without stated reads, one
    // call for the paths it did not prime (b, c, the folder, the absent file), which a stated read saves.
    // (A stated read counts each of its paths as a read: a's, and then the batch's four.)
    assert.deepEqual({ readFile: calls.readFile, statMany: calls.statMany }, {
      readFile: stated ? 5 : 1,
      statMany: stated ? 2 : 3,
    });
    // What readMany read was kept under read's rules: the next reads are hits, and a change is seen.
    const [b2, c2] = await cache.readMany([b, c]);
    assert.equal(b2, got[1]);
    assert.equal(c2, got[2]);
    assert.equal(batches, 1);
    await Deno.writeTextFile(c, "c, longer");
    assert.equal(dec.decode((await cache.readMany([c]))[0] as Uint8Array), "c, longer");
    assert.equal(batches, 2);
    // A file changed just before its read is not kept (racily clean), as read does not keep it.
    const racy = new ReadCache(BackendFs.wrap(raw)); // the real clock: the files are seconds old at most
    await racy.readMany([a, b]);
    assert.equal(racy.counts().files, 0);
    // Over a backend without readMany, each file is read as read reads it.
    const memory = new ReadCache(BackendFs.wrap(createMemoryBackend({ "/w/a.ts": "one\n" })), { now: LATER });
    const [one, absent] = await memory.readMany(["/w/a.ts", "/w/none.ts"]);
    assert.equal(dec.decode(one as Uint8Array), "one\n");
    assert.equal(absent, null);
    assert.equal((await memory.readMany(["/w/a.ts"]))[0], one);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("ReadCache.held: a primed, unchanged file's kept bytes without a promise; anything else left for read", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const n of ["a", "b"]) await Deno.writeTextFile(`${dir}/${n}.ts`, n);
    const { backend, calls } = counting(createDiskBackend());
    const cache = new ReadCache(BackendFs.wrap(backend), { now: LATER });
    const [a, b] = ["a", "b"].map((n) => `${dir}/${n}.ts`) as [string, string];
    const first = await cache.read(a);
    await cache.read(b);
    assert.equal(cache.held(a), undefined, "no primed stat: no answer");
    await Deno.writeTextFile(b, "b, longer");
    await cache.prime([a, b, `${dir}/c.ts`]);
    assert.equal(cache.held(a), first);
    assert.equal(cache.held(a), undefined, "the primed stat is used once");
    assert.equal(cache.held(b), undefined, "changed since it was read");
    assert.equal(cache.held(`${dir}/c.ts`), undefined, "never read");
    assert.equal(dec.decode((await cache.read(b))!), "b, longer");
    // b's read used the stat prime took (held left it): the first reads' two, prime's one (a and b: c is not
    // kept, so not primed).
    assert.deepEqual(calls, { readFile: 3, stat: 0, readdir: 0, statMany: 3 });
    assert.equal(cache.counts().hits, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("search_text in a warm session sees a file changed outside graver, and edits never read the cache", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.ts`, "const needle = 1;\n");
    const old = new Date(Date.now() - 60_000);
    await Deno.utime(`${dir}/a.ts`, old, old);
    await new Promise((r) => setTimeout(r, RACY_MS + 100)); // its change time old enough for it to be kept
    const ws = await createWorkspace({ backend: createDiskBackend(), root: dir });
    const search = async () => {
      const r = await ws.call("search_text", { pattern: "needle" });
      assert.ok(r.ok);
      return (r.data as { matches: { text: string; version: string }[] }).matches;
    };
    const first = await search();
    const hits = readCacheOf(ws.fs).counts().hits;
    assert.equal((await search())[0]!.version, first[0]!.version);
    assert.equal(readCacheOf(ws.fs).counts().hits, hits + 1); // the second search did not read the file
    // Changed outside graver, same size and an old modification time again: only the change time tells.
    await Deno.writeTextFile(`${dir}/a.ts`, "const needle = 2;\n");
    await Deno.utime(`${dir}/a.ts`, old, old);
    const after = await search();
    assert.equal(after[0]!.text, "const needle = 2;");
    assert.notEqual(after[0]!.version, first[0]!.version);
    // An edit with the version a search gave is checked against the bytes on disk.
    const edit = await ws.call("edit_replace_text", {
      pattern: "needle",
      replacement: "pin",
      literal: true,
    });
    assert.ok(edit.ok, JSON.stringify(edit));
    assert.equal(await Deno.readTextFile(`${dir}/a.ts`), "const pin = 2;\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** The files a listing through the cache finds, and how many folders the backend listed for it. */
async function listed(
  raw: Backend,
  cache: ReadCache,
  calls: Record<string, number>,
): Promise<{ files: string[]; readdirs: number }> {
  const before = calls.readdir!;
  const stage = new Stage(BackendFs.wrap(raw), new Sandbox("/w"));
  const l = await openProject({ stage }).list({ limit: Infinity, cache, ignoreFiles: [".gitignore"] });
  return { files: l.files, readdirs: calls.readdir! - before };
}

Deno.test("ReadCache: a walk is answered from memory while no folder and no ignore file it read has changed", async () => {
  const raw = createMemoryBackend({ "/w/a.ts": "", "/w/src/b.ts": "", "/w/src/.gitignore": "gen.ts\n" });
  const { backend, calls } = counting(raw);
  const cache = new ReadCache(BackendFs.wrap(backend), { now: LATER });
  const first = await listed(backend, cache, calls);
  assert.deepEqual(first.files, ["a.ts", "src/.gitignore", "src/b.ts"]);
  assert.equal(first.readdirs, 2);
  assert.deepEqual(await listed(backend, cache, calls), { files: first.files, readdirs: 0 });
  assert.equal(cache.counts().walks, 1);
  // A file added to a subfolder changes that folder's modification time: the walk is made again.
  await new Promise((r) => setTimeout(r, 5));
  await raw.writeFile("/w/src/c.ts", enc.encode(""));
  assert.deepEqual((await listed(backend, cache, calls)).files, [...first.files, "src/c.ts"]);
  // An ignore file rewritten in place (no folder changes): its own stamp tells.
  await new Promise((r) => setTimeout(r, 5));
  await raw.writeFile("/w/src/.gitignore", enc.encode("c.ts\n"));
  assert.deepEqual((await listed(backend, cache, calls)).files, first.files);
});

Deno.test("ReadCache: a walk that followed a link is never answered from memory", async () => {
  const raw = createMemoryBackend({ "/w/a.ts": "", "/w/lib/b.ts": "" });
  await (raw as unknown as { symlink(t: string, p: string): Promise<void> }).symlink("lib", "/w/link");
  const { backend, calls } = counting(raw);
  const cache = new ReadCache(BackendFs.wrap(backend), { now: LATER });
  await listed(backend, cache, calls);
  assert.equal(cache.counts().walks, 0);
  assert.ok((await listed(backend, cache, calls)).files.includes("lib/b.ts"));
});

Deno.test("ReadCache: a stage forked from one with staged writes is walked, never answered from memory", async () => {
  const raw = createMemoryBackend({ "/w/a.ts": "" });
  const { backend, calls } = counting(raw);
  const cache = new ReadCache(BackendFs.wrap(backend), { now: LATER });
  await listed(backend, cache, calls);
  assert.equal(cache.counts().walks, 1);
  const parent = new Stage(BackendFs.wrap(raw), new Sandbox("/w"));
  await parent.write("new.ts", enc.encode("staged\n"));
  const child = parent.fork();
  const l = await openProject({ stage: child }).list({ limit: Infinity, cache, ignoreFiles: [".gitignore"] });
  assert.deepEqual(l.files, ["a.ts", "new.ts"]);
});

Deno.test("ReadCache: a walk remembered under one root is not the answer for the same folder under another root", async () => {
  const raw = createMemoryBackend({ "/w/b/x.ts": "x\n" });
  const fs = BackendFs.wrap(raw);
  const cache = new ReadCache(fs, { now: LATER });
  const outer = await openProject({ stage: new Stage(fs, new Sandbox("/w")) }).list({
    under: "b",
    limit: Infinity,
    cache,
  });
  const inner = await openProject({ stage: new Stage(fs, new Sandbox("/w/b")) }).list({
    limit: Infinity,
    cache,
  });
  assert.deepEqual(outer.files, ["b/x.ts"]);
  assert.deepEqual(inner.files, ["x.ts"], "named relative to its own root");
});

Deno.test("ReadCache: a search over more than the bound keeps what it read first instead of cycling everything through (scan resistance)", async () => {
  const files: Record<string, string> = {};
  for (const n of ["a", "b", "c", "d", "e"]) files[`/w/${n}`] = n.repeat(4);
  const { backend, calls } = counting(createMemoryBackend(files));
  const cache = new ReadCache(BackendFs.wrap(backend), { now: LATER, maxBytes: 8 });
  const paths = Object.keys(files);
  const search = async () => {
    await cache.prime(paths);
    for (const p of paths) await cache.read(p);
  };
  await search(); // a and b are kept; c, d, e do not push them out
  assert.deepEqual({ files: cache.counts().files, bytes: cache.counts().bytes }, { files: 2, bytes: 8 });
  const readsBefore = calls.readFile!;
  await search();
  await search();
  // Each later search hits a and b and reads only c, d and e (an LRU would have read all five each time).
  assert.equal(calls.readFile! - readsBefore, 6);
  assert.equal(cache.counts().hits, 4);
  // Files the searches no longer use can still go: two searches of other files replace them (the first of
  // those leaves what the search before it used).
  for (let i = 0; i < 2; i++) {
    await cache.prime(["/w/c", "/w/d"]);
    await cache.read("/w/c");
    await cache.read("/w/d");
  }
  assert.equal(cache.counts().files, 2);
  const again = calls.readFile!;
  await cache.prime(["/w/c"]);
  await cache.read("/w/c");
  assert.equal(calls.readFile, again, "c is kept now");
});

Deno.test("ReadCache: a changed file does not push out the next files a warm search reuses (no cascade of misses)", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 10; i++) files[`/w/f${i}`] = String(i).repeat(4);
  const raw = createMemoryBackend(files);
  const { backend, calls } = counting(raw);
  const cache = new ReadCache(BackendFs.wrap(backend), { now: LATER, maxBytes: 20 }); // five of the ten
  const paths = Object.keys(files);
  const search = async () => {
    await cache.prime(paths);
    for (const p of paths) await cache.read(p);
  };
  await search(); // f0..f4 kept
  await raw.writeFile("/w/f0", new TextEncoder().encode("0".repeat(8))); // grown: read again
  const hits = cache.counts().hits;
  const reads = calls.readFile!;
  await search();
  assert.equal(cache.counts().hits - hits, 4, "f1..f4 are hits: the changed f0 pushed none of them out");
  assert.equal(calls.readFile! - reads, 6, "f0 and f5..f9");
  assert.ok(cache.counts().bytes <= 20);
});

Deno.test("a workspace with readCache: false searches without a stat of each folder and file, and finds the same", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "graver-nocache-" }));
  try {
    await Deno.mkdir(`${root}/src/deep`, { recursive: true });
    await Deno.writeTextFile(`${root}/a.ts`, "const needle = 1;\n");
    await Deno.writeTextFile(`${root}/src/b.ts`, "no\n");
    await Deno.writeTextFile(`${root}/src/deep/c.ts`, "needle();\n");
    await Deno.writeTextFile(`${root}/.gitignore`, "skip.ts\n");
    await Deno.writeTextFile(`${root}/skip.ts`, "needle\n");
    const found = async (readCache: boolean) => {
      const { backend, calls } = counting(createDiskBackend());
      const ws = await createWorkspace({ backend, root, readCache, watch: false });
      const res = await ws.call("search_text", { pattern: "needle" });
      await ws.close();
      assert.ok(res.ok);
      return { matches: res.data["matches"], calls };
    };
    const cached = await found(true);
    const uncached = await found(false);
    assert.deepEqual(uncached.matches, cached.matches);
    assert.deepEqual((uncached.matches as { path: string }[]).map((m) => m.path), ["a.ts", "src/deep/c.ts"]);
    assert.ok(cached.calls.statMany! > 0, "a cached search stats what it lists, for its next search");
    assert.equal(uncached.calls.statMany, 0, "nothing to stat for: no next search");
    const stats = (c: Record<string, number>) => (c.stat ?? 0) + (c.statMany ?? 0);
    assert.ok(
      stats(uncached.calls) < stats(cached.calls),
      `${stats(uncached.calls)} stat calls against ${stats(cached.calls)}`,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("ReadCache: a stat an earlier search primed and did not use is not taken by the next search's reads", async () => {
  // A search's reads may come before its own prime (a walk that hands on files as it finds them): the stat
  // primed by the search before, taken before the file changed, must not vouch for the kept bytes.
  const dir = await Deno.makeTempDir({ prefix: "graver-read-cache-" });
  try {
    const a = `${dir}/a.ts`;
    await Deno.writeTextFile(a, "one\n");
    const cache = new ReadCache(BackendFs.wrap(createDiskBackend()), { now: LATER });
    await cache.read(a); // kept
    await cache.sync(dir);
    await cache.prime([a]); // that search ends without reading it
    await Deno.writeTextFile(a, "one, then two\n");
    await cache.sync(dir); // the next search begins, and reads before it primes
    assert.equal(dec.decode((await cache.read(a))!), "one, then two\n");
    await cache.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
