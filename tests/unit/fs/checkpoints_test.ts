import assert from "node:assert/strict";
import * as nodeFs from "node:fs/promises";
import { BackendFs } from "../../../src/fs/backend.ts";
import { Checkpoints } from "../../../src/fs/checkpoints.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { RecoverableError } from "../../../src/errors.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array | null | undefined) => (b ? new TextDecoder().decode(b) : null);

async function scenario(fs: BackendFs, root: string) {
  const cps = new Checkpoints(fs, root);
  assert.deepEqual(await cps.list(), []);
  const p = (rel: string) => `${root === "/" ? "" : root}/${rel}`;
  // Checkpoint 1: create src/a.ts.
  await fs.write(p("src/a.ts"), enc("one\n"));
  const c1 = await cps.record([{ path: "src/a.ts", before: null, after: enc("one\n") }], {
    tool: "create_file",
    session: "s1",
  });
  // Checkpoint 2: edit it and delete b.txt.
  await fs.write(p("src/a.ts"), enc("two\n"));
  await fs.remove(p("b.txt"));
  const c2 = await cps.record([
    { path: "src/a.ts", before: enc("one\n"), after: enc("two\n") },
    { path: "b.txt", before: enc("bee\n"), after: null },
  ], { tool: "edit_file", session: "s1" });
  assert.ok(c1 && c2);
  assert.equal(
    await cps.record([{ path: "x", before: enc("same"), after: enc("same") }], { tool: "t", session: "s" }),
    null,
  );
  const list = await cps.list();
  assert.deepEqual(list.map((c) => c.id), [c2, c1]);
  assert.deepEqual(list[0]!.paths, ["b.txt", "src/a.ts"]);
  assert.equal(list[0]!.tool, "edit_file");
  assert.equal(list[0]!.session, "s1");
  assert.match(list[0]!.message, /edit_file/);

  // Undo c2: before-bytes of both files.
  const u = await cps.undo();
  assert.equal(u.id, c2);
  assert.equal(dec(u.files.get("src/a.ts")), "one\n");
  assert.equal(dec(u.files.get("b.txt")), "bee\n");
  // Land it and record it as the undo; the next undo walks back to c1.
  await fs.write(p("src/a.ts"), enc("one\n"));
  await fs.write(p("b.txt"), enc("bee\n"));
  await cps.record([
    { path: "src/a.ts", before: enc("two\n"), after: enc("one\n") },
    { path: "b.txt", before: null, after: enc("bee\n") },
  ], { tool: "checkpoint_undo", session: "s1", undoes: c2 });
  const after = await cps.list();
  assert.equal(after[0]!.undoes, c2);
  assert.equal(after.find((c) => c.id === c2)!.undone, true);
  const u1 = await cps.undo();
  assert.equal(u1.id, c1);
  assert.equal(u1.files.get("src/a.ts"), null);

  // Hash guard: the file changed since the checkpoint wrote it.
  await fs.write(p("src/a.ts"), enc("hand edit\n"));
  await assert.rejects(
    cps.undo(),
    (e) => e instanceof RecoverableError && e.code === "stale_base" && /src\/a\.ts/.test(e.message),
  );
  assert.equal(dec(await fs.read(p("src/a.ts"))), "hand edit\n", "nothing lost");

  // Restore c1: every file changed since goes back to its state right after c1.
  await fs.write(p("src/a.ts"), enc("one\n"));
  const r = await cps.restore(c1.slice(0, 8));
  assert.equal(r.id, c1);
  assert.equal(dec(r.files.get("src/a.ts")), "one\n");
  assert.equal(dec(r.files.get("b.txt")), "bee\n");
  await assert.rejects(cps.restore("ffff"), (e) => e instanceof RecoverableError && e.code === "not_found");
  return cps;
}

Deno.test("checkpoints: record, list, undo (hash-guarded), restore on memfs", async () => {
  const fs = BackendFs.wrap(createMemoryBackend({ "/proj/b.txt": "bee\n" }));
  const cps = await scenario(fs, "/proj");
  assert.ok(await fs.read(`${cps.gitdir}/HEAD`));
});

Deno.test("checkpoints: on disk next to a real .git, which stays byte-identical", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const git = await import("isomorphic-git");
    await git.init({ fs: nodeFs, dir });
    await nodeFs.writeFile(`${dir}/b.txt`, "bee\n");
    await git.add({ fs: nodeFs, dir, filepath: "b.txt" });
    await git.commit({ fs: nodeFs, dir, message: "user commit", author: { name: "u", email: "u@x" } });
    const snapshot = async () => {
      const out: Record<string, string> = {};
      for (const e of await nodeFs.readdir(`${dir}/.git`, { recursive: true, withFileTypes: true })) {
        if (!e.isFile()) continue;
        const path = `${e.parentPath}/${e.name}`;
        out[path] = btoa(String.fromCharCode(...await nodeFs.readFile(path)));
      }
      return out;
    };
    const before = await snapshot();
    const fs = BackendFs.wrap(nodeFs);
    await scenario(fs, dir);
    assert.deepEqual(await snapshot(), before);
    const userLog = await git.log({ fs: nodeFs, dir });
    assert.deepEqual(userLog.map((c) => c.commit.message.trim()), ["user commit"]);
    const shadow = await git.log({
      fs: nodeFs,
      gitdir: `${dir}/.graver/checkpoints`,
      ref: "refs/heads/checkpoints",
    });
    assert.equal(shadow.length, 3);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkpoints: an executable is a 100755 tree entry, and undo and restore hand its mode back", async () => {
  const fs = BackendFs.wrap(createMemoryBackend({ "/p/run.sh": "#!/bin/sh\n" }));
  const cps = new Checkpoints(fs, "/p");
  const script = enc("#!/bin/sh\n");
  const c1 = await cps.record([{ path: "run.sh", before: script, after: null, beforeMode: 0o755 }], {
    tool: "delete_file",
    session: "s",
  });
  assert.ok(c1);
  await fs.remove("/p/run.sh");
  const git = await import("isomorphic-git");
  const tree = await git.readTree({
    // deno-lint-ignore no-explicit-any -- isomorphic-git types its fs loosely
    fs: { promises: fs.raw as any },
    gitdir: cps.gitdir,
    oid: c1,
    filepath: "before",
  });
  assert.deepEqual(tree.tree.map((e) => [e.path, e.mode]), [["run.sh", "100755"]]);
  const u = await cps.undo();
  assert.equal(dec(u.files.get("run.sh")), "#!/bin/sh\n");
  assert.equal(u.modes.get("run.sh"), 0o755);
  // A mode-only change is a checkpoint too.
  await fs.write("/p/run.sh", script);
  const c2 = await cps.record([{
    path: "run.sh",
    before: script,
    after: script,
    beforeMode: 0o644,
    afterMode: 0o755,
  }], {
    tool: "write_file",
    session: "s",
  });
  assert.ok(c2);
  const r = await cps.restore(c1);
  assert.equal(r.modes.get("run.sh"), 0o644);
});
