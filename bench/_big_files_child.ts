/**
 * One measured call of bench/big_files.bench.ts, in its own process so that its peak RSS is its own:
 * `deno run -A bench/_big_files_child.ts <case> <dir>`. Prints one JSON line: the case, whether it
 * succeeded (or the refusal's code), its wall time and the process's peak resident set (VmHWM).
 *
 * @module
 */
import { createWorkspace } from "../src/mod.ts";
import { createDiskBackend, createWasmLoader } from "../src/adapters/deno/mod.ts";

const [which, dir] = Deno.args as [string, string];

/** Peak resident set of this process in MB (Linux). */
function peakRssMb(): number {
  const status = Deno.readTextFileSync("/proc/self/status");
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? "0");
  return Math.round(kb / 1024);
}

/** The baseline: what a plain script does to get at a file's lines. */
async function baseline(): Promise<{ ok: boolean; lines: number }> {
  const text = await Deno.readTextFile(`${dir}/big.ts`);
  const lines = text.split("\n");
  return { ok: true, lines: lines.length };
}

const CALLS: Record<string, [string, Record<string, unknown>]> = {
  idle: ["read_file", { path: "small.ts" }],
  read_default: ["read_file", { path: "big.ts" }],
  read_range: ["read_file", { path: "big.ts", start_line: 1, end_line: 2000 }],
  read_tail: ["read_file", { path: "big.ts", start_line: 1_000_000, end_line: 1_000_100 }],
  outline: ["outline", { path: "big.ts" }],
  // Written, with the syntax guard on (the default): refused up front, over the parse limit.
  edit_file: ["edit_file", { path: "big.ts", old_string: "return a + 17;", new_string: "return a + 18;" }],
  edit_file_unguarded: ["edit_file", {
    path: "big.ts",
    old_string: "return a + 17;",
    new_string: "return a + 18;",
    syntax_guard: "off",
    dry_run: true,
  }],
  edit_file_unguarded_write: ["edit_file", {
    path: "big.ts",
    old_string: "return a + 19;",
    new_string: "return a + 20;",
    syntax_guard: "off",
  }],
  apply_edits_unguarded: ["apply_edits", {
    text: "big.ts\n<<<<<<< SEARCH\n  return a + 17;\n=======\n  return a + 18;\n>>>>>>> REPLACE\n",
    syntax_guard: "off",
    dry_run: true,
  }],
  // Two blocks far apart: the changed region spans nearly the whole file.
  apply_edits_two_blocks: ["apply_edits", {
    text: "big.ts\n<<<<<<< SEARCH\n  return a + 17;\n=======\n  return a + 18;\n>>>>>>> REPLACE\n" +
      "big.ts\n<<<<<<< SEARCH\n  return a + 700017;\n=======\n  return a + 18;\n>>>>>>> REPLACE\n",
    syntax_guard: "off",
    dry_run: true,
  }],
  rename_dry_run: ["edit_rename_symbol", {
    path: "big.ts",
    target: "f17",
    new_name: "g17",
    scope: "file",
    dry_run: true,
  }],
};

/**
 * `write_file` of the whole file's text with one line changed, over a copy of it (made by the kernel: no bytes
 * in this process). The text is one flat string, as a caller's parsed JSON arguments hold it (counted in the
 * peak: 1× the file).
 */
async function writeFileCall(guard: "refuse" | "off"): Promise<[string, Record<string, unknown>]> {
  await Deno.copyFile(`${dir}/big.ts`, `${dir}/copy.ts`);
  const bytes = await Deno.readFile(`${dir}/big.ts`);
  const at = new TextDecoder().decode(bytes.subarray(0, 4096)).indexOf("return a + 17;");
  bytes[at + "return a ".length] = "-".charCodeAt(0);
  const content = new TextDecoder().decode(bytes);
  return ["write_file", { path: "copy.ts", content, ...(guard === "off" ? { syntax_guard: "off" } : {}) }];
}

let started = performance.now();
let outcome: Record<string, unknown>;
if (which === "baseline") {
  outcome = await baseline();
} else {
  const ws = await createWorkspace({ backend: createDiskBackend(), root: dir, wasm: createWasmLoader() });
  const [tool, args] = which === "write_file"
    ? await writeFileCall("refuse")
    : which === "write_file_unguarded"
    ? await writeFileCall("off")
    : CALLS[which]!;
  // The bytes write_file's text was made from are garbage by now: collected, so that the peak counts the
  // text alone (as a caller holds its parsed arguments).
  if (which.startsWith("write_file")) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((r) => setTimeout(r, 200)); // the sweep frees off-thread
    started = performance.now(); // the call's time, not its argument's making
  }
  const r = await ws.call(tool, args);
  outcome = r.ok
    ? { ok: true, status: r.status }
    : { ok: false, code: r.error.code, message: r.error.message };
}
const ms = Math.round(performance.now() - started);
console.log(JSON.stringify({ case: which, ms, peak_rss_mb: peakRssMb(), ...outcome }));
