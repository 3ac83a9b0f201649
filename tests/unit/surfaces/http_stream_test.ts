import assert from "node:assert/strict";
import { slowBody, SseReader } from "../../surfaces/_sse.ts";
import { startRealServer } from "./_real_server.ts";

const TOKEN = "stream-test-token-0123456789";
const AUTH = { authorization: `Bearer ${TOKEN}` };

const SOURCE = [
  'import { formatPrice } from "./money.ts";',
  "",
  "export class Cart {",
  "  readonly items: { price: number; quantity: number }[] = [];",
  "",
  "  total(): number {",
  "    let sum = 0;",
  "    for (const item of this.items) {",
  "      sum += item.price * item.quantity;",
  "    }",
  "    return sum;",
  "  }",
  "",
  "  summary(): string {",
  "    return `${this.items.length} items, ${formatPrice(this.total())}`;",
  "  }",
  "}",
  "",
].join("\n");

/** Two blocks, as a model writes them, cut where its tokens might fall. */
const CHUNKS = [
  "Two changes:\n\nsrc/cart.ts\n<<<<<<< SEA",
  "RCH\n    let sum = 0;\n    for (const item of this.items) {\n      sum += item.price * item.quantity;\n",
  "    }\n    return sum;\n=======\n    return this.items.reduce((s, i) => s + i.price * i.quantity, 0);\n",
  ">>>>>>> REPLACE\n\nsrc/cart.ts\n<<<<<<< SEARCH\n    return `${this.items.length} items",
  ", ${formatPrice(this.total())}`;\n=======\n    return `${this.items.length} item(s), ${formatPrice(this.total())}`;\n",
  ">>>>>>> REPLACE\n",
];

function streamRequest(url: string, body: ReadableStream<Uint8Array> | string, init: RequestInit = {}) {
  return fetch(url, {
    method: "POST",
    headers: { ...AUTH, "content-type": "text/plain" },
    body,
    duplex: "half",
    ...init,
  } as RequestInit);
}

Deno.test("POST /v1/stream/apply_edits answers events while the body is still arriving, then the result POST /v1/tools gives", async () => {
  const s = await startRealServer({ token: TOKEN }, {});
  try {
    await Deno.mkdir(`${s.root}/src`);
    await Deno.writeTextFile(`${s.root}/src/cart.ts`, SOURCE);
    const body = slowBody();
    const answer = streamRequest(`${s.url}/v1/stream/apply_edits`, body.stream);
    body.send(CHUNKS[0]!);
    const res = await answer;
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
    assert.ok(res.headers.get("graver-session"));
    const events = new SseReader(res);
    // The first event is read while most of the body is still unsent.
    const ready = await events.next();
    assert.equal(ready?.event, "ready");
    assert.equal(ready?.data.tool, "apply_edits");
    // Block 1's search part closes in the third chunk: it is placed before the rest of the body is sent.
    body.send(CHUNKS[1]!);
    body.send(CHUNKS[2]!);
    const placed = await events.until("placed");
    assert.deepEqual(
      {
        block: placed?.data.block,
        path: placed?.data.path,
        lines: placed?.data.lines,
        tier: placed?.data.tier,
      },
      { block: 1, path: "src/cart.ts", lines: { start: 7, end: 11 }, tier: "exact" },
    );
    for (const chunk of CHUNKS.slice(3)) {
      await new Promise((r) => setTimeout(r, 5));
      body.send(chunk);
    }
    body.close();
    const result = (await events.until("result"))!.data;
    assert.equal(await events.next(), null, "the result is the last event");
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal(result.status, "applied");
    const streamed = await Deno.readTextFile(`${s.root}/src/cart.ts`);
    assert.match(streamed, /this\.items\.reduce\(/);
    assert.match(streamed, /item\(s\)/);
    // Every event between ready and result is a stream event, in the documented shape.
    for (const frame of events.frames.slice(1, -1)) assert.equal(frame.data.type, frame.event);

    // The same text as one call, on the same file: the same result.
    await Deno.writeTextFile(`${s.root}/src/cart.ts`, SOURCE);
    const whole = await fetch(`${s.url}/v1/tools/apply_edits`, {
      method: "POST",
      headers: { ...AUTH, "content-type": "application/json" },
      body: JSON.stringify({ text: CHUNKS.join("") }),
    });
    assert.deepEqual(await whole.json(), result);
  } finally {
    await s.stop();
  }
});

Deno.test("POST /v1/stream?stop_on_refusal=true: the first refused block stops the stream and the result comes while the body is still open", async () => {
  const s = await startRealServer({ token: TOKEN }, {});
  try {
    await Deno.mkdir(`${s.root}/src`);
    await Deno.writeTextFile(`${s.root}/src/cart.ts`, SOURCE);
    const body = slowBody();
    const answer = streamRequest(`${s.url}/v1/stream/apply_edits?stop_on_refusal=true`, body.stream);
    // A block written against code that is not there; the model goes on writing (the body stays open).
    body.send(
      "src/cart.ts\n<<<<<<< SEARCH\n    let total = 0;\n=======\n    let total = 1;\n>>>>>>> REPLACE\n\n",
    );
    const events = new SseReader(await answer);
    const result = (await events.until("result"))!.data;
    // The model is still "writing": the body was never closed, and the answer is complete.
    assert.deepEqual(events.frames.map((f) => f.event), ["ready", "file", "refused", "stopped", "result"]);
    assert.equal(events.frames[2]!.data.error.code, "no_match");
    assert.equal(events.frames[3]!.data.reason, "refusal");
    assert.equal(result.ok, false);
    assert.equal(result.error.code, "no_match");
    assert.equal(await events.next(), null);
    assert.equal(await Deno.readTextFile(`${s.root}/src/cart.ts`), SOURCE);
    try {
      body.close();
    } catch {
      // The server stopped reading: the body was cancelled.
    }
  } finally {
    await s.stop();
  }
});

Deno.test("POST /v1/stream: query parameters are the tool's other arguments (dry_run writes nothing)", async () => {
  const s = await startRealServer({ token: TOKEN }, { "a.txt": "one\ntwo\n" });
  try {
    const text = "a.txt\n<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n";
    const res = await streamRequest(
      `${s.url}/v1/stream/apply_edits?dry_run=true&format=search-replace`,
      text,
    );
    const result = (await new SseReader(res).until("result"))!.data;
    assert.equal(result.ok && result.status, "dry_run", JSON.stringify(result));
    assert.equal(await Deno.readTextFile(`${s.root}/a.txt`), "one\ntwo\n");
    const bad = await streamRequest(`${s.url}/v1/stream/apply_edits?format=xml`, text);
    const refused = (await new SseReader(bad).until("result"))!.data;
    assert.equal(refused.ok, false);
    assert.equal(refused.error.code, "invalid_args");
  } finally {
    await s.stop();
  }
});

Deno.test("POST /v1/stream/edit_file: the body is the arguments' JSON as a function-calling API streams it", async () => {
  const s = await startRealServer({ token: TOKEN }, { "a.txt": "one\ntwo\n" });
  try {
    const json = JSON.stringify({ path: "a.txt", old_string: "two", new_string: "2" });
    const body = slowBody();
    const answer = streamRequest(`${s.url}/v1/stream/edit_file`, body.stream);
    for (let i = 0; i < json.length; i += 7) body.send(json.slice(i, i + 7));
    body.close();
    const result = (await new SseReader(await answer).until("result"))!.data;
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal(await Deno.readTextFile(`${s.root}/a.txt`), "one\n2\n");
  } finally {
    await s.stop();
  }
});

Deno.test("POST /v1/stream: a client that goes away before the body ends aborts the stream, nothing written", async () => {
  const s = await startRealServer({ token: TOKEN }, { "a.txt": "one\ntwo\n" });
  try {
    const body = slowBody();
    const stop = new AbortController();
    const answer = streamRequest(`${s.url}/v1/stream/apply_edits`, body.stream, { signal: stop.signal });
    // A whole block: were the stream ended rather than aborted, it would land.
    body.send("a.txt\n<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n");
    const events = new SseReader(await answer);
    assert.equal((await events.next())?.event, "ready");
    stop.abort();
    // The server counts the stream as a call in flight until it has settled.
    for (let i = 0; i < 500; i++) {
      const health = await (await fetch(`${s.url}/v1/health`)).json();
      if (health.calls_in_flight === 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(await Deno.readTextFile(`${s.root}/a.txt`), "one\ntwo\n");
  } finally {
    await s.stop();
  }
});

Deno.test("POST /v1/stream: the token, the tools that stream, and the body size limit as the other routes", async () => {
  const s = await startRealServer({ token: TOKEN, maxBodyBytes: 64 }, { "a.txt": "one\ntwo\n" });
  try {
    const anonymous = await fetch(`${s.url}/v1/stream/apply_edits`, { method: "POST", body: "x" });
    assert.equal(anonymous.status, 401);
    assert.equal((await anonymous.json()).error.code, "unauthorized");
    const read = await streamRequest(`${s.url}/v1/stream/read_file`, "x");
    assert.equal(read.status, 404);
    const error = (await read.json()).error;
    assert.equal(error.code, "not_found");
    assert.match(error.hint, /apply_edits/);
    // A body with no declared length that grows past the limit: refused as it arrives, nothing written.
    const body = slowBody();
    const answer = streamRequest(`${s.url}/v1/stream/apply_edits`, body.stream);
    body.send("a.txt\n<<<<<<< SEARCH\ntwo\n=======\n");
    const events = new SseReader(await answer);
    assert.equal((await events.next())?.event, "ready");
    body.send("2\n".repeat(40) + ">>>>>>> REPLACE\n");
    body.close();
    const result = (await events.until("result"))!.data;
    assert.equal(result.ok, false);
    assert.equal(result.error.code, "limit_exceeded");
    assert.equal(result.error.details.max_body_bytes, 64);
    assert.equal(await Deno.readTextFile(`${s.root}/a.txt`), "one\ntwo\n");
  } finally {
    await s.stop();
  }
});

Deno.test("POST /v1/stream: the request time limit bounds the whole stream, reading included: a body that never ends is limit_exceeded", async () => {
  const s = await startRealServer({ token: TOKEN, timeoutMs: 300 }, { "a.txt": "one\ntwo\n" });
  try {
    const body = slowBody();
    const answer = streamRequest(`${s.url}/v1/stream/apply_edits`, body.stream);
    body.send("a.txt\n<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n");
    // The body is never closed: the server answers at its time limit.
    const result = (await new SseReader(await answer).until("result"))!.data;
    assert.equal(result.ok, false);
    assert.equal(result.error.code, "limit_exceeded");
    assert.equal(result.error.details.time_limit_ms, 300);
    assert.equal(await Deno.readTextFile(`${s.root}/a.txt`), "one\ntwo\n");
    body.close();
  } finally {
    await s.stop();
  }
});

Deno.test("POST /v1/stream: while the model is quiet the server sends SSE keep-alive comments, and GET /v1/tools says which tools stream", async () => {
  const s = await startRealServer({ token: TOKEN, streamKeepAliveMs: 40 }, {});
  try {
    await Deno.mkdir(`${s.root}/src`);
    await Deno.writeTextFile(`${s.root}/src/cart.ts`, SOURCE);
    const body = slowBody();
    const res = await streamRequest(`${s.url}/v1/stream/apply_edits`, body.stream);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let raw = "";
    // Nothing to say for a while: the first block's SEARCH has not closed.
    body.send(CHUNKS[0]!);
    while (!raw.includes(": keep-alive\n\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      raw += value;
    }
    assert.match(raw, /^event: ready\n/m);
    for (const chunk of CHUNKS.slice(1)) body.send(chunk);
    body.close();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      raw += value;
    }
    assert.match(raw, /event: result\ndata: \{"ok":true/);
    assert.match(await Deno.readTextFile(`${s.root}/src/cart.ts`), /item\(s\)/);

    const listed = await (await fetch(`${s.url}/v1/tools`, { headers: AUTH })).json() as {
      tools: { name: string; streams?: boolean; stream_path?: string }[];
    };
    const streaming = listed.tools.filter((t) => t.streams).map((t) => [t.name, t.stream_path]);
    assert.deepEqual(streaming.map(([n]) => n).sort(), [
      "apply_edits",
      "apply_patch",
      "edit_file",
      "str_replace_based_edit_tool",
      "str_replace_editor",
    ]);
    assert.ok(streaming.every(([n, p]) => p === `/v1/stream/${n}`));
    assert.equal(listed.tools.find((t) => t.name === "read_file")?.streams, undefined);
  } finally {
    await s.stop();
  }
});
