import assert from "node:assert/strict";
import { parseNamePath, resolveNamePath } from "../../../src/syntax/name_path.ts";
import type { SymbolInfo } from "../../../src/syntax/symbols.ts";

const R = { start_line: 1, end_line: 1, start_utf16: 0, end_utf16: 0, start_byte: 0, end_byte: 0 };

function sym(
  name: string,
  name_path: string,
  children: SymbolInfo[] = [],
  extra: Partial<SymbolInfo> = {},
): SymbolInfo {
  return { kind: "function", name, name_path, range: R, full_range: R, children, ...extra };
}

const OUTLINE: SymbolInfo[] = [
  sym("Outer", "Outer", [
    sym("inner", "Outer/inner"),
    sym("run", "Outer/run[0]"),
    sym("run", "Outer/run[1]"),
    sym("Deep", "Outer/Deep", [sym("inner", "Outer/Deep/inner")]),
  ]),
  sym("inner", "inner"),
  sym("a/b", "a\\/b"),
  sym("impl Display for Point", "impl Display for Point", [sym("fmt", "impl Display for Point/fmt")], {
    aliases: ["Point"],
  }),
  sym("Move", "Move", [], { qualifier: "Point" }),
];

function path(r: ReturnType<typeof resolveNamePath>): string | string[] {
  if (r.status === "unique") return r.symbol.name_path;
  if (r.status === "ambiguous") return r.candidates.map((c) => c.name_path);
  return `not_found: ${r.suggestions.join(", ")}`;
}

Deno.test("parseNamePath() splits on unescaped slashes and reads [i]", () => {
  assert.deepEqual(parseNamePath("/A/b\\/c/d[2]"), {
    absolute: true,
    segments: [{ name: "A" }, { name: "b/c" }, { name: "d", index: 2 }],
  });
});

Deno.test("resolveNamePath() matches a plain name at any depth", () => {
  assert.deepEqual(path(resolveNamePath(OUTLINE, "inner")), ["Outer/inner", "Outer/Deep/inner", "inner"]);
});

Deno.test("resolveNamePath() matches a suffix, or from the top with a leading slash", () => {
  assert.equal(path(resolveNamePath(OUTLINE, "Deep/inner")), "Outer/Deep/inner");
  assert.equal(path(resolveNamePath(OUTLINE, "/inner")), "inner");
  assert.equal(path(resolveNamePath(OUTLINE, "/Outer/inner")), "Outer/inner");
});

Deno.test("resolveNamePath() picks overloads by index and reports all without one", () => {
  assert.deepEqual(path(resolveNamePath(OUTLINE, "Outer/run")), ["Outer/run[0]", "Outer/run[1]"]);
  assert.equal(path(resolveNamePath(OUTLINE, "run[1]")), "Outer/run[1]");
  assert.equal(path(resolveNamePath(OUTLINE, "Deep[0]")), "Outer/Deep", "[0] fits a unique name");
  assert.match(path(resolveNamePath(OUTLINE, "run[5]")) as string, /^not_found/);
});

Deno.test("resolveNamePath() unescapes \\/ in names", () => {
  assert.equal(path(resolveNamePath(OUTLINE, "a\\/b")), "a\\/b");
  assert.match(path(resolveNamePath(OUTLINE, "a/b")) as string, /^not_found/);
});

Deno.test("resolveNamePath() answers to aliases and qualifiers", () => {
  assert.equal(path(resolveNamePath(OUTLINE, "Point/fmt")), "impl Display for Point/fmt");
  assert.equal(path(resolveNamePath(OUTLINE, "impl Display for Point/fmt")), "impl Display for Point/fmt");
  assert.equal(path(resolveNamePath(OUTLINE, "Point/Move")), "Move");
  assert.match(path(resolveNamePath(OUTLINE, "Other/Move")) as string, /^not_found/);
});

Deno.test("resolveNamePath() matches part of the last segment only when asked, exact hits first", () => {
  assert.match(path(resolveNamePath(OUTLINE, "Dee")) as string, /^not_found/);
  assert.equal(path(resolveNamePath(OUTLINE, "Dee", { substring: true })), "Outer/Deep");
  assert.deepEqual(path(resolveNamePath(OUTLINE, "Outer/inner", { substring: true })), "Outer/inner");
});

Deno.test("resolveNamePath() suggests near names when nothing matches", () => {
  const r = resolveNamePath(OUTLINE, "Outer/inenr");
  assert.equal(r.status, "not_found");
  assert.ok(r.status === "not_found" && r.suggestions.includes("Outer/inner"));
});

Deno.test("resolveNamePath() prefers a class over its same-name constructor; Class/Class picks the constructor", () => {
  const outline = [sym("Spec", "Spec", [sym("Spec", "Spec/Spec"), sym("get", "Spec/get")])];
  assert.equal(path(resolveNamePath(outline, "Spec")), "Spec");
  assert.equal(path(resolveNamePath(outline, "Spec/Spec")), "Spec/Spec");
});
