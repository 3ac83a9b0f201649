/**
 * A scan's rules are all checked before any runs: a bad rule among good ones (or for a language no file in the
 * scan has) stops the scan before a finding is printed or a fix written — through `ruleProblem` on real
 * grammars and through the real CLI on real files.
 */
import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { ruleProblem } from "../../../src/surfaces/_sg_validate.ts";
import type { InlineRule } from "../../../src/surfaces/_sg_inline_rules.ts";
import { inProcess, project } from "./_cli.ts";

const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
const matcher = ws;

function rule(extra: Partial<InlineRule>): InlineRule {
  return {
    rule: { kind: "number" },
    language: "js",
    globs: [],
    id: "",
    severity: "hint",
    message: "",
    note: null,
    ...extra,
  };
}

Deno.test("ruleProblem names the first rule that does not compile, by id or by place", async () => {
  assert.equal(
    await ruleProblem([rule({}), rule({ language: "python", rule: { kind: "integer" } })], matcher),
    null,
  );
  const byId = await ruleProblem(
    [rule({ id: "a" }), rule({ id: "b", language: "python", rule: { kind: "number" } })],
    matcher,
  );
  assert.match(
    byId!,
    /^rule "b" cannot be used, so no rule was run: .*"number" is not a node kind of the python grammar/,
  );
  const byPlace = await ruleProblem([rule({}), rule({ rule: { pattern: "f(" } })], matcher);
  assert.match(byPlace!, /^rule 2 of 2 cannot be used/);
  const badFix = await ruleProblem([rule({ rule: { pattern: "f($A)" }, rewrite: "g($B)" })], matcher);
  assert.equal(badFix, null, "an unbound name in a fix is the tool's to refuse, per site");
});

const RULES = [
  "id: empty-string",
  "language: js",
  "severity: error",
  "rule: {pattern: return ''}",
  "fix: 'return \"\"'",
  "---",
  "id: py-typo",
  "language: python",
  "rule: {kind: functon_definition}",
].join("\n");

Deno.test("graver sg scan -U with a bad rule after a good one writes nothing and prints no finding", async () => {
  const dir = await project({ "src/string.js": "fixtures/text/string.js" });
  const before = await Deno.readTextFile(`${dir}/src/string.js`);
  try {
    for (const extra of [["-U"], [], ["--format", "sarif"]]) {
      const run = await inProcess(["sg", "scan", "--inline-rules", RULES, ...extra], { cwd: dir });
      assert.equal(run.code, 2, extra.join(" "));
      assert.match(run.stdout + run.stderr, /rule \\"py-typo\\" cannot be used, so no rule was run/);
      assert.match(run.stdout + run.stderr, /did you mean|function_definition/i);
      assert.ok(!run.stdout.includes("empty-string"), `no finding printed: ${run.stdout}`);
      assert.equal(await Deno.readTextFile(`${dir}/src/string.js`), before, "nothing written");
    }
    // Without the bad rule, -U writes the good one's fix.
    const good = await inProcess(["sg", "scan", "--inline-rules", RULES.split("---\n")[0]!, "-U"], {
      cwd: dir,
    });
    assert.equal(good.code, 0, good.stderr);
    assert.notEqual(await Deno.readTextFile(`${dir}/src/string.js`), before);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
