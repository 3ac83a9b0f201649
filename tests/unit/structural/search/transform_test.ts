/**
 * ast-grep's `transform` on its own: substring, replace and convert as ast-grep 0.51 writes them (each case
 * below was run through `ast-grep scan --inline-rules … -U` too and gave the same text), the order of
 * transformations, and the refusals.
 */
import assert from "node:assert/strict";
import { RecoverableError } from "../../../../src/errors.ts";
import { compileRe2 } from "../../../../src/syntax/linear_regex.ts";
import type { Binding } from "../../../../src/structural/edit/pattern.ts";
import {
  boundNames,
  compileTransform,
  withTransformed,
} from "../../../../src/structural/search/transform.ts";

/** The text one transformation makes of `text`. */
function made(transformation: unknown, text: string): string {
  const [t] = compileTransform({ B: transformation }, new Set(["A"]), { regex: compileRe2 });
  const binding: Binding = { nodes: [], start: 0, end: text.length, text };
  return withTransformed([t!], { A: binding })["B"]!.text;
}

Deno.test("convert splits words as ast-grep does: separators, a capital after a small letter or before small ones", () => {
  const names = [
    "get_user_name",
    "HTTPServer",
    "foo_bar2Baz",
    "XMLHttpRequest",
    "_private",
    "a1B2",
    "myHTTPServer",
  ];
  const as = (toCase: string) => names.map((n) => made({ convert: { source: "$A", toCase } }, n));
  assert.deepEqual(as("camelCase"), [
    "getUserName",
    "httpServer",
    "fooBar2Baz",
    "xmlHttpRequest",
    "private",
    "a1b2",
    "myHTTPServer",
  ]);
  assert.deepEqual(as("snakeCase"), [
    "get_user_name",
    "http_server",
    "foo_bar2_baz",
    "xml_http_request",
    "private",
    "a1b2",
    "my_http_server",
  ]);
  assert.deepEqual(as("kebabCase")[1], "http-server");
  assert.deepEqual(as("pascalCase"), [
    "GetUserName",
    "HTTPServer",
    "FooBar2Baz",
    "XMLHttpRequest",
    "Private",
    "A1B2",
    "MyHTTPServer",
  ]);
  assert.deepEqual(as("upperCase")[0], "GET_USER_NAME");
  assert.deepEqual(as("capitalize")[5], "A1B2");
});

Deno.test("substring slices characters, negative from the end; replace takes RE2 with $1, ${1}, ${name}, $$", () => {
  assert.equal(made({ substring: { source: "$A", startChar: -3, endChar: -1 } }, "ÉtéFooBAR"), "BA");
  assert.equal(made({ substring: { source: "$A", startChar: 1 } }, "😀ab"), "ab");
  assert.equal(made({ substring: { source: "$A", endChar: -10 } }, "ab"), "");
  assert.equal(
    made({ replace: { source: "$A", replace: "(?P<v>[aeiou])", by: "[${v}]" } }, "tea"),
    "t[e][a]",
  );
  assert.equal(made({ replace: { source: "$A", replace: "([A-Z])", by: "_${1}_$$" } }, "aBc"), "a_B_$c");
  // An empty match right after a match is not one (as Rust's replace_all): `x*` over `x` is `-`, not `--`.
  assert.equal(made({ replace: { source: "$A", replace: "x*", by: "-" } }, "x"), "-");
  assert.equal(made({ replace: { source: "$A", replace: "x*", by: "-" } }, "ab"), "-a-b-");
});

Deno.test("transformations run in order, one made from another; a source nothing binds is refused", () => {
  const ts = compileTransform(
    {
      SNAKE: { convert: { source: "$A", toCase: "snakeCase" } },
      UP: { convert: { source: "$SNAKE", toCase: "upperCase" } },
    },
    boundNames({ pattern: "this.$A = $$$V" }),
  );
  const out = withTransformed(ts, { A: { nodes: [], start: 5, end: 12, text: "fooBar" } });
  assert.deepEqual([out["SNAKE"]!.text, out["UP"]!.text], ["foo_bar", "FOO_BAR"]);
  assert.equal(out["UP"]!.start, 5); // placed where its source is
  const refused = (raw: unknown, message: RegExp) =>
    assert.throws(
      () => compileTransform(raw, new Set(["A"]), { regex: compileRe2 }),
      (e: unknown) => e instanceof RecoverableError && e.code === "invalid_args" && message.test(e.message),
    );
  refused({ B: { convert: { source: "$Z", toCase: "snakeCase" } } }, /made from \$Z, which nothing binds/);
  refused({ B: { convert: { source: "$A", toCase: "screamCase" } } }, /toCase must be one of/);
  refused({ B: { replace: { source: "$A", replace: "(?=x)", by: "" } } }, /look-ahead/);
  refused({ B: { substring: { source: "A" } } }, /source must name a metavariable/);
  refused({ B: { trim: { source: "$A" } } }, /must be one of \{substring/);
  refused({ b: { substring: { source: "$A" } } }, /is not a metavariable name/);
  refused(["x"], /must map new names to transformations/);
});

Deno.test("the string form reads as the object form does (ast-grep 0.51 writes the same text for each)", () => {
  assert.equal(made("convert($A, toCase=snakeCase)", "HTTPServer"), "http_server");
  assert.equal(made("substring( $A , startChar = 1 , endChar=-1 )", "getUserName"), "etUserNam");
  assert.equal(made(`replace($A, replace="([A-Z])", by="_$1")`, "getUserName"), "get_User_Name");
  assert.equal(made("replace($A, replace='[a-z]+', by='x')", "HTTPServer"), "HTTPSx");
  assert.equal(made("replace($A, replace='a,b', by='(\\')')", "xa,by"), "x(')y"); // a comma and a quote inside
  for (
    const bad of [
      "convert($A toCase=snakeCase)",
      "trim($A)",
      "convert(A, toCase=snakeCase)",
      `convert($A, toCase=${" ".repeat(5000)})`,
    ]
  ) {
    assert.throws(
      () => made(bad, "x"),
      (e: unknown) => e instanceof RecoverableError && e.code === "invalid_args",
      bad,
    );
  }
  // Read in one pass: a long run of spaces before a missing parenthesis is refused at once.
  const started = performance.now();
  assert.throws(() => made(`convert($A, toCase=${" ".repeat(1_000_000)}`, "x"));
  assert.throws(() => made(`convert($A${", x=1".repeat(100_000)}`, "x"));
  assert.ok(performance.now() - started < 10_000);
});

Deno.test("convert's separatedBy splits only at the separators listed (as ast-grep 0.51 does); unknown keys are refused", () => {
  const snake = (separatedBy: string[], text: string) =>
    made({ convert: { source: "$A", toCase: "snakeCase", separatedBy } }, text);
  assert.equal(snake(["underscore"], "getUser_name"), "getuser_name");
  assert.equal(snake(["caseChange"], "foo-barBaz.qux"), "foo-bar_baz.qux");
  assert.equal(snake(["dash", "dot"], "foo-barBaz.qux"), "foo_barbaz_qux");
  assert.equal(snake([], "HTTPServer_x"), "httpserver_x");
  assert.throws(() => snake(["comma"], "x"), /separatedBy must list separators among/);
  assert.throws(
    () => made({ substring: { source: "$A", start: 1 } }, "x"),
    /start is not a key of substring/,
  );
});
