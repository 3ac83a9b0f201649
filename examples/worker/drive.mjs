// Serve the built example worker (examples/worker/build.ts) in workerd through miniflare (from
// tools/node_modules), with the WORKSPACES Durable Object namespace persisted under <persist-dir>, on
// 127.0.0.1; print {"url": ...} once ready and run until stdin closes (or 10 minutes pass).
//   node examples/worker/drive.mjs <repo-root> <dist-dir> <token> <persist-dir> <wasm paths relative to dist...>
import { createRequire } from "node:module";

const [root, dist, token, persist, ...wasm] = process.argv.slice(2);
if (!root || !dist || !token || !persist) {
  console.error("usage: node drive.mjs <repo-root> <dist-dir> <token> <persist-dir> <wasm paths...>");
  process.exit(2);
}
const { Miniflare } = createRequire(`${root}/tools/package.json`)("miniflare");
const mf = new Miniflare({
  modulesRoot: dist,
  modules: [
    { type: "ESModule", path: `${dist}/worker.js` },
    ...wasm.map((rel) => ({ type: "CompiledWasm", path: `${dist}/${rel}` })),
  ],
  // As wrangler.toml: no nodejs_compat (web-tree-sitter would take its Node path and fail).
  compatibilityDate: "2025-09-01",
  bindings: { GRAVER_TOKEN: token },
  durableObjects: { WORKSPACES: "WorkspaceObject" },
  durableObjectsPersist: persist,
  host: "127.0.0.1",
  port: 0,
});
const url = await mf.ready;
console.log(JSON.stringify({ url: url.origin }));
const stop = async () => {
  await mf.dispose().catch(() => {});
  process.exit(0);
};
setTimeout(stop, 600_000).unref();
process.stdin.on("end", stop);
process.stdin.on("close", stop);
process.stdin.resume();
