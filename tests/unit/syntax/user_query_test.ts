import assert from "node:assert/strict";
import { Grammars, RecoverableError } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { treeSitter } from "../../../src/syntax/grammars.ts";
import { compileUserQuery, renameRegexPredicates } from "../../../src/syntax/user_query.ts";

const grammars = new Grammars(createWasmLoader());
const SOURCE = await Deno.readTextFile(new URL("../../../src/fs/stage.ts", import.meta.url));

async function tree(text: string) {
  const parser = await grammars.parser("typescript");
  try {
    return parser.parse(text)!;
  } finally {
    parser.delete();
  }
}

/** The captured texts of a query (with their positions), by graver's evaluation and by web-tree-sitter's own. */
async function bothWays(source: string, text: string): Promise<[string[], string[]]> {
  const language = await grammars.language("typescript");
  const t = await tree(text);
  const ours = compileUserQuery(language, source);
  const theirs = new (treeSitter().Query)(language, source);
  try {
    return [
      ours.captures(t.rootNode).map((c) => `${c.name}@${c.node.startIndex}:${c.node.text}`),
      theirs.captures(t.rootNode).map((c) => `${c.name}@${c.node.startIndex}:${c.node.text}`),
    ];
  } finally {
    ours.delete();
    theirs.delete();
    t.delete();
  }
}

Deno.test("renameRegexPredicates() renames #match? and its kin outside strings and comments only", () => {
  const q =
    '((identifier) @a (#match? @a "#match?") (#eq? @a "x")) ; #not-match? here\n(#any-not-match? @a "b")';
  const { source, renamedAt } = renameRegexPredicates(q);
  assert.equal(
    source,
    '((identifier) @a (#graver-match? @a "#match?") (#eq? @a "x")) ; #not-match? here\n(#graver-any-not-match? @a "b")',
  );
  assert.deepEqual(renamedAt, [q.indexOf("match?"), q.indexOf("any-not")]);
});

Deno.test("compileUserQuery() keeps web-tree-sitter's meaning of #match?, #not-match? and the any- forms", async () => {
  for (
    const query of [
      '((method_definition name: (property_identifier) @m) (#match? @m "^(read|write)"))',
      '((method_definition name: (property_identifier) @m) (#not-match? @m "e"))',
      '((call_expression function: (member_expression property: (property_identifier) @p)) @c (#match? @p "^[a-z]+$") (#eq? @p "push"))',
      '((statement_block (expression_statement)+ @s) (#any-match? @s "^await"))',
      '((statement_block (expression_statement)+ @s) (#match? @s "this"))',
      '((statement_block (expression_statement)* @s) (#not-match? @s "zzz"))',
    ]
  ) {
    const [ours, theirs] = await bothWays(query, SOURCE);
    assert.ok(theirs.length > 0, query);
    // The same nodes (web-tree-sitter's captures() reports a node once per overlapping match less often).
    assert.deepEqual([...new Set(ours)].sort(), [...new Set(theirs)].sort(), query);
  }
});

// Regression (issue 22, item 10): web-tree-sitter ran `#match?` on V8's backtracking RegExp; this one on a
// long identifier did not come back.
Deno.test("compileUserQuery() finishes a hostile #match? on a long identifier", async () => {
  const text = `const ${"a".repeat(80)} = 1;\nconst aac = 2;\n`;
  const language = await grammars.language("typescript");
  const t = await tree(text);
  const q = compileUserQuery(language, '((identifier) @id (#match? @id "^(a|aa)+c$"))');
  try {
    assert.deepEqual(q.captures(t.rootNode).map((c) => c.node.text), ["aac"]);
  } finally {
    q.delete();
    t.delete();
  }
});

Deno.test("compileUserQuery() refuses look-around in a predicate with invalid_query, and keeps error offsets", async () => {
  const language = await grammars.language("typescript");
  assert.throws(
    () => compileUserQuery(language, '((identifier) @id (#match? @id "^get(?=X)"))'),
    (e) =>
      e instanceof RecoverableError && e.code === "invalid_query" &&
      e.message.includes("the #match? predicate") && e.message.includes("look-ahead"),
  );
  // A compile error after a renamed predicate points where it is in the caller's text.
  const bad = '((identifier) @id (#match? @id "x")) (identifer) @n';
  assert.throws(
    () => compileUserQuery(language, bad),
    (e) => (e as { index: number }).index === bad.indexOf("identifer"),
  );
});
