import assert from "node:assert/strict";
import { TextDoc } from "../../../src/text/_doc.ts";
import { matchAfterSplices } from "../../../src/text/_match_after.ts";
import { applySplices } from "../../../src/text/_splices.ts";
import { matchBlockIn } from "../../../src/text/match_block.ts";
import type { EditBlock } from "../../../src/text/types.ts";

const filler = Array.from({ length: 200 }, (_, i) => `const v${i} = ${i};`).join("\n");
const text = `function a() {\n  return 1;\n}\n${filler}\nfunction b() {\n  return 2;\n}\n`;
const doc = new TextDoc(text);
const block = (search: string[], replace: string[]): EditBlock => ({ search, replace, inputLine: 1 });
/** Line 2's "return 1" made two lines, as a splice of the text as read. */
const earlier = [{
  from: text.indexOf("  return 1;"),
  to: text.indexOf("  return 1;") + 11,
  insert: "  one();\n  return 1;",
}];

Deno.test("matchAfterSplices() places a block far from the changes as the ladder does on the changed text", () => {
  const b = block(["  return 2;"], ["  return 3;"]);
  const found = matchAfterSplices(doc, { splices: earlier, block: b, options: {} });
  const changed = matchBlockIn(new TextDoc(applySplices(text, earlier)), b);
  assert.ok(changed.ok);
  assert.deepEqual(found, changed.match);
});

Deno.test("matchAfterSplices() leaves to the ladder a block the changes reach, wrote, or that is not plain", () => {
  const near = block(["function a() {"], ["function a1() {"]);
  const written = block(["  one();"], ["  two();"]);
  const copied = [{ from: 0, to: 0, insert: "  return 2;\n" }];
  const far = block(["  return 2;"], ["  return 3;"]);
  assert.equal(matchAfterSplices(doc, { splices: earlier, block: near, options: {} }), null);
  assert.equal(matchAfterSplices(doc, { splices: earlier, block: written, options: {} }), null);
  assert.equal(matchAfterSplices(doc, { splices: copied, block: far, options: {} }), null);
  const anchored = { ...far, anchors: ["function b() {"] };
  assert.equal(matchAfterSplices(doc, { splices: earlier, block: anchored, options: {} }), null);
});
