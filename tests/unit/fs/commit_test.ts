import assert from "node:assert/strict";
import { BackendFs, createMemoryBackend, createWorkspace, isRecoverable } from "../../../src/mod.ts";
import { commitChanges, describeChanges, modesOf, recoverJournal } from "../../../src/fs/commit.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import { Stage } from "../../../src/fs/stage.ts";
import { enc, snapshot } from "../../_helpers.ts";
import { faultyBackend } from "../../conformance/fault_backend.ts";

/** Files left under .graver/ (directories themselves may stay). */
async function snapshotInternal(raw: ReturnType<typeof createMemoryBackend>): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    const names = await raw.readdir(d).catch(() => [] as unknown[]);
    for (const n of names.map(String)) {
      const p = `${d}/${n}`;
      if ((await raw.lstat(p)).isDirectory()) await walk(p);
      else out.push(p);
    }
  };
  await walk("/p/.graver");
  return out;
}

const FILES = {
  "/p/a.ts": "export const a = 1;\n",
  "/p/b.py": "x = 1\r\ny = 2\r\n",
  "/p/dir/c.txt": "keep me",
};

async function stageThree(stage: Stage): Promise<void> {
  await stage.write("a.ts", enc("export const a = 2;\n"));
  await stage.remove("b.py");
  await stage.write("new/d.txt", enc("fresh\n"));
}

/** The changes of {@linkcode stageThree}, staged through a fault-free view of `raw`. */
async function changesOfThree(
  raw: ReturnType<typeof createMemoryBackend>,
): Promise<ReturnType<Stage["changes"]>> {
  const stage = new Stage(BackendFs.wrap(raw), new Sandbox("/p"));
  await stageThree(stage);
  return stage.changes();
}

/** How many backend calls a fault-free commit of {@linkcode stageThree} makes. */
async function callsOfCleanCommit(): Promise<number> {
  const raw = createMemoryBackend(FILES);
  const probe = faultyBackend(raw, { failAt: 0 });
  await commitChanges(
    { fs: BackendFs.wrap(probe.backend), sandbox: new Sandbox("/p") },
    await changesOfThree(raw),
  );
  return probe.calls();
}

Deno.test("commitChanges() lands every file and reports diffs", async () => {
  const backend = createMemoryBackend(FILES);
  const fs = BackendFs.wrap(backend);
  const sandbox = new Sandbox("/p");
  const stage = new Stage(fs, sandbox);
  await stageThree(stage);
  const out = await commitChanges({ fs, sandbox }, stage.changes());
  assert.deepEqual(out.map((c) => c.path), ["a.ts", "b.py", "new/d.txt"]);
  assert.equal(out[1]!.after_version, null);
  assert.equal(out[2]!.before_version, null);
  assert.match(out[0]!.diff, /-export const a = 1;\n\+export const a = 2;/);
  assert.deepEqual(await snapshot(backend, "/p"), {
    "/p/a.ts": "export const a = 2;\n",
    "/p/dir/c.txt": "keep me",
    "/p/new/d.txt": "fresh\n",
  });
  assert.deepEqual(await backend.readdir("/p/.graver/tx").catch(() => []), []);
});

Deno.test("commitChanges() restores the store when any single operation fails", async () => {
  // Count the backend calls of a clean commit, then fail each one in turn.
  const total = await callsOfCleanCommit();
  assert.ok(total > 8, `expected a multi-step commit, saw ${total} operations`);
  const after = {
    "/p/a.ts": "export const a = 2;\n",
    "/p/dir/c.txt": "keep me",
    "/p/new/d.txt": "fresh\n",
  };
  let refused = 0;
  for (let n = 1; n <= total; n++) {
    const raw = createMemoryBackend(FILES);
    const before = await snapshot(raw, "/p");
    const changes = await changesOfThree(raw);
    const fs = BackendFs.wrap(faultyBackend(raw, { failAt: n }).backend);
    const sandbox = new Sandbox("/p");
    let threw = false;
    try {
      await commitChanges({ fs, sandbox }, changes);
    } catch {
      threw = true;
      refused++;
    }
    // Restored at once (rollback retries a failed step), not only after recovery.
    if (threw) {
      assert.deepEqual(await snapshot(raw, "/p"), before, `fault at operation ${n}, before recovery`);
    }
    await recoverJournal(BackendFs.wrap(raw), sandbox, { now: () => Date.now() + 60_000 });
    assert.deepEqual(await snapshot(raw, "/p"), threw ? before : after, `fault at operation ${n}`);
  }
  assert.ok(refused > 0);
});

Deno.test("createWorkspace() rolls back a commit interrupted mid-rename", async () => {
  const total = await callsOfCleanCommit();
  let rolledBack = 0;
  for (let n = 1; n <= total; n++) {
    const raw = createMemoryBackend(FILES);
    const before = await snapshot(raw, "/p");
    // crash: the failing operation and everything after it fail, as if the process died.
    const changes = await changesOfThree(raw);
    const fs = BackendFs.wrap(faultyBackend(raw, { failAt: n, crash: true }).backend);
    const landed = await commitChanges({ fs, sandbox: new Sandbox("/p") }, changes).then(
      () => true,
      () => false,
    );
    // The crashed process left its lock behind: reopen as a later process would, once it is stale.
    const ws = await createWorkspace({ backend: raw, root: "/p", lock: { now: () => Date.now() + 60_000 } });
    if (ws.recovered === "rolled_back") rolledBack++;
    const now = await snapshot(raw, "/p");
    if (landed || ws.recovered === "finished") {
      assert.equal(now["/p/a.ts"], "export const a = 2;\n", `crash at ${n}`);
    } else assert.deepEqual(now, before, `crash at ${n}`);
    const left = await snapshotInternal(raw);
    assert.deepEqual(left, [], `crash at ${n}: leftovers in .graver/`);
  }
  assert.ok(rolledBack > 0, "some crash points must leave a journal to roll back");
});

Deno.test("commitChanges() refuses a stale base and writes nothing", async () => {
  const backend = createMemoryBackend(FILES);
  const one = await createWorkspace({ backend, root: "/p" });
  const two = await createWorkspace({ backend, root: "/p" });
  const r1 = await one.call("read_file", { path: "a.ts" });
  const r2 = await two.call("read_file", { path: "a.ts" });
  assert.ok(r1.ok && r2.ok);
  const [w1, w2] = await Promise.all([
    one.call("write_file", {
      path: "a.ts",
      content: "export const a = 10;\n",
      expected_version: r1.data["version"],
    }),
    two.call("write_file", {
      path: "a.ts",
      content: "export const a = 20;\n",
      expected_version: r2.data["version"],
    }),
  ]);
  const landed = [w1, w2].filter((r) => r.ok);
  const refused = [w1, w2].filter((r) => !r.ok);
  assert.equal(landed.length, 1);
  assert.equal(refused.length, 1);
  const err = refused[0]!;
  assert.ok(!err.ok && err.error.code === "stale_base");
  const content = new TextDecoder().decode(await backend.readFile("/p/a.ts") as Uint8Array);
  assert.equal(content, w1.ok ? "export const a = 10;\n" : "export const a = 20;\n");
  assert.ok(!err.ok && typeof err.error.details?.["current_version"] === "string");
});

Deno.test("commitChanges() detects a concurrent change between stage and commit", async () => {
  const backend = createMemoryBackend(FILES);
  const fs = BackendFs.wrap(backend);
  const sandbox = new Sandbox("/p");
  const stage = new Stage(fs, sandbox);
  await stage.write("a.ts", enc("mine\n"));
  await backend.writeFile("/p/a.ts", enc("theirs\n"));
  await assert.rejects(
    () => commitChanges({ fs, sandbox }, stage.changes()),
    (e) => isRecoverable(e, "stale_base") && e.details?.["path"] === "a.ts",
  );
  assert.equal(new TextDecoder().decode(await backend.readFile("/p/a.ts") as Uint8Array), "theirs\n");
});

Deno.test("describeChanges() with modesOf() shows a dry run's mode change as the commit would", async () => {
  const backend = createMemoryBackend({ "/p/run.sh": "a\n", "/p/plain.txt": "b\n" });
  await backend.chmod!("/p/run.sh", 0o755);
  const fs = BackendFs.wrap(backend);
  const sandbox = new Sandbox("/p");
  const stage = new Stage(fs, sandbox);
  await stage.write("plain.txt", enc("a\n"), { mode: await stage.mode("run.sh") });
  await stage.remove("run.sh");
  const pending = stage.changes();
  const preview = await describeChanges(pending, { modes: await modesOf(fs, sandbox, pending) });
  const landed = await commitChanges({ fs, sandbox }, pending);
  assert.deepEqual(preview, landed);
  assert.match(landed[0]!.diff, /^old mode 100644\nnew mode 100755$/m);
  assert.match(landed[1]!.diff, /^deleted file mode 100755$/m);
  assert.equal(((await backend.stat("/p/plain.txt")).mode as number) & 0o777, 0o755);
});

Deno.test("commitChanges() flushes a backend that saves late once, after the files landed and the lock is gone", async () => {
  const raw = createMemoryBackend(FILES);
  const seen: { a: string; d: boolean; internal: string[] }[] = [];
  // lightning-fs's promises API has flush(); memfs stands in for its storage here.
  const late = Object.assign(Object.create(raw) as typeof raw, {
    async flush() {
      seen.push({
        a: new TextDecoder().decode(await raw.readFile("/p/a.ts") as Uint8Array),
        d: await raw.stat("/p/new/d.txt").then(() => true, () => false),
        internal: await snapshotInternal(raw),
      });
    },
  });
  const fs = BackendFs.wrap(late);
  await commitChanges({ fs, sandbox: new Sandbox("/p") }, await changesOfThree(raw));
  assert.deepEqual(seen, [{ a: "export const a = 2;\n", d: true, internal: [] }]);
  assert.deepEqual(
    await commitChanges({ fs, sandbox: new Sandbox("/p") }, []),
    [],
    "nothing to commit, nothing flushed",
  );
  assert.equal(seen.length, 1);
});
