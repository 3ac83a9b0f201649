import assert from "node:assert/strict";
import { RecoverableError } from "../../../src/errors.ts";
import { normalizeStructuralArgs } from "../../../src/search/structural_args.ts";

Deno.test("normalizeStructuralArgs() folds a pattern, its languages (rg type names too) and a text search's file arguments", () => {
  const q = normalizeStructuralArgs({
    pattern: "  log($$$A)  ",
    language: ["py", "python"],
    glob: "src/**",
    rewrite: "info($$$A)",
  });
  assert.equal(q.pattern, "log($$$A)");
  assert.deepEqual(q.languages, ["python"]);
  assert.deepEqual(q.globs, ["src/**"]);
  assert.equal(q.rewrite, "info($$$A)");
  const rule = normalizeStructuralArgs({ rule: { kind: "call_expression" } });
  assert.deepEqual(rule.rule, { kind: "call_expression" });
  assert.equal(rule.pattern, "");
});

Deno.test("normalizeStructuralArgs() refuses no pattern, both a pattern and a rule, and a language without a grammar", () => {
  const refusal = (args: Record<string, unknown>, argument: string) =>
    assert.throws(
      () => normalizeStructuralArgs(args),
      (e: unknown) =>
        e instanceof RecoverableError && e.code === "invalid_args" &&
        (e.details as { argument: string }).argument === argument,
    );
  refusal({}, "pattern");
  refusal({ pattern: "f()", rule: { kind: "x" } }, "pattern");
  refusal({ rule: ["kind"] }, "rule");
  refusal({ pattern: "f()", language: "klingon" }, "language");
  refusal({ pattern: "f()", rewrite: 3 }, "rewrite");
});
