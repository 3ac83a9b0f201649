/**
 * What a session holds after a structural search of one large file with many matches: the JavaScript heap in
 * use after a full collection, before and after the search, and once the parse cache is cleared (what the
 * cached tree and what hangs off it held). A file of N lines of `console.log(i);` (default 50,000), searched
 * for `console.log($A)` with `output_mode: "count"` through a workspace on disk.
 *
 *   deno run -A --v8-flags=--expose-gc bench/held_memory.ts [--lines N]
 *
 * @module
 */
import { createDiskBackend, createWasmLoader } from "../src/adapters/deno/mod.ts";
import { createWorkspace } from "../src/mod.ts";
import { machine, result } from "./_util.ts";

const at = Deno.args.indexOf("--lines");
const LINES = at >= 0 ? Number(Deno.args[at + 1]) : 50_000;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --v8-flags=--expose-gc");

/** The heap in use after a full collection, in MB. */
function heapMb(): number {
  gc!();
  return Deno.memoryUsage().heapUsed / 1048576;
}

const root = await Deno.makeTempDir({ prefix: "graver-held-memory-" });
try {
  await Deno.writeTextFile(
    `${root}/big.js`,
    Array.from({ length: LINES }, (_, i) => `console.log(${i});\n`).join(""),
  );
  const ws = await createWorkspace({ backend: createDiskBackend(), root, wasm: createWasmLoader() });
  const before = heapMb();
  const found = await ws.call("search_structural", {
    pattern: "console.log($A)",
    language: "js",
    output_mode: "count",
  });
  if (!found.ok) throw new Error(JSON.stringify(found));
  const after = heapMb();
  ws.trees!.clear();
  const cleared = heapMb();
  console.log(`# held memory (${machine()})\n`);
  console.log(
    `heap before ${before.toFixed(0)} MB, after the search ${after.toFixed(0)} MB, parse cache cleared ${
      cleared.toFixed(0)
    } MB`,
  );
  console.log(`peak RSS of the process so far: ${(Deno.memoryUsage().rss / 1048576).toFixed(0)} MB`);
  result(
    `heap held by the cached tree of a ${LINES}-match file`,
    `${(after - cleared).toFixed(0)} MB (${((after - cleared) * 1048576 / LINES).toFixed(0)} bytes a match)`,
  );
  await ws.close();
} finally {
  await Deno.remove(root, { recursive: true });
}
