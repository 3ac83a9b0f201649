/**
 * ast-grep's `$$NAME`: a metavariable of one node that may be unnamed (an operator, a keyword token), where
 * `$NAME` takes named nodes only — in rules on real grammars, in templates, and against ast-grep's own answer
 * on a real file where it is installed.
 */
import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace } from "../../../../src/mod.ts";
import { createWasmLoader } from "../../../../src/adapters/deno/mod.ts";
import { patternMatcherOf } from "../../../../src/structural/search/mod.ts";
import { bindingNames, encodedPatterns } from "../../../../src/structural/edit/pattern_encodings.ts";
import { inProcess, project } from "../../surfaces/_cli.ts";
import { astGrepPath, runAstGrep } from "../../search/_astgrep.ts";

const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
const matcher = patternMatcherOf(ws);
let version = 0;

async function bound(language: string, rule: Record<string, unknown>, text: string): Promise<string[]> {
  const program = await matcher.compile(language, { rule });
  const sites = await program.match({ path: "f", text, version: `v${version++}` });
  return sites.map((s) => s.metavariables["OP"]?.text ?? "(none)");
}

Deno.test("$$OP binds an unnamed node (an operator in its field); $OP does not", async () => {
  const js = "let x = a + b;\nlet y = a - b * c;\n";
  const operator = (name: string) => ({
    kind: "binary_expression",
    has: { field: "operator", pattern: name },
  });
  assert.deepEqual(await bound("javascript", operator("$$OP"), js), ["+", "-", "*"]);
  assert.deepEqual(await bound("javascript", operator("$OP"), js), [], "$OP takes named nodes only");
  const py = "z = a // b\nw = not a\n";
  assert.deepEqual(
    await bound("python", { kind: "binary_operator", has: { field: "operator", pattern: "$$OP" } }, py),
    ["//"],
  );
  // A lone $$X as the rule's pattern: every node, unnamed ones too, narrowed here by a regex.
  assert.deepEqual(await bound("javascript", { pattern: "$$OP", regex: "^[-+*]$" }, js), ["+", "-", "*"]);
  assert.deepEqual(bindingNames("$L $$OP $R"), ["L", "OP", "R"]);
  const [asWritten] = encodedPatterns("f($$OP, $A)");
  assert.deepEqual(asWritten!.metas.get("$OP"), { name: "OP", multi: false, unnamed: true });
  assert.deepEqual(asWritten!.metas.get("$A"), { name: "A", multi: false });
});

/** A binary expression's operands and operator, each bound through its field. */
const SWAP = {
  kind: "binary_expression",
  all: [
    { has: { field: "left", pattern: "$L" } },
    { has: { field: "operator", pattern: "$$OP" } },
    { has: { field: "right", pattern: "$R" } },
  ],
};

Deno.test("$$OP in a rewrite's template is the operator's text, not a stray $", async () => {
  const program = await matcher.compile("javascript", {
    rule: SWAP,
    rewrite: "$R $$OP $L",
  } as never);
  const text = "f(a + b);\n";
  const sites = await program.match({ path: "f", text, version: `v${version++}` });
  assert.deepEqual(sites.map((s) => s.replacement), ["b + a"]);
});

const bin = await astGrepPath();

Deno.test({
  name: "a rule with $$OP fixes a real file as ast-grep scan does",
  ignore: bin === null,
  async fn() {
    const rules = [
      "id: ops",
      "language: js",
      "rule:",
      "  kind: binary_expression",
      "  all: [{has: {field: left, pattern: $L}}, {has: {field: operator, pattern: $$OP}}, {has: {field: right, pattern: $R}}]",
      "fix: $R $$OP $L",
    ].join("\n");
    const dir = await project({ "src/string.js": "fixtures/text/string.js" });
    try {
      const ours = await inProcess(["sg", "scan", "--inline-rules", rules, "--format", "ast-grep"], {
        cwd: dir,
      });
      assert.equal(ours.code, 0, ours.stderr);
      const out = await runAstGrep(bin!, ["scan", "--inline-rules", rules, "--json=compact", "."], {
        cwd: dir,
      });
      type M = { text: string; replacement?: string; range: { start: unknown } };
      const key = (m: M) => JSON.stringify([m.range.start, m.text, m.replacement]);
      const a = (JSON.parse(ours.stdout) as M[]).map(key).sort();
      assert.ok(a.length >= 5, `${a.length} matches`);
      assert.deepEqual(a, (JSON.parse(out.stdout) as M[]).map(key).sort());
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
