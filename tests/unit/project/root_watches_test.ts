/** A read cache's watches of its roots, on the real disk: when a root is watched, what a watch covers. */
import assert from "node:assert/strict";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";
import { BackendFs } from "../../../src/fs/backend.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { RootWatches } from "../../../src/project/root_watches.ts";

const fs = BackendFs.wrap(createDiskBackend());
const statAll = (paths: readonly string[]) => Promise.all(paths.map((p) => fs.raw.stat(p).catch(() => null)));

Deno.test("RootWatches: a root is watched from the search watchAfter names; a watch covers its folders and counts changes", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "graver-roots-" }));
  await Deno.mkdir(`${root}/src`);
  const roots = new RootWatches(fs, { watchAfter: 1 });
  try {
    const listings = { listed: 2, folders: () => [root, `${root}/src`], statAll };
    assert.equal(await roots.afterWalk(root, listings), false, "the first search ends: not yet");
    assert.equal(await roots.afterWalk(root, listings), true, "the second: watched");
    assert.equal(await roots.afterWalk(root, listings), false, "nothing new listed: the same watch");
    assert.ok(roots.covers(`${root}/src`));
    assert.equal(roots.covers(`${root}/other`), false);
    const watch = (await roots.of(root))!;
    const before = roots.count.changes;
    await Deno.writeTextFile(`${root}/src/a.ts`, "x\n");
    assert.equal(await watch.sync(30_000), true);
    assert.ok(roots.count.changes > before, "the change is counted");
    await roots.close();
    assert.equal(roots.covers(`${root}/src`), false);
    assert.equal(await roots.of(root), null);
  } finally {
    await roots.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("RootWatches: a new watch crosses its first barrier while it is set up, off the next search's path", async () => {
  const barriers: string[] = [];
  const raw = createDiskBackend();
  const counting = {
    ...raw,
    watchFolders: (folders: readonly string[], onChange: (paths: readonly string[] | null) => void) => {
      const feed = raw.watchFolders!(folders, onChange);
      return {
        sync: (waitMs?: number) => (barriers.push("sync"), feed.sync(waitMs)),
        close: () => feed.close(),
      };
    },
  };
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "graver-roots-" }));
  const roots = new RootWatches(BackendFs.wrap(counting), { watchAfter: 0 });
  try {
    const listings = { listed: 1, folders: () => [root], statAll };
    assert.equal(await roots.afterWalk(root, listings), true);
    assert.deepEqual(barriers, ["sync"], "crossed once in the set-up");
    assert.equal(await (await roots.of(root))!.sync(30_000), true);
  } finally {
    await roots.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("RootWatches: past maxWatched folders a root is not watched", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "graver-roots-" }));
  const roots = new RootWatches(fs, { watchAfter: 0, maxWatched: 1 });
  try {
    const listings = { listed: 2, folders: () => [root, `${root}/x`], statAll };
    assert.equal(await roots.afterWalk(root, listings), false);
    assert.equal(roots.covers(root), false);
  } finally {
    await roots.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("RootWatches: a file's folder cover is remembered while nothing changed, and asked again once a watch ends", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "graver-roots-" }));
  await Deno.mkdir(`${root}/src`);
  const roots = new RootWatches(fs, { watchAfter: 0 });
  try {
    assert.equal(roots.coversFolderOf(`${root}/src/a.ts`), false, "no watch yet");
    assert.equal(
      await roots.afterWalk(root, { listed: 2, folders: () => [root, `${root}/src`], statAll }),
      true,
    );
    assert.equal(roots.coversFolderOf(`${root}/src/a.ts`), true, "the watch began: asked again");
    assert.equal(roots.coversFolderOf(`${root}/src/a.ts`), true);
    assert.equal(roots.coversFolderOf(`${root}/lib/b.ts`), false);
    await roots.close();
    assert.equal(roots.coversFolderOf(`${root}/src/a.ts`), false, "the watch ended: asked again");
  } finally {
    await roots.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("RootWatches: a set-up left due runs once the search has ended, or at the next search; none where no watch is ever made", async () => {
  const ran: string[] = [];
  const setUp = (name: string) => () => Promise.resolve(void ran.push(name));
  const disk = new RootWatches(BackendFs.wrap(createDiskBackend()), { watchAfter: 0 });
  disk.due(setUp("ended"));
  disk.idle();
  assert.deepEqual(ran, [], "not on the search's path");
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(ran, ["ended"]);
  disk.due(setUp("next search"));
  await disk.settle(); // the next search began before the search's end was told
  assert.deepEqual(ran, ["ended", "next search"]);
  disk.due(setUp("closed"));
  await disk.close();
  await disk.settle();
  assert.deepEqual(ran, ["ended", "next search"], "a closed cache drops what is due");
  for (
    const roots of [
      new RootWatches(BackendFs.wrap(createMemoryBackend({})), { watchAfter: 0 }),
      new RootWatches(BackendFs.wrap(createDiskBackend()), { watchAfter: Infinity }),
    ]
  ) {
    roots.due(setUp("never"));
    roots.idle(); // no timer is left (the test's sanitizer would see one)
    await roots.settle();
  }
  assert.deepEqual(ran, ["ended", "next search"]);
});

Deno.test("RootWatches: a watch failed by a folder gone since it was listed is made over those still there; failed otherwise, it is tried once", async () => {
  const raw = createDiskBackend();
  const asked: string[][] = [];
  let refuse = false;
  const watching = {
    ...raw,
    watchFolders: (folders: readonly string[], onChange: (paths: readonly string[] | null) => void) => {
      asked.push([...folders]);
      if (!refuse) return raw.watchFolders!(folders, onChange);
      return { sync: () => Promise.resolve(false), close: () => {}, ready: Promise.resolve(false) };
    },
  };
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "graver-roots-" }));
  await Deno.mkdir(`${root}/kept`);
  const roots = new RootWatches(BackendFs.wrap(watching), { watchAfter: 0 });
  try {
    const gone = { listed: 1, folders: () => [root, `${root}/kept`, `${root}/gone`], statAll };
    assert.equal(await roots.afterWalk(root, gone), true);
    assert.deepEqual(asked.map((f) => f.filter((p) => p.startsWith(root))), [
      [root, `${root}/kept`, `${root}/gone`],
      [root, `${root}/kept`],
    ]);
    assert.ok(roots.covers(`${root}/kept`));
    refuse = true; // a limit reached, a flooded watcher: every folder is still there
    asked.length = 0;
    const more = { listed: 2, folders: () => [root, `${root}/kept`, `${root}/gone`], statAll };
    await Deno.mkdir(`${root}/gone`);
    assert.equal(await roots.afterWalk(root, more), false);
    assert.equal(asked.length, 1, "not tried again at once");
  } finally {
    await roots.close();
    await Deno.remove(root, { recursive: true });
  }
});
