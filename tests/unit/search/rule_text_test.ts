/**
 * Rules as text: YAML as ast-grep writes it (JSON too), several documents, and what an adversary's text gets —
 * an alias bomb, too many aliases, a nesting deep enough to overflow a recursive parser, a custom tag, a text
 * past the bound — each refused as a problem with its place, never thrown; and through the tools, a `rule` (and `constraints`) given as text.
 */
import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { RULE_TEXT_MAX_CHARS, ruleDocuments, ruleObject } from "../../../src/search/rule_text.ts";

Deno.test("ruleDocuments reads YAML and JSON, several documents, block scalars, comments and anchors", () => {
  const text = [
    "# a rule from the docs",
    "id: no-await-in-loop",
    "rule: &r",
    "  pattern: await $X",
    "  inside:",
    "    any: [{kind: for_statement}, {kind: while_statement}]",
    "    stopBy: end",
    "fix: |-",
    "  yield $X",
    "---",
    '{"id": "again", "rule": {"kind": "number"}}',
    "---",
    "",
  ].join("\n");
  assert.deepEqual(ruleDocuments(text), {
    documents: [
      {
        id: "no-await-in-loop",
        rule: {
          pattern: "await $X",
          inside: { any: [{ kind: "for_statement" }, { kind: "while_statement" }], stopBy: "end" },
        },
        fix: "yield $X",
      },
      { id: "again", rule: { kind: "number" } },
    ],
  });
  assert.deepEqual(ruleObject("a: &x {kind: number}\nb: *x"), {
    object: { a: { kind: "number" }, b: { kind: "number" } },
  });
});

Deno.test("ruleDocuments refuses bad text with its line and column, and an adversary's text without throwing", () => {
  const problem = (text: string) => (ruleDocuments(text) as { problem?: string }).problem ?? "";
  assert.match(
    problem("rule:\n  kind: x\n   bad: y"),
    /bad indentation of a mapping entry at line 3, column 7/,
  );
  assert.match(problem("a: 1\na: 2"), /duplicated mapping key at line 2, column 1/);
  assert.match(problem("rule:\n\tkind: x"), /tab characters must not be used in indentation/);
  assert.match(problem("a: !!js/function 'x'"), /unknown scalar tag/);
  assert.match(problem("a: *nowhere"), /unidentified alias "nowhere"/);
  // Nine aliases of nine, five deep: 59,049 nodes from a few hundred characters.
  const levels = ["a: &a [x, x, x, x, x, x, x, x, x]"];
  for (const [name, prev] of [["b", "a"], ["c", "b"], ["d", "c"], ["e", "d"], ["f", "e"]]) {
    levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(", ")}]`);
  }
  assert.match(
    problem(levels.join("\n")),
    /stands for more than 100000 values once its aliases are expanded/,
  );
  assert.match(
    problem(Array.from({ length: 101 }, (_, i) => `a${i}: &a${i} 1\nb${i}: *a${i}`).join("\n")),
    /alias/,
  );
  assert.match(problem("[".repeat(200_000)), /nesting exceeded maxDepth \(100\) at line 1/);
  assert.match(problem("a: " + "x".repeat(RULE_TEXT_MAX_CHARS)), /characters long; a rule text may have/);
});

Deno.test("ruleObject wants one object: a scalar, a list, nothing or several documents are refused", () => {
  const problem = (text: string) => (ruleObject(text) as { problem?: string }).problem ?? "";
  assert.match(problem("console.log($A)"), /reads as a string, where an object of keys was expected/);
  assert.match(problem("- kind: number"), /reads as a list/);
  assert.match(problem("42"), /reads as 42/);
  assert.match(problem(""), /holds 0 YAML documents/);
  assert.match(problem("kind: a\n---\nkind: b"), /holds 2 YAML documents/);
});

Deno.test("search_structural and edit_rewrite_structural take rule and constraints as YAML or JSON text", async () => {
  const files = { "/w/a.js": "const a = x == null;\nconst b = y == null;\nlog(z == null);\n" };
  const backend = createMemoryBackend(files);
  const ws = await createWorkspace({ backend, root: "/w", wasm: createWasmLoader() });
  try {
    const yaml = await ws.call("search_structural", {
      rule: "pattern: $A == null\ninside:\n  kind: variable_declarator\n",
      constraints: "A:\n  regex: ^x$",
    });
    assert.ok(yaml.ok, JSON.stringify(yaml));
    assert.deepEqual((yaml.data["matches"] as { text: string }[]).map((m) => m.text), ["x == null"]);
    const json = await ws.call("search_structural", { rule: '{"pattern": "$A == null"}' });
    assert.ok(json.ok);
    assert.equal((json.data["matches"] as unknown[]).length, 3);
    const rewrite = await ws.call("edit_rewrite_structural", {
      rule: "pattern: $A == null\ninside: {kind: arguments}",
      rewrite: "isNil($A)",
    });
    assert.ok(rewrite.ok, JSON.stringify(rewrite));
    assert.equal(
      new TextDecoder().decode(await backend.readFile("/w/a.js") as Uint8Array),
      "const a = x == null;\nconst b = y == null;\nlog(isNil(z));\n",
    );
    const bad = await ws.call("search_structural", { rule: "pattern: 'unclosed" });
    assert.ok(!bad.ok);
    assert.equal(bad.error.code, "invalid_args");
    assert.match(bad.error.message, /"rule" was given as text that does not read as one object: .*line \d/);
    assert.match(bad.error.hint ?? "", /quote a value that starts with \[/);
    // YAML reads an unquoted [$$$A] as a list: the rule's refusal says to quote it.
    const list = await ws.call("search_structural", { rule: "pattern: [$$$A]" });
    assert.ok(!list.ok);
    assert.match(list.error.message, /rule\.pattern must be a string, not a list/);
    assert.match(list.error.hint ?? "", /quote it when it starts with \[ or \{ \(pattern: '\[\$\$\$A\]'\)/);
    // YAML reads null, true and numbers as such: the refusal says to quote them (kind: 'null').
    const nullKind = await ws.call("search_structural", { rule: "kind: null", language: "js" });
    assert.ok(!nullKind.ok);
    assert.match(nullKind.error.message, /rule\.kind must be a string, not null/);
    assert.match(nullKind.error.hint ?? "", /quote it \(kind: 'null'\)/);
    const config = await ws.call("search_structural", {
      rule: "id: x\nlanguage: js\nrule: {kind: number}\nfix: y",
    });
    assert.ok(!config.ok);
    assert.match(
      config.error.message,
      /a whole ast-grep rule config \(a "rule" inside it, beside language, fix\)/,
    );
    assert.match(config.error.hint ?? "", /"fix" as "rewrite"/);
  } finally {
    await ws.close();
  }
});
