/**
 * Stage and commit on the in-memory backend: round trip with its diff,
 * create/delete/move, dry runs, stale bases and two writers, rollback after
 * a failure at every backend call, and recovery after a crash at every call.
 *
 * @module
 */
import { type Backend, BackendFs, createWorkspace, versionOf } from "../../../src/mod.ts";
import { commitChanges } from "../../../src/fs/commit.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import { Stage } from "../../../src/fs/stage.ts";
import { check, equal, sameBytes } from "../assert.ts";
import { faultyBackend } from "../fault_backend.ts";
import { type Snapshot, snapshot } from "../snapshot.ts";
import type { Case, CaseContext } from "../types.ts";
import { field, refused, succeeded } from "./_calls.ts";

const enc = new TextEncoder();

/** Reopen "a minute later": a lock left by the dead writer has gone stale by then. */
const LATER = { now: () => Date.now() + 60_000 };

async function raw(backend: Backend, path: string): Promise<Uint8Array | null> {
  return await BackendFs.wrap(backend).read(path);
}

function clean(snap: Snapshot, what: string): void {
  equal(snap.internal, [], `files left under .graver/ ${what}`);
}

/** Three files touched by one commit: modified, created, deleted. */
const THREE_FILE_BASE: Record<string, string | Uint8Array> = {
  "/p/a.txt": "alpha\nbeta\n",
  "/p/b.txt": "to be deleted\r\n",
  "/p/keep.bin": new Uint8Array([0, 1, 2, 255]),
};

async function stageThree(backend: Backend): Promise<ReturnType<Stage["changes"]>> {
  const stage = new Stage(BackendFs.wrap(backend), new Sandbox("/p"));
  await stage.write("a.txt", enc.encode("alpha\nBETA\n"));
  await stage.write("d/new.txt", enc.encode("fresh\n"));
  await stage.remove("b.txt");
  return stage.changes();
}

async function commitThree(ctx: CaseContext, failAt: number, crash: boolean) {
  const backend = ctx.backend(THREE_FILE_BASE);
  const changes = await stageThree(backend);
  const faulty = faultyBackend(backend, { failAt, crash });
  let threw = false;
  try {
    await commitChanges({ fs: BackendFs.wrap(faulty.backend), sandbox: new Sandbox("/p") }, changes);
  } catch {
    threw = true;
  }
  return { backend, threw, calls: faulty.calls(), fired: faulty.fired() };
}

/** Commit cases. */
export const COMMIT_CASES: Case[] = [
  {
    name: "commit.round_trip",
    async run(ctx) {
      const backend = ctx.backend({ "/src/app.ts": "export const a = 1;\nexport const b = 2;\n" });
      const ws = await createWorkspace({ backend, grammars: ctx.grammars });
      const read = succeeded(await ws.call("read_file", { path: "src/app.ts" }), "read");
      const v0 = field(read, "version");
      equal(v0, await versionOf((await raw(backend, "/src/app.ts"))!), "read_file version");
      const after = "export const a = 1;\nexport const b = 3;\n";
      const res = succeeded(
        await ws.call("write_file", { path: "src/app.ts", content: after, expected_version: v0 }),
        "applied",
      );
      equal(res.changes.length, 1, "number of changes");
      const change = res.changes[0]!;
      equal(change.path, "src/app.ts", "change path");
      equal(change.before_version, v0, "before_version");
      equal(change.after_version, await versionOf(enc.encode(after)), "after_version");
      sameBytes(await raw(backend, "/src/app.ts"), enc.encode(after), "committed bytes");
      const again = succeeded(await ws.call("read_file", { path: "src/app.ts" }), "read");
      equal(field(again, "version"), change.after_version, "version after commit");
      const same = succeeded(
        await ws.call("write_file", {
          path: "src/app.ts",
          content: after,
          expected_version: change.after_version,
        }),
        "no_change",
      );
      equal(same.changes, [], "changes of an identical write");
      const snap = await snapshot(backend);
      clean(snap, "after a commit");
      return { diff: change.diff, after_version: change.after_version, read_back: field(again, "content") };
    },
  },
  {
    name: "commit.create_delete_move",
    async run(ctx) {
      const backend = ctx.backend({ "/src/app.ts": "export const a = 1;\n" });
      const ws = await createWorkspace({ backend, grammars: ctx.grammars });
      const created = succeeded(
        await ws.call("create_file", { path: "docs/notes.md", content: "# Notes\n" }),
        "applied",
      );
      equal(created.changes[0]!.before_version, null, "before_version of a created file");
      const again = refused(
        await ws.call("create_file", { path: "docs/notes.md", content: "x" }),
        "already_exists",
      );
      const moved = succeeded(
        await ws.call("move_file", { from: "src/app.ts", to: "lib/app.ts" }),
        "applied",
      );
      equal(await raw(backend, "/src/app.ts"), null, "source after move");
      sameBytes(await raw(backend, "/lib/app.ts"), enc.encode("export const a = 1;\n"), "moved bytes");
      const notes = succeeded(await ws.call("read_file", { path: "docs/notes.md" }), "read");
      const deleted = succeeded(
        await ws.call("delete_file", { path: "docs/notes.md", expected_version: field(notes, "version") }),
        "applied",
      );
      equal(deleted.changes[0]!.after_version, null, "after_version of a deleted file");
      equal(await raw(backend, "/docs/notes.md"), null, "deleted file");
      const missing = refused(await ws.call("delete_file", { path: "docs/notes.md" }), "not_found");
      const snap = await snapshot(backend);
      clean(snap, "after create/move/delete");
      return {
        created_diff: created.changes[0]!.diff,
        already_exists: again.error.message,
        moved: moved.changes.map((c) => ({ path: c.path, diff: c.diff })),
        deleted_diff: deleted.changes[0]!.diff,
        not_found: missing.error.message,
        files: snap.files,
      };
    },
  },
  {
    name: "commit.dry_run_writes_nothing",
    async run(ctx) {
      const backend = ctx.backend({ "/a.txt": "one\ntwo\n", "/b.txt": "bee\n" });
      const ws = await createWorkspace({ backend, grammars: ctx.grammars });
      const before = await snapshot(backend);
      const calls: [string, Record<string, unknown>][] = [
        ["write_file", { path: "a.txt", content: "one\n2\n", dry_run: true }],
        ["create_file", { path: "c/new.txt", content: "new\n", dry_run: true }],
        ["delete_file", { path: "b.txt", dry_run: true }],
        ["move_file", { from: "b.txt", to: "moved/b.txt", dry_run: true }],
      ];
      const diffs: Record<string, string[]> = {};
      for (const [tool, args] of calls) {
        const res = succeeded(await ws.call(tool, args), "dry_run");
        check(res.changes.length > 0, `Expected a dry-run ${tool} to preview its changes`);
        diffs[tool] = res.changes.map((c) => c.diff);
      }
      const forced = succeeded(
        await ws.call("write_file", { path: "a.txt", content: "x\n" }, { dryRun: true }),
        "dry_run",
      );
      diffs["forced"] = forced.changes.map((c) => c.diff);
      equal(await snapshot(backend), before, "store after dry runs");
      return { diffs };
    },
  },
  {
    name: "commit.stale_base",
    async run(ctx) {
      const backend = ctx.backend({ "/shared.txt": "line 1\nline 2\nline 3\n" });
      const ws1 = await createWorkspace({ backend, grammars: ctx.grammars });
      const ws2 = await createWorkspace({ backend, grammars: ctx.grammars });
      const v0 = field(succeeded(await ws1.call("read_file", { path: "shared.txt" })), "version");
      equal(field(succeeded(await ws2.call("read_file", { path: "shared.txt" })), "version"), v0, "ws2 read");
      const first = succeeded(
        await ws1.call("write_file", {
          path: "shared.txt",
          content: "LINE 1\nline 2\nline 3\n",
          expected_version: v0,
        }),
        "applied",
      );
      const stale = refused(
        await ws2.call("write_file", {
          path: "shared.txt",
          content: "line 1\nline 2\nLINE 3\n",
          expected_version: v0,
        }),
        "stale_base",
      );
      equal(
        stale.error.details?.["current_version"],
        first.changes[0]!.after_version,
        "current_version in details",
      );
      equal(stale.error.suggested_call?.tool, "read_file", "suggested call");
      sameBytes(
        await raw(backend, "/shared.txt"),
        enc.encode("LINE 1\nline 2\nline 3\n"),
        "bytes after the refusal",
      );
      return { message: stale.error.message, hint: stale.error.hint, details: stale.error.details };
    },
  },
  {
    name: "commit.two_writers",
    async run(ctx) {
      const backend = ctx.backend({ "/shared.txt": "line 1\nline 2\nline 3\n" });
      const ws = [
        await createWorkspace({ backend, grammars: ctx.grammars }),
        await createWorkspace({ backend, grammars: ctx.grammars }),
      ];
      const edit = [
        (t: string) => t.replace("line 1", "LINE 1"),
        (t: string) => t.replace("line 3", "LINE 3"),
      ];
      const reads = await Promise.all(
        ws.map((w) => w.call("read_file", { path: "shared.txt", numbered: false })),
      );
      const base = reads.map((r) => succeeded(r));
      const text = "line 1\nline 2\nline 3\n";
      const results = await Promise.all(
        ws.map((w, i) =>
          w.call("write_file", {
            path: "shared.txt",
            content: edit[i]!(text),
            expected_version: field(base[i]!, "version"),
          })
        ),
      );
      const landed = results.filter((r) => r.ok).length;
      equal(landed, 1, "writes that landed");
      const loser = results.findIndex((r) => !r.ok);
      const refusal = refused(results[loser]!, "stale_base");
      const current = await versionOf((await raw(backend, "/shared.txt"))!);
      equal(refusal.error.details?.["current_version"], current, "current_version given to the loser");
      // The loser re-reads and redoes its edit: no update is lost.
      const fresh = succeeded(await ws[loser]!.call("read_file", { path: "shared.txt", numbered: false }));
      succeeded(
        await ws[loser]!.call("write_file", {
          path: "shared.txt",
          content: edit[loser]!(field(fresh, "content") + "\n"),
          expected_version: field(fresh, "version"),
        }),
        "applied",
      );
      const final = new TextDecoder().decode((await raw(backend, "/shared.txt"))!);
      equal(final, "LINE 1\nline 2\nLINE 3\n", "content after both writers");
      return { landed, final };
    },
  },
  {
    name: "commit.rollback_at_every_call",
    async run(ctx) {
      const clean0 = await commitThree(ctx, 0, false);
      check(!clean0.threw, "Expected the fault-free three-file commit to succeed");
      const calls = clean0.calls;
      check(calls > 5, `Expected the three-file commit to make several backend calls, made ${calls}`);
      const before = await snapshot(ctx.backend(THREE_FILE_BASE), "/p");
      const after = await snapshot(clean0.backend, "/p");
      clean(after, "after a clean commit");
      check(canonical(before) !== canonical(after), "Expected the commit to change the store");
      let rolledBack = 0;
      let landed = 0;
      for (let n = 1; n <= calls; n++) {
        const run = await commitThree(ctx, n, false);
        check(run.fired, `Expected the fault at call ${n} to fire`);
        const snap = await snapshot(run.backend, "/p");
        if (run.threw) {
          rolledBack++;
          equal(snap.files, before.files, `store after a failure at call ${n}`);
        } else {
          landed++;
          equal(snap.files, after.files, `store after a commit that survived a failure at call ${n}`);
        }
        // Whatever was left under .graver/ is cleaned when the workspace is next opened.
        const ws = await createWorkspace({ backend: run.backend, root: "/p", lock: LATER });
        const reopened = await snapshot(run.backend, "/p");
        clean(reopened, `after reopening (failure at call ${n}, recovery "${ws.recovered}")`);
        equal(
          reopened.files,
          run.threw ? before.files : after.files,
          `store after reopening (failure at call ${n})`,
        );
      }
      return { calls, rolled_back: rolledBack, landed, before: before.files, after: after.files };
    },
  },
  {
    name: "commit.tool_call_fails_at_every_call",
    async run(ctx) {
      // A two-file commit (a move) through dispatch: a backend failure anywhere is reported as a
      // failed call, never thrown, and leaves the store as it was (or as intended when it landed).
      const base = { "/m/src/app.ts": "export const a = 1;\n", "/m/readme.txt": "keep\n" };
      const args = { from: "src/app.ts", to: "lib/app.ts" };
      const cleanRun = ctx.backend(base);
      const counting = faultyBackend(cleanRun, { failAt: 0 });
      const cleanWs = await createWorkspace({
        backend: counting.backend,
        root: "/m",
        grammars: ctx.grammars,
      });
      const opened = counting.calls();
      succeeded(await cleanWs.call("move_file", args), "applied");
      const calls = counting.calls() - opened;
      const before = await snapshot(ctx.backend(base), "/m");
      const after = await snapshot(cleanRun, "/m");
      const codes: Record<string, number> = {};
      for (let n = 1; n <= calls; n++) {
        const backend = ctx.backend(base);
        const faulty = faultyBackend(backend, { failAt: opened + n });
        const ws = await createWorkspace({ backend: faulty.backend, root: "/m", grammars: ctx.grammars });
        const res = await ws.call("move_file", args);
        await createWorkspace({ backend, root: "/m", lock: LATER });
        const snap = await snapshot(backend, "/m");
        clean(snap, `after a tool call that met a failure at call ${n}`);
        equal(snap.files, res.ok ? after.files : before.files, `store after a failure at call ${n}`);
        const key = res.ok ? "ok" : res.error.code;
        codes[key] = (codes[key] ?? 0) + 1;
      }
      check((codes["internal"] ?? 0) > 0, "Expected some failures to be reported as internal errors");
      return { calls, outcomes: codes };
    },
  },
  {
    name: "commit.crash_recovery_at_every_call",
    async run(ctx) {
      const { calls } = await commitThree(ctx, 0, false);
      const before = await snapshot(ctx.backend(THREE_FILE_BASE), "/p");
      const after = await snapshot((await commitThree(ctx, 0, false)).backend, "/p");
      const outcomes: Record<string, number> = {};
      for (let n = 1; n <= calls; n++) {
        const run = await commitThree(ctx, n, true);
        // The process "dies" at call n: reopen the workspace over the raw backend.
        const ws = await createWorkspace({ backend: run.backend, root: "/p", lock: LATER });
        const snap = await snapshot(run.backend, "/p");
        clean(snap, `after recovery from a crash at call ${n}`);
        const landed = canonical(snap.files) === canonical(after.files);
        check(
          landed || canonical(snap.files) === canonical(before.files),
          `Expected the store after a crash at call ${n} to be the before- or after-state, found ${
            canonical(snap.files)
          }`,
        );
        const key = `${landed ? "after" : "before"}:${ws.recovered}`;
        outcomes[key] = (outcomes[key] ?? 0) + 1;
      }
      check((outcomes["before:rolled_back"] ?? 0) > 0, "Expected some crashes to need a journal roll-back");
      return { calls, outcomes };
    },
  },
];

function canonical(v: unknown): string {
  return JSON.stringify(v);
}
