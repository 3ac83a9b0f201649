import assert from "node:assert/strict";
import { profileOf } from "../../../../src/languages/profiles.ts";
import { scriptWriterOf } from "../../../../src/structural/extract/_script_writers.ts";

const python = scriptWriterOf(profileOf("python").flow!);
const ecma = scriptWriterOf(profileOf("typescript").flow!);
const ctx = (awaits: boolean, yields = false) => ({ name: "step", facts: { awaits, yields } }) as never;
const variable = (name: string) => ({ name, declared: true }) as never;

Deno.test("the Python writer: def (async, @classmethod), global and nonlocal, tuples out, no closer", () => {
  assert.deepEqual(
    python.header(ctx(true), { classmethod: true } as never, {
      paramList: ["cls", "x"],
      typeParams: "",
      returnType: "",
    }),
    [
      "@classmethod",
      "async def step(cls, x):",
    ],
  );
  assert.deepEqual(python.prologue({ globals: ["count"], nonlocals: ["seen"] } as never), [
    "global count",
    "nonlocal seen",
  ]);
  assert.equal(
    python.epilogue([variable("a"), variable("b")], { ts: false, returnType: "", outTypes: [] }),
    "return a, b",
  );
  assert.equal(python.epilogue([], { ts: false, returnType: "", outTypes: [] }), null);
  assert.deepEqual([python.receiver({ receiver: "self" } as never), python.delegation, python.closer], [
    "self",
    "yield from ",
    null,
  ]);
  const call = (outputs: string[], returns: boolean, expr = "step(x)") =>
    python.call(ctx(false), { expr, outputs: outputs.map(variable), outTypes: [], returns });
  assert.equal(call(["a", "b"], false), "a, b = step(x)");
  assert.equal(call([], true, "yield from step(x)"), "return (yield from step(x))");
});

Deno.test("the ECMAScript writer: function or method headers, return { a, b } with written types kept, braces", () => {
  assert.deepEqual(
    ecma.header(ctx(true, true), { kind: "function" } as never, {
      paramList: ["x: number"],
      typeParams: "<T>",
      returnType: "",
    }),
    ["async function* step<T>(x: number) {"],
  );
  assert.deepEqual(
    ecma.header(ctx(false), { kind: "method", isStatic: true } as never, {
      paramList: [],
      typeParams: "",
      returnType: ": void",
    }),
    ["static step(): void {"],
  );
  const outTypes = [{ text: "T | null", annotated: true, node: null }, null];
  assert.equal(
    ecma.epilogue([variable("a"), variable("b")], { ts: true, returnType: "", outTypes }),
    "return { a: a as T | null, b };",
  );
  assert.deepEqual([ecma.receiver({} as never), ecma.delegation, ecma.closer, ecma.prologue({} as never)], [
    "this",
    "yield* ",
    "}",
    [],
  ]);
});
