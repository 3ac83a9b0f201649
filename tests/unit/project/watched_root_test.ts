import assert from "node:assert/strict";
import { type Backend, BackendFs, type ChangeListener } from "../../../src/fs/backend.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { WatchedRoot } from "../../../src/project/watched_root.ts";

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
  const watched = WatchedRoot.open(fs, { root: "/w", folders: ["/w/src"] }, () => changes++)!;
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
  const watched = WatchedRoot.open(fs, { root: "/w", folders: [] }, () => changes++)!;
  emit(null);
  assert.equal(changes, 1);
  assert.equal(watched.live, false);
  assert.equal(state.closed, 1);
  assert.equal(await watched.sync(), false);
  emit(["/w/a.ts"]);
  assert.equal(changes, 1, "nothing is counted after death");
});

Deno.test("WatchedRoot.open: null without watchFolders, or when the watch cannot be set up", () => {
  assert.equal(
    WatchedRoot.open(BackendFs.wrap(createMemoryBackend({})), { root: "/w", folders: [] }, () => {}),
    null,
  );
  const failing: Backend = {
    ...createMemoryBackend({}),
    watchFolders: () => {
      throw Object.assign(new Error("ENOSPC: inotify watch limit reached"), { code: "ENOSPC" });
    },
  };
  assert.equal(WatchedRoot.open(BackendFs.wrap(failing), { root: "/w", folders: [] }, () => {}), null);
});
