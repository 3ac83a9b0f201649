/**
 * A rewrite keeps the `;` its pattern did not write: the statement a smart pattern matched includes its `;`,
 * and a template written like the pattern must not take it away (real grammars, real texts).
 */
import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace } from "../../../../src/mod.ts";
import { createWasmLoader } from "../../../../src/adapters/deno/mod.ts";
import { patternMatcherOf } from "../../../../src/structural/search/mod.ts";

const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
const matcher = patternMatcherOf(ws);

async function rewritten(
  language: string,
  q: { pattern?: string; rule?: Record<string, unknown> },
  rewrite: string,
  text: string,
) {
  const program = await matcher.compile(language, { ...q, rewrite });
  const sites = await program.match({ path: `t.${language}`, text, version: `v-${rewrite}` });
  let out = text;
  for (const s of [...sites].reverse()) out = out.slice(0, s.start) + s.replacement + out.slice(s.end);
  return out;
}

const THROWS = "function f(x) {\n  if (!x) throw new Error('no x');\n  throw new Error(`bad ${x}`);\n}\n";

Deno.test("a JavaScript statement's `;` survives a template written without one", async () => {
  const out = await rewritten("javascript", { pattern: "throw new Error($M)" }, "throw fail($M)", THROWS);
  assert.equal(out, "function f(x) {\n  if (!x) throw fail('no x');\n  throw fail(`bad ${x}`);\n}\n");
});

Deno.test("a template that writes the `;` gets one, not two", async () => {
  const out = await rewritten("javascript", { pattern: "throw new Error($M)" }, "throw fail($M);", THROWS);
  assert.equal(out, "function f(x) {\n  if (!x) throw fail('no x');\n  throw fail(`bad ${x}`);\n}\n");
});

Deno.test("a pattern that writes the `;` and a template that leaves it out are taken at their word", async () => {
  const out = await rewritten("javascript", { pattern: "throw new Error($M);" }, "throw fail($M)", THROWS);
  assert.equal(out, "function f(x) {\n  if (!x) throw fail('no x')\n  throw fail(`bad ${x}`)\n}\n");
});

Deno.test("an expression match is untouched: its node has no `;` of its own", async () => {
  const out = await rewritten("javascript", { pattern: "new Error($M)" }, "fail($M)", THROWS);
  assert.equal(out, "function f(x) {\n  if (!x) throw fail('no x');\n  throw fail(`bad ${x}`);\n}\n");
});

Deno.test("a TypeScript declaration rewritten without its `;` keeps it", async () => {
  const text = "const fs = require('node:fs');\nconst path = require('node:path')\n";
  const out = await rewritten("typescript", { pattern: "const $X = require($M)" }, "import $X from $M", text);
  assert.equal(out, "import fs from 'node:fs';\nimport path from 'node:path'\n");
});

Deno.test("a rule's match is replaced as it is: no one pattern says what was written", async () => {
  const out = await rewritten("javascript", { rule: { kind: "throw_statement" } }, "return", THROWS);
  assert.equal(out, "function f(x) {\n  if (!x) return\n  return\n}\n");
});
