import assert from "node:assert/strict";
import { RecoverableError } from "../../../src/errors.ts";
import { RE2JS } from "re2js";
import {
  compileLinearRegex,
  compileRe2,
  MAX_REGEX_LENGTH,
  unsupportedConstruct,
} from "../../../src/syntax/linear_regex.ts";

function refusal(pattern: string): RecoverableError {
  try {
    compileLinearRegex(pattern);
  } catch (e) {
    if (e instanceof RecoverableError) return e;
    throw e;
  }
  throw new Error(`compiled: ${pattern}`);
}

Deno.test("compileLinearRegex() tests like RegExp without flags on ordinary patterns", () => {
  const cases: [string, string, boolean][] = [
    ["^foo", "foobar", true],
    ["bar$", "foobar", true],
    ["^get[A-Z]\\w*$", "getName", true],
    ["^get[A-Z]\\w*$", "getname", false],
    ["\\bfoo\\b", "a foo b", true],
    ["\\bfoo\\b", "afoob", false],
    ["(?i)^FOO$", "foo", true],
    ["(?P<x>a)b", "ab", true],
    ["\\u0041", "A", true],
    ["[^\\]]x", "ax", true],
    ["a{2,3}", "caab", true],
  ];
  for (const [pattern, text, expected] of cases) {
    assert.equal(compileLinearRegex(pattern).test(text), expected, `${pattern} on ${text}`);
  }
  assert.equal(compileLinearRegex("abc", { ignoreCase: true }).test("xABCx"), true);
});

// Regression (issue 22, item 10): `#match? "^(a|aa)+c$"` ran on V8's backtracking RegExp for more than 30 s on a
// long identifier. The linear-time engine answers.
Deno.test("compileLinearRegex() finishes on ^(a|aa)+c$ against a long run of a's", () => {
  const re = compileLinearRegex("^(a|aa)+c$");
  assert.equal(re.test("a".repeat(100_000)), false);
  assert.equal(re.test("a".repeat(100_000) + "c"), true);
  assert.equal(compileLinearRegex("(x+x+)+y").test("x".repeat(50_000)), false);
});

Deno.test("compileLinearRegex() refuses look-around and backreferences, naming the construct and the way out", () => {
  for (
    const [pattern, construct] of [
      ["foo(?=bar)", "look-ahead (?="],
      ["foo(?!bar)", "negative look-ahead (?!"],
      ["(?<=a)b", "look-behind (?<="],
      ["(?<!a)b", "negative look-behind (?<!"],
      ["(a)\\1", "backreference \\1"],
      ["(?<q>a)\\k<q>", "named backreference"],
    ]
  ) {
    const e = refusal(pattern!);
    assert.equal(e.code, "invalid_args");
    assert.ok(e.message.includes(construct!), e.message);
    assert.match(e.message, /linear-time engine \(RE2\)/);
    assert.match(e.hint, /^Rewrite it without /);
    assert.equal(e.details?.["engine"], "RE2");
  }
  // Inside a class these are plain characters, and a named group is no look-behind.
  assert.equal(unsupportedConstruct("[(?=]\\d"), null);
  assert.equal(compileLinearRegex("(?<name>a)").test("a"), true);
});

Deno.test("compileLinearRegex() refuses a syntax error and an over-long pattern, with the caller's code", () => {
  const e = refusal("a(b");
  assert.equal(e.code, "invalid_args");
  assert.match(e.message, /Cannot compile the regular expression "a\(b"/);
  try {
    compileLinearRegex("x".repeat(MAX_REGEX_LENGTH + 1), {
      code: "invalid_query",
      what: "the #match? predicate",
    });
    assert.fail("compiled");
  } catch (err) {
    assert.ok(err instanceof RecoverableError);
    assert.equal(err.code, "invalid_query");
    assert.match(err.message, /the #match\? predicate: it is 4097 characters long/);
  }
});

Deno.test("compileRe2() passes RE2's flags through and refuses as compileLinearRegex does, with the caller's alternatives", () => {
  const m = compileRe2("^b$", { flags: RE2JS.MULTILINE, ignoreCase: true }).matcher("a\nB\nc");
  assert.ok(m.find());
  assert.equal(m.start(), 2);
  const instead = { lookAround: "LOOK", backreference: "BACK" };
  assert.throws(() => compileRe2("a(?!b)", { instead }), {
    code: "invalid_args",
    hint: /negative look-ahead.*: LOOK$/,
  });
  assert.throws(() => compileRe2("(a)\\1", { instead }), { code: "invalid_args", hint: /: BACK$/ });
  assert.throws(() => compileRe2("(a)\\1"), { hint: /#eq\?/ });
});

Deno.test("compileRe2() names RE2's repeat limit when a count is over it, nested or not", () => {
  for (const pattern of ["x{1001}", "(x{100}){100}", "x{2}{3}"]) {
    assert.throws(
      () => compileRe2(pattern),
      (e: unknown) =>
        e instanceof RecoverableError && e.code === "invalid_args" && /at most 1000/.test(e.hint ?? ""),
      pattern,
    );
  }
  assert.ok(compileRe2("x{1000}").matcher("x".repeat(1000)).find());
  assert.throws(
    () => compileRe2("a("),
    (e: unknown) => e instanceof RecoverableError && /RE2 syntax/.test(e.hint ?? ""),
  );
});
