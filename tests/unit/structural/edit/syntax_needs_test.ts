import assert from "node:assert/strict";
import { GRAMMARS } from "../_fixtures.ts";
import { syntaxNeeds } from "../../../../src/structural/edit/syntax_needs.ts";
import { SYNTAX_SINCE } from "../../../../src/structural/edit/target_version.ts";

const AST = Deno.readTextFileSync("/root/.pyenv/versions/3.11.7/lib/python3.11/ast.py");
const CLICK_UTILS = Deno.readTextFileSync(new URL("../../../fixtures/real/click_utils.py", import.meta.url));

async function needs(language: string, text: string, range?: { start: number; end: number }) {
  const tree = (await GRAMMARS.parser(language)).parse(text)!;
  return syntaxNeeds(tree.rootNode, language, [range ?? { start: 0, end: text.length }]);
}

Deno.test("syntaxNeeds() finds CPython's own := in ast.py, only in the ranges asked", async () => {
  const py = SYNTAX_SINCE.python;
  const start = AST.indexOf("def literal_eval(");
  const end = AST.indexOf("\ndef dump(");
  assert.deepEqual(await needs("python", AST, { start, end }), [py.assignment_expression]);
  const parse = AST.indexOf("def parse(");
  assert.deepEqual(await needs("python", AST, { start: parse, end: start }), []);
});

Deno.test("syntaxNeeds() tells PEP 701 f-string fields from the ones every Python accepts (click utils.py)", async () => {
  const py = SYNTAX_SINCE.python;
  assert.deepEqual(await needs("python", CLICK_UTILS), [], "click runs on 3.10: nothing newer");
  const reused = CLICK_UTILS.replace('f"~/.{_posixify(app_name)}"', 'f"~/.{"-".join(app_name.split())}"');
  assert.deepEqual(await needs("python", reused), [py.fstring_quote_reuse]);
  assert.deepEqual(await needs("python", "x = f\"{a}{'\\n'.join(b)}\"\n"), [py.fstring_backslash]);
  assert.deepEqual(await needs("python", "x = f'''{a}''' + f\"{f'{b}'}\"\n"), []);
  assert.deepEqual(await needs("python", "match x:\n    case 1:\n        pass\ntype T = int\n"), [
    py.match_statement,
    py.type_statement,
  ]);
});

Deno.test("syntaxNeeds() reads the ECMAScript and Rust tables too", async () => {
  const es = SYNTAX_SINCE.ecmascript;
  assert.deepEqual(await needs("typescript", "class A { #x = 1n; }\n"), [es.private_name, es.bigint_literal]);
  const rs = SYNTAX_SINCE.rust;
  assert.deepEqual(await needs("rust", "async fn f() { if let Some(x) = a && let Some(y) = b {} }\n"), [
    rs.async_fn,
    rs.let_chains,
  ]);
  assert.deepEqual(await needs("go", "package m\n"), []);
});
