/**
 * File modes survive every commit path on a real disk: tools that rewrite a
 * file, a move, a rolled-back commit and a journal recovered on open.
 */
import assert from "node:assert/strict";
import { BackendFs, createWorkspace } from "../../../src/mod.ts";
import { commitChanges, recoverJournal } from "../../../src/fs/commit.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import { Stage } from "../../../src/fs/stage.ts";
import { createDiskBackend, createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { faultyBackend } from "../../conformance/fault_backend.ts";
import { enc } from "../../_helpers.ts";

const FILES: Record<string, { text: string; mode: number }> = {
  "run.sh": { text: "#!/bin/sh\necho one\n", mode: 0o755 },
  "secret.env": { text: "TOKEN=one\n", mode: 0o600 },
  "src/a.ts": { text: "export function f(): number {\n  return 1;\n}\n", mode: 0o755 },
  "plain.txt": { text: "plain\n", mode: 0o644 },
};

async function tempRoot(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "graver-modes-" });
  for (const [rel, { text, mode }] of Object.entries(FILES)) {
    await Deno.mkdir(`${root}/${rel}`.replace(/\/[^/]*$/, ""), { recursive: true });
    await Deno.writeTextFile(`${root}/${rel}`, text);
    await Deno.chmod(`${root}/${rel}`, mode);
  }
  return root;
}

async function modeOf(path: string): Promise<number> {
  return (await Deno.stat(path)).mode! & 0o7777;
}

async function withRoot(fn: (root: string) => Promise<void>): Promise<void> {
  const root = await tempRoot();
  try {
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("write_file, apply_edits and replace_symbol keep 0755 and 0600 on disk", async () => {
  await withRoot(async (root) => {
    const ws = await createWorkspace({ backend: createDiskBackend(), root, wasm: createWasmLoader() });
    let r = await ws.call("write_file", { path: "run.sh", content: "#!/bin/sh\necho two\n" });
    assert.ok(r.ok && r.status === "applied", JSON.stringify(r));
    assert.doesNotMatch(r.changes[0]!.diff, /mode/);
    r = await ws.call("write_file", { path: "secret.env", content: "TOKEN=two\n" });
    assert.ok(r.ok && r.status === "applied", JSON.stringify(r));
    assert.equal(await modeOf(`${root}/run.sh`), 0o755);
    assert.equal(await modeOf(`${root}/secret.env`), 0o600);

    r = await ws.call("apply_edits", {
      text: "run.sh\n<<<<<<< SEARCH\necho two\n=======\necho three\n>>>>>>> REPLACE\n\n" +
        "secret.env\n<<<<<<< SEARCH\nTOKEN=two\n=======\nTOKEN=three\n>>>>>>> REPLACE\n",
    });
    assert.ok(r.ok && r.status === "applied", JSON.stringify(r));
    assert.equal(await Deno.readTextFile(`${root}/run.sh`), "#!/bin/sh\necho three\n");
    assert.equal(await modeOf(`${root}/run.sh`), 0o755);
    assert.equal(await modeOf(`${root}/secret.env`), 0o600);

    r = await ws.call("replace_symbol", {
      path: "src/a.ts",
      name_path: "f",
      new_body: "export function f(): number {\n  return 2;\n}",
    });
    assert.ok(r.ok && r.status === "applied", JSON.stringify(r));
    assert.match(await Deno.readTextFile(`${root}/src/a.ts`), /return 2/);
    assert.equal(await modeOf(`${root}/src/a.ts`), 0o755);
  });
});

Deno.test("move_file keeps the mode, and the diff names a mode change when a move makes one", async () => {
  await withRoot(async (root) => {
    const ws = await createWorkspace({ backend: createDiskBackend(), root });
    let r = await ws.call("move_file", { from: "run.sh", to: "bin/run.sh" });
    assert.ok(r.ok && r.status === "applied", JSON.stringify(r));
    assert.equal(await modeOf(`${root}/bin/run.sh`), 0o755);
    assert.doesNotMatch(r.changes[0]!.diff, /mode/);
    r = await ws.call("move_file", { from: "secret.env", to: "config/secret.env" });
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(await modeOf(`${root}/config/secret.env`), 0o600);

    // An executable over a plain file: the destination's mode changes, and the diff says so as git does.
    r = await ws.call("move_file", { from: "bin/run.sh", to: "plain.txt", overwrite: true });
    assert.ok(r.ok && r.status === "applied", JSON.stringify(r));
    assert.equal(await modeOf(`${root}/plain.txt`), 0o755);
    const dest = r.changes.find((c) => c.path === "plain.txt")!;
    assert.match(dest.diff, /^old mode 100644\nnew mode 100755$/m);
    const src = r.changes.find((c) => c.path === "bin/run.sh")!;
    assert.match(src.diff, /^deleted file mode 100755$/m);
  });
});

/** Stage a rewrite of both special files, a deletion of run.sh's twin and a new file. */
async function stageAll(fs: BackendFs, root: string) {
  const stage = new Stage(fs, new Sandbox(root));
  await stage.write("secret.env", enc("TOKEN=two\n"));
  await stage.write("src/a.ts", enc("export {};\n"));
  await stage.remove("run.sh");
  await stage.write("new.txt", enc("new\n"));
  return stage.changes();
}

/** How many backend calls one clean commit of {@linkcode stageAll} makes (each is a fault point). */
async function backendCallsOfCommit(): Promise<number> {
  const root = await tempRoot();
  const probe = faultyBackend(createDiskBackend(), { failAt: 0 });
  await commitChanges(
    { fs: BackendFs.wrap(probe.backend), sandbox: new Sandbox(root) },
    await stageAll(BackendFs.wrap(createDiskBackend()), root),
  );
  await Deno.remove(root, { recursive: true });
  return probe.calls();
}

async function expectModes(root: string, at: string): Promise<void> {
  assert.equal(await modeOf(`${root}/secret.env`), 0o600, `secret.env, ${at}`);
  assert.equal(await modeOf(`${root}/src/a.ts`), 0o755, `src/a.ts, ${at}`);
  assert.equal(await modeOf(`${root}/run.sh`), 0o755, `run.sh, ${at}`);
}

Deno.test("a rolled-back commit restores the modes of rewritten and deleted files on disk", async () => {
  const total = await backendCallsOfCommit();
  let rolledBack = 0;
  for (let n = 1; n <= total; n++) {
    await withRoot(async (root) => {
      const changes = await stageAll(BackendFs.wrap(createDiskBackend()), root);
      const fs = BackendFs.wrap(faultyBackend(createDiskBackend(), { failAt: n }).backend);
      const threw = await commitChanges({ fs, sandbox: new Sandbox(root) }, changes).then(
        () => false,
        () => true,
      );
      if (!threw) {
        assert.equal(await modeOf(`${root}/secret.env`), 0o600);
        assert.equal(await modeOf(`${root}/src/a.ts`), 0o755);
        return;
      }
      rolledBack++;
      await expectModes(root, `fault at operation ${n}`);
      await recoverJournal(BackendFs.wrap(createDiskBackend()), new Sandbox(root), {
        now: () => Date.now() + 60_000,
      });
      await expectModes(root, `fault at operation ${n}, after recovery`);
    });
  }
  assert.ok(rolledBack > 0);
});

Deno.test("a journal recovered on open restores the modes on disk", async () => {
  let recovered = 0;
  const total = await backendCallsOfCommit();
  for (let n = 1; n <= total; n++) {
    await withRoot(async (root) => {
      const changes = await stageAll(BackendFs.wrap(createDiskBackend()), root);
      // A crash: the failing call and every later one fail, as if the process died there.
      const fs = BackendFs.wrap(faultyBackend(createDiskBackend(), { failAt: n, crash: true }).backend);
      const landed = await commitChanges({ fs, sandbox: new Sandbox(root) }, changes).then(
        () => true,
        () => false,
      );
      const ws = await createWorkspace({
        backend: createDiskBackend(),
        root,
        lock: { now: () => Date.now() + 60_000 },
      });
      if (ws.recovered === "rolled_back") {
        recovered++;
        await expectModes(root, `crash at ${n}`);
      } else if (landed || ws.recovered === "finished") {
        assert.equal(await modeOf(`${root}/secret.env`), 0o600, `crash at ${n}`);
        assert.equal(await modeOf(`${root}/src/a.ts`), 0o755, `crash at ${n}`);
      } else await expectModes(root, `crash at ${n}`);
    });
  }
  assert.ok(recovered > 0, "some crash points must leave a journal to roll back");
});

Deno.test("write_file, edit_file and delete_file refuse a read-only file (0444) unless allow_read_only is passed", async () => {
  await withRoot(async (root) => {
    await Deno.writeTextFile(`${root}/locked.txt`, "locked\n");
    await Deno.chmod(`${root}/locked.txt`, 0o444);
    const ws = await createWorkspace({ backend: createDiskBackend(), root, wasm: createWasmLoader() });
    for (
      const [tool, args] of [
        ["write_file", { path: "locked.txt", content: "changed\n" }],
        ["edit_file", { path: "locked.txt", old_string: "locked", new_string: "changed" }],
        ["delete_file", { path: "locked.txt" }],
      ] as const
    ) {
      const r = await ws.call(tool, args);
      assert.ok(!r.ok, `${tool}: ${JSON.stringify(r)}`);
      assert.equal(r.error.code, "permission_denied");
      assert.match(r.error.message, /"locked\.txt": it is read-only \(mode 0444\)/);
      assert.deepEqual(r.error.suggested_call, { tool, args: { ...args, allow_read_only: true } });
    }
    assert.equal(await Deno.readTextFile(`${root}/locked.txt`), "locked\n");
    const r = await ws.call("write_file", {
      path: "locked.txt",
      content: "changed\n",
      allow_read_only: true,
    });
    assert.ok(r.ok && r.status === "applied", JSON.stringify(r));
    assert.equal(await Deno.readTextFile(`${root}/locked.txt`), "changed\n");
    assert.equal(await modeOf(`${root}/locked.txt`), 0o444);
  });
});
