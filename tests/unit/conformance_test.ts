import assert from "node:assert/strict";
import { createWasmLoader } from "../../src/adapters/deno/mod.ts";
import { buildSamplesJson } from "../conformance/gen_samples.ts";
import { CASES, describeFailures, formatLine, runConformance, SAMPLES } from "../conformance/suite.ts";
import { GRAMMARS } from "../../src/mod.ts";

Deno.test("runConformance() passes every case in Deno", async () => {
  const report = await runConformance({ wasm: createWasmLoader() });
  assert.deepEqual(describeFailures(report), []);
  assert.equal(report.total, CASES.length);
  assert.match(formatLine("deno", report), /^conformance deno [0-9a-f]{64} (\d+)\/\1$/);
});

Deno.test("runConformance() gives the same digest twice in one process", async () => {
  const only = ["grammar.typescript", "version.", "commit.round_trip", "fidelity."];
  const a = await runConformance({ wasm: createWasmLoader(), only });
  const b = await runConformance({ wasm: createWasmLoader(), only });
  assert.equal(a.total, 6);
  assert.equal(a.digest, b.digest);
});

Deno.test("runConformance() reports a failing case without stopping", async () => {
  const report = await runConformance({
    wasm: createWasmLoader(),
    makeBackend: () => {
      throw new Error("no backend here");
    },
    only: ["commit.round_trip", "version.known_bytes"],
  });
  assert.equal(report.total, 2);
  assert.equal(report.passed, 1);
  const failed = report.results.filter((r) => r.error !== undefined);
  assert.equal(failed.length, 1);
  assert.match(failed[0]!.error!, /no backend here/);
});

Deno.test("samples.json is up to date with tests/conformance/samples/", async () => {
  const have = await Deno.readTextFile(new URL("../conformance/samples.json", import.meta.url));
  assert.equal(have, await buildSamplesJson(), "run: deno run -A tests/conformance/gen_samples.ts");
});

Deno.test("samples.json has one real sample per grammar in the manifest", () => {
  assert.deepEqual(SAMPLES.map((s) => s.language).sort(), Object.keys(GRAMMARS).sort());
  for (const s of SAMPLES) assert.match(s.origin, /^(@[\w.-]+\/)?[\w.-]+@\d[\w.-]*\//, s.file);
});
