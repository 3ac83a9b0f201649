import assert from "node:assert/strict";
import { compileTextProgram } from "../../../src/search/text_program.ts";

Deno.test("text_program: whole words are group 1 of the wrapped program, at line edges too", () => {
  const re = compileTextProgram("foo", { word: true, fold: false });
  const m = re.matcher("a foo\nfoox foo");
  const found: string[] = [];
  for (let from = 0; m.find(from); from = m.end(1)) found.push(`${m.start(1)}-${m.end(1)}`);
  assert.deepEqual(found, ["2-5", "11-14"]);
});

Deno.test("text_program: case folding and ^ at each line's start", () => {
  const re = compileTextProgram("^todo", { word: false, fold: true });
  const m = re.matcher("x\nTODO\ntodo");
  assert.ok(m.find());
  assert.equal(m.start(), 2);
});

Deno.test("text_program: refusals name the caller's own pattern, not the word wrapper", () => {
  assert.throws(() => compileTextProgram("(a)\\1", { word: true, fold: false }), {
    code: "invalid_args",
    message: /"\(a\)\\\\1": the backreference \\1 at offset 3/,
    hint: /write the repeated text out/,
  });
  assert.throws(() => compileTextProgram("x".repeat(5000), { word: false, fold: false }), {
    code: "invalid_args",
    message: /Cannot use the search pattern: it is 5000 characters long/,
  });
});
