/**
 * Checkpoints as part of the committed change: recorded under the commit lock
 * (two workspaces over one store committing at once leave one linear history
 * with every commit in it; a record that fails rolls its commit back), and
 * file modes kept by undo and restore, on disk and on memfs.
 */
import assert from "node:assert/strict";
import { type Backend, createMemoryBackend, createWorkspace, type ToolResult } from "../../../src/mod.ts";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";

const dec = (b: Uint8Array | null) => (b ? new TextDecoder().decode(b) : null);

type Ws = Awaited<ReturnType<typeof createWorkspace>>;

function ok(r: ToolResult): Extract<ToolResult, { ok: true }> {
  assert.ok(r.ok, JSON.stringify(r));
  return r;
}

const SCRIPT = "#!/bin/sh\necho one\n";

/** A root with an executable script and a plain file, on disk or on memfs. */
async function withRoots(
  fn: (backend: Backend, root: string, label: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "graver-cp-modes-" });
  try {
    await Deno.writeTextFile(`${dir}/run.sh`, SCRIPT);
    await Deno.chmod(`${dir}/run.sh`, 0o755);
    await Deno.writeTextFile(`${dir}/plain.txt`, "plain\n");
    await Deno.chmod(`${dir}/plain.txt`, 0o644);
    await fn(createDiskBackend(), dir, "disk");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const mem = createMemoryBackend({ "/w/run.sh": SCRIPT, "/w/plain.txt": "plain\n" });
  await mem.chmod!("/w/run.sh", 0o755);
  await mem.chmod!("/w/plain.txt", 0o644);
  await fn(mem, "/w", "memfs");
}

async function modeOf(ws: Ws, rel: string): Promise<number | null> {
  return await ws.fs.mode(ws.sandbox.abs(rel));
}

Deno.test("checkpoint_undo gives a deleted or moved script its 0755 back, on disk and memfs", async () => {
  await withRoots(async (backend, root, label) => {
    const ws = await createWorkspace({ backend, root, checkpoints: true });
    ok(await ws.call("delete_file", { path: "run.sh" }));
    assert.equal(await modeOf(ws, "run.sh"), null, label);
    ok(await ws.call("checkpoint_undo", {}));
    assert.equal(dec(await ws.fs.read(ws.sandbox.abs("run.sh"))), SCRIPT, label);
    assert.equal(await modeOf(ws, "run.sh"), 0o755, `${label}: the undone delete restores the mode`);

    ok(await ws.call("move_file", { from: "run.sh", to: "bin/run.sh" }));
    assert.equal(await modeOf(ws, "bin/run.sh"), 0o755, label);
    ok(await ws.call("checkpoint_undo", {}));
    assert.equal(await modeOf(ws, "run.sh"), 0o755, `${label}: the undone move restores the mode`);
    assert.equal(await modeOf(ws, "bin/run.sh"), null, label);
    assert.equal(await modeOf(ws, "plain.txt"), 0o644, label);

    // An edit, then a delete, then restore to right after the edit: the script is back, executable.
    ok(await ws.call("edit_file", { path: "run.sh", old_string: "echo one", new_string: "echo two" }));
    const edit = (ok(await ws.call("checkpoint_list", {})).data["checkpoints"] as { id: string }[])[0]!;
    ok(await ws.call("delete_file", { path: "run.sh" }));
    ok(await ws.call("checkpoint_restore", { id: edit.id }));
    assert.equal(dec(await ws.fs.read(ws.sandbox.abs("run.sh"))), "#!/bin/sh\necho two\n", label);
    assert.equal(await modeOf(ws, "run.sh"), 0o755, `${label}: restore keeps the mode`);
  });
});

Deno.test("checkpoints of two workspaces committing at once over one store form one complete history", async () => {
  await withRoots(async (backend, root, label) => {
    const files = Array.from({ length: 6 }, (_, i) => `f${i}.txt`);
    const [a, b] = [
      await createWorkspace({ backend, root, checkpoints: true }),
      await createWorkspace({ backend, root, checkpoints: true }),
    ];
    const results = await Promise.all(
      files.flatMap((f, i) => [
        (i % 2 ? a : b).call("create_file", { path: f, content: `${f}\n` }),
        (i % 2 ? b : a).call("create_file", { path: `x${f}`, content: `x${f}\n` }),
      ]),
    );
    for (const r of results) ok(r);
    const list = ok(await a.call("checkpoint_list", { limit: 100 })).data["checkpoints"] as {
      paths: string[];
    }[];
    assert.equal(list.length, files.length * 2, `${label}: one checkpoint per commit, none lost`);
    assert.deepEqual(
      list.flatMap((c) => c.paths).sort(),
      files.flatMap((f) => [f, `x${f}`]).sort(),
      label,
    );
  });
});

Deno.test("a checkpoint that cannot be recorded rolls its commit back: nothing lands unrecorded", async () => {
  const mem = createMemoryBackend({ "/w/a.txt": "one\n" });
  let failObjects = false;
  const backend = new Proxy(mem, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop !== "writeFile" || typeof value !== "function") return value;
      return (path: string, ...rest: unknown[]) => {
        if (failObjects && String(path).includes("/.graver/checkpoints/objects/")) {
          return Promise.reject(Object.assign(new Error("ENOSPC: injected"), { code: "ENOSPC" }));
        }
        return (value as (...a: unknown[]) => Promise<void>).call(target, path, ...rest);
      };
    },
  }) as Backend;
  const ws = await createWorkspace({ backend, root: "/w", checkpoints: true });
  ok(await ws.call("write_file", { path: "a.txt", content: "two\n" }));
  failObjects = true;
  const r = await ws.call("write_file", { path: "a.txt", content: "three\n" });
  assert.ok(!r.ok, JSON.stringify(r));
  assert.equal(dec(await ws.fs.read("/w/a.txt")), "two\n", "rolled back");
  failObjects = false;
  const list = ok(await ws.call("checkpoint_list", {})).data["checkpoints"] as { tool: string }[];
  assert.equal(list.length, 1);
  // The history is intact: undo still walks back to the original.
  ok(await ws.call("checkpoint_undo", {}));
  assert.equal(dec(await ws.fs.read("/w/a.txt")), "one\n");
});
