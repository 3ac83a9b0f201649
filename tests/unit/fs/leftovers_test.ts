/** Nothing left behind: no `.graver/` after commits or on open, no folders emptied by a deletion. */
import assert from "node:assert/strict";
import { BackendFs, createMemoryBackend, createWorkspace } from "../../../src/mod.ts";
import { commitChanges } from "../../../src/fs/commit.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import { Stage } from "../../../src/fs/stage.ts";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";
import { enc } from "../../_helpers.ts";
import { faultyBackend } from "../../conformance/fault_backend.ts";

async function names(backend: { readdir(p: string): Promise<unknown[]> }, dir: string): Promise<string[]> {
  return (await backend.readdir(dir).catch(() => [] as unknown[])).map(String).sort();
}

Deno.test("a commit leaves no .graver/ (nor .graver/tx) behind, on memfs and on disk", async () => {
  const backend = createMemoryBackend({ "/w/a.txt": "a\n" });
  const ws = await createWorkspace({ backend, root: "/w" });
  for (let i = 0; i < 3; i++) {
    assert.ok((await ws.call("write_file", { path: "a.txt", content: `${i}\n` })).ok);
    assert.deepEqual(await names(backend, "/w"), ["a.txt"]);
  }
  const root = await Deno.makeTempDir({ prefix: "graver-left-" });
  try {
    await Deno.writeTextFile(`${root}/a.txt`, "a\n");
    const disk = await createWorkspace({ backend: createDiskBackend(), root });
    assert.ok((await disk.call("write_file", { path: "a.txt", content: "b\n" })).ok);
    assert.ok((await disk.call("create_file", { path: "d/e.txt", content: "e\n" })).ok);
    assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name).sort(), ["a.txt", "d"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("opening a workspace, reading, listing and a dry run create nothing in the root", async () => {
  const backend = createMemoryBackend({ "/w/a.txt": "a\n" });
  const ws = await createWorkspace({ backend, root: "/w" });
  assert.equal(ws.recovered, "none");
  assert.ok((await ws.call("read_file", { path: "a.txt" })).ok);
  assert.ok((await ws.call("list_files", { recursive: true })).ok);
  assert.ok((await ws.call("write_file", { path: "a.txt", content: "b\n", dry_run: true })).ok);
  assert.deepEqual(await names(backend, "/w"), ["a.txt"]);
  // A root that does not exist stays absent.
  await createWorkspace({ backend, root: "/nowhere" });
  assert.deepEqual(await names(backend, "/"), ["w"]);
});

Deno.test("opening a workspace cleans an empty .graver/tx left by an older version", async () => {
  const backend = createMemoryBackend({ "/w/a.txt": "a\n" });
  await backend.mkdir("/w/.graver");
  await backend.mkdir("/w/.graver/tx");
  await backend.mkdir("/w/.graver/tx/old");
  const ws = await createWorkspace({ backend, root: "/w" });
  assert.equal(ws.recovered, "none");
  assert.deepEqual(await names(backend, "/w"), ["a.txt"]);
});

Deno.test("delete_file removes the parent folders it empties, up to but never including the root", async () => {
  const backend = createMemoryBackend({
    "/w/a/b/c/only.txt": "x\n",
    "/w/a/keep.txt": "k\n",
    "/w/top.txt": "t\n",
  });
  const ws = await createWorkspace({ backend, root: "/w" });
  assert.ok((await ws.call("delete_file", { path: "a/b/c/only.txt" })).ok);
  assert.deepEqual(await names(backend, "/w/a"), ["keep.txt"]);
  assert.ok((await ws.call("delete_file", { path: "a/keep.txt" })).ok);
  assert.deepEqual(await names(backend, "/w"), ["top.txt"]);
  assert.ok((await ws.call("delete_file", { path: "top.txt" })).ok);
  assert.deepEqual(await names(backend, "/"), ["w"]); // the root stays, empty
  assert.deepEqual(await names(backend, "/w"), []);
});

Deno.test("move_file removes the source folder it empties; a folder that was already empty stays", async () => {
  const backend = createMemoryBackend({ "/w/old/deep/x.ts": "x\n" });
  await backend.mkdir("/w/empty");
  const ws = await createWorkspace({ backend, root: "/w" });
  assert.ok((await ws.call("move_file", { from: "old/deep/x.ts", to: "new/x.ts" })).ok);
  assert.deepEqual(await names(backend, "/w"), ["empty", "new"]);
});

Deno.test("a rolled-back deletion restores the folders it had emptied", async () => {
  const files = { "/p/a/b/only.txt": "x\n", "/p/c.txt": "c\n" };
  const stageIt = async (raw: ReturnType<typeof createMemoryBackend>) => {
    const stage = new Stage(BackendFs.wrap(raw), new Sandbox("/p"));
    await stage.remove("a/b/only.txt");
    await stage.write("c.txt", enc("c2\n"));
    return stage.changes();
  };
  const probeRaw = createMemoryBackend(files);
  const probe = faultyBackend(probeRaw, { failAt: 0 });
  await commitChanges(
    { fs: BackendFs.wrap(probe.backend), sandbox: new Sandbox("/p") },
    await stageIt(probeRaw),
  );
  let refused = 0;
  for (let n = 1; n <= probe.calls(); n++) {
    const raw = createMemoryBackend(files);
    const changes = await stageIt(raw);
    const threw = await commitChanges({
      fs: BackendFs.wrap(faultyBackend(raw, { failAt: n }).backend),
      sandbox: new Sandbox("/p"),
    }, changes)
      .then(() => false, () => true);
    if (!threw) continue;
    refused++;
    assert.equal(
      new TextDecoder().decode(await raw.readFile("/p/a/b/only.txt") as Uint8Array),
      "x\n",
      `fault ${n}`,
    );
  }
  assert.ok(refused > 0);
});

Deno.test("two processes committing at once on disk never trip over a .graver/ the other removed", async () => {
  const root = await Deno.makeTempDir({ prefix: "graver-race-" });
  try {
    // Distinct backend objects share no in-process queue: only the lock file orders them, as two processes.
    const a = await createWorkspace({ backend: { ...createDiskBackend() }, root });
    const b = await createWorkspace({ backend: { ...createDiskBackend() }, root });
    const runs = [a, b].map(async (ws, w) => {
      for (let i = 0; i < 10; i++) {
        const r = await ws.call("write_file", { path: `w${w}/f${i % 3}.txt`, content: `${i}\n` });
        assert.ok(r.ok, JSON.stringify(r));
      }
    });
    await Promise.all(runs);
    assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name).sort(), ["w0", "w1"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
