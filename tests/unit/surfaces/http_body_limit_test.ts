import assert from "node:assert/strict";
import { Hono } from "hono";
import { bodyLimits } from "../../../src/surfaces/http_body_limit.ts";
import { rawConnect, startRealServer } from "./_real_server.ts";

/** The head of a raw POST to a tool. */
function post(tool: string, headers: Record<string, string>): string {
  const lines = Object.entries({ host: "127.0.0.1", "content-type": "application/json", ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`).join("");
  return `POST /v1/tools/${tool} HTTP/1.1\r\n${lines}\r\n`;
}

// How long a test waits for an answer the server owes at once; the server under test never waits this long.
const ANSWER_WITHIN_MS = 8_000;

Deno.test("a request declaring Content-Length 100 MB is answered 413 from its header, before any body byte", async () => {
  const server = await startRealServer({ maxBodyBytes: 4096 });
  const conn = await rawConnect(server.port);
  try {
    // The body is declared and never sent: the answer can only come from the header.
    await conn.send(post("write_file", { "content-length": String(100 * 1024 * 1024) }));
    const res = await conn.response(ANSWER_WITHIN_MS);
    assert.ok(res.answered, `no answer before the body was sent: ${JSON.stringify(res.head)}`);
    assert.equal(res.status, 413);
    assert.match(res.head, /connection: close/i);
    const body = JSON.parse(res.body);
    assert.equal(body.error.code, "limit_exceeded");
    assert.equal(body.error.details.max_body_bytes, 4096);
  } finally {
    conn.close();
    await server.stop();
  }
});

Deno.test("a body dribbled past the body time limit is answered 408 and nothing is written", async () => {
  const server = await startRealServer({ bodyTimeoutMs: 300 });
  const conn = await rawConnect(server.port);
  try {
    const args = JSON.stringify({ path: "slow.txt", content: "never\n" });
    await conn.send(post("write_file", { "content-length": String(args.length) }) + args.slice(0, 10));
    // The rest of the body never comes: the server answers on its own.
    const res = await conn.response(ANSWER_WITHIN_MS);
    assert.ok(res.answered, `no answer to a stalled body: ${JSON.stringify(res.head)}`);
    assert.equal(res.status, 408);
    const body = JSON.parse(res.body);
    assert.equal(body.error.code, "limit_exceeded");
    assert.equal(body.error.details.body_time_limit_ms, 300);
    await assert.rejects(Deno.stat(`${server.root}/slow.txt`), Deno.errors.NotFound);
  } finally {
    conn.close();
    await server.stop();
  }
});

Deno.test("a chunked body that never ends is answered 408; one that grows past the limit 413", async () => {
  const server = await startRealServer({ bodyTimeoutMs: 300, maxBodyBytes: 64 });
  try {
    const stalled = await rawConnect(server.port);
    await stalled.send(post("read_file", { "transfer-encoding": "chunked" }) + '4\r\n{"pa\r\n');
    const slow = await stalled.response(ANSWER_WITHIN_MS);
    stalled.close();
    assert.ok(slow.answered);
    assert.equal(slow.status, 408);

    const big = await rawConnect(server.port);
    const chunk = "x".repeat(100);
    await big.send(
      post("read_file", { "transfer-encoding": "chunked" }) + `${(100).toString(16)}\r\n${chunk}\r\n`,
    );
    const large = await big.response(ANSWER_WITHIN_MS);
    big.close();
    assert.ok(large.answered);
    assert.equal(large.status, 413);
  } finally {
    await server.stop();
  }
});

Deno.test("a body within both limits reaches the tool", async () => {
  const server = await startRealServer({ bodyTimeoutMs: 5_000, maxBodyBytes: 4096 }, { "a.txt": "hi\n" });
  try {
    const res = await fetch(`${server.url}/v1/tools/read_file`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: "a.txt" }),
    });
    assert.equal(res.status, 200);
    assert.match((await res.json()).data.content, /hi/);
  } finally {
    await server.stop();
  }
});

Deno.test("bodyLimits replaces the route's answer when the body was refused mid-read (in-process)", async () => {
  const app = new Hono();
  app.onError((_, c) => c.text("the route failed", 500));
  app.use("*", bodyLimits({ maxBytes: 8, timeoutMs: 0 }));
  let ran = false;
  app.post("/", async (c) => {
    await c.req.text();
    ran = true;
    return c.text("ran");
  });
  const res = await app.request("/", { method: "POST", body: "0123456789" });
  assert.equal(res.status, 413);
  assert.equal((await res.json()).error.code, "limit_exceeded");
  assert.equal(ran, false);
});
