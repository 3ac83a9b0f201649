/**
 * Run the conformance suite in Deno (directly, .ts and `npm:` as they are).
 * Prints `conformance deno <digest> <passed>/<total>`; exits 1 on any failure.
 *
 *   deno run -A tests/runtimes/deno/run.ts
 *
 * @module
 */
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { describeFailures, formatLine, runConformance } from "../../conformance/suite.ts";

const report = await runConformance({ wasm: createWasmLoader() });
for (const line of describeFailures(report)) console.error(line);
console.log(formatLine("deno", report));
Deno.exit(report.passed === report.total ? 0 : 1);
