/**
 * The conformance suite inside Chromium (bundled by `run.ts`). Wasm is
 * fetched from the page's origin; the result is left on `globalThis` for the
 * driver to read.
 *
 * @module
 */
import { createIndexedDbBackend, createWasmLoader } from "../../../src/adapters/browser/mod.ts";
import { backendSmoke, concurrencySmoke } from "../_backend_smoke.ts";
import { checkpointsSmoke } from "./checkpoints_smoke.ts";
import { searchTiming } from "../_search_timing.ts";
import { describeFailures, formatLine, runConformance } from "../../conformance/suite.ts";

/** What the driver reads back. */
interface PageResult {
  line: string;
  failures: string[];
  ok: boolean;
  smoke: string;
  /** The sample project's searches timed on IndexedDB (outside the digest). */
  timing: string;
}

try {
  const wasm = createWasmLoader({ baseUrl: new URL("/", location.href) });
  const report = await runConformance({ wasm });
  // Then the persistent browser backend (lightning-fs over IndexedDB), outside the digest.
  const smoke = await backendSmoke(createIndexedDbBackend("graver-smoke"), `/smoke-${Date.now()}`)
    .then((s) => s.replace("backend", "indexeddb"))
    // Separate lightning-fs instances over one database contend as tabs do (its Web Lock, our commit lock).
    .then(async (s) =>
      `${s}; ${
        (await concurrencySmoke(() => createIndexedDbBackend("graver-smoke"), `/tabs-${Date.now()}`))
          .replace("backend", "indexeddb")
      }`
    )
    // Checkpoints: isomorphic-git's shadow repository on lightning-fs, found again after a "reload".
    .then(async (s) =>
      `${s}; ${
        (await checkpointsSmoke(() => createIndexedDbBackend("graver-smoke"), `/checkpoints-${Date.now()}`))
          .replace("backend", "indexeddb")
      }`
    )
    .catch((err) => `indexeddb smoke FAILED: ${err instanceof Error ? err.stack ?? err.message : err}`);
  const timing = await searchTiming({
    backend: createIndexedDbBackend("graver-search"),
    root: `/search-${Date.now()}`,
    wasm,
  }).then(
    (t) => `indexeddb ${t}`,
    (err) => `search timing FAILED: ${err instanceof Error ? err.message : err}`,
  );
  const result: PageResult = {
    line: formatLine("browser", report),
    failures: describeFailures(report),
    ok: report.passed === report.total && smoke.endsWith("ok"),
    smoke,
    timing,
  };
  (globalThis as { __conformance?: PageResult }).__conformance = result;
} catch (err) {
  const message = err instanceof Error ? `${err.name}: ${err.message}\n${err.stack}` : String(err);
  (globalThis as { __conformance?: PageResult }).__conformance = {
    line: "",
    failures: [message],
    ok: false,
    smoke: "",
    timing: "",
  };
}
