// Run the bundled conformance worker in workerd through miniflare (from
// tools/node_modules), fetch its result once, print the line, dispose.
//   node tests/runtimes/workerd/drive.mjs <repo-root> <wasm module paths...>
import { createRequire } from "node:module";

const [root, ...wasm] = process.argv.slice(2);
if (!root) {
  console.error("usage: node drive.mjs <repo-root> <wasm paths relative to the root...>");
  process.exit(2);
}
const { Miniflare } = createRequire(`${root}/tools/package.json`)("miniflare");
const mf = new Miniflare({
  modulesRoot: root,
  modules: [
    { type: "ESModule", path: `${root}/build/workerd/worker.js` },
    ...wasm.map((rel) => ({ type: "CompiledWasm", path: `${root}/${rel}` })),
  ],
  // No nodejs_compat: with it web-tree-sitter takes its Node path and fails.
  compatibilityDate: "2025-09-01",
  host: "127.0.0.1",
});
let code = 1;
// A hung worker must not hang the test run: give up after 150 s (miniflare's exit hook stops workerd).
setTimeout(() => {
  console.error("Cannot finish the workerd conformance: no answer after 150 s");
  process.exit(1);
}, 150_000).unref();
try {
  const res = await mf.dispatchFetch("http://127.0.0.1/");
  const result = await res.json();
  for (const line of result.failures) console.error(line);
  if (result.timing) console.error(result.timing);
  if (result.line) console.log(result.line);
  code = result.ok ? 0 : 1;
} finally {
  await mf.dispose();
}
// Let Node exit by itself so miniflare's own clean-up (its temp dir) finishes.
process.exitCode = code;
