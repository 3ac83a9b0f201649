import assert from "node:assert/strict";
import type { EventHub } from "../../../src/surfaces/events.ts";
import { rawConnect, startRealServer } from "./_real_server.ts";

/** An event with ~4 KB of public attributes (strings are cut to 200 characters each). */
function emit(hub: EventHub, count: number): void {
  const attributes: Record<string, string> = {};
  for (let i = 0; i < 20; i++) attributes[`a${i}`] = "x".repeat(200);
  for (let i = 0; i < count; i++) hub.event("graver.test", attributes);
}

/** Let timers and I/O run. */
const tick = () => new Promise((r) => setTimeout(r, 1));

/** Read an SSE response's event names until `until` is seen, the stream ends, or `waitMs` passes. */
async function eventNames(res: Response, until: string, waitMs: number): Promise<string[]> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const names: string[] = [];
  let text = "";
  const late = new Promise<"late">((r) => setTimeout(() => r("late"), waitMs));
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), late]);
      if (next === "late" || next.done) return names;
      text += next.value;
      let split;
      while ((split = text.indexOf("\n\n")) >= 0) {
        const name = /^event: (.*)$/m.exec(text.slice(0, split))?.[1];
        text = text.slice(split + 2);
        if (name) names.push(name);
        if (name === until) return names;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

Deno.test("an SSE subscriber that never reads is dropped once its queue is full; one that reads stays", async () => {
  const server = await startRealServer({ eventStream: { maxQueued: 100, dropGraceMs: 200 } });
  const conn = await rawConnect(server.port);
  const reading = await fetch(`${server.url}/v1/events`);
  let received = 0;
  const reader = reading.body!.getReader();
  const consumed = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      received += value.byteLength;
    }
  })().catch(() => {});
  try {
    await conn.send("GET /v1/events HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: text/event-stream\r\n\r\n");
    for (let i = 0; i < 100 && server.events.subscribers < 2; i++) await tick();
    assert.equal(server.events.subscribers, 2, "both subscribed");
    // The raw client reads nothing: once its socket is full, events queue for it. At most 4,000 batches of
    // 10 (~160 MB of frames) are sent; a bounded queue ends its subscription long before.
    let batches = 0;
    while (server.events.subscribers > 1 && batches < 4_000) {
      emit(server.events, 10);
      batches++;
      await tick();
    }
    assert.equal(server.events.subscribers, 1, `still subscribed after ${batches} batches of 10 events`);
    assert.ok(received > 1_000_000, `the reading client kept receiving (${received} bytes)`);
  } finally {
    conn.close();
    await reader.cancel().catch(() => {});
    await consumed;
    await server.stop();
  }
});

Deno.test("a burst over the per-subscriber bound ends the stream with a final graver.dropped event", async () => {
  const server = await startRealServer({ eventStream: { maxQueued: 100 } });
  try {
    const res = await fetch(`${server.url}/v1/events`);
    for (let i = 0; i < 100 && server.events.subscribers === 0; i++) await tick();
    // One burst, emitted before the stream can write any of it: 500 events for a queue of 100.
    emit(server.events, 500);
    const names = await eventNames(res, "graver.dropped", 10_000);
    assert.equal(names[0], "graver.ready");
    assert.equal(names.at(-1), "graver.dropped", `last events: ${names.slice(-3).join(", ")}`);
    assert.ok(names.length <= 102, `at most the bound was queued (${names.length} frames)`);
    assert.equal(server.events.subscribers, 0);
  } finally {
    await server.stop();
  }
});

Deno.test("events within the bound all arrive, and a client that disconnects leaves the hub", async () => {
  const server = await startRealServer({ eventStream: { maxQueued: 100 } });
  try {
    const res = await fetch(`${server.url}/v1/events`);
    for (let i = 0; i < 100 && server.events.subscribers === 0; i++) await tick();
    emit(server.events, 50);
    server.events.event("graver.last", {});
    const names = await eventNames(res, "graver.last", 10_000);
    assert.equal(names.filter((n) => n === "graver.test").length, 50);
    // eventNames cancelled the body: the client is gone.
    for (let i = 0; i < 1_000 && server.events.subscribers > 0; i++) {
      emit(server.events, 1);
      await tick();
    }
    assert.equal(server.events.subscribers, 0);
  } finally {
    await server.stop();
  }
});
