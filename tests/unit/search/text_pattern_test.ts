import assert from "node:assert/strict";
import { compileTextPattern, hasUpperCaseLiteral } from "../../../src/search/text_pattern.ts";
import { scanText } from "../../../src/search/text_scan.ts";
import { MAX_REGEX_LENGTH } from "../../../src/syntax/regex_length.ts";

const base = { literal: false, ignoreCase: false, smartCase: false, word: false, multiline: false };

Deno.test("text_pattern: look-around and backreferences are refused, naming the construct", async () => {
  await assert.rejects(() => compileTextPattern({ ...base, pattern: "foo(?=bar)" }), {
    code: "invalid_args",
    message: /look-ahead.*linear-time/,
    hint: /surrounding text as part of the pattern/,
  });
  await assert.rejects(() => compileTextPattern({ ...base, word: true, pattern: "(a)\\1" }), {
    code: "invalid_args",
    message: /"\(a\)\\\\1": the backreference \\1 at offset 3/,
    hint: /write the repeated text out/,
  });
  await assert.rejects(() => compileTextPattern({ ...base, pattern: "a(" }), {
    code: "invalid_args",
    message: /Cannot compile/,
  });
});

Deno.test("text_pattern: smart case is ripgrep's rule", async () => {
  assert.equal(hasUpperCaseLiteral("\\Wfoo\\S\\p{Lu}"), false);
  assert.equal(hasUpperCaseLiteral("(?P<Word>x)"), false);
  assert.equal(hasUpperCaseLiteral("fooBar"), true);
  assert.equal(hasUpperCaseLiteral("A.B", true), true);
  assert.equal((await compileTextPattern({ ...base, smartCase: true, pattern: "foo" })).fold, true);
  assert.equal((await compileTextPattern({ ...base, smartCase: true, pattern: "Foo" })).fold, false);
  assert.equal((await compileTextPattern({ ...base, ignoreCase: true, pattern: "Foo" })).fold, true);
});

Deno.test("text_pattern: a fixed string is quoted, and is its own prefilter", async () => {
  const p = await compileTextPattern({ ...base, literal: true, pattern: "a.b(c)" }, { program: true });
  assert.equal(p.plain, "a.b(c)");
  assert.ok(p.re!.matcher("xa.b(c)").find());
  assert.ok(!p.re!.matcher("axb(c)").find());
  assert.equal((await compileTextPattern({ ...base, literal: true, word: true, pattern: "a" })).plain, null);
});

Deno.test("text_pattern: an inline (?i) folds the prefilter too", async () => {
  const p = await compileTextPattern({ ...base, pattern: "(?i)hello" });
  assert.equal(p.prefilter!.flags, "giu");
});

Deno.test("text_pattern: a fixed string gets no program (re2js is not loaded) and finds what the program finds", async () => {
  const text = "a.b(c) x\\1y (?=z) \u212Aey KEY ſun 😀🙂 tab\there\r\nend a.b(c)\n";
  const cases: [string, Partial<typeof base>][] = [
    ["a.b(c)", { literal: true }],
    ["x\\1y", { literal: true }],
    ["(?=z)", { literal: true }],
    ["🙂", { literal: true }],
    ["\there", { literal: true }],
    ["key", { ignoreCase: true }],
    ["KEY", { ignoreCase: true, literal: true }],
    ["sun", { smartCase: true }],
    // A regex without syntax is a fixed string too, case-sensitive or not.
    ["here", {}],
    ["end a", {}],
  ];
  for (const [pattern, flags] of cases) {
    const query = { ...base, ...flags, pattern };
    const fixed = await compileTextPattern(query);
    assert.equal(fixed.re, null, pattern);
    const program = await compileTextPattern(query, { program: true });
    assert.notEqual(program.re, null, pattern);
    const withProgram = scanText({ ...program, plain: null, foldedPlain: null }, text);
    assert.ok(withProgram.length > 0, pattern);
    assert.deepEqual(scanText(fixed, text), withProgram, pattern);
  }
  // Whole words, multiline, or a pattern with syntax: a program.
  for (
    const [pattern, flags] of [
      ["foo", { literal: true, word: true }],
      ["foo", { literal: true, multiline: true }],
      ["foo", { multiline: true }],
      ["fo+", {}],
    ] as [string, Partial<typeof base>][]
  ) {
    assert.notEqual((await compileTextPattern({ ...base, ...flags, pattern })).re, null, pattern);
  }
});

Deno.test("text_pattern: a fixed string over the length bound is refused as the program refuses it", async () => {
  const long = "x".repeat(MAX_REGEX_LENGTH + 1);
  for (const options of [{}, { program: true }]) {
    await assert.rejects(() => compileTextPattern({ ...base, literal: true, pattern: long }, options), {
      code: "invalid_args",
      message: `Cannot use the search pattern: it is ${
        MAX_REGEX_LENGTH + 1
      } characters long, over the limit of ${MAX_REGEX_LENGTH}`,
    });
  }
  assert.equal((await compileTextPattern({ ...base, literal: true, pattern: long.slice(1) })).re, null);
});
