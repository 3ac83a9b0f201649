/**
 * compileRule on its own (matching is rule_test.ts's): what a compiled rule holds — its keys, relations with
 * stopBy and field, shared utility rules — the patterns and texts every match needs, and the $$$ names.
 */
import assert from "node:assert/strict";
import { createWasmLoader } from "../../../../src/adapters/deno/mod.ts";
import { RecoverableError } from "../../../../src/errors.ts";
import { compilePattern } from "../../../../src/structural/edit/pattern.ts";
import { compilePatternIn, type PatternInContext } from "../../../../src/structural/edit/pattern_compile.ts";
import {
  compileRule,
  grammarKinds,
  multiNames,
  requiredPatterns,
  ruleLiterals,
} from "../../../../src/structural/search/rule_compile.ts";
import { Grammars } from "../../../../src/syntax/grammars.ts";

const parser = await new Grammars(createWasmLoader()).parser("javascript");
const pattern = (source: string | PatternInContext) =>
  typeof source === "string"
    ? compilePattern(parser, "javascript", source)
    : compilePatternIn(parser, "javascript", source);
const kinds = grammarKinds("javascript", parser.language!);

Deno.test("compileRule keeps each key, a relation's stopBy and field, and one compiled rule per utility", () => {
  const rule = compileRule(
    {
      kind: "call_expression",
      inside: { kind: "if_statement", field: "condition", stopBy: "end" },
      has: { matches: "arg", stopBy: { kind: "arrow_function" } },
      all: [{ matches: "arg" }],
      utils: { arg: { pattern: "fetch($U)" } },
    },
    pattern,
    { kinds },
  );
  assert.equal(rule.kind, "call_expression");
  assert.equal(rule.inside!.field, "condition");
  assert.equal(rule.inside!.stopBy, "end");
  assert.equal(rule.has!.rule.matches, rule.all![0]!.matches); // the same utility, compiled once
  assert.equal((rule.has!.stopBy as { kind?: string }).kind, "arrow_function");
  // The utility's pattern is one every match needs, listed once; its texts are the prefilter's.
  assert.equal(requiredPatterns(rule).length, 1);
  assert.deepEqual(ruleLiterals(rule, (p) => p.root.children.length > 0 ? ["fetch"] : []), ["fetch"]);
});

Deno.test("multiNames finds the $$$ names of a pattern and of a rule, utilities included", () => {
  assert.deepEqual([...multiNames({ pattern: "f($$$ARGS, $X)" })], ["ARGS"]);
  assert.deepEqual(
    [...multiNames({ rule: { pattern: "g($$$A)", utils: { u: { pattern: "h($$$B)" } } } })].sort(),
    ["A", "B"],
  );
});

Deno.test("compileRule refuses a kind or field the grammar lacks, with the nearest, and a stray key", () => {
  const refused = (raw: unknown, code: string, message: RegExp) =>
    assert.throws(
      () => compileRule(raw, pattern, { kinds }),
      (e: unknown) => e instanceof RecoverableError && e.code === code && message.test(e.message),
      JSON.stringify(raw),
    );
  refused({ kind: "call_expresion" }, "invalid_query", /not a node kind of the javascript grammar/);
  refused(
    { kind: "if_statement", has: { field: "conditon", kind: "identifier" } },
    "invalid_query",
    /field name/,
  );
  refused({ kind: "identifier", kinds: "x" }, "invalid_args", /rule\.kinds is not a rule key/);
  refused(
    { all: [{ constraints: {} }] },
    "invalid_args",
    /rule\.all\[0\]\.constraints is only taken at the top/,
  );
});
