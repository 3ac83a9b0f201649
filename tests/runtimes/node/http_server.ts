/**
 * The HTTP test server in Node (bundled by tests/surfaces/http_runtimes_test.ts).
 *   node build/node/http_server.mjs <repo-root> <scratch-root> <token> [grace-ms]
 *
 * @module
 */
import { pathToFileURL } from "node:url";
import process from "node:process";
import { createDiskBackend, createWasmLoader } from "../../../src/adapters/node/mod.ts";
import { serve } from "../../../src/adapters/node/serve.ts";
import { untilStopped } from "../../../src/adapters/node/stop_guard.ts";
import { runHttpServer } from "../_http_server.ts";

const [repo, root, token, grace] = process.argv.slice(2);
if (!repo || !root || !token) {
  throw new TypeError("usage: http_server.mjs <repo-root> <scratch-root> <token>");
}
await runHttpServer({
  serve,
  backend: createDiskBackend(),
  wasm: createWasmLoader({ baseUrl: pathToFileURL(`${repo}/`) }),
  root,
  token,
  print: (line) => process.stdout.write(line + "\n"),
  untilStopped,
  ...(grace !== undefined ? { graceMs: Number(grace) } : {}),
  untilStdinCloses: () =>
    new Promise((resolve) => {
      process.stdin.on("end", () => resolve());
      process.stdin.on("close", () => resolve());
      process.stdin.resume();
    }),
});
process.exit(0);
