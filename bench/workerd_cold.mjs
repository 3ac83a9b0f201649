// Cold start of a worker in workerd (the binary from tools/node_modules, no miniflare): from spawning
// `workerd serve` to the first response, per start, for graver's HTTP worker (its first request is a
// create_file of a TypeScript file: the syntax guard loads the TypeScript grammar) and for a trivial
// worker (the baseline: workerd's own start), interleaved. Connection attempts are retried every 2 ms until
// the socket listens. Prints one JSON object: {graver: ms[], trivial: ms[], wasm: ms[]}.
//   node bench/workerd_cold.mjs <repo-root> <runs> <graver-worker.js> <trivial-worker.js> <wasm-only-worker.js>
//     <wasm paths...>
// The wasm-only worker imports the same wasm modules and nothing else: what compiling them costs.
// (worker and wasm paths relative to the repository root; the configs are written to build/workerd/)
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { relative } from "node:path";

const [root, runsText, graverWorker, trivialWorker, wasmWorker, ...wasm] = process.argv.slice(2);
const TOKEN = "bench-token-0123456789abcdef";
const PORT = 18700 + Math.floor(Math.random() * 200);
const dir = `${root}/build/workerd`;

function config(name, worker, wasmPaths, bindings) {
  const embed = (p) => JSON.stringify(relative(dir, `${root}/${p}`));
  const modules = [
    `(name = ${JSON.stringify(worker)}, esModule = embed ${embed(worker)})`,
    ...wasmPaths.map((p) => `(name = ${JSON.stringify(p)}, wasm = embed ${embed(p)})`),
  ];
  const file = `${dir}/${name}.capnp`;
  writeFileSync(
    file,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .w) ],
  sockets = [ (name = "http", address = "127.0.0.1:${PORT}", http = (), service = "main") ],
);
const w :Workerd.Worker = (
  modules = [ ${modules.join(",\n    ")} ],
  compatibilityDate = "2025-09-01",
  bindings = [ ${
      bindings.map(([k, v]) => `(name = ${JSON.stringify(k)}, text = ${JSON.stringify(v)})`).join(", ")
    } ],
);
`,
  );
  return file;
}

async function start(file, path, init) {
  const t0 = performance.now();
  const child = spawn(`${root}/tools/node_modules/.bin/workerd`, ["serve", file], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  let exited = false;
  child.on("exit", () => exited = true);
  try {
    for (;;) {
      if (exited) throw new Error(`workerd exited before answering (${file})`);
      try {
        const res = await fetch(`http://127.0.0.1:${PORT}${path}`, init);
        const body = await res.text();
        const elapsed = performance.now() - t0;
        if (!res.ok) throw new Error(`HTTP ${res.status}: ${body.slice(0, 300)}`);
        return { elapsed, body };
      } catch (err) {
        if (err?.cause?.code !== "ECONNREFUSED") throw err;
        await new Promise((r) => setTimeout(r, 2));
      }
    }
  } finally {
    child.kill();
    await new Promise((r) => exited ? r() : child.on("exit", r));
  }
}

const graverConfig = config("cold_graver", graverWorker, wasm, [["GRAVER_TOKEN", TOKEN]]);
const trivialConfig = config("cold_trivial", trivialWorker, [], []);
const wasmConfig = config("cold_wasm", wasmWorker, wasm, []);
const create = {
  method: "POST",
  headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
  body: JSON.stringify({
    path: "src/a.ts",
    content: "export function f(x: number): number {\n  return x + 1;\n}\n",
  }),
};
const out = { graver: [], trivial: [], wasm: [] };
const runs = Number(runsText);
for (let i = -1; i < runs; i++) {
  const g = await start(graverConfig, "/v1/tools/create_file", create);
  const result = JSON.parse(g.body);
  if (!result.ok || result.status !== "applied") throw new Error(`create_file: ${g.body}`);
  const t = await start(trivialConfig, "/", {});
  const w = await start(wasmConfig, "/", {});
  if (w.body !== "true") throw new Error(`wasm-only worker: ${w.body}`);
  if (i < 0) continue; // warm-up (disk cache)
  out.graver.push(g.elapsed);
  out.trivial.push(t.elapsed);
  out.wasm.push(w.elapsed);
}
console.log(JSON.stringify(out));
