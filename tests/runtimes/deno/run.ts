/**
 * Run the conformance suite in Deno (directly, .ts and `npm:` as they are).
 * Prints `conformance deno <digest> <passed>/<total>`; exits 1 on any failure.
 *
 *   deno run -A tests/runtimes/deno/run.ts
 *
 * @module
 */
import { createDiskBackend, createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { diskSmoke } from "../_disk_smoke.ts";
import { describeFailures, formatLine, runConformance } from "../../conformance/suite.ts";

const report = await runConformance({ wasm: createWasmLoader() });
for (const line of describeFailures(report)) console.error(line);
console.log(formatLine("deno", report));
const smoke = await diskSmoke(createDiskBackend()).catch((err) => `disk smoke FAILED: ${err}`);
console.error(smoke);
Deno.exit(report.passed === report.total && smoke.endsWith("ok") ? 0 : 1);
