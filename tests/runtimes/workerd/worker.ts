/**
 * The conformance suite as a workerd fetch handler. workerd forbids
 * compiling wasm at run time, so the runtime and grammar wasm arrive as
 * precompiled `WebAssembly.Module`s imported by the generated entry
 * (`build/workerd/entry.js`, written by `run.ts`), through the workerd
 * adapter.
 *
 * @module
 */
import { createWasmLoader, type ModuleWasmOptions } from "../../../src/adapters/workerd/mod.ts";
import { describeFailures, formatLine, runConformance } from "../../conformance/suite.ts";
import { createMapBackend } from "../../../src/mod.ts";
import { searchTiming } from "../_search_timing.ts";

/** A module worker. */
export interface ConformanceWorker {
  /** Runs the suite on every request and answers `{line, failures, ok, timing}` as JSON. */
  fetch(request: Request): Promise<Response>;
}

/**
 * Build the worker around the imported wasm modules.
 *
 * @param modules The runtime and grammar modules.
 * @returns The default export of the worker.
 */
export function createWorker(modules: ModuleWasmOptions): ConformanceWorker {
  return {
    async fetch(_request: Request): Promise<Response> {
      try {
        const report = await runConformance({ wasm: createWasmLoader(modules) });
        // The sample project's searches timed (outside the digest; workerd's clock steps by 1 ms).
        const timing = await searchTiming({
          backend: createMapBackend(),
          root: "/search",
          wasm: createWasmLoader(modules),
        }).then((t) => `workerd (map backend) ${t}`, (err) => `search timing FAILED: ${err}`);
        return Response.json({
          line: formatLine("workerd", report),
          failures: describeFailures(report),
          ok: report.passed === report.total,
          timing,
        });
      } catch (err) {
        const message = err instanceof Error ? `${err.name}: ${err.message}\n${err.stack}` : String(err);
        return Response.json({ line: "", failures: [message], ok: false });
      }
    },
  };
}
