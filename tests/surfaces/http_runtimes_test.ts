import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { runHttpSuite } from "./http_suite.ts";
import { haveTools, HTTP_RUNTIMES, startServer } from "./_servers.ts";

const TOKEN = "runtime-test-token-0123456789";
const tools = await haveTools();

for (const runtime of HTTP_RUNTIMES) {
  Deno.test({
    name: `the HTTP suite passes against a real server in ${runtime} on 127.0.0.1`,
    ignore: !tools && runtime !== "deno",
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const root = await Deno.makeTempDir({ prefix: `graver-http-${runtime}-` });
      const server = await startServer(runtime, root, TOKEN);
      try {
        const results = await runHttpSuite({
          token: TOKEN,
          fetch: (path, init) => fetch(`${server.url}${path}`, init),
        });
        assert.deepEqual(results.filter((r) => r.error), [], `${runtime}`);
        assert.ok(results.length >= 10);
        // MCP over Streamable HTTP on the same server (in workerd: the eval-free validator, no ajv).
        const client = new Client({ name: "graver-test", version: "1.0.0" });
        const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
        });
        await client.connect(transport);
        assert.ok((await client.listTools()).tools.length > 10);
        const made = await client.callTool({
          name: "create_file",
          arguments: { path: "mcp.ts", content: "let a = 1;\n" },
        });
        assert.equal(made.isError, false, JSON.stringify(made.structuredContent));
        const refused = await client.callTool({
          name: "create_file",
          arguments: { path: "mcp.ts", content: "x" },
        });
        assert.equal(refused.isError, true);
        assert.equal((refused.structuredContent as { error: { code: string } }).error.code, "already_exists");
        await transport.terminateSession();
        await client.close();
      } finally {
        await server.stop();
        await Deno.remove(root, { recursive: true });
      }
    },
  });
}
