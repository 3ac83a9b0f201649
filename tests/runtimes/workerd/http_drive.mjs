// Serve graver's HTTP worker in workerd through miniflare (from tools/node_modules) on 127.0.0.1, print
// {"url": ...} once ready, and run until stdin closes (or 10 minutes pass).
//   node tests/runtimes/workerd/http_drive.mjs <repo-root> <worker.js> <token> <module paths...>
// The other modules are wasm (.wasm), JS chunks (.js) and JSON (.json), by extension.
import { createRequire } from "node:module";

const [root, worker, token, ...others] = process.argv.slice(2);
const TYPES = { ".wasm": "CompiledWasm", ".json": "Json", ".js": "ESModule", ".mjs": "ESModule" };
if (!root || !worker || !token) {
  console.error(
    "usage: node http_drive.mjs <repo-root> <worker.js> <token> <module paths relative to the root...>",
  );
  process.exit(2);
}
const { Miniflare } = createRequire(`${root}/tools/package.json`)("miniflare");
const t0 = performance.now();
const mf = new Miniflare({
  modulesRoot: root,
  modules: [
    { type: "ESModule", path: `${root}/${worker}` },
    ...others.map((rel) => ({ type: TYPES[rel.slice(rel.lastIndexOf("."))], path: `${root}/${rel}` })),
  ],
  // No nodejs_compat: with it web-tree-sitter takes its Node path and fails.
  compatibilityDate: "2025-09-01",
  bindings: { GRAVER_TOKEN: token },
  host: "127.0.0.1",
  port: 0,
});
const url = await mf.ready;
console.log(JSON.stringify({ url: url.origin, ready_ms: performance.now() - t0 }));
const stop = async () => {
  await mf.dispose().catch(() => {});
  process.exit(0);
};
setTimeout(stop, 600_000).unref();
process.stdin.on("end", stop);
process.stdin.on("close", stop);
process.stdin.resume();
