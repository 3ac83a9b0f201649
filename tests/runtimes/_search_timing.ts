/**
 * The same searches timed in any runtime, on the sample project (the 22 real source files of the conformance
 * suite, `tests/conformance/samples.json`) written to the runtime's backend: `search_text` and
 * `search_structural`, each the first call of a fresh workspace (cold: files listed, read and parsed) and then
 * the median of five more (warm). Reported on the runner's line beside the digest, outside it (times differ
 * from run to run; the answers do not).
 *
 * @module
 */
import { type Backend, BackendFs, createWorkspace, type WasmLoader } from "../../src/mod.ts";
import { SAMPLES } from "../conformance/suite.ts";
import { succeeded } from "../conformance/cases/_calls.ts";

/** Every match in one page, whole. */
const PAGE = { max_results: 100_000, max_chars: 100_000_000 };

/** The searches timed: a fixed string in every file, and a code pattern in the ECMAScript ones. */
const SEARCHES: { tool: string; args: Record<string, unknown> }[] = [
  // symbols: false: the first call would otherwise compile every sample language's grammar to name symbols.
  { tool: "search_text", args: { pattern: "return", literal: true, symbols: false, ...PAGE } },
  { tool: "search_structural", args: { pattern: "$A.$B($$$C)", language: ["ts", "js"], ...PAGE } },
];

/** Median of a few times. */
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/**
 * Write the sample project under `root` and time the searches.
 *
 * @param options The backend, a fresh root on it, and the wasm loader.
 * @returns "search <tool> cold N ms warm M ms (K matches); …".
 */
export async function searchTiming(
  options: { backend: Backend; root: string; wasm: WasmLoader },
): Promise<string> {
  const fs = BackendFs.wrap(options.backend);
  for (const s of SAMPLES) await fs.write(`${options.root}/${s.file}`, new TextEncoder().encode(s.text));
  const ws = await createWorkspace({ backend: options.backend, root: options.root, wasm: options.wasm });
  const out: string[] = [];
  for (const { tool, args } of SEARCHES) {
    let started = performance.now();
    const first = succeeded(await ws.call(tool, args));
    const cold = performance.now() - started;
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) {
      started = performance.now();
      succeeded(await ws.call(tool, args));
      warm.push(performance.now() - started);
    }
    const found = (first.data["matches"] as unknown[] | undefined)?.length ?? 0;
    out.push(`${tool} cold ${cold.toFixed(1)} ms warm ${median(warm).toFixed(1)} ms (${found} matches)`);
  }
  return `search over ${SAMPLES.length} sample files: ${out.join("; ")}`;
}
