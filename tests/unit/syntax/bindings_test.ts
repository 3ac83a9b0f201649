import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { versionOf } from "../../../src/fs/version.ts";
import {
  bindingLanguages,
  type FileBindings,
  fileBindings,
  lookup,
  MAX_BINDINGS_CHARS,
  type Occurrence,
} from "../../../src/syntax/bindings.ts";
import { createWorkspace, type Workspace } from "../../../src/workspace.ts";

let shared: Workspace | null = null;
async function ws(): Promise<Workspace> {
  return shared ??= await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
}

async function bindingsOf(path: string, language: string, text: string): Promise<FileBindings> {
  const fb = await fileBindings(await ws(), {
    path,
    language,
    version: await versionOf(new TextEncoder().encode(text)),
    text,
  });
  assert.ok(fb, `no bindings for ${language}`);
  return fb;
}

/** The occurrences at every place `needle` is written (the identifier starting there). */
function at(fb: FileBindings, needle: string, nth = 0): Occurrence {
  let i = -1;
  for (let k = 0; k <= nth; k++) i = fb.text.indexOf(needle, i + 1);
  assert.ok(i >= 0, `"${needle}" #${nth} not in the text`);
  const occ = fb.occurrences.find((o) => o.start === i);
  assert.ok(occ, `no occurrence at "${needle}" #${nth}`);
  return occ;
}

const RXJS = new URL("../../../node_modules/rxjs/src/", import.meta.url);

Deno.test("bindingLanguages() lists the languages with a binding query", () => {
  assert.deepEqual(bindingLanguages().sort(), [
    "c",
    "c_sharp",
    "cpp",
    "go",
    "java",
    "javascript",
    "kotlin",
    "php",
    "python",
    "ruby",
    "rust",
    "tsx",
    "typescript",
  ]);
});

Deno.test("fileBindings() resolves shadowing, block scopes and closures in TypeScript", async () => {
  const fb = await bindingsOf(
    "a.ts",
    "typescript",
    "const x = 1;\nfunction f(x: number) {\n  { const x = 2; use(x); }\n  return () => x;\n}\nuse(x);\n",
  );
  const outer = at(fb, "x = 1").binding!;
  const param = at(fb, "x: number").binding!;
  const inner = at(fb, "x = 2").binding!;
  assert.notEqual(outer, param);
  assert.equal(at(fb, "x); }").binding, inner);
  assert.equal(at(fb, "x;\n}").binding, param, "the closure sees the parameter");
  assert.equal(at(fb, "x);\n").binding, outer);
  assert.equal(param.kind, "parameter");
});

Deno.test("fileBindings() hoists var and function declarations to their function", async () => {
  const fb = await bindingsOf(
    "a.js",
    "javascript",
    "function f() {\n  g(); v;\n  if (1) { var v = 1; }\n  function g() {}\n}\n",
  );
  const v = at(fb, "v = 1").binding!;
  assert.equal(v.kind, "var");
  assert.equal(at(fb, "v;").binding, v, "var is hoisted out of the block");
  assert.equal(at(fb, "g();").binding, at(fb, "g() {}").binding, "a function declaration is hoisted");
});

Deno.test("fileBindings() binds destructured names and keeps their shorthand kind", async () => {
  // rxjs@7.8.2 src/internal/util/mapOneOrManyArgs.ts: `const { isArray } = Array;`
  const text = await Deno.readTextFile(new URL("internal/util/mapOneOrManyArgs.ts", RXJS));
  const fb = await bindingsOf("internal/util/mapOneOrManyArgs.ts", "typescript", text);
  const def = at(fb, "isArray }");
  assert.equal(def.kind, "shorthand_pattern");
  const uses = fb.occurrences.filter((o) => o.binding === def.binding && o.kind === "reference");
  assert.ok(uses.length >= 1, "isArray(...) refers to the destructured name");
  const fb2 = await bindingsOf(
    "d.ts",
    "typescript",
    "const { a, b: c, ...rest } = o;\nlet [d, [e]] = f;\nuse(a, c, rest, d, e);\n",
  );
  for (const name of ["a", "c", "rest", "d", "e"]) {
    const ref = fb2.occurrences.find((o) => o.name === name && o.kind === "reference");
    assert.ok(ref?.binding, `${name} resolves`);
  }
  // A property key is no name: it reads the property b of o, like `o.b`.
  const key = fb2.occurrences.filter((o) => o.name === "b");
  assert.deepEqual(key.map((o) => [o.kind, o.binding]), [["member_property", null]]);
});

Deno.test("fileBindings() records imports, exports, re-exports and class members", async () => {
  const text = await Deno.readTextFile(new URL("internal/operators/map.ts", RXJS));
  const fb = await bindingsOf("internal/operators/map.ts", "typescript", text);
  assert.ok(fb.imports.some((i) => i.imported === "operate" && i.source === "../util/lift"));
  assert.ok(fb.exports.some((e) => e.exported === "map" && e.local?.name === "map"));
  const index = await Deno.readTextFile(new URL("index.ts", RXJS));
  const ib = await bindingsOf("index.ts", "typescript", index);
  const re = ib.exports.find((e) => e.exported === "map");
  assert.equal(re?.from?.source, "./internal/operators/map");
  const cls = await bindingsOf(
    "k.ts",
    "typescript",
    "class K {\n  count = 0;\n  inc() { this.count++; other.count; }\n}\n",
  );
  assert.equal(at(cls, "count = 0").kind, "member_definition");
  assert.equal(at(cls, "count++").kind, "member_this");
  assert.equal(at(cls, "count;").kind, "member_property");
});

Deno.test("fileBindings() follows Python's scoping: class bodies are closed, global rebinds", async () => {
  const text = await Deno.readTextFile(new URL("../../fixtures/bindings/gyp/easy_xml.py", import.meta.url));
  const fb = await bindingsOf("gyp/easy_xml.py", "python", text);
  const pretty = at(fb, "pretty=False");
  assert.equal(pretty.binding?.kind, "parameter");
  assert.equal(at(fb, "pretty:\n").binding, pretty.binding);
  const py = await bindingsOf(
    "m.py",
    "python",
    "x = 1\nclass C:\n    x = 2\n    y = x\n    def m(self):\n        return x + self.x\n\ndef g():\n    global x\n    x = 3\n",
  );
  const moduleX = at(py, "x = 1").binding!;
  const classX = at(py, "x = 2").binding!;
  assert.equal(at(py, "x\n    def").binding, classX, "the class body sees its own x");
  assert.equal(at(py, "x + self").binding, moduleX, "a method does not see the class body's x");
  assert.equal(at(py, "x = 3").binding, moduleX, "global x binds the module's x");
  assert.equal(at(py, "x\n\ndef", 0).kind, "member_this");
  assert.equal(lookup(py.scopes[0]!, "C")?.name, "C");
});

Deno.test("fileBindings() leaves keyword argument names out of references", async () => {
  const py = await bindingsOf("k.py", "python", "a = 1\ndict(a=a)\n");
  const kw = py.occurrences.filter((o) => o.name === "a");
  assert.deepEqual(kw.map((o) => o.kind), ["definition", "keyword", "reference"]);
  assert.equal(kw[2]!.binding, kw[0]!.binding);
});

Deno.test("fileBindings() records a class's base class and its static members (rxjs Subject, JavaScript)", async () => {
  // rxjs@7.8.2: `export class Subject<T> extends Observable<T> implements SubscriptionLike` with `static create`.
  const text = await Deno.readTextFile(new URL("internal/Subject.ts", RXJS));
  const fb = await bindingsOf("internal/Subject.ts", "typescript", text);
  const subject = fb.scopes.find((s) =>
    s.kind === "class" && s.nameStart === text.indexOf("Subject<T> extends")
  );
  assert.ok(subject, "the Subject class scope");
  assert.equal(subject.base, text.indexOf("Observable<T> implements"));
  assert.equal(at(fb, "Observable<T> implements").binding?.import?.imported, "Observable");
  assert.equal(at(fb, "create:").static, true);
  assert.equal(at(fb, "observers:").static, undefined);
  const js = await bindingsOf(
    "k.js",
    "javascript",
    "class A { x = 1; static make() {} }\nclass B extends A { static y = 2; m() { return this.x; } }\n",
  );
  const b = js.scopes.find((s) => s.kind === "class" && s.nameStart === js.text.indexOf("B extends"));
  assert.equal(b?.base, js.text.indexOf("A {", 40));
  assert.equal(at(js, "make").static, true);
  assert.equal(at(js, "y = 2").static, true);
  assert.equal(at(js, "x = 1").static, undefined);
});

Deno.test("fileBindings() marks the keys of a pattern destructuring `this` as the class's members (JavaScript)", async () => {
  const fb = await bindingsOf(
    "k.js",
    "javascript",
    "class A {\n  x = 1;\n  m(o) {\n    const { x } = this;\n    let y;\n    ({ x: y } = this);\n    const { x: z } = o;\n    return x + y + z;\n  }\n}\n",
  );
  const short = at(fb, "x } = this");
  assert.equal(short.kind, "shorthand_pattern");
  assert.equal(short.thisKey, true);
  assert.equal(at(fb, "x + y").binding, short.binding, "the variable x is still bound");
  assert.equal(at(fb, "x: y").kind, "member_this");
  assert.equal(at(fb, "x: z").kind, "member_property", "another object's key is no member of the class");
});

Deno.test("fileBindings() reads `T | null` and `undefined | T` as the written type T, and no other union", async () => {
  const fb = await bindingsOf(
    "u.ts",
    "typescript",
    "let a: S | null;\nlet b: S<T> | undefined;\nlet c: null | S;\nfunction f(x?: S | null, y: S | R, n: null) {}\n",
  );
  const typeOf = (needle: string) => at(fb, needle).binding?.declaredType?.name;
  assert.deepEqual(["a:", "b:", "c:", "x?"].map(typeOf), ["S", "S", "S", "S"]);
  assert.equal(typeOf("y:"), undefined, "S | R may be either");
  assert.equal(typeOf("n:"), undefined);
});

Deno.test(`fileBindings() keeps at most ${MAX_BINDINGS_CHARS} characters of files' bindings: the least recently used go first`, async () => {
  const host = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
  // Two files of a little over half the bound each (a long comment: cheap to parse and bind).
  const big = (name: string) =>
    `// ${name.repeat(Math.ceil(MAX_BINDINGS_CHARS * 0.55 / name.length))}\nconst ${name} = 1;\n`;
  const files = ["alpha", "beta"].map((name) => ({
    path: `${name}.ts`,
    language: "typescript",
    text: big(name),
  }));
  const small = { path: "small.ts", language: "typescript", text: "export const small = 1;\n" };
  const bind = async (f: { path: string; language: string; text: string }) =>
    (await fileBindings(host, { ...f, version: await versionOf(new TextEncoder().encode(f.text)) }))!;
  const alpha = await bind(files[0]!);
  assert.equal(await bind(files[0]!), alpha); // within the bound: kept
  const kept = await bind(small);
  await bind(files[1]!); // over it: alpha, the least recently used, goes; small.ts is enough room
  assert.equal(await bind(small), kept);
  const again = await bind(files[0]!);
  assert.notEqual(again, alpha);
  assert.deepEqual(again.occurrences, alpha.occurrences); // computed again, the same
});
