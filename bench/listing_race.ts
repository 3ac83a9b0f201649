/**
 * The listing swap storm: `list_files` (recursive) and `search_text` calls over a real disk while a child
 * process (`tests/unit/fs/_symlink_swapper.ts`) swaps `src/` for a symbolic link to an outside folder and back,
 * as fast as it can or with a pause between swaps. The outside folder holds files named `secret_*`: a call
 * whose answer names one listed a folder through the link. Reports, per pause, how many calls answered and how
 * many of them named an outside file, which must be 0. Not a timing benchmark: the figure is the count.
 *
 *   deno run -A bench/listing_race.ts [--calls 500] [--pause 0,200]
 *
 * @module
 */
import { createDiskBackend, createWasmLoader } from "../src/adapters/deno/mod.ts";
import { createWorkspace } from "../src/mod.ts";
import { machine } from "./_util.ts";

const SWAPPER = new URL("../tests/unit/fs/_symlink_swapper.ts", import.meta.url).pathname;

function flag(name: string, fallback: string): string {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 && Deno.args[i + 1] !== undefined ? Deno.args[i + 1]! : fallback;
}

/** A root with `src/` (files and a subfolder), and an outside folder of `secret_*` files. */
async function tree(): Promise<{ dir: string; root: string; outside: string }> {
  const dir = await Deno.makeTempDir({ prefix: "graver-listing-race-" });
  const root = `${dir}/root`;
  const outside = `${dir}/outside`;
  await Deno.mkdir(`${root}/src/deep`, { recursive: true });
  await Deno.mkdir(`${outside}/deep`, { recursive: true });
  for (let i = 0; i < 20; i++) {
    await Deno.writeTextFile(`${root}/src/f${i}.ts`, `export const needle${i} = ${i};\n`);
    await Deno.writeTextFile(`${root}/src/deep/g${i}.ts`, `export const needle_deep${i} = ${i};\n`);
    await Deno.writeTextFile(`${outside}/secret_${i}.ts`, `export const needle_outside${i} = ${i};\n`);
    await Deno.writeTextFile(
      `${outside}/deep/secret_deep${i}.ts`,
      `export const needle_outside${i} = ${i};\n`,
    );
  }
  return { dir, root, outside };
}

/** Whether a call's answer names an outside file. */
function leaked(data: unknown): boolean {
  return JSON.stringify(data ?? null).includes("secret_");
}

/** `calls` list and search calls while the swapper runs; answered and leaked counts. */
async function storm(calls: number, pauseMicros: number): Promise<{ answered: number; leaked: number }> {
  const { dir, root, outside } = await tree();
  const ws = await createWorkspace({ backend: createDiskBackend(), root, wasm: createWasmLoader() });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", SWAPPER, `${root}/src`, outside, String(pauseMicros)],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const outcome = { answered: 0, leaked: 0 };
  try {
    const reader = child.stdout.getReader();
    await reader.read(); // the swapper runs
    reader.releaseLock();
    for (let i = 0; i < calls; i++) {
      const r = i % 2 === 0
        ? await ws.call("list_files", { recursive: true })
        : await ws.call("search_text", { pattern: "needle", output_mode: "files_with_matches" });
      if (!r.ok) continue;
      outcome.answered++;
      if (leaked(r.data)) outcome.leaked++;
    }
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await child.stdout.cancel().catch(() => {});
    await ws.close();
    await Deno.remove(dir, { recursive: true });
  }
  return outcome;
}

const calls = Number(flag("calls", "500"));
const pauses = flag("pause", "0,200").split(",").map(Number);
console.log(`# listing swap storm: ${calls} calls (list_files and search_text alternating) per run\n`);
console.log(machine());
console.log("\n| swapper pause (µs) | answered | named an outside file | seconds |");
console.log("| --- | --- | --- | --- |");
let leaks = 0;
let answered = 0;
for (const pause of pauses) {
  const start = performance.now();
  const outcome = await storm(calls, pause);
  const seconds = ((performance.now() - start) / 1000).toFixed(1);
  console.log(`| ${pause} | ${outcome.answered} | ${outcome.leaked} | ${seconds} |`);
  leaks += outcome.leaked;
  answered += outcome.answered;
}
console.log(`\nRESULT listing race: ${leaks} of ${answered} answered calls named a file outside the root`);
