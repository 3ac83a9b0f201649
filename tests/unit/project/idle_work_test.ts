import assert from "node:assert/strict";
import { IdleWork } from "../../../src/project/idle_work.ts";

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Work that notes `what` in `done`. */
const note = (done: string[], what: string) => () => {
  done.push(what);
  return Promise.resolve();
};

Deno.test("IdleWork: work put off begins by its timer, in order, each once", async () => {
  const idle = new IdleWork();
  const done: string[] = [];
  idle.later(note(done, "a"), 5);
  idle.later(note(done, "b"), 60_000); // joins the first's timer
  assert.deepEqual(done, []);
  await pause(40);
  assert.deepEqual(done, ["a", "b"]);
  await idle.now();
  assert.deepEqual(done, ["a", "b"], "nothing is run twice");
});

Deno.test("IdleWork: now() begins what is put off at once and waits for what a timer began", async () => {
  const idle = new IdleWork();
  const done: string[] = [];
  let release!: () => void;
  idle.later(() => new Promise<void>((r) => release = () => (done.push("slow"), r())), 0);
  await pause(10); // its timer has begun it; it has not ended
  idle.later(note(done, "next"), 60_000);
  const ended = idle.now();
  assert.deepEqual(done, []);
  release();
  await ended;
  assert.deepEqual(done, ["slow", "next"], "the piece put off after waits for the one begun");
});

Deno.test("IdleWork: a failure is the work's own; cancel() drops what has not begun", async () => {
  const idle = new IdleWork();
  const done: string[] = [];
  idle.later(() => Promise.reject(new Error("no watch")), 60_000);
  idle.later(note(done, "after the failure"), 60_000);
  await idle.now();
  assert.deepEqual(done, ["after the failure"]);
  idle.later(note(done, "dropped"), 0);
  await idle.cancel();
  await pause(10);
  assert.deepEqual(done, ["after the failure"]);
});
