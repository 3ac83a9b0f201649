import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createWorkerRunner } from "../../../src/adapters/deno/call_worker.ts";
import { MemoryTelemetry } from "../../../src/telemetry.ts";

const CLI = new URL("../../../src/adapters/deno/cli.ts", import.meta.url).pathname;

/** A real TypeScript file big enough that parsing it takes far longer than the 300 ms limit below. */
function bigSource(functions: number): string {
  let out = "";
  for (let i = 0; i < functions; i++) {
    out +=
      `export function fn${i}(a: number, b: string): number {\n  const x${i} = a + b.length * ${i};\n  return x${i};\n}\n`;
  }
  return out;
}

/** `graver serve` on `root` with `args`; its URL and a stop function. */
async function serve(root: string, args: string[]): Promise<{ url: string; stop(): Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "serve", "--root", root, "--port", "0", ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`graver serve ended: ${text}`);
    text += value;
  }
  reader.cancel().catch(() => {});
  return {
    url: JSON.parse(text.split("\n")[0]!).url,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

Deno.test("with --isolate a call stuck in synchronous work is stopped at the time limit, and the server answers meanwhile", async () => {
  const root = await Deno.makeTempDir({ prefix: "graver-isolate-" });
  const source = bigSource(12_000);
  await Deno.writeTextFile(`${root}/big.ts`, source);
  const server = await serve(root, ["--timeout", "300", "--isolate"]);
  try {
    const order: string[] = [];
    // A rename parses the whole file (synchronous work of seconds here) before it commits.
    const rename = fetch(`${server.url}/v1/tools/edit_rename_symbol`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: "big.ts", name_path: "fn1", new_name: "renamed1" }),
    }).then(async (res) => {
      order.push("rename");
      return { status: res.status, body: await res.json() };
    });
    const health = await fetch(`${server.url}/v1/health`);
    order.push("health");
    assert.equal(health.status, 200);
    await health.body?.cancel();
    const stopped = await rename;
    assert.deepEqual(order, ["health", "rename"], "health was answered while the call worked");
    assert.equal(stopped.status, 504);
    assert.equal(stopped.body.error.code, "limit_exceeded");
    assert.match(stopped.body.error.message, /was stopped/);
    assert.equal(await Deno.readTextFile(`${root}/big.ts`), source, "the stopped call wrote nothing");
    // The next call runs in a fresh worker.
    const next = await fetch(`${server.url}/v1/tools/list_files`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(next.status, 200);
    assert.deepEqual((await next.json()).data.entries, ["big.ts"]);
  } finally {
    await server.stop();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the worker runner keeps sessions in its worker, and a stopped call resets them and rejects what waited", async () => {
  const root = await Deno.makeTempDir({ prefix: "graver-runner-" });
  await Deno.writeTextFile(`${root}/a.txt`, "hi\n");
  await Deno.writeTextFile(`${root}/big.ts`, bigSource(12_000));
  const telemetry = new MemoryTelemetry();
  const runner = createWorkerRunner({ root, timeoutMs: 300, telemetry });
  let resets = 0;
  runner.onReset(() => resets++);
  try {
    const read = await runner.call("read_file", { path: "a.txt" }, { session: "s1" });
    assert.ok(read.ok);
    assert.equal(await runner.hasSession("s1"), true);
    const saved = await runner.exportSession("s1");
    // A call that parses the big file outlives the limit; a call queued behind it is stopped with it.
    const slow = runner.call("outline", { path: "big.ts" }, {});
    const queued = runner.call("read_file", { path: "a.txt" }, {});
    await assert.rejects(slow, /was stopped/);
    await assert.rejects(queued, /was stopped/);
    assert.equal(resets, 1);
    assert.equal(runner.recycled, 1);
    assert.ok(telemetry.events.some((e) => e.name === "graver.worker.recycled"));
    // A fresh worker: the session is gone until its ledger is imported again.
    assert.equal(await runner.hasSession("s1"), false);
    await runner.importSession("s1", saved);
    assert.equal(await runner.hasSession("s1"), true);
  } finally {
    runner.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("with --isolate an /mcp call stuck in synchronous work is stopped at the time limit too, and the server answers meanwhile", async () => {
  const root = await Deno.makeTempDir({ prefix: "graver-isolate-mcp-" });
  const source = bigSource(12_000);
  await Deno.writeTextFile(`${root}/big.ts`, source);
  const server = await serve(root, ["--timeout", "300", "--isolate"]);
  const client = new Client({ name: "graver-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`));
  try {
    await client.connect(transport);
    const order: string[] = [];
    // Before, /mcp calls ran in the server's loop: the parse blocked it (health waited) and ran to the end.
    const rename = client.callTool({
      name: "edit_rename_symbol",
      arguments: { path: "big.ts", name_path: "fn1", new_name: "renamed1" },
    }).then((r: { isError?: unknown; structuredContent?: unknown }) => {
      order.push("rename");
      return r;
    });
    const health = await fetch(`${server.url}/v1/health`);
    order.push("health");
    assert.equal(health.status, 200);
    await health.body?.cancel();
    const stopped = await rename;
    assert.deepEqual(order, ["health", "rename"], "health was answered while the call worked");
    assert.equal(stopped.isError, true);
    const error = (stopped.structuredContent as { error: { code: string; message: string } }).error;
    assert.equal(error.code, "limit_exceeded");
    assert.match(error.message, /was stopped/);
    assert.equal(await Deno.readTextFile(`${root}/big.ts`), source, "the stopped call wrote nothing");
    const next = await client.callTool({ name: "list_files", arguments: {} });
    assert.equal(next.isError, false, JSON.stringify(next.structuredContent));
  } finally {
    await transport.terminateSession().catch(() => {});
    await client.close().catch(() => {});
    await server.stop();
    await Deno.remove(root, { recursive: true });
  }
});
