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

/** A temporary root holding the fixture store written by the earlier checkpoint writer and its files. */
async function oldStore(): Promise<string> {
  const dir = await Deno.makeTempDir();
  const fixture = new URL("../../fixtures/checkpoints_v1/", import.meta.url).pathname;
  await nodeFs.cp(`${fixture}files`, dir, { recursive: true });
  await nodeFs.cp(`${fixture}store`, `${dir}/.graver/checkpoints`, { recursive: true });
  await nodeFs.chmod(`${dir}/run.sh`, 0o755);
  return dir;
}

Deno.test("checkpoints: a store written by the earlier writer (a tree per folder) is read, undone and extended", async () => {
  const dir = await oldStore();
  try {
    const fs = BackendFs.wrap(nodeFs);
    const cps = new Checkpoints(fs, dir);
    const old = await cps.list();
    assert.deepEqual(old.map((c) => c.tool), ["write_file", "edit_file", "create_file"]);
    assert.deepEqual(old[1]!.paths, ["run.sh", "src/lib/a.ts"]);
    const u = await cps.undo("src/lib/a.ts");
    assert.equal(u.id, old[1]!.id);
    assert.equal(dec(u.files.get("src/lib/a.ts")), "export const a = 1;\n");
    assert.equal(u.files.get("run.sh"), null);
    // A checkpoint in today's format on top of the old ones: one line, every one still listed.
    await nodeFs.writeFile(`${dir}/docs/readme.md`, "# new\n");
    const id = await cps.record([{ path: "docs/readme.md", before: enc("# old\n"), after: enc("# new\n") }], {
      tool: "edit_file",
      session: "new",
    });
    const all = await new Checkpoints(fs, dir).list();
    assert.deepEqual(all.map((c) => c.id), [id, ...old.map((c) => c.id)]);
    const r = await cps.restore(old[2]!.id);
    assert.equal(dec(r.files.get("src/lib/a.ts")), "export const a = 1;\n");
    assert.equal(dec(r.files.get("docs/readme.md")), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkpoints: a checkpoint is three one-level trees whatever folders its files are in", async () => {
  const fs = BackendFs.wrap(createMemoryBackend({ "/p/a/b/c/deep.ts": "2", "/p/a%2Fb": "odd name" }));
  const cps = new Checkpoints(fs, "/p");
  const id = await cps.record([
    { path: "a/b/c/deep.ts", before: enc("1"), after: enc("2") },
    { path: "a%2Fb", before: null, after: enc("odd name") },
  ], { tool: "edit_file", session: "s" });
  const git = await import("isomorphic-git");
  // deno-lint-ignore no-explicit-any -- isomorphic-git types its fs loosely
  const at = { fs: { promises: fs.raw as any }, gitdir: cps.gitdir };
  const top = await git.readTree({ ...at, oid: id! });
  assert.deepEqual(top.tree.map((e) => [e.path, e.type]), [
    ["after", "tree"],
    ["before", "tree"],
    ["checkpoint.json", "blob"],
  ]);
  const after = await git.readTree({ ...at, oid: id!, filepath: "after" });
  assert.deepEqual(after.tree.map((e) => e.path).sort(), ["a%252Fb", "a%2Fb%2Fc%2Fdeep.ts"]);
  const u = await cps.undo();
  assert.equal(dec(u.files.get("a/b/c/deep.ts")), "1");
  assert.equal(u.files.get("a%2Fb"), null);
});

Deno.test("checkpoints: past the bound the oldest are pruned; the newest stay undoable and the store shrinks", async () => {
  const dir = await oldStore();
  try {
    const fs = BackendFs.wrap(nodeFs);
    const cps = new Checkpoints(fs, dir, { max: 10 });
    const objectCount = async () =>
      (await nodeFs.readdir(`${dir}/.graver/checkpoints/objects`, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile()).length;
    let text = "# old\n";
    const ids: string[] = [];
    let most = 0;
    for (let i = 0; i < 40; i++) {
      const next = `# edit ${i}\n${"padding line\n".repeat(i)}`;
      await nodeFs.writeFile(`${dir}/docs/readme.md`, next);
      ids.push(
        (await cps.record([{ path: "docs/readme.md", before: enc(text), after: enc(next) }], {
          tool: "edit_file",
          session: "s",
        }))!,
      );
      text = next;
      const listed = await cps.list();
      assert.ok(listed.length <= 10, `${listed.length} checkpoints kept after ${i + 1} records (bound 10)`);
      most = Math.max(most, await objectCount());
    }
    const listed = await new Checkpoints(fs, dir, { max: 10 }).list();
    assert.deepEqual(listed.map((c) => c.id), ids.slice(-listed.length).reverse(), "the newest are kept");
    assert.ok(listed.length >= 9);
    // Objects of pruned checkpoints are gone: the store holds about the kept checkpoints' objects, not 43's.
    assert.ok(
      await objectCount() <= most && most < 10 * 7 + 10,
      `objects: ${await objectCount()}, most ${most}`,
    );
    // git's own log stops at the boundary too (the `shallow` file).
    assert.match(await Deno.readTextFile(`${dir}/.graver/checkpoints/shallow`), /^[0-9a-f]{40}\n$/);
    // The newest stay undoable (each undo is a checkpoint too and counts toward the bound).
    for (let i = 0; i < 4; i++) {
      const u = await cps.undo();
      assert.equal(u.id, ids[ids.length - 1 - i]);
      const back = u.files.get("docs/readme.md")!;
      await nodeFs.writeFile(`${dir}/docs/readme.md`, back);
      await cps.record([{ path: "docs/readme.md", before: enc(text), after: back }], {
        tool: "checkpoint_undo",
        session: "s",
        undoes: u.id,
      });
      text = dec(back)!;
    }
    assert.equal(text, `# edit 35\n${"padding line\n".repeat(35)}`);
    assert.ok((await cps.list()).length <= 10);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
