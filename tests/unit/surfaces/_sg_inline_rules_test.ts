/** inlineRule: an ast-grep rule config read as the structural search's arguments, and what it refuses. */
import assert from "node:assert/strict";
import { inlineRule } from "../../../src/surfaces/_sg_inline_rules.ts";

Deno.test("inlineRule reads language, rule, constraints, utils, fix, files and ignores; passes over what only reports", () => {
  const read = inlineRule(JSON.stringify({
    id: "x",
    message: "m",
    severity: "error",
    note: "n",
    url: "u",
    metadata: { a: 1 },
    labels: {},
    language: "rust",
    rule: { pattern: "$A.unwrap()" },
    constraints: { A: { kind: "identifier" } },
    utils: { "is-id": { kind: "identifier" } },
    fix: '$A.expect("…")',
    files: "src/**",
    ignores: ["src/gen/**", "tests/**"],
  }));
  assert.deepEqual(read, {
    rule: {
      pattern: "$A.unwrap()",
      constraints: { A: { kind: "identifier" } },
      utils: { "is-id": { kind: "identifier" } },
    },
    language: "rust",
    rewrite: '$A.expect("…")',
    globs: ["src/**", "!src/gen/**", "!tests/**"],
  });
});

Deno.test("inlineRule refuses YAML that is not JSON, a missing rule, unbuilt and unknown keys, wrong types", () => {
  const problem = (text: string) => (inlineRule(text) as { problem?: string }).problem ?? "";
  assert.match(problem("id: x\nrule:\n  kind: call"), /read as JSON/);
  assert.match(problem("[]"), /one rule config/);
  assert.match(problem('{"id": "x"}'), /needs "rule"/);
  assert.match(
    problem('{"rule": {"kind": "x"}, "rewriters": []}'),
    /"rewriters" is not taken here/,
  );
  assert.match(problem('{"rule": {"kind": "x"}, "rewriters": []}'), /"rewriters" is not taken here/);
  assert.match(
    problem('{"rule": {"kind": "x"}, "fixx": "y"}'),
    /"fixx" is not a key of ast-grep's rule config/,
  );
  assert.match(
    problem('{"rule": {"kind": "x"}, "fix": {"template": "y"}}'),
    /"fix" takes the rewrite as a string/,
  );
  assert.match(problem('{"rule": {"kind": "x"}, "files": [1]}'), /"files" takes a glob or a list of globs/);
  assert.match(problem('{"rule": {"kind": "x"}, "language": 3}'), /"language" takes a name/);
});
