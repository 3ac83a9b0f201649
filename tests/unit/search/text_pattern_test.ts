import assert from "node:assert/strict";
import { compileTextPattern, hasUpperCaseLiteral } from "../../../src/search/text_pattern.ts";

const base = { literal: false, ignoreCase: false, smartCase: false, word: false, multiline: false };

Deno.test("text_pattern: look-around and backreferences are refused, naming the construct", () => {
  assert.throws(() => compileTextPattern({ ...base, pattern: "foo(?=bar)" }), {
    code: "invalid_args",
    message: /look-ahead.*linear-time/,
    hint: /surrounding text as part of the pattern/,
  });
  assert.throws(() => compileTextPattern({ ...base, word: true, pattern: "(a)\\1" }), {
    code: "invalid_args",
    message: /"\(a\)\\\\1": the backreference \\1 at offset 3/,
    hint: /write the repeated text out/,
  });
  assert.throws(() => compileTextPattern({ ...base, pattern: "a(" }), {
    code: "invalid_args",
    message: /Cannot compile/,
  });
});

Deno.test("text_pattern: smart case is ripgrep's rule", () => {
  assert.equal(hasUpperCaseLiteral("\\Wfoo\\S\\p{Lu}"), false);
  assert.equal(hasUpperCaseLiteral("(?P<Word>x)"), false);
  assert.equal(hasUpperCaseLiteral("fooBar"), true);
  assert.equal(hasUpperCaseLiteral("A.B", true), true);
  assert.equal(compileTextPattern({ ...base, smartCase: true, pattern: "foo" }).fold, true);
  assert.equal(compileTextPattern({ ...base, smartCase: true, pattern: "Foo" }).fold, false);
  assert.equal(compileTextPattern({ ...base, ignoreCase: true, pattern: "Foo" }).fold, true);
});

Deno.test("text_pattern: a fixed string is quoted, and is its own prefilter", () => {
  const p = compileTextPattern({ ...base, literal: true, pattern: "a.b(c)" });
  assert.equal(p.plain, "a.b(c)");
  assert.ok(p.re.matcher("xa.b(c)").find());
  assert.ok(!p.re.matcher("axb(c)").find());
  assert.equal(compileTextPattern({ ...base, literal: true, word: true, pattern: "a" }).plain, null);
});

Deno.test("text_pattern: an inline (?i) folds the prefilter too", () => {
  const p = compileTextPattern({ ...base, pattern: "(?i)hello" });
  assert.equal(p.prefilter!.flags, "giu");
});
