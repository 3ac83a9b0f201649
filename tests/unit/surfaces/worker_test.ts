import assert from "node:assert/strict";
import { Query } from "web-tree-sitter";
import { createWorker } from "../../../src/adapters/workerd/worker.ts";
import type { McpEndpoint } from "../../../src/surfaces/http.ts";
import { treeSitter } from "../../../src/syntax/grammars.ts";

const ROOT = new URL("../../../", import.meta.url);
const TOKEN = "worker-test-token-0123456789";
const AUTH = { authorization: `Bearer ${TOKEN}` };
// A real TypeScript file of this repository, seeded into the worker's in-memory backend.
const SEED = await Deno.readTextFile(new URL("src/fs/lines.ts", ROOT));

/** The vendored wasm compiled here (Deno may compile from bytes; workerd hands the worker modules). */
async function modules(): Promise<
  { runtime: WebAssembly.Module; grammars: Record<string, WebAssembly.Module> }
> {
  const compile = async (rel: string) => await WebAssembly.compile(await Deno.readFile(new URL(rel, ROOT)));
  return {
    runtime: await compile("wasm/web-tree-sitter.wasm"),
    grammars: { typescript: await compile("grammars/wasm/typescript.wasm") },
  };
}

function initialize(): Request {
  return new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: { ...AUTH, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "unit", version: "1" } },
    }),
  });
}

Deno.test("the worker makes its MCP endpoint on the first /mcp request only, through a dynamic import", async () => {
  let made = 0;
  const worker = createWorker({
    wasm: await modules(),
    files: { "/src/lines.ts": SEED },
    mcp: async (context): Promise<McpEndpoint> => {
      made++;
      const { McpSessions } = await import("../../../src/surfaces/mcp_http.ts");
      return new McpSessions(context);
    },
  });
  const env = { GRAVER_TOKEN: TOKEN };
  const health = async () =>
    await (await worker.fetch(new Request("http://127.0.0.1/v1/health"), env)).json();
  assert.equal((await health()).mcp_sessions, 0);
  const read = await worker.fetch(
    new Request("http://127.0.0.1/v1/tools/read_file", {
      method: "POST",
      headers: { ...AUTH, "content-type": "application/json" },
      body: JSON.stringify({ path: "src/lines.ts" }),
    }),
    env,
  );
  assert.match((await read.json()).data.content, /export function lineStart/);
  assert.equal(made, 0, "no MCP endpoint before a request to /mcp");
  for (let i = 0; i < 2; i++) {
    const res = await worker.fetch(initialize(), env);
    assert.equal(res.status, 200);
    assert.ok(res.headers.get("mcp-session-id"));
    await res.body?.cancel();
  }
  assert.equal(made, 1, "one endpoint serves every MCP session");
  assert.equal((await health()).mcp_sessions, 2);
});

Deno.test("web-tree-sitter arrives with the runtime: one module instance, its Query compiles against a loaded language", async () => {
  const worker = createWorker({ wasm: await modules(), files: { "/src/lines.ts": SEED } });
  const res = await worker.fetch(
    new Request("http://127.0.0.1/v1/tools/outline", {
      method: "POST",
      headers: { ...AUTH, "content-type": "application/json" },
      body: JSON.stringify({ path: "src/lines.ts" }),
    }),
    { GRAVER_TOKEN: TOKEN },
  );
  const outline = await res.json();
  assert.equal(outline.ok, true, JSON.stringify(outline.error));
  assert.ok(JSON.stringify(outline.data).includes("isBlankLine"));
  assert.equal(treeSitter().Query, Query, "the lazily imported module is the one a static import sees");
});
