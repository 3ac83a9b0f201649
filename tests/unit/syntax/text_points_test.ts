/** Points of offsets and the edits between two texts, against real parses (TypeScript's grammar). */
import assert from "node:assert/strict";
import { Grammars } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { advancePoint, editsBetween, pointAt, pointIn } from "../../../src/syntax/text_points.ts";

const grammars = new Grammars(createWasmLoader());
const OLD = "const é = 1;\nfunction f(a: number) {\n  return a + é;\n}\n";

Deno.test("pointIn() and advancePoint() agree with pointAt() and with the tree's own positions", async () => {
  const parser = await grammars.parser("typescript");
  const tree = parser.parse(OLD)!;
  try {
    for (const offset of [0, 6, 13, 20, OLD.indexOf("return"), OLD.length - 1]) {
      assert.deepEqual(pointIn(tree, OLD, offset), pointAt(OLD, offset), `offset ${offset}`);
      assert.deepEqual(
        advancePoint(OLD, { from: 0, point: { row: 0, column: 0 }, to: offset }),
        pointAt(OLD, offset),
      );
    }
    const ret = tree.rootNode.descendantForIndex(OLD.indexOf("return"));
    assert.deepEqual(pointAt(OLD, ret!.startIndex), ret!.startPosition);
  } finally {
    tree.delete();
    parser.delete();
  }
});

Deno.test("editsBetween(): applied to the old tree, an incremental parse equals a fresh parse of the new text", async () => {
  const parser = await grammars.parser("typescript");
  const text = OLD.replace("é = 1", "é = 10").replace("a + é", "a + 2 + é"); // lines 1 and 3: two runs
  const old = parser.parse(OLD)!;
  try {
    const edits = editsBetween(old, OLD, text);
    assert.equal(edits.length, 2, "one edit per changed run, last first");
    assert.ok(edits[0]!.startIndex > edits[1]!.startIndex);
    for (const e of edits) old.edit(e);
    const incremental = parser.parse(text, old)!;
    const fresh = parser.parse(text)!;
    assert.equal(incremental.rootNode.toString(), fresh.rootNode.toString());
    assert.deepEqual(editsBetween(fresh, text, text), []);
    incremental.delete();
    fresh.delete();
  } finally {
    old.delete();
    parser.delete();
  }
});
