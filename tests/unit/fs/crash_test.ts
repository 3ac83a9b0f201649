/**
 * Crashes and pauses of real processes: a `deno run` child commits a
 * multi-file change and is SIGKILLed mid-rename (or SIGSTOPped after writing
 * its journal); then, at once, another writer and a reopen. Every file must be
 * all-old or all-new, nothing left in `.graver/`, no acknowledged update lost.
 */
import assert from "node:assert/strict";
import { createWorkspace, isRecoverable } from "../../../src/mod.ts";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";
import { BackendFs } from "../../../src/fs/backend.ts";
import { commitChanges } from "../../../src/fs/commit.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import { Stage } from "../../../src/fs/stage.ts";

const CHILD = new URL("./_commit_child.ts", import.meta.url).pathname;
const N = 24;

async function withRoot(fn: (root: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "graver-crash-" });
  try {
    for (let i = 0; i < N; i++) await Deno.writeTextFile(`${root}/f${i}.txt`, `old ${i}\n`);
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** Read f0…f(N-1) through a workspace: the tags read, and every warning. */
async function readAll(ws: Awaited<ReturnType<typeof createWorkspace>>, count = N) {
  const seen = new Set<string>();
  const warnings: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = await ws.call("read_file", { path: `f${i}.txt`, numbered: false });
    assert.ok(r.ok, JSON.stringify(r));
    seen.add(String(r.data.content).split(" ", 1)[0]!);
    warnings.push(...r.warnings);
  }
  return { tags: [...seen].sort(), warnings };
}

/** Run the child to its end (or its SIGKILL); returns its exit signal (null: exited). */
async function runChild(root: string, tag: string, extra: string[]): Promise<string | null> {
  const cmd = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CHILD, root, String(N), tag, ...extra],
    stdout: "null",
    stderr: "inherit",
  });
  return (await cmd.output()).signal;
}

/** The tags of the f*.txt files ("old", "new", ...), one per distinct tag found. */
async function tags(root: string): Promise<string[]> {
  const out = new Set<string>();
  for (let i = 0; i < N; i++) out.add((await Deno.readTextFile(`${root}/f${i}.txt`)).split(" ", 1)[0]!);
  return [...out].sort();
}

/** A second writer over the same root, in this process: commits one file outside the set. */
async function secondWriter(root: string, waitMs = 10_000): Promise<void> {
  const fs = BackendFs.wrap(createDiskBackend());
  const sandbox = new Sandbox(root);
  const stage = new Stage(fs, sandbox);
  await stage.write("other.txt", new TextEncoder().encode("second writer\n"));
  await commitChanges({ fs, sandbox }, stage.changes(), { lock: { waitMs } });
}

async function leftovers(root: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(`${root}/.graver`)) names.push(e.name);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return names;
}

Deno.test("a SIGKILL mid-rename, then at once a second writer and a reopen: all-old, nothing left", async () => {
  await withRoot(async (root) => {
    const signal = await runChild(root, "new", ["--kill-after-renames", "9"]);
    assert.equal(signal, "SIGKILL");
    assert.deepEqual(await tags(root), ["new", "old"], "the kill left a torn tree for recovery to mend");
    // The dead child's lock is fresh: the writer must see its holder is gone, not wait out a lease.
    await secondWriter(root, 2_000);
    const ws = await createWorkspace({ backend: createDiskBackend(), root });
    assert.equal(ws.recovered, "none", "the second writer already rolled the journal back");
    assert.deepEqual(await tags(root), ["old"]);
    assert.equal(await Deno.readTextFile(`${root}/other.txt`), "second writer\n");
    assert.deepEqual(await leftovers(root), []);
  });
});

Deno.test("a SIGKILL mid-rename, then at once a reopen: the dead holder's journal is rolled back, not 'busy'", async () => {
  await withRoot(async (root) => {
    assert.equal(await runChild(root, "new", ["--kill-after-renames", "5"]), "SIGKILL");
    const ws = await createWorkspace({ backend: createDiskBackend(), root });
    assert.equal(ws.recovered, "rolled_back");
    assert.deepEqual(await tags(root), ["old"]);
    assert.deepEqual(await leftovers(root), []);
  });
});

Deno.test("a writer that breaks an expired lease rolls back the journal it finds before its own commit", async () => {
  await withRoot(async (root) => {
    // The holder looks like a process on another machine: nothing but the lease's age can judge it.
    assert.equal(await runChild(root, "new", ["--kill-after-renames", "9", "--foreign-host"]), "SIGKILL");
    const fs = BackendFs.wrap(createDiskBackend());
    const sandbox = new Sandbox(root);
    const stage = new Stage(fs, sandbox);
    await stage.write("other.txt", new TextEncoder().encode("second writer\n"));
    await commitChanges({ fs, sandbox }, stage.changes(), { lock: { now: () => Date.now() + 60_000 } });
    await createWorkspace({ backend: createDiskBackend(), root });
    assert.deepEqual(await tags(root), ["old"], "the torn commit must not become permanent");
    assert.deepEqual(await leftovers(root), []);
  });
});

Deno.test("a read after a SIGKILL mid-commit, in a workspace opened before it (as serve), recovers first", async () => {
  await withRoot(async (root) => {
    const ws = await createWorkspace({ backend: createDiskBackend(), root });
    assert.equal(await runChild(root, "new", ["--kill-after-renames", "9"]), "SIGKILL");
    const read = await readAll(ws);
    assert.deepEqual(read.tags, ["old"], "never bytes of a transaction that is rolled back");
    assert.deepEqual(read.warnings, []);
    assert.deepEqual(await leftovers(root), []);
  });
});

Deno.test("a read while a live process is mid-commit waits briefly, then says the tree is mid-commit", async () => {
  await withRoot(async (root) => {
    const ws = await createWorkspace({ backend: createDiskBackend(), root });
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CHILD, root, String(N), "new", "--stop-after-journal"],
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    assert.equal((await lines.read()).value?.trim(), "journal"); // stopped (SIGSTOP), holding the lock
    const during = await readAll(ws, 2);
    assert.deepEqual(during.tags, ["old"]);
    assert.equal(during.warnings.length, 2);
    assert.match(
      during.warnings[0]!,
      new RegExp(`mid-commit: process ${child.pid} on .* holds ".*\\.graver/lock"`),
    );
    child.kill("SIGCONT");
    assert.match((await lines.read()).value ?? "", /committed/);
    lines.releaseLock();
    await child.stdout.cancel().catch(() => {});
    assert.ok((await child.status).success);
    const after = await readAll(ws);
    assert.deepEqual(after, { tags: ["new"], warnings: [] });
  });
});

Deno.test("a writer paused past its lease resumes, finds its lock broken and lands nothing over the update that broke it", async () => {
  await withRoot(async (root) => {
    // A holder on "another machine" (liveness unknown) pauses with its temp files written, about to write its
    // journal and rename them into place.
    const paused = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CHILD, root, String(N), "new", "--stop-before-journal", "--foreign-host"],
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const lines = paused.stdout.pipeThrough(new TextDecoderStream()).getReader();
    assert.equal((await lines.read()).value?.trim(), "journal");
    // Its lease runs out (the clock says a minute later): a second writer breaks it and lands an update.
    const fs = BackendFs.wrap(createDiskBackend());
    const sandbox = new Sandbox(root);
    const stage = new Stage(fs, sandbox);
    for (let i = 0; i < N; i++) {
      await stage.write(`f${i}.txt`, new TextEncoder().encode(`acknowledged ${i}\n`));
    }
    const landed = await commitChanges({ fs, sandbox }, stage.changes(), {
      lock: { now: () => Date.now() + 60_000 },
    });
    assert.equal(landed.length, N);
    paused.kill("SIGCONT");
    const status = await paused.status;
    lines.releaseLock();
    await paused.stdout.cancel().catch(() => {});
    assert.equal(status.success, false, "the paused writer must fail, not report its commit");
    assert.deepEqual(await tags(root), ["acknowledged"], "the acknowledged update survives");
    await createWorkspace({ backend: createDiskBackend(), root });
    assert.deepEqual(await tags(root), ["acknowledged"]);
    assert.deepEqual(await leftovers(root), []);
  });
});

Deno.test("a writer outside graver that appends between the version check and the rename is never overwritten", async () => {
  await withRoot(async (root) => {
    const disk = createDiskBackend();
    // The outside writer appends to f3.txt just after graver wrote its journal (past its compare-and-swap).
    const backend = {
      ...disk,
      async rename(from: string, to: string) {
        await disk.rename(from, to);
        if (to.endsWith("/journal.json")) { // through a held directory: /proc/self/fd/N/journal.json
          await Deno.writeTextFile(`${root}/f3.txt`, "appended\n", { append: true });
        }
      },
    };
    const fs = BackendFs.wrap(backend);
    const sandbox = new Sandbox(root);
    const stage = new Stage(fs, sandbox);
    for (let i = 0; i < N; i++) await stage.write(`f${i}.txt`, new TextEncoder().encode(`new ${i}\n`));
    await assert.rejects(
      () => commitChanges({ fs, sandbox }, stage.changes()),
      (e) => isRecoverable(e, "stale_base") && e.details?.["path"] === "f3.txt",
    );
    assert.equal(
      await Deno.readTextFile(`${root}/f3.txt`),
      "old 3\nappended\n",
      "the appended line survives",
    );
    assert.deepEqual(await tags(root), ["old"], "the rest is rolled back: all or nothing");
    assert.deepEqual(await leftovers(root), []);
  });
});

Deno.test("graver serve, opened before a SIGKILL mid-commit, answers reads with the rolled-back bytes", async () => {
  await withRoot(async (root) => {
    const bin = new URL("../../../bin/graver", import.meta.url).pathname;
    const server = new Deno.Command(bin, {
      args: ["serve", "--port", "0", "--root", root],
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const stderr = server.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let said = "";
    while (!/listening on (\S+)/.test(said)) {
      const { value, done } = await stderr.read();
      if (done) throw new Error(`graver serve did not start: ${said}`);
      said += value;
    }
    const url = said.match(/listening on (\S+)/)![1]!.replace(/\/$/, "");
    try {
      assert.equal(await runChild(root, "new", ["--kill-after-renames", "9"]), "SIGKILL");
      const seen = new Set<string>();
      for (let i = 0; i < N; i++) {
        const res = await fetch(`${url}/v1/tools/read_file`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ path: `f${i}.txt`, numbered: false }),
        });
        const body = await res.json();
        assert.ok(body.ok, JSON.stringify(body));
        seen.add(String(body.data.content).split(" ", 1)[0]!);
      }
      assert.deepEqual([...seen], ["old"], "never bytes of the killed commit");
      assert.deepEqual(await leftovers(root), []);
    } finally {
      server.kill("SIGTERM");
      await server.status;
      stderr.releaseLock();
      await server.stderr.cancel().catch(() => {});
    }
  });
});
