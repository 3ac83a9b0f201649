import assert from "node:assert/strict";
import { profileOf } from "../../../../src/languages/profiles.ts";
import { accessOf } from "../../../../src/structural/shared/variable_access.ts";
import { GRAMMARS } from "../_fixtures.ts";

Deno.test("each family reads an assignment's target as a write and its value as a read, through the same accessOf", async () => {
  // The occurrence kind is what the bindings say of the target: Python's assignment binds the name.
  const cases: [string, string, string][] = [
    ["typescript", "let y = 0;\ny = x;\n", "reference"],
    ["python", "y = x\n", "definition"],
    ["go", "package p\n\nfunc f(x int) {\n\tvar y int\n\ty = x\n\t_ = y\n}\n", "reference"],
    ["rust", "fn f(x: i32) {\n    let mut y = 0;\n    y = x;\n}\n", "reference"],
  ];
  for (const [language, text, targetKind] of cases) {
    const parser = await GRAMMARS.parser(language);
    const tree = parser.parse(text)!;
    const rules = profileOf(language).flow!;
    const at = (offset: number) => tree.rootNode.descendantForIndex(offset, offset + 1);
    const write = text.lastIndexOf("y = x");
    const occurrence = (start: number, kind: string) => ({ kind, name: "", start, end: start + 1 }) as never;
    assert.equal(
      accessOf(occurrence(write, targetKind), at(write)!, rules),
      "write",
      `${language}: y in y = x`,
    );
    const read = text.lastIndexOf("x");
    assert.equal(
      accessOf(occurrence(read, "reference"), at(read)!, rules),
      "read",
      `${language}: x in y = x`,
    );
    parser.delete();
  }
});

Deno.test("accessOf() reads a compound assignment as a read-and-write, and a declaration without a value as a declaration", async () => {
  const cases: [string, string, string, string][] = [
    ["typescript", "let y;\ny += 1;\n", "y +=", "readwrite"],
    ["typescript", "let y;\n", "y;", "declare"],
    ["python", "y = 0\ny += 1\n", "y +=", "readwrite"],
    ["go", "package p\n\nfunc f() {\n\ty := 0\n\ty++\n}\n", "y++", "readwrite"],
    ["rust", "fn f() {\n    let y: i32;\n    y = 1;\n}\n", "y: i32", "declare"],
  ];
  for (const [language, text, marker, want] of cases) {
    const parser = await GRAMMARS.parser(language);
    const tree = parser.parse(text)!;
    const at = text.indexOf(marker);
    const node = tree.rootNode.descendantForIndex(at, at + 1)!;
    const kind = want === "declare" ? "definition" : "reference";
    const occurrence = { kind, name: "y", start: at, end: at + 1 } as never;
    assert.equal(accessOf(occurrence, node, profileOf(language).flow!), want, `${language}: ${marker}`);
    parser.delete();
  }
});
