// Cold start of workers in workerd (the binary from tools/node_modules, no miniflare): from spawning
// `workerd serve` to the first response, per start. Each case is one worker (its modules) and the one request
// it answers first; the cases run interleaved, one start each per round, after a warm-up round (disk cache).
// Connection attempts are retried every 2 ms until the socket listens.
//   node bench/workerd_cold.mjs <repo-root> <runs> <cases.json>
// cases.json: [{ "name", "modules": [paths relative to the root; the first is the entry, .wasm files are
//   wasm modules, .js/.mjs ES modules, .json JSON modules], "bindings": {NAME: text}, "path", "init"
//   (fetch options), "expect" (a substring of the body), "phases" (true: the body is a list of [mark, Date.now()]
//   taken inside the worker; kept as milliseconds since the previous mark, the first since the spawn) }]
// Prints one JSON object: { wall: { <name>: ms[] }, cpu: { <name>: ms[] }, phases: { <name>: [mark, ms][][] } } — cpu: the CPU time workerd's
// threads had used when the answer arrived (Linux /proc/<pid>/task/*/schedstat), less sensitive to other load
// on the machine than the wall time. The configs are written to build/workerd/.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";

const [root, runsText, casesFile] = process.argv.slice(2);
if (!root || !runsText || !casesFile) {
  console.error("usage: node bench/workerd_cold.mjs <repo-root> <runs> <cases.json>");
  process.exit(2);
}
const PORT = 18700 + Math.floor(Math.random() * 200);
const dir = `${root}/build/workerd`;

function moduleLine(p) {
  const embed = JSON.stringify(relative(dir, `${root}/${p}`));
  const kind = p.endsWith(".wasm") ? "wasm" : p.endsWith(".json") ? "json" : "esModule";
  return `(name = ${JSON.stringify(p)}, ${kind} = embed ${embed})`;
}

function config(name, modules, bindings) {
  const file = `${dir}/cold_${name.replace(/[^\w]+/g, "_")}.capnp`;
  writeFileSync(
    file,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .w) ],
  sockets = [ (name = "http", address = "127.0.0.1:${PORT}", http = (), service = "main") ],
);
const w :Workerd.Worker = (
  modules = [ ${modules.map(moduleLine).join(",\n    ")} ],
  compatibilityDate = "2025-09-01",
  bindings = [ ${
      Object.entries(bindings ?? {}).map(([k, v]) =>
        `(name = ${JSON.stringify(k)}, text = ${JSON.stringify(v)})`
      )
        .join(", ")
    } ],
);
`,
  );
  return file;
}

/** CPU time (ms) used so far by all threads of a process; NaN where /proc is not there. */
function cpuMs(pid) {
  try {
    let ns = 0;
    for (const t of readdirSync(`/proc/${pid}/task`)) {
      ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, "utf8").split(" ")[0]);
    }
    return ns / 1e6;
  } catch {
    return NaN;
  }
}

async function start(file, path, init) {
  const t0 = performance.now();
  const spawnedAt = Date.now();
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
        const cpu = cpuMs(child.pid);
        if (!res.ok) throw new Error(`HTTP ${res.status}: ${body.slice(0, 300)}`);
        return { elapsed, cpu, body, spawnedAt };
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

const cases = JSON.parse(readFileSync(casesFile, "utf8")).map((c) => ({
  ...c,
  file: config(c.name, c.modules, c.bindings),
}));
const wall = Object.fromEntries(cases.map((c) => [c.name, []]));
const cpu = Object.fromEntries(cases.map((c) => [c.name, []]));
const phases = Object.fromEntries(cases.filter((c) => c.phases).map((c) => [c.name, []]));
const runs = Number(runsText);
for (let i = -1; i < runs; i++) {
  for (const c of cases) {
    const r = await start(c.file, c.path, c.init ?? {});
    if (c.expect !== undefined && !r.body.includes(c.expect)) {
      throw new Error(
        `${c.name}: expected ${JSON.stringify(c.expect)} in the answer, got ${r.body.slice(0, 300)}`,
      );
    }
    if (i >= 0) { // round -1 warms the disk cache
      wall[c.name].push(r.elapsed);
      cpu[c.name].push(r.cpu);
      if (c.phases) {
        let at = r.spawnedAt;
        phases[c.name].push(
          JSON.parse(r.body).map(([mark, t]) => {
            const since = t - at;
            at = t;
            return [mark, since];
          }),
        );
      }
    }
  }
}
console.log(JSON.stringify({ wall, cpu, phases }));
