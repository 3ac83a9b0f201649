import assert from "node:assert/strict";
import { type Backend, BackendFs, createMemoryBackend, isRecoverable } from "../../../src/mod.ts";
import { commitChanges, recoverJournal } from "../../../src/fs/commit.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import { Stage } from "../../../src/fs/stage.ts";
import { lock, tryLock } from "../../../src/fs/commit_lock.ts";
import { enc } from "../../_helpers.ts";

const LOCK = "/p/.graver/lock";
/** A process on another machine: its liveness cannot be known here. */
const OTHER_HOST = { pid: 42, host: "elsewhere", started: 7, isAlive: () => null };
const T0 = 1_700_000_000_000;

function setup(raw: Backend = createMemoryBackend({ "/p/a.ts": "export const a = 1;\n" })) {
  return { raw, fs: BackendFs.wrap(raw), sandbox: new Sandbox("/p") };
}

/** A clock that moves forward by `step` ms every time it is read. */
function ticking(start: number, step: number): { now: () => number; reads: () => number } {
  let t = start;
  let n = 0;
  return {
    now: () => {
      n++;
      const out = t;
      t += step;
      return out;
    },
    reads: () => n,
  };
}

async function lockText(fs: BackendFs): Promise<string | null> {
  const b = await fs.read(LOCK);
  return b === null ? null : new TextDecoder().decode(b);
}

Deno.test("commit lock: a live lock makes recovery stand aside; a stale one is broken", async () => {
  const backend = createMemoryBackend({ "/p/a.ts": "export const a = 1;\n" });
  const fs = BackendFs.wrap(backend);
  const sandbox = new Sandbox("/p");
  await fs.write("/p/.graver/lock", enc(`${Date.now()} someone-else`));
  assert.equal(await recoverJournal(fs, sandbox), "busy");
  const stage = new Stage(fs, sandbox);
  await stage.write("a.ts", enc("x\n"));
  await assert.rejects(
    () => commitChanges({ fs, sandbox }, stage.changes(), { lock: { waitMs: 20 } }),
    (e) => isRecoverable(e, "limit_exceeded"),
  );
  const later = { now: () => Date.now() + 60_000 };
  const out = await commitChanges({ fs, sandbox }, stage.changes(), { lock: later });
  assert.equal(out.length, 1);
  assert.equal(await fs.read("/p/.graver/lock"), null);
});

Deno.test("tryLock() takes a free lock naming its holder and stamped with the clock; release() removes it", async () => {
  const { fs, sandbox } = setup();
  const held = await tryLock(fs, sandbox, { now: () => T0, identity: OTHER_HOST });
  assert.ok(held);
  const holder = JSON.parse((await lockText(fs))!);
  assert.deepEqual({ ...holder, token: "" }, {
    graver_lock: 1,
    pid: 42,
    host: "elsewhere",
    started: 7,
    token: "",
    fence: 1,
    acquired: T0,
  });
  assert.match(holder.token, /^\d+-\d+$/);
  await held.release();
  assert.equal(await fs.read(LOCK), null);
});

Deno.test("release() only removes our own lock, even when called after another process took it", async () => {
  const { fs, sandbox } = setup();
  const held = await tryLock(fs, sandbox, { now: () => T0 });
  assert.ok(held);
  await fs.write(LOCK, enc(`${T0} someone-else`)); // ours was broken and taken over
  await held.release();
  assert.equal(await lockText(fs), `${T0} someone-else`);
});

Deno.test("tryLock() gives up on a live lock once waitMs has passed on its clock", async () => {
  const { fs, sandbox } = setup();
  await fs.write(LOCK, enc(`${T0} someone-else`));
  const clock = ticking(T0, 100);
  assert.equal(await tryLock(fs, sandbox, { now: clock.now, waitMs: 500, staleMs: 60_000 }), null);
  assert.ok(clock.reads() >= 5, `read the clock ${clock.reads()} times`);
  assert.equal(await lockText(fs), `${T0} someone-else`);
});

Deno.test("tryLock() with waitMs 0 tries once and leaves a live lock alone", async () => {
  const { fs, sandbox } = setup();
  await fs.write(LOCK, enc(`${T0} someone-else`));
  assert.equal(await tryLock(fs, sandbox, { now: () => T0 + 1_000, waitMs: 0, staleMs: 5_000 }), null);
  assert.equal(await lockText(fs), `${T0} someone-else`);
});

Deno.test("tryLock() breaks a lock older than staleMs, not one exactly staleMs old", async () => {
  const { fs, sandbox } = setup();
  await fs.write(LOCK, enc(`${T0} someone-else`));
  assert.equal(await tryLock(fs, sandbox, { now: () => T0 + 5_000, waitMs: 0, staleMs: 5_000 }), null);
  const held = await tryLock(fs, sandbox, { now: () => T0 + 5_001, waitMs: 0, staleMs: 5_000 });
  assert.ok(held);
  assert.equal(JSON.parse((await lockText(fs))!).acquired, T0 + 5_001);
});

Deno.test("tryLock() breaks a lock whose stamp stays unreadable, not one its taker is still writing", async () => {
  const { fs, sandbox } = setup();
  await fs.write(LOCK, enc("garbage"));
  // Created empty, then written: an unreadable lock may be one another writer took a moment ago.
  assert.equal(await tryLock(fs, sandbox, { now: () => T0, waitMs: 0 }), null);
  assert.equal(await lockText(fs), "garbage");
  let clock = T0;
  const held = await tryLock(fs, sandbox, { now: () => (clock += 400), waitMs: 5_000 });
  assert.ok(held);
  assert.notEqual(await lockText(fs), "garbage");
});

Deno.test("tryLock() takes the lock when the holder releases it while it waits", async () => {
  const base = createMemoryBackend({ "/p/a.ts": "" });
  let exclusiveTries = 0;
  const raw: Backend = {
    ...base,
    async writeFile(path, data, options) {
      if ((options as { flag?: string } | undefined)?.flag === "wx" && ++exclusiveTries === 3) {
        await base.unlink(LOCK); // the live holder finishes its commit between two tries
      }
      return base.writeFile(path, data, options);
    },
  };
  const { fs, sandbox } = setup(raw);
  await fs.write(LOCK, enc(`${T0} someone-else`));
  const held = await tryLock(fs, sandbox, { now: () => T0, waitMs: 60_000, staleMs: 60_000 });
  assert.ok(held);
  assert.equal(exclusiveTries, 3);
  assert.notEqual(await lockText(fs), `${T0} someone-else`);
});

Deno.test("lock() refuses with limit_exceeded naming the lock file when it cannot take it", async () => {
  const { fs, sandbox } = setup();
  await fs.write(LOCK, enc(`${T0} someone-else`));
  await assert.rejects(
    () => lock(fs, sandbox, { now: () => T0, waitMs: 0 }),
    (e) =>
      isRecoverable(e, "limit_exceeded") && e.details?.["lock"] === LOCK &&
      /nothing was written/.test(e.hint),
  );
  const held = await lock(fs, sandbox, { now: () => T0 + 60_000, waitMs: 0, staleMs: 10_000 });
  await held.release();
  assert.equal(await fs.read(LOCK), null);
});

Deno.test("tryLock() gives back a fresh lock it moved aside while breaking a stale one", async () => {
  const raw = createMemoryBackend({ "/p/.graver/lock": "1 long-dead" });
  const lockPath = "/p/.graver/lock";
  // Another process breaks the stale lock and takes a fresh one just before our rename.
  const racing: typeof raw = {
    ...raw,
    async rename(from: string, to: string) {
      if (from === lockPath) {
        await raw.unlink(lockPath);
        await raw.writeFile(lockPath, new TextEncoder().encode(`${Date.now()} the-other-process`));
      }
      return await raw.rename(from, to);
    },
  };
  const fs = BackendFs.wrap(racing);
  const held = await tryLock(fs, new Sandbox("/p"), { waitMs: 0 });
  assert.equal(held, null, "the fresh lock belongs to the other process");
  const content = new TextDecoder().decode((await BackendFs.wrap(raw).read(lockPath))!);
  assert.match(content, / the-other-process$/);
  assert.deepEqual((await raw.readdir("/p/.graver")).map(String), ["lock"]);
});

Deno.test("tryLock() breaks a lock dated in the future at once (planted, or left before a clock step back)", async () => {
  for (
    const text of [
      `${T0 + 3_600_000} someone-else`,
      JSON.stringify({ ...OTHER_HOST, acquired: T0 + 3_600_000 }),
    ]
  ) {
    const { fs, sandbox } = setup();
    await fs.write(LOCK, enc(text));
    const held = await tryLock(fs, sandbox, { now: () => T0, waitMs: 0 });
    assert.ok(held, `a lock dated an hour ahead is implausible: ${text}`);
    assert.equal(JSON.parse((await lockText(fs))!).acquired, T0);
    await held.release();
  }
});

Deno.test("tryLock() leaves a lock within the clock-skew allowance alone", async () => {
  const { fs, sandbox } = setup();
  await fs.write(LOCK, enc(`${T0 + 30_000} someone-else`));
  assert.equal(await tryLock(fs, sandbox, { now: () => T0, waitMs: 0 }), null);
});

Deno.test("lock() names the lock file, its holder and how to clear it when it gives up", async () => {
  const { fs, sandbox } = setup();
  await fs.write(LOCK, enc(JSON.stringify({ ...OTHER_HOST, token: "t", fence: 1, acquired: T0 })));
  await assert.rejects(
    () => lock(fs, sandbox, { now: () => T0, waitMs: 0 }),
    (e) =>
      isRecoverable(e, "limit_exceeded") &&
      e.message.includes(`"${LOCK}" is held by process 42 on elsewhere`) &&
      e.hint.includes(`remove "${LOCK}"`) && e.details?.["lock"] === LOCK,
  );
});

Deno.test("check() passes while the lock is ours and refuses once another writer broke and took it", async () => {
  const { fs, sandbox } = setup();
  const held = await tryLock(fs, sandbox, { now: () => T0, identity: OTHER_HOST });
  assert.ok(held);
  await held.check();
  const other = await tryLock(fs, sandbox, { now: () => T0 + 60_000, waitMs: 0 }); // our lease ran out
  assert.ok(other);
  assert.equal(JSON.parse((await lockText(fs))!).fence, 2, "the breaker's lock carries the next fence");
  await assert.rejects(
    () => held.check(),
    (e) => isRecoverable(e, "limit_exceeded") && e.details?.["lock"] === LOCK,
  );
  await held.release();
  assert.notEqual(await lockText(fs), null, "release() leaves the other writer's lock alone");
});

Deno.test("a lock this process holds is live for a second copy of the lock module (two bundles in one process)", async () => {
  const copy = await import(new URL("../../../src/fs/commit_lock.ts?second-copy", import.meta.url).href) as {
    tryLock: typeof tryLock;
  };
  const { fs, sandbox } = setup();
  const held = await tryLock(fs, sandbox, { now: () => T0 });
  assert.ok(held);
  assert.equal(
    await copy.tryLock(fs, sandbox, { now: () => T0, waitMs: 0 }),
    null,
    "never broken as abandoned",
  );
  await held.release();
  const next = await copy.tryLock(fs, sandbox, { now: () => T0, waitMs: 0 });
  assert.ok(next, "free once released");
  await next.release();
});
