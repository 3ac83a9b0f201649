/**
 * The conformance suite inside Bun (run from source: Bun runs .ts).
 * Argument: the repository root holding `wasm/` and `grammars/wasm/`.
 *
 * @module
 */
import { pathToFileURL } from "node:url";
import { createDiskBackend, createWasmLoader } from "../../../src/adapters/bun/mod.ts";
import { diskSmoke } from "../_disk_smoke.ts";
import { describeFailures, formatLine, runConformance } from "../../conformance/suite.ts";

const root = process.argv[2];
if (!root) throw new TypeError("Cannot run: pass the repository root as the first argument");
const report = await runConformance({ wasm: createWasmLoader({ baseUrl: pathToFileURL(`${root}/`) }) });
for (const line of describeFailures(report)) console.error(line);
console.log(formatLine("bun", report));
const smoke = await diskSmoke(createDiskBackend()).catch((err) => `disk smoke FAILED: ${err}`);
console.error(smoke);
process.exitCode = report.passed === report.total && smoke.endsWith("ok") ? 0 : 1;
