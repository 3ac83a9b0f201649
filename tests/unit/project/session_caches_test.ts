/** One read cache per backend, shared by its sessions; none where a one-shot process forgoes it. */
import assert from "node:assert/strict";
import { BackendFs, createMemoryBackend } from "../../../src/fs/mod.ts";
import { forgoReadCache, readCacheOf, sessionReadCache } from "../../../src/project/session_caches.ts";

Deno.test("session caches: one cache per wrapped backend; forgoReadCache leaves searches without one", () => {
  const fs = BackendFs.wrap(createMemoryBackend({}));
  assert.equal(readCacheOf(fs), readCacheOf(fs));
  assert.equal(sessionReadCache(fs), readCacheOf(fs));
  const other = BackendFs.wrap(createMemoryBackend({}));
  assert.notEqual(readCacheOf(other), readCacheOf(fs));
  forgoReadCache(other);
  assert.equal(sessionReadCache(other), undefined);
  assert.equal(sessionReadCache(fs), readCacheOf(fs), "only the backend named keeps nothing");
});
