import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createDiskBackend, createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { serve } from "../../../src/adapters/deno/serve.ts";
import { type CliHost, runCli } from "../../../src/surfaces/cli.ts";
import { registerServeCommands, type ServeHost } from "../../../src/surfaces/cli_serve.ts";
import { createMatchPool } from "../../../src/adapters/deno/match_pool.ts";
import type { MatchPool } from "../../../src/structural/search/match_pool.ts";
import { StreamTransport } from "../../../src/surfaces/stream_transport.ts";

/** The runtime pieces of the commands, with stdio and the stop signal in the test's hands. */
function harness(extra: Partial<ServeHost> = {}) {
  let stop = () => {};
  const stopped = new Promise<void>((r) => stop = r);
  const toServer = new TransformStream<Uint8Array, Uint8Array>();
  const fromServer = new TransformStream<Uint8Array, Uint8Array>();
  const env: Record<string, string> = {};
  registerServeCommands({
    serve,
    stdin: () => toServer.readable,
    stdout: () => fromServer.writable,
    env: (name) => env[name],
    untilStopped: () => stopped,
    ...extra,
  });
  let out = "";
  let err = "";
  const notify: (() => void)[] = [];
  const host = (cwd: string): CliHost => ({
    stdout: (t) => {
      out += t;
      notify.splice(0).forEach((f) => f());
    },
    stderr: (t) => void (err += t),
    readStdin: () => Promise.resolve(""),
    readHostFile: (p) => Deno.readTextFile(p),
    cwd,
    backend: createDiskBackend(),
    wasm: createWasmLoader(),
  });
  const printed = async () => {
    while (!out.includes("\n")) await new Promise<void>((r) => notify.push(r));
    return JSON.parse(out.split("\n")[0]!);
  };
  return { host, stop, env, toServer, fromServer, out: () => out, err: () => err, printed };
}

Deno.test("graver serve refuses bad options and a non-loopback address without a token", async () => {
  const h = harness();
  const dir = await Deno.makeTempDir();
  try {
    assert.equal(await runCli(["serve", "--port", "99999", "--root", dir], h.host(dir)), 2);
    assert.match(h.out(), /--port must be 0-65535/);
    const code = await runCli(["serve", "--host", "0.0.0.0", "--port", "0", "--root", dir], h.host(dir));
    assert.equal(code, 1);
    assert.match(h.out(), /"code": "unauthorized"/);
    assert.match(h.out(), /without a token/);
    assert.equal(await runCli(["mcp", "--root", dir, "--guard", "sometimes"], h.host(dir)), 2);
    assert.match(h.out(), /Cannot use --guard \\"sometimes\\"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver serve listens, prints its URL, takes the token from GRAVER_TOKEN, and stops", async () => {
  const h = harness();
  h.env["GRAVER_TOKEN"] = "serve-unit-token-0123456789";
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/a.txt`, "hello\n");
  try {
    const running = runCli(["serve", "--port", "0", "--root", dir], h.host("/"));
    const info = await h.printed();
    assert.equal(info.ok, true);
    assert.equal(info.token, true);
    assert.equal(info.root, dir);
    const anonymous = await fetch(`${info.url}/v1/tools`);
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
    const res = await fetch(`${info.url}/v1/tools/read_file`, {
      method: "POST",
      headers: { authorization: `Bearer ${h.env["GRAVER_TOKEN"]}`, "content-type": "application/json" },
      body: '{"path":"a.txt"}',
    });
    assert.equal(res.status, 200);
    assert.match((await res.json()).data.content, /hello/);
    h.stop();
    assert.equal(await running, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver mcp serves one session over the process's streams until stdin closes", async () => {
  const h = harness();
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/a.txt`, "hello\n");
  try {
    const running = runCli(
      ["mcp", "--root", dir, "--instructions", "Be careful.", "--gate", "off"],
      h.host("/"),
    );
    const client = new Client({ name: "unit", version: "1" });
    await client.connect(new StreamTransport(h.fromServer.readable, h.toServer.writable));
    assert.equal(client.getInstructions(), "Be careful.");
    const res = await client.callTool({ name: "read_file", arguments: { path: "a.txt" } });
    assert.match(JSON.stringify(res.structuredContent), /hello/);
    // --gate off: a freeform edit that adds a definition is not sent to insert_code
    await client.callTool({
      name: "create_file",
      arguments: { path: "m.ts", content: "export const a = 1;\n" },
    });
    await client.callTool({ name: "read_file", arguments: { path: "m.ts" } });
    const added = await client.callTool({
      name: "edit_file",
      arguments: {
        path: "m.ts",
        old_string: "export const a = 1;",
        new_string: "export const a = 1;\nexport function f() {}",
      },
    });
    assert.equal(added.isError, false, JSON.stringify(added.structuredContent));
    await client.close(); // closes the server's stdin
    assert.equal(await running, 0);
    assert.equal(h.out(), "", "nothing else on stdout");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver mcp --max-checkpoints N keeps the newest N checkpoints; a bad N is refused", async () => {
  const h = harness();
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/a.txt`, "0\n");
  try {
    assert.equal(await runCli(["mcp", "--root", dir, "--max-checkpoints", "0"], h.host(dir)), 2);
    assert.match(h.out(), /Cannot use --max-checkpoints \\"0\\"/);
    const running = runCli(["mcp", "--root", dir, "--max-checkpoints", "2"], h.host("/"));
    const client = new Client({ name: "unit", version: "1" });
    await client.connect(new StreamTransport(h.fromServer.readable, h.toServer.writable));
    await client.callTool({ name: "read_file", arguments: { path: "a.txt" } });
    for (let i = 0; i < 4; i++) {
      const res = await client.callTool({
        name: "edit_file",
        arguments: { path: "a.txt", old_string: `${i}`, new_string: `${i + 1}` },
      });
      assert.equal(res.isError, false, JSON.stringify(res.structuredContent));
    }
    const listed = await client.callTool({ name: "checkpoint_list", arguments: {} });
    const kept =
      (listed.structuredContent as { data: { checkpoints: { message: string }[] } }).data.checkpoints;
    assert.ok(kept.length >= 1 && kept.length <= 2, JSON.stringify(kept));
    assert.match(kept[0]!.message, /^edit_file: a\.txt/);
    await client.close();
    assert.equal(await running, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver serve gives its workspace the host's match pool, whose workers take large searches, and closes it on stop", async () => {
  let pool: MatchPool | null = null;
  let closed = 0;
  const h = harness({
    matchPool: (wasm) => {
      pool = createMatchPool({ wasm, size: 2, idleMs: 600_000 });
      const close = pool.close.bind(pool);
      pool.close = () => {
        closed++;
        close();
      };
      return pool;
    },
  });
  const dir = await Deno.makeTempDir();
  // 300,000 characters of candidates: over what a search matches on its own thread before starting workers.
  const body = Array.from({ length: 120 }, (_, i) => `function f${i}(a) {\n  return a + ${i};\n}\n`).join("");
  for (let i = 0; i < 60; i++) await Deno.writeTextFile(`${dir}/m${i}.js`, body);
  try {
    const running = runCli(["serve", "--port", "0", "--root", dir], h.host("/"));
    const info = await h.printed();
    const search = async () => {
      const res = await fetch(`${info.url}/v1/tools/search_structural`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ pattern: "return $X", max_results: 10_000 }),
      });
      const json = await res.json();
      assert.ok(json.data, JSON.stringify(json));
      delete json.data.summary.elapsed_ms;
      return json.data;
    };
    const first = await search();
    await pool!.warm();
    assert.equal(pool!.ready, 2);
    // Changed files: this thread's cache does not hold their trees, so the ready workers parse them.
    for (let i = 0; i < 60; i++) await Deno.writeTextFile(`${dir}/m${i}.js`, body.replaceAll("a + ", "a - "));
    const second = await search();
    assert.deepEqual(second.summary, first.summary);
    assert.equal(second.summary.files_parsed, 60);
    assert.ok(pool!.matched > 0, "the workers matched files");
    h.stop();
    assert.equal(await running, 0);
    assert.equal(closed, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
