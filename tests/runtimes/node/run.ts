/**
 * Run the conformance suite in Node 20: bundle `entry.ts` with esbuild
 * (platform node; Node 20 cannot run .ts) into `build/node/`, then run it
 * with `node`. Prints `conformance node <digest> <passed>/<total>`.
 *
 *   deno run -A tests/runtimes/node/run.ts
 *
 * @module
 */
import { bundle, NODE_BANNER, relay, requireTools, ROOT } from "../_harness.ts";

await requireTools("esbuild");
await bundle("tests/runtimes/node/entry.ts", "build/node/conformance.mjs", [
  "--platform=node",
  "--target=node20",
  `--banner:js=${NODE_BANNER}`,
]);
Deno.exit(await relay("node", ["build/node/conformance.mjs", ROOT.replace(/\/$/, ""), "node"]));
