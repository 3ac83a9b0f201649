import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace, type StreamEvent } from "../../../src/mod.ts";
import {
  byteSource,
  describeStreamEvent,
  feedStream,
  isRefusalEvent,
  lineSource,
} from "../../../src/surfaces/stream_feed.ts";

const FILE = "one\ntwo\nthree\n";
const GOOD = "a.txt\n<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n";
const BAD = "a.txt\n<<<<<<< SEARCH\nfour\n=======\n4\n>>>>>>> REPLACE\n";

async function workspace() {
  return await createWorkspace({ backend: createMemoryBackend({ "/a.txt": FILE }) });
}

/** A byte stream that gives `text` split at every `size` bytes, cutting multi-byte characters. */
function bytesOf(text: string, size: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at += size));
    },
  });
}

async function drain(source: { read(): Promise<string | null> }): Promise<string> {
  let out = "";
  for (let piece = await source.read(); piece !== null; piece = await source.read()) out += piece;
  return out;
}

Deno.test("byteSource() decodes characters cut between chunks, and lineSource() gives the text back line by line", async () => {
  const text = "é → 😀\r\nlast line without end";
  for (const size of [1, 2, 3, 5]) assert.equal(await drain(byteSource(bytesOf(text, size))), text);
  assert.equal(await drain(lineSource(text)), text);
  const pieces: string[] = [];
  const lines = lineSource("a\nb\nc");
  for (let p = await lines.read(); p !== null; p = await lines.read()) pieces.push(p);
  assert.deepEqual(pieces, ["a\n", "b\n", "c"]);
});

Deno.test("feedStream() ends in the one-shot call's result, and stops reading once a refusal stops the stream", async () => {
  const fed = await feedStream((await workspace()).stream({ tool: "apply_edits" }), lineSource(GOOD + BAD));
  const whole = await (await workspace()).call("apply_edits", { text: GOOD + BAD });
  assert.deepEqual(fed, whole);

  const ws = await workspace();
  const events: StreamEvent[] = [];
  const source = lineSource(BAD + GOOD);
  let reads = 0;
  const counted = { read: () => (reads++, source.read()), cancel: (r?: string) => source.cancel(r) };
  const stream = ws.stream({ tool: "apply_edits", stopOnRefusal: true, onEvent: (e) => events.push(e) });
  const result = await feedStream(stream, counted);
  assert.equal(result.ok, false);
  assert.ok(events.some((e) => e.type === "stopped"), "a stopped event");
  assert.ok(
    reads < (BAD + GOOD).split("\n").length,
    `read ${reads} lines: the source went on after the stop`,
  );
  const read = await ws.call("read_file", { path: "a.txt" });
  assert.match(JSON.stringify(read), /two/, "nothing was written");
});

Deno.test("feedStream() aborts the stream when its source fails, so nothing is written", async () => {
  const ws = await workspace();
  let n = 0;
  const failing = {
    read: () => n++ === 0 ? Promise.resolve(GOOD) : Promise.reject(new Error("client went away")),
    cancel() {},
  };
  const result = await feedStream(ws.stream({ tool: "apply_edits" }), failing);
  assert.equal(result.ok, false);
  assert.match(!result.ok ? result.error.message : "", /client went away/);
  assert.match(JSON.stringify(await ws.call("read_file", { path: "a.txt" })), /two/);
});

Deno.test("describeStreamEvent() says each event in one line, and isRefusalEvent() picks the refusals", async () => {
  const ws = await workspace();
  const events: StreamEvent[] = [];
  await feedStream(
    ws.stream({ tool: "apply_edits", onEvent: (e) => events.push(e) }),
    lineSource(GOOD + BAD),
  );
  const lines = events.map(describeStreamEvent);
  for (const line of lines) assert.ok(!line.includes("\n"), line);
  assert.ok(lines.includes("block 1 placed at a.txt:2-2 (exact)"), lines.join(" | "));
  assert.ok(lines.some((l) => /^block 2 refused in a\.txt: no_match: /.test(l)), lines.join(" | "));
  assert.ok(lines.some((l) => l.startsWith("block 1 replaced in a.txt (+1 -1)")), lines.join(" | "));
  assert.match(lines.at(-1)!, /^result: refused \(no_match\)/);
  assert.deepEqual(
    events.filter(isRefusalEvent).map((e) => e.type),
    ["refused", "result"],
  );
});
