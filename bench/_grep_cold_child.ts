/**
 * One fresh process of the cold CLI breakdown in bench/search_text.bench.ts: `graver grep -F PATTERN` in the
 * current directory, run through the CLI's own `runCli` (its output kept, not printed), its phases timed
 * inside the process and printed as one JSON object of milliseconds:
 *
 * - `start`: the runtime's start, from its time origin to this module's first line (`node:process` loaded);
 * - `modules`: `import()` of the Deno CLI entry — what every command loads, `--version` included;
 * - `engine`: `import()` of the engines chunk `search_text` loads on its first call;
 * - `search`: the grep itself, as `bin/graver grep` runs it: the workspace opened, the tree walked, every file
 *   read and scanned, the lines printed — with the JIT cold;
 * - `again`: the same grep once more in this process: a fresh workspace and read cache (every folder listed and
 *   every file read again), the JIT warm. `search − again` is what the cold JIT costs.
 *
 * With `--one-read-each` the disk backend is given without `readMany`: every file read on its own, through
 * `node:fs/promises`, as before batched reads — the baseline of the same bench run.
 *
 *   deno run -A --config deno.json bench/_grep_cold_child.ts PATTERN [--one-read-each]
 *
 * @module
 */
import process from "node:process";
// Imported first (the CLI's modules import it too): `start` includes it.
const start = performance.now();
const start_cpu = cpuMs();
const figures: Record<string, number> = { start, start_cpu };
/** CPU time (user + system, every thread) this process has used, in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
/** Time one phase, wall and CPU, under its name. */
const mark = async (name: string, work: () => Promise<unknown>): Promise<void> => {
  const [t, c] = [performance.now(), cpuMs()];
  await work();
  figures[name] = performance.now() - t;
  figures[`${name}_cpu`] = cpuMs() - c;
};
const pattern = Deno.args[0] ?? "createElement";
const oneReadEach = Deno.args.includes("--one-read-each");
let cli!: typeof import("../src/surfaces/cli.ts");
let adapter!: typeof import("../src/adapters/deno/mod.ts");
await mark("modules", async () => {
  await import("../src/adapters/deno/cli.ts");
  cli = await import("../src/surfaces/cli.ts");
  adapter = await import("../src/adapters/deno/mod.ts");
});
await mark("engine", () => import("../src/tools/_engines_search.ts"));
let printed = 0;
const grep = async () => {
  const code = await cli.runCli(["grep", "-F", pattern], {
    stdout: (text) => printed += text.length,
    stderr: () => {},
    readStdin: () => Promise.resolve(""),
    readHostFile: (path) => Deno.readTextFile(path),
    cwd: Deno.cwd(),
    backend: oneReadEach ? withoutReadMany(adapter.createDiskBackend()) : adapter.createDiskBackend(),
    wasm: adapter.createWasmLoader(),
  });
  if (code !== 0) throw new Error(`graver grep -F ${pattern} exited ${code}`);
};
await mark("search", grep);
await mark("again", grep);
console.log(JSON.stringify({ ...figures, printed }));

/** A backend without `readMany`: a search then reads each file with its own `readFile`. */
function withoutReadMany<T extends { readMany?: unknown }>(backend: T): Omit<T, "readMany"> {
  const { readMany: _, ...rest } = backend;
  return rest;
}
