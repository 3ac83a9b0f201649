import assert from "node:assert/strict";
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
      } finally {
        await server.stop();
        await Deno.remove(root, { recursive: true });
      }
    },
  });
}
