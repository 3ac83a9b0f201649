import assert from "node:assert/strict";
import { globBase, globToRegExp, looksLikeGlob } from "../../../src/fs/_glob.ts";

Deno.test("globToRegExp() spans folders only with **", () => {
  assert.ok(globToRegExp("src/*.ts").test("src/a.ts"));
  assert.ok(!globToRegExp("src/*.ts").test("src/d/a.ts"));
  assert.ok(globToRegExp("src/**/*.ts").test("src/a.ts"));
  assert.ok(globToRegExp("src/**/*.ts").test("src/d/e/a.ts"));
  assert.ok(globToRegExp("a?.[jt]s").test("ab.ts"));
  assert.ok(globToRegExp("*.{ts,py}").test("x.py"));
  assert.ok(!globToRegExp("*.{ts,py}").test("x.rs"));
});

Deno.test("looksLikeGlob() and globBase()", () => {
  assert.ok(looksLikeGlob("src/*.ts") && looksLikeGlob("a?.ts") && looksLikeGlob("{a,b}.ts"));
  assert.ok(!looksLikeGlob("pages/[id].tsx") && !looksLikeGlob("src/a.ts"));
  assert.equal(globBase("src/lib/**/*.ts"), "src/lib");
  assert.equal(globBase("*.ts"), "");
});
