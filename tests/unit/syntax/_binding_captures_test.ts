import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { type CapturedNames, captureNames } from "../../../src/syntax/_binding_captures.ts";
import { loadQuery } from "../../../src/syntax/queries.ts";
import { createWorkspace, type Workspace } from "../../../src/workspace.ts";

let shared: Workspace | null = null;
let parses = 0;

/** The records of a text read through its language's real binding query. */
async function captured(path: string, language: string, text: string): Promise<CapturedNames> {
  const ws = shared ??= await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
  const query = await loadQuery(ws.grammars!, language, "bindings");
  assert.ok(query, `no binding query for ${language}`);
  // A version of its own per text: the parse cache keys trees by path and version.
  const parsed = await ws.trees!.parse(path, language, `v${++parses}`, text);
  return captureNames({ text, language }, query.matches(parsed.tree.rootNode).map((m) => m.captures));
}

/** The offset where `needle` is written (the nth time). */
function at(text: string, needle: string, nth = 0): number {
  let i = -1;
  for (let k = 0; k <= nth; k++) i = text.indexOf(needle, i + 1);
  assert.ok(i >= 0, `"${needle}" #${nth} not in the text`);
  return i;
}

Deno.test("captureNames() reads TypeScript scopes, definitions, pattern leaves and references by where they start", async () => {
  const text = "function f({ a, b: c }) {\n  let d = a + c;\n  return d;\n}\n";
  const c = await captured("a.ts", "typescript", text);
  const fn = c.scopeSpans.find((s) => s.kind === "function");
  assert.ok(fn, "the function's scope");
  assert.equal(fn.nameStart, at(text, "f("));
  assert.ok(c.leaves.has(at(text, "a")) && c.leaves.get(at(text, "a"))!.shorthand, "a is a shorthand leaf");
  assert.ok(c.leaves.has(at(text, "c }")), "c is a leaf");
  assert.ok(c.patternRoots.length > 0, "the parameter pattern is a declaring pattern");
  assert.equal(c.defs.get(at(text, "d"))?.end, at(text, "d") + 1);
  assert.ok(c.refs.has(at(text, "a", 1)) && c.refs.has(at(text, "d", 1)), "the uses of a and d");
});

Deno.test("captureNames() reads members, this, super and a class's base", async () => {
  const text = "class A extends B {\n  x = 1;\n  m() { return this.x + super.y() + o.p; }\n}\n";
  const c = await captured("a.ts", "typescript", text);
  assert.equal(c.members.get(at(text, "x ="))?.kind, "member_definition");
  assert.equal(c.members.get(at(text, "this.x") + 5)?.kind, "member_this");
  assert.ok(c.supers.has(at(text, "y")), "super.y");
  assert.deepEqual(c.members.get(at(text, "o.p") + 2), {
    end: at(text, "o.p") + 3,
    kind: "member_property",
    objectStart: at(text, "o."),
  });
  assert.ok(c.bases.some((b) => b.start === at(text, "B") && !b.implemented), "extends B");
  assert.ok(c.notRef.has(at(text, "o.p") + 2), "a property is no reference");
});

Deno.test("captureNames() reads Python keyword arguments with their callee, and imports into the module records", async () => {
  const text = "from m import a as b\nf(key=b)\n";
  const c = await captured("a.py", "python", text);
  assert.deepEqual(c.keywords.get(at(text, "key")), {
    end: at(text, "key") + 3,
    callee: { start: at(text, "f("), end: at(text, "f(") + 1 },
  });
  assert.ok(c.notRef.has(at(text, "key")), "a keyword's name is no reference");
  assert.deepEqual(c.modules.imports, [{
    kind: "named",
    source: "m",
    imported: "a",
    local: { start: at(text, "b"), end: at(text, "b") + 1 },
    name: { start: at(text, "a as"), end: at(text, "a as") + 1 },
  }]);
});

Deno.test("captureNames() reads Ruby's @x as the member x, its sigil left out", async () => {
  const text = "class A\n  def m\n    @x = 1\n  end\nend\n";
  const c = await captured("a.rb", "ruby", text);
  const x = at(text, "@x");
  assert.equal(c.members.get(x + 1)?.kind, "member_this");
  assert.equal(c.members.get(x + 1)?.end, x + 2);
  assert.ok(!c.members.has(x) && c.notRef.has(x));
});
