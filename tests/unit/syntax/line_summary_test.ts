import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { createMemoryBackend, createWorkspace } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { textLines } from "../../../src/fs/lines.ts";
import { guessDefinitions, omittedNotice, summarizeSpan } from "../../../src/syntax/line_summary.ts";
import { IMPL_HEADER, implRichRust } from "./_impl_rust.ts";

const BASE = fileURLToPath(
  new URL("../../../node_modules/.deno/diff@9.0.0/node_modules/diff/libesm/diff/base.js", import.meta.url),
);

Deno.test("summarizeSpan() lists the outermost definitions starting in the span, and the one it starts inside", async () => {
  const text = await Deno.readTextFile(BASE);
  const lines = textLines(text);
  const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
  const at = (s: string) => lines.findIndex((l) => l.includes(s)) + 1;
  // From inside removeEmpty to the end of tokenize: members of class Diff.
  const span = { start: at("removeEmpty(array) {") + 2, end: at("tokenize(value, options) {") + 1 };
  const sum = await summarizeSpan(ws, "base.js", { file: { text, version: "v", lines }, span });
  assert.equal(sum.method, "outline");
  assert.equal(sum.inside?.name_path, "Diff/removeEmpty");
  assert.deepEqual(sum.symbols.map((s) => [s.kind, s.name_path, s.line]), [
    ["method", "Diff/castInput", at("castInput(value, options) {")],
    ["method", "Diff/tokenize", at("tokenize(value, options) {")],
  ]);
  assert.equal(
    omittedNotice(span, sum),
    `[Lines ${span.start}–${span.end} not shown (continues method Diff/removeEmpty() L${
      at("removeEmpty(array) {")
    }) — contains: Diff: castInput() L${at("castInput(value, options) {")}, tokenize() L${
      at("tokenize(value, options) {")
    }]`,
  );
  // The cap: the first `max`, then how many more.
  const capped = await summarizeSpan(ws, "base.js", { file: { text, version: "v", lines }, span, max: 1 });
  assert.deepEqual([capped.symbols.length, capped.more], [1, 1]);
  assert.match(omittedNotice(span, capped), /Diff: castInput\(\) L\d+, and 1 more\]$/);
});

Deno.test("summarizeSpan() without a grammar falls back to a regex guess, labelled as one", async () => {
  const text = "# notes\nfunction alpha() {}\nclass Beta:\n  def gamma(self): pass\n";
  const lines = textLines(text);
  const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
  const sum = await summarizeSpan(ws, "tool.zsh-theme", {
    file: { text, version: "v", lines },
    span: { start: 2, end: 4 },
  });
  assert.equal(sum.method, "regex");
  assert.deepEqual(sum.symbols.map((s) => s.name_path), ["alpha", "Beta", "gamma"]);
  assert.match(
    omittedNotice({ start: 2, end: 4 }, sum),
    /^\[Lines 2–4 not shown — contains \(regex guess, no grammar for this file\): function alpha\(\) L2/,
  );
  assert.deepEqual(guessDefinitions(["  x = 1"], 1, 1), []);
  // Prose gets no guess: "class Beta" in a README is not a definition.
  const prose = await summarizeSpan(ws, "README.md", {
    file: { text, version: "v", lines },
    span: { start: 2, end: 4 },
  });
  assert.deepEqual([prose.method, prose.symbols], ["none", []]);
  assert.equal(
    omittedNotice({ start: 2, end: 4 }, prose),
    "[Lines 2–4 not shown — no grammar for this file: read them to see what they hold]",
  );
  assert.equal(
    omittedNotice({ start: 7, end: 7 }, { method: "outline", symbols: [], more: 0 }),
    "[Line 7 not shown — no definitions start there]",
  );
});

Deno.test("omittedNotice() names a container once for its members (a Rust impl's header), and an impl's kind once", async () => {
  const text = implRichRust(30);
  const lines = textLines(text);
  const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
  const all = { start: 1, end: lines.length };
  const whole = await summarizeSpan(ws, "standard.rs", { file: { text, version: "v", lines }, span: all });
  const top = omittedNotice(all, whole);
  assert.match(top, /contains: struct Config L2, impl Default for Config L6, impl<'a, M: Matcher/);
  assert.doesNotMatch(top, /impl impl/);
  // From inside the fourth method to the end: 26 methods and the test module.
  const at = (s: string) => lines.findIndex((l) => l.includes(s)) + 1;
  const span = { start: at("fn write_part_3(") + 2, end: lines.length };
  const sum = await summarizeSpan(ws, "standard.rs", { file: { text, version: "v", lines }, span });
  assert.equal(sum.symbols.length, 27);
  assert.ok(sum.symbols.every((s, i) => i === 26 || s.name_path.startsWith(`${IMPL_HEADER}/`)));
  const notice = omittedNotice(span, sum);
  assert.equal(
    notice.split(IMPL_HEADER).length - 1,
    2,
    "once where the span starts inside it, once for its members",
  );
  assert.match(
    notice,
    new RegExp(`— contains: ${escape(IMPL_HEADER)}: write_part_4\\(\\) L${at("fn write_part_4(")}, `),
  );
  assert.match(notice, /write_part_29\(\) L\d+; module tests L\d+\]$/);
  assert.ok(notice.length < 800, `${notice.length} characters`);
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
