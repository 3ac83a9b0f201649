import assert from "node:assert/strict";
import { BackendFs } from "../../../src/fs/backend.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { KeptFiles } from "../../../src/project/kept_files.ts";
import { stampOf, statIdOf } from "../../../src/project/stat_identity.ts";
import { isUnder, recheckUnder } from "../../../src/project/watch_recheck.ts";

Deno.test("isUnder: the root itself and paths inside it, not a sibling that shares its prefix", () => {
  assert.deepEqual(
    ["/w", "/w/a.ts", "/w/src/b.ts", "/wx/a.ts", "/"].map((p) => isUnder(p, "/w")),
    [true, true, true, false, false],
  );
  assert.equal(isUnder("/a", "/"), true);
});

Deno.test("recheckUnder: what a stat shows unchanged under the root is marked seen; a change, or outside, is not", async () => {
  const raw = createMemoryBackend({ "/w/a.ts": "a\n", "/w/b.ts": "b\n", "/other/c.ts": "c\n" });
  const fs = BackendFs.wrap(raw);
  const statAll = (paths: readonly string[]) => Promise.all(paths.map((p) => raw.stat(p).catch(() => null)));
  const files = new KeptFiles(1024);
  for (const path of ["/w/a.ts", "/w/b.ts", "/other/c.ts"]) {
    const st = await raw.stat(path);
    files.keep(path, { id: statIdOf(st)!, bytes: (await fs.read(path))!, gen: 0, seen: 0 });
  }
  const folder = { stamp: stampOf(await raw.stat("/w"))!, seen: 0 };
  const walk = { stamps: new Map([["/w", `d:${folder.stamp}`]]), seen: 0 };
  await new Promise((r) => setTimeout(r, 5)); // a later mtime
  await raw.writeFile("/w/b.ts", new TextEncoder().encode("b, longer\n")); // changed before the watch began
  await recheckUnder("/w", { listings: new Map([["/w", folder]]), walks: [walk], files }, {
    seen: 7,
    statAll,
  });
  assert.equal(files.get("/w/a.ts")!.seen, 7, "unchanged: covered from the watch's start");
  assert.equal(files.get("/w/b.ts")!.seen, 0, "changed since it was kept: its next read stats it");
  assert.equal(files.get("/other/c.ts")!.seen, 0, "outside the root: not this watch's");
  assert.equal(folder.seen, 7);
  assert.equal(walk.seen, 7);
});
