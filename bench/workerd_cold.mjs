// Cold start of a worker in workerd (through miniflare, from tools/node_modules): from `new Miniflare` to
// the first response, per start, for graver's HTTP worker (its first request is a create_file of a
// TypeScript file: the syntax guard loads the TypeScript grammar) and for a trivial worker (baseline),
// interleaved. Prints one JSON object: {graver: {ready, first}[], trivial: {ready, first}[]} in ms.
//   node bench/workerd_cold.mjs <repo-root> <runs> <graver-worker.js> <trivial-worker.js> <wasm paths...>
import { createRequire } from "node:module";

const [root, runsText, graverWorker, trivialWorker, ...wasm] = process.argv.slice(2);
const { Miniflare } = createRequire(`${root}/tools/package.json`)("miniflare");
const TOKEN = "bench-token-0123456789abcdef";

async function start(worker, modules, request) {
  const t0 = performance.now();
  const mf = new Miniflare({
    modulesRoot: root,
    modules: [{ type: "ESModule", path: `${root}/${worker}` }, ...modules],
    compatibilityDate: "2025-09-01",
    bindings: { GRAVER_TOKEN: TOKEN },
    host: "127.0.0.1",
    port: 0,
  });
  const url = await mf.ready;
  const ready = performance.now() - t0;
  const t1 = performance.now();
  const res = await fetch(new URL(request.path, url), request.init);
  const body = await res.text();
  const first = performance.now() - t1;
  if (!res.ok) throw new Error(`${worker}: HTTP ${res.status} ${body.slice(0, 300)}`);
  await mf.dispose();
  return { ready, first, total: ready + first, body };
}

const graverRequest = {
  path: "/v1/tools/create_file",
  init: {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({
      path: "src/a.ts",
      content: "export function f(x: number): number {\n  return x + 1;\n}\n",
    }),
  },
};
const wasmModules = wasm.map((rel) => ({ type: "CompiledWasm", path: `${root}/${rel}` }));
const out = { graver: [], trivial: [] };
const runs = Number(runsText);
for (let i = -1; i < runs; i++) {
  const g = await start(graverWorker, wasmModules, graverRequest);
  if (!JSON.parse(g.body).ok || JSON.parse(g.body).status !== "applied") {
    throw new Error(`create_file: ${g.body}`);
  }
  const t = await start(trivialWorker, [], { path: "/", init: {} });
  if (i < 0) continue; // warm-up (disk cache)
  out.graver.push({ ready: g.ready, first: g.first, total: g.total });
  out.trivial.push({ ready: t.ready, first: t.first, total: t.total });
}
console.log(JSON.stringify(out));
