/** programs: a structural query compiled once per language, each language's answer noted for the scan. */
import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { RecoverableError } from "../../../src/errors.ts";
import { normalizeStructuralArgs } from "../../../src/search/structural_args.ts";
import { type LanguageReadings, programs } from "../../../src/search/structural_programs.ts";
import { patternMatcherOf } from "../../../src/structural/search/mod.ts";

const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
const readings = (): LanguageReadings => ({
  refused: new Map(),
  accepted: new Set(),
  readAsError: new Map(),
  readings: new Map(),
});

Deno.test("programs compiles once per language and notes which languages read the pattern", async () => {
  const noted = readings();
  const of = programs(patternMatcherOf(ws), normalizeStructuralArgs({ pattern: "log($A)" }), noted);
  const first = await of("python");
  assert.ok(first !== null);
  assert.equal(await of("python"), first); // the same program
  assert.ok(await of("typescript") !== null);
  assert.deepEqual([...noted.accepted].sort(), ["python", "typescript"]);
  // A pattern no context reads: the language is noted as refusing it, and the scan goes on without it.
  const broken = readings();
  assert.equal(
    await programs(patternMatcherOf(ws), normalizeStructuralArgs({ pattern: "log($A" }), broken)("python"),
    null,
  );
  assert.deepEqual([...broken.refused.keys()], ["python"]);
});

Deno.test("with the languages given, a language that cannot read the pattern is the caller's mistake at once", async () => {
  const query = normalizeStructuralArgs({ pattern: "log($A", language: "python" });
  await assert.rejects(
    programs(patternMatcherOf(ws), query, readings())("python"),
    (e: unknown) => e instanceof RecoverableError && e.code === "invalid_query",
  );
});
