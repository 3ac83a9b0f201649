import assert from "node:assert/strict";
import {
  blankLinesBetween,
  gapBelow,
  lastInBlock,
  looksLikeDefinition,
  neighbourGap,
  restIsTrivial,
  spacedKind,
} from "../../../../src/structural/edit/layout.ts";

/** A class whose two methods stand two blank lines apart; the second is the last in its block. */
const TEXT = [
  "class A {",
  "  f() {}",
  "",
  "",
  "  g() {} // last",
  "}",
  "",
].join("\n");

Deno.test("restIsTrivial() and lastInBlock() read what follows a construct on its line and below it", () => {
  const g = TEXT.indexOf("g() {}") + "g() {}".length;
  assert.equal(restIsTrivial(TEXT, g), true);
  assert.equal(restIsTrivial("f(a), g(b)", 4), false);
  assert.equal(restIsTrivial("f(a); // x", 4), true);
  assert.equal(restIsTrivial("f(a); // x", 4, false), false);
  const afterF = TEXT.indexOf("\n", TEXT.indexOf("f() {}")) + 1;
  const afterG = TEXT.indexOf("\n", g) + 1;
  assert.equal(lastInBlock(TEXT, afterF, "  "), false);
  assert.equal(lastInBlock(TEXT, afterG, "  "), true);
});

Deno.test("gapBelow() and blankLinesBetween() count the blank lines between constructs", () => {
  const fEnd = TEXT.indexOf("f() {}") + "f() {}".length;
  const gStart = TEXT.indexOf("g() {}");
  assert.equal(gapBelow(TEXT, fEnd, "  "), 2);
  assert.equal(gapBelow(TEXT, gStart + 6, "  "), null); // the last in its block: no gap to keep
  assert.equal(blankLinesBetween(TEXT, fEnd, gStart), 2);
  assert.equal(blankLinesBetween("a; b;", 2, 3), 0);
});

Deno.test("neighbourGap() keeps the distance on that side, else the other side's (at most two), else the fallback", () => {
  assert.equal(neighbourGap("after", { before: 1, after: 2 }, () => 0), 2);
  assert.equal(neighbourGap("after", { before: 3, after: null }, () => 0), 2);
  assert.equal(neighbourGap("before", { before: null, after: null }, () => 1), 1);
});

Deno.test("looksLikeDefinition() and spacedKind() tell definitions from statements", () => {
  assert.equal(looksLikeDefinition("@dataclass\nclass P:\n    x: int\n"), true);
  assert.equal(looksLikeDefinition("// doc\nexport async function f() {}\n"), true);
  assert.equal(looksLikeDefinition("  public static int size(List<T> xs) {"), true);
  assert.equal(looksLikeDefinition("const x = 1;\n"), false);
  assert.equal(spacedKind("function"), true);
  assert.equal(spacedKind("variable"), false);
});
