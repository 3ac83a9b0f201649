/**
 * Run the conformance suite in Bun, from the TypeScript sources (Bun runs
 * .ts and resolves the npm packages from `node_modules/`). Bun comes from
 * its npm platform package, installed into `tools/` by
 * `scripts/install_runtimes.ts`. Prints `conformance bun <digest> <passed>/<total>`.
 *
 *   deno run -A tests/runtimes/bun/run.ts
 *
 * @module
 */
import { relay, requireTools, ROOT, toolBin } from "../_harness.ts";

await requireTools("bun");
Deno.exit(
  await relay(toolBin("bun"), ["run", "tests/runtimes/bun/entry.ts", ROOT.replace(/\/$/, "")], {
    // No transpiler cache in ~/.bun: leave nothing behind.
    BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0",
    DO_NOT_TRACK: "1",
  }),
);
