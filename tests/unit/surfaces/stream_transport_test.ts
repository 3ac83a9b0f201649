import assert from "node:assert/strict";
import { StreamTransport } from "../../../src/surfaces/stream_transport.ts";

function linesOf(text: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      // split mid-message and mid-character to exercise the line buffer
      const bytes = new TextEncoder().encode(text);
      for (let i = 0; i < bytes.length; i += 7) c.enqueue(bytes.slice(i, i + 7));
      c.close();
    },
  });
}

Deno.test("StreamTransport reads newline-delimited messages split anywhere, reports bad lines, closes at end", async () => {
  const input = linesOf(
    '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"é":"ü"}}\r\n\nnot json\n{"jsonrpc":"2.0","id":2,"result":{}}\n',
  );
  const t = new StreamTransport(input, new WritableStream());
  const got: unknown[] = [];
  const errors: string[] = [];
  const closed = new Promise<void>((r) => t.onclose = r);
  t.onmessage = (m) => got.push(m);
  t.onerror = (e) => errors.push(e.message);
  await t.start();
  await closed;
  assert.deepEqual(got, [
    { jsonrpc: "2.0", id: 1, method: "ping", params: { "é": "ü" } },
    { jsonrpc: "2.0", id: 2, result: {} },
  ]);
  assert.equal(errors.length, 1);
  assert.match(errors[0]!, /^Cannot read a JSON-RPC message/);
});

Deno.test("StreamTransport writes one line per message, in order", async () => {
  const chunks: Uint8Array[] = [];
  const t = new StreamTransport(
    new ReadableStream(),
    new WritableStream({ write: (c) => void chunks.push(c) }),
  );
  await Promise.all([1, 2, 3].map((id) => t.send({ jsonrpc: "2.0", id, result: {} })));
  await t.close();
  const text = new TextDecoder().decode(new Uint8Array(chunks.flatMap((c) => [...c])));
  assert.equal(text, [1, 2, 3].map((id) => `{"jsonrpc":"2.0","id":${id},"result":{}}\n`).join(""));
});
