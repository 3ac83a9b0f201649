import assert from "node:assert/strict";
import { type Backend, BackendFs, type ChangeListener } from "../../../src/fs/backend.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { readyWithinMs, WatchedRoot } from "../../../src/project/watched_root.ts";

/** A memory backend whose watch the test drives: `emit(paths)` reports a change, `caughtUp` is the barrier. */
function drivenBackend() {
  const raw = createMemoryBackend({ "/w/a.ts": "a\n" });
  const state = {
    listener: null as ChangeListener | null,
    caughtUp: true,
    closed: 0,
    folders: [] as string[],
  };
  const backend: Backend = {
    ...raw,
    watchFolders(folders, onChange) {
      state.folders = [...folders];
      state.listener = onChange;
      return { sync: () => Promise.resolve(state.caughtUp), close: () => void state.closed++ };
    },
  };
  return { fs: BackendFs.wrap(backend), state, emit: (paths: string[] | null) => state.listener!(paths) };
}

Deno.test("WatchedRoot: counts changes outside .graver/, and syncs through the feed's barrier", async () => {
  const { fs, state, emit } = drivenBackend();
  let changes = 0;
  const watched = (await WatchedRoot.open(fs, { root: "/w", folders: ["/w/src"] }, () => changes++))!;
  assert.deepEqual(state.folders.sort(), ["/w", "/w/src"], "the root is always watched");
  emit(["/w/.graver/journal.json"]);
  emit(["/w/.graver"]);
  assert.equal(changes, 0, "graver's own folder is not the project");
  emit(["/w/a.ts"]);
  emit(["/w/.graver/x", "/w/b.ts"]);
  emit([]);
  assert.equal(changes, 3, "a change, a rename naming one project path, a change that names no path");
  assert.equal(await watched.sync(), true);
  state.caughtUp = false;
  assert.equal(await watched.sync(), false);
  watched.close();
});

Deno.test("WatchedRoot: a feed that lost changes is dead for good (counted once, closed, syncs false)", async () => {
  const { fs, state, emit } = drivenBackend();
  let changes = 0;
  const watched = (await WatchedRoot.open(fs, { root: "/w", folders: [] }, () => changes++))!;
  emit(null);
  assert.equal(changes, 1);
  assert.equal(watched.live, false);
  assert.equal(state.closed, 1);
  assert.equal(await watched.sync(), false);
  emit(["/w/a.ts"]);
  assert.equal(changes, 1, "nothing is counted after death");
});

Deno.test("WatchedRoot.open: null without watchFolders, or when the watch cannot be set up", async () => {
  assert.equal(
    await WatchedRoot.open(BackendFs.wrap(createMemoryBackend({})), { root: "/w", folders: [] }, () => {}),
    null,
  );
  const failing: Backend = {
    ...createMemoryBackend({}),
    watchFolders: () => {
      throw Object.assign(new Error("ENOSPC: inotify watch limit reached"), { code: "ENOSPC" });
    },
  };
  assert.equal(await WatchedRoot.open(BackendFs.wrap(failing), { root: "/w", folders: [] }, () => {}), null);
});

Deno.test("WatchedRoot.open: a feed set up asynchronously counts once ready; one that fails or is not ready in time is closed, null", async () => {
  let closed = 0;
  const feedWith = (ready: Promise<boolean>): Backend => ({
    ...createMemoryBackend({}),
    watchFolders: () => ({ sync: () => Promise.resolve(true), close: () => void closed++, ready }),
  });
  const open = (backend: Backend) =>
    WatchedRoot.open(BackendFs.wrap(backend), { root: "/w", folders: [] }, () => {});
  const ready = await open(feedWith(Promise.resolve(true)));
  assert.ok(ready?.live, "in place");
  assert.equal(closed, 0);
  assert.equal(await open(feedWith(Promise.resolve(false))), null, "its set-up failed");
  assert.equal(closed, 1, "and the feed is closed");
  const before = performance.now();
  assert.equal(
    await open(feedWith(new Promise<boolean>(() => {}))),
    null,
    "never in place: a flooded watcher",
  );
  assert.equal(closed, 2);
  assert.ok(performance.now() - before >= readyWithinMs(1) - 50, "waited its bound, no less");
  ready!.close();
});
