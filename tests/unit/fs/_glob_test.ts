import assert from "node:assert/strict";
import { globBase, globMatcher, looksLikeGlob, unclosedInGlob } from "../../../src/fs/_glob.ts";
import { BackendFs, createMemoryBackend } from "../../../src/mod.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import { Stage } from "../../../src/fs/stage.ts";

Deno.test("globMatcher() spans folders only with **", () => {
  assert.ok(globMatcher("src/*.ts").test("src/a.ts"));
  assert.ok(!globMatcher("src/*.ts").test("src/d/a.ts"));
  assert.ok(globMatcher("src/**/*.ts").test("src/a.ts"));
  assert.ok(globMatcher("src/**/*.ts").test("src/d/e/a.ts"));
  assert.ok(globMatcher("a?.[jt]s").test("ab.ts"));
  assert.ok(globMatcher("*.{ts,py}").test("x.py"));
  assert.ok(!globMatcher("*.{ts,py}").test("x.rs"));
});

Deno.test("looksLikeGlob() and globBase()", () => {
  assert.ok(looksLikeGlob("src/*.ts") && looksLikeGlob("a?.ts") && looksLikeGlob("{a,b}.ts"));
  assert.ok(!looksLikeGlob("pages/[id].tsx") && !looksLikeGlob("src/a.ts"));
  assert.equal(globBase("src/lib/**/*.ts"), "src/lib");
  assert.equal(globBase("*.ts"), "");
});

Deno.test("globMatcher() reads brackets as git does and never lets them match a slash", () => {
  assert.ok(globMatcher("[]a]x").test("]x") && globMatcher("[]a]x").test("ax"));
  assert.ok(globMatcher("[!a]x").test("bx") && !globMatcher("[!a]x").test("ax"));
  assert.ok(!globMatcher("a[!x]b").test("a/b"));
  assert.ok(globMatcher("a[").test("a["), "an unclosed [ is literal");
  assert.ok(globMatcher("a{b").test("a{b"), "an unclosed { is literal");
});

// Regression (issue 22, item 10): the glob compiled to a backtracking RegExp, so `src/*a*a…*b` against a
// long name of a's (a path that matches nothing) ran for minutes; the matcher now finishes.
Deno.test("globMatcher() finishes on *a*a…*b against a long name that almost matches", () => {
  const hostile = "src/" + "*a".repeat(14) + "*b";
  const matcher = globMatcher(hostile);
  assert.equal(matcher.test("src/" + "a".repeat(200)), false);
  assert.equal(matcher.test("src/" + "a".repeat(200) + "b"), true);
  assert.ok(matcher.size <= 2 * hostile.length, "states grow with the pattern, not the path");
});

// Regression (issue 22, item 10): a path the model meant as a glob is answered with the files it matches;
// with the hostile pattern and a long file name, the read never came back.
Deno.test("Stage.notFound() answers a hostile glob path over a long file name", async () => {
  const long = "a".repeat(120);
  const fs = BackendFs.wrap(createMemoryBackend({ [`/src/${long}`]: "x", "/src/ab": "y" }));
  const stage = new Stage(fs, new Sandbox("/"));
  const err = await stage.notFound("src/" + "*a".repeat(14) + "*b");
  assert.equal(err.code, "not_found");
  assert.deepEqual(err.details?.["matches"], []);
});

Deno.test("looksLikeGlob() reads a long path of braces and commas in one pass", () => {
  assert.equal(looksLikeGlob("{" + ",".repeat(200_000)), false);
  assert.equal(looksLikeGlob("{" + ",".repeat(200_000) + "}"), true);
});

Deno.test("unclosedInGlob() names a [ or { left open, and nothing in a glob whose brackets close", () => {
  assert.match(unclosedInGlob("[unclosed")!, /character class at offset 0 .*"\]"/);
  assert.match(unclosedInGlob("lib/{a,b")!, /alternatives at offset 4 .*"}"/);
  assert.match(
    unclosedInGlob("src/[]")!,
    /offset 4/,
    "a ] right after [ is a member, so the class stays open",
  );
  for (const glob of ["*.{ts,tsx}", "src/[ab]*.ts", "[]]", "a}b", "**/x"]) {
    assert.equal(unclosedInGlob(glob), null, glob);
  }
});
