import assert from "node:assert/strict";
import { type WatchNews, WatchThread } from "../../../src/adapters/_watch_thread.ts";

/** The next piece of news of a watch that passes `pick`, within 30 s (a loaded machine starts a worker slowly). */
function news(): {
  heard: (n: WatchNews) => void;
  next: (pick: (n: WatchNews) => boolean) => Promise<WatchNews>;
} {
  const seen: WatchNews[] = [];
  const waiting: Array<() => void> = [];
  return {
    heard: (n) => {
      seen.push(n);
      waiting.splice(0).forEach((wake) => wake());
    },
    async next(pick) {
      const until = Date.now() + 30_000;
      for (;;) {
        const found = seen.find(pick);
        if (found) return found;
        assert.ok(Date.now() < until, `no such news in 30 s: ${JSON.stringify(seen)}`);
        await new Promise<void>((wake) => {
          waiting.push(wake);
          setTimeout(wake, 100);
        });
      }
    },
  };
}

Deno.test("WatchThread: a watch made in the worker says it is in place, reports changes, and the worker ends with the last watch", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "graver-watch-thread-" }));
  const thread = new WatchThread();
  const a = news();
  try {
    const id = thread.watch([dir], a.heard);
    assert.equal(thread.open, 1);
    assert.deepEqual(await a.next((n) => n.type === "ready"), { type: "ready", id });
    await Deno.writeTextFile(`${dir}/x.ts`, "x\n");
    const change = await a.next((n) => n.type === "change");
    assert.ok(change.type === "change" && change.paths.includes(`${dir}/x.ts`), JSON.stringify(change));
    thread.close(id);
    assert.equal(thread.open, 0, "no watch left: the worker is ended");
    thread.close(id); // again: nothing
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("WatchThread: a watch that cannot be set up says why; the others go on", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "graver-watch-thread-" }));
  const thread = new WatchThread();
  const good = news();
  const bad = news();
  try {
    const kept = thread.watch([dir], good.heard);
    await good.next((n) => n.type === "ready");
    const failed = thread.watch([`${dir}/no-such-folder`], bad.heard);
    const why = await bad.next((n) => n.type === "failed");
    assert.ok(why.type === "failed" && why.message.includes("no-such-folder"), JSON.stringify(why));
    thread.close(failed);
    await Deno.writeTextFile(`${dir}/y.ts`, "y\n");
    await good.next((n) => n.type === "change");
    thread.close(kept);
    assert.equal(thread.open, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
