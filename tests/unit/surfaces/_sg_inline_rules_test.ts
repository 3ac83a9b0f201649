/** inlineRules: ast-grep rule configs (YAML or JSON, several in one text) read as the structural search's arguments. */
import assert from "node:assert/strict";
import { inlineRules } from "../../../src/surfaces/_sg_inline_rules.ts";

Deno.test("inlineRules reads language, rule, constraints, utils, fix, files, ignores and the report's keys", async () => {
  const read = await inlineRules(
    JSON.stringify({
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
    }),
    "--inline-rules",
  );
  assert.deepEqual(read, [{
    rule: {
      pattern: "$A.unwrap()",
      constraints: { A: { kind: "identifier" } },
      utils: { "is-id": { kind: "identifier" } },
    },
    language: "rust",
    rewrite: '$A.expect("…")',
    globs: ["src/**", "!src/gen/**", "!tests/**"],
    id: "x",
    severity: "error",
    message: "m",
    note: "n",
  }]);
});

Deno.test("inlineRules reads a FixConfig: its template is the rewrite, its expandStart and expandEnd go along", async () => {
  const read = await inlineRules(
    "id: drop\nlanguage: ts\nrule: {kind: number}\nfix:\n  template: ''\n  expandEnd: {regex: ','}\n",
    "--inline-rules",
  );
  assert.ok(Array.isArray(read), JSON.stringify(read));
  assert.equal(read[0]!.rewrite, "");
  assert.deepEqual(read[0]!.expandEnd, { regex: "," });
  assert.equal(read[0]!.expandStart, undefined);
});

Deno.test("inlineRules reads YAML as ast-grep's docs write it, several configs separated by ---", async () => {
  const yaml = [
    "id: no-eq-null",
    "language: JavaScript",
    "severity: warning",
    "message: use isNil",
    "rule:",
    "  pattern: $A == null",
    "  not:",
    "    inside:",
    "      kind: comment",
    "fix: |-",
    "  isNil($A)",
    "---",
    "# a comment, then the second rule",
    "id: no-log",
    "language: js",
    "rule: {pattern: 'console.log($$$X)'}",
    "",
  ].join("\n");
  const read = await inlineRules(yaml, "--inline-rules");
  assert.ok(Array.isArray(read), JSON.stringify(read));
  assert.deepEqual(read.map((r) => [r.id, r.severity, r.message, r.note, r.language, r.rewrite]), [
    ["no-eq-null", "warning", "use isNil", null, "JavaScript", "isNil($A)"],
    ["no-log", "hint", "", null, "js", undefined],
  ]);
  assert.deepEqual(read[0]!.rule, { pattern: "$A == null", not: { inside: { kind: "comment" } } });
  assert.deepEqual(read[1]!.rule, { pattern: "console.log($$$X)" });
});

Deno.test("inlineRules refuses what does not read as YAML, a missing rule, unknown keys, wrong types", async () => {
  const problem = async (text: string) =>
    ((await inlineRules(text, "--inline-rules")) as { problem?: string }).problem ?? "";
  assert.match(await problem("id: x\nrule: [kind"), /--inline-rules does not read as YAML: .*line 2/);
  assert.match(await problem("id: a\nid: b\nrule: {kind: x}"), /duplicated mapping key at line 2/);
  assert.match(await problem(""), /holds no rule config/);
  assert.match(await problem("[]"), /a rule config is an object of keys/);
  assert.match(await problem('{"id": "x"}'), /needs "rule"/);
  assert.match(
    await problem("rule: {kind: x}\n---\nid: y"),
    /\(its rule config 2\): the config needs "rule"/,
  );
  assert.match(
    await problem('{"rule": {"kind": "x"}, "fixx": "y"}'),
    /"fixx" is not a key of ast-grep's rule config/,
  );
  assert.match(
    await problem('{"rule": {"kind": "x"}, "fix": {"template": 1}}'),
    /"fix.template" takes the rewrite/,
  );
  assert.match(
    await problem('{"rule": {"kind": "x"}, "fix": {"template": "", "expand": {}}}'),
    /"fix.expand" is not a key/,
  );
  assert.match(
    await problem('{"rule": {"kind": "x"}, "fix": {"template": "", "expandEnd": ","}}'),
    /takes a rule/,
  );
  assert.match(await problem('{"rule": {"kind": "x"}, "fix": ["y"]}'), /"fix" takes the rewrite as a string/);
  assert.match(
    await problem('{"rule": {"kind": "x"}, "files": [1]}'),
    /"files" takes a glob or a list of globs/,
  );
  assert.match(await problem('{"rule": {"kind": "x"}, "language": 3}'), /"language" takes a language's name/);
  assert.match(
    await problem("rule: {kind: x}\nseverity: fatal"),
    /"severity" takes one of hint, info, warning, error, off/,
  );
  assert.match(await problem("rule: {kind: x}\nmessage: [a]"), /"message" takes a line of text/);
});
