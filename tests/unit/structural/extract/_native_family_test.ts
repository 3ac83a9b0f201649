import assert from "node:assert/strict";
import { calleeResultOf, copiedGenerics } from "../../../../src/structural/extract/_native_family.ts";
import { GO_NATIVE } from "../../../../src/structural/extract/_go.ts";
import { RUST_NATIVE } from "../../../../src/structural/extract/_rust.ts";
import { GRAMMARS } from "../_fixtures.ts";

async function firstFunction(language: string, text: string) {
  const parser = await GRAMMARS.parser(language);
  const root = parser.parse(text)!.rootNode;
  return { fn: root.namedChildren.find((n) => /function/.test(n?.type ?? ""))!, root, parser };
}

Deno.test("copiedGenerics() copies the type parameters the types name, with what their constraints name (Rust)", async () => {
  const text = "fn f<'a, T: Clone, U, V>(x: &'a T, u: U) -> V where U: Into<V>, T: Default {}\n";
  const { fn, parser } = await firstFunction("rust", text);
  const generics = copiedGenerics(RUST_NATIVE, fn, { texts: ["&'a T"], outerNames: ["S"] });
  assert.deepEqual(generics, { params: "<'a, T: Clone>", where: " where T: Default", foreign: [] });
  const withU = copiedGenerics(RUST_NATIVE, fn, { texts: ["U", "S"], outerNames: ["S"] });
  assert.deepEqual(withU, { params: "<U, V>", where: " where U: Into<V>", foreign: ["S"] });
  parser.delete();
});

Deno.test("copiedGenerics() writes Go's type parameters with their constraints, in brackets", async () => {
  const { fn, parser } = await firstFunction(
    "go",
    "package p\n\nfunc f[K comparable, V any](m map[K]V) {}\n",
  );
  assert.deepEqual(copiedGenerics(GO_NATIVE, fn, { texts: ["map[K]V"], outerNames: [] }), {
    params: "[K comparable, V any]",
    where: "",
    foreign: [],
  });
  assert.equal(copiedGenerics(GO_NATIVE, fn, { texts: ["int"], outerNames: [] }).params, "");
  parser.delete();
});

Deno.test("calleeResultOf() reads a called function's written result, not a generic one's", async () => {
  const text = "fn two() -> (i32, u8) { (1, 2) }\nfn id<T>(t: T) -> T { t }\nfn g() { two(); id(1); }\n";
  const parser = await GRAMMARS.parser("rust");
  const root = parser.parse(text)!.rootNode;
  const fns = root.namedChildren.filter((n) => n?.type === "function_item");
  const calls = root.descendantsOfType("call_expression");
  const callee = (call: { childForFieldName(f: string): { text: string } | null }) =>
    fns.find((f) => f?.childForFieldName("name")?.text === call.childForFieldName("function")?.text) ?? null;
  const result = {
    field: "return_type",
    pick: (t: { text: string }) => ({ text: t.text, annotated: true, node: null }),
  };
  assert.equal(calleeResultOf(calls[0]!, callee as never, result as never)?.text, "(i32, u8)");
  assert.equal(calleeResultOf(calls[1]!, callee as never, result as never), null);
  assert.equal(calleeResultOf(null, callee as never, result as never), null);
  parser.delete();
});
