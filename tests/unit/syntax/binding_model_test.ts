import assert from "node:assert/strict";
import {
  classScopeOf,
  declare,
  encloses,
  firstAtOrAfter,
  functionScope,
  lookup,
  type Occurrence,
  type Scope,
  type ScopeKind,
} from "../../../src/syntax/binding_model.ts";

let ids = 0;
/** A scope spanning `start..end` under `parent`. */
function scope(kind: ScopeKind, [start, end]: [number, number], parent: Scope | null, closed = false): Scope {
  return { id: ids++, kind, closed, start, end, parent, nameStart: -1, bindings: new Map() };
}

// module > class C (closed: its names are not seen from its methods) > method m > block
const module = scope("module", [0, 100], null);
const cls = scope("class", [10, 90], module, true);
const method = scope("function", [20, 80], cls);
const block = scope("block", [30, 40], method);

Deno.test("lookup() finds the nearest binding, but not a class's names from a function inside the class", () => {
  const outer = declare(module, "x", "lexical");
  const member = declare(cls, "x", "lexical");
  assert.equal(declare(cls, "x", "var"), member, "declaring again returns the binding already there");
  assert.equal(lookup(cls, "x"), member);
  assert.equal(lookup(block, "x"), outer);
  assert.equal(lookup(block, "nowhere"), null);
  const local = declare(method, "x", "parameter");
  assert.equal(lookup(block, "x"), local);
});

Deno.test("lookup() with item: passes over variables to the item a path segment names", () => {
  const m = scope("module", [0, 10], null);
  const f = scope("function", [1, 9], m);
  const item = declare(m, "util", "lexical");
  const variable = declare(f, "util", "lexical");
  variable.value = true;
  assert.equal(lookup(f, "util"), variable);
  assert.equal(lookup(f, "util", { item: true }), item);
});

Deno.test("encloses(), functionScope() and classScopeOf() walk up the scope chain", () => {
  assert.equal(encloses(module, block), true);
  assert.equal(encloses(block, module), false);
  assert.equal(encloses(method, method), true);
  assert.equal(functionScope(block), method);
  assert.equal(functionScope(module), module);
  assert.equal(classScopeOf(block), cls);
  assert.equal(classScopeOf(module), null);
});

Deno.test("firstAtOrAfter() is the index of the first occurrence starting at or after an offset", () => {
  const at = (start: number) => ({ start, end: start + 1 }) as Occurrence;
  const occurrences = [at(2), at(5), at(5), at(9)];
  assert.deepEqual([0, 2, 3, 5, 6, 9, 10].map((o) => firstAtOrAfter(occurrences, o)), [0, 0, 1, 1, 3, 3, 4]);
});
