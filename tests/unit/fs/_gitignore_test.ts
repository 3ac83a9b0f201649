import assert from "node:assert/strict";
import { isIgnored, parseGitignore } from "../../../src/fs/_gitignore.ts";
import { BackendFs, createMemoryBackend } from "../../../src/mod.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import { Stage } from "../../../src/fs/stage.ts";
import { walkProject } from "../../../src/fs/walk.ts";

function ignored(text: string, rel: string, isDir = false, base = ""): boolean {
  return isIgnored(parseGitignore(text, base), rel, isDir);
}

Deno.test("parseGitignore() skips comments and blank lines, keeps escaped # and !", () => {
  const rules = parseGitignore("# comment\n\n\\#hash\n\\!bang\nfoo   \nbar\\ \n", "");
  assert.deepEqual(rules.map((r) => r.pattern), ["\\#hash", "\\!bang", "foo", "bar "]);
  assert.ok(ignored("\\#hash\n", "#hash"));
  assert.ok(ignored("\\!bang\n", "!bang"));
  assert.ok(ignored("foo   \n", "foo"), "trailing spaces are dropped");
  assert.ok(ignored("bar\\ \n", "bar "), "an escaped trailing space is kept");
  assert.ok(!ignored("bar\\ \n", "bar"));
});

Deno.test("isIgnored() matches a pattern without a slash at any depth", () => {
  assert.ok(ignored("*.log\n", "a.log"));
  assert.ok(ignored("*.log\n", "deep/er/a.log"));
  assert.ok(!ignored("*.log\n", "a.log.txt"));
  assert.ok(ignored("dist\n", "packages/x/dist", true));
  assert.ok(ignored("a?c\n", "abc") && !ignored("a?c\n", "a/c"));
});

Deno.test("isIgnored() anchors a pattern with a leading or inner slash to the .gitignore's directory", () => {
  assert.ok(ignored("/build\n", "build", true));
  assert.ok(!ignored("/build\n", "src/build", true));
  assert.ok(ignored("doc/frotz\n", "doc/frotz"));
  assert.ok(!ignored("doc/frotz\n", "a/doc/frotz"));
  // A nested .gitignore's rules apply below its own directory only.
  assert.ok(ignored("/out\n", "pkg/out", true, "pkg"));
  assert.ok(!ignored("/out\n", "out", true, "pkg"));
  assert.ok(!ignored("/out\n", "pkg/sub/out", true, "pkg"));
  assert.ok(ignored("*.tmp\n", "pkg/sub/x.tmp", false, "pkg"));
});

Deno.test("isIgnored() with dir/ matches directories only", () => {
  assert.ok(ignored("build/\n", "build", true));
  assert.ok(!ignored("build/\n", "build", false));
  assert.ok(ignored("build/\n", "a/build", true));
});

Deno.test("isIgnored() lets a later ! rule re-include, the last match winning", () => {
  const text = "*.log\n!keep.log\n";
  assert.ok(ignored(text, "x.log"));
  assert.ok(!ignored(text, "keep.log"));
  assert.ok(!ignored(text, "a/keep.log"));
  assert.ok(ignored("!keep.log\n*.log\n", "keep.log"), "a later rule wins over an earlier negation");
});

Deno.test("isIgnored() handles ** leading, trailing and inner", () => {
  assert.ok(ignored("**/foo\n", "foo"));
  assert.ok(ignored("**/foo\n", "a/b/foo"));
  assert.ok(ignored("**/foo/bar\n", "x/foo/bar"));
  assert.ok(ignored("abc/**\n", "abc/x/y"));
  assert.ok(!ignored("abc/**\n", "abc"));
  assert.ok(ignored("a/**/b\n", "a/b"));
  assert.ok(ignored("a/**/b\n", "a/x/y/b"));
  assert.ok(!ignored("a/**/b\n", "xa/b"));
  assert.ok(ignored("a**b\n", "axxb") && !ignored("a**b\n", "a/b"), "other ** are a plain *");
});

Deno.test("isIgnored() reads bracket expressions", () => {
  assert.ok(ignored("*.py[co]\n", "m.pyc"));
  assert.ok(!ignored("*.py[co]\n", "m.py"));
  assert.ok(ignored("[!a]x\n", "bx") && !ignored("[!a]x\n", "ax"));
  assert.ok(ignored("[a-c]\n", "b") && !ignored("[a-c]\n", "d"));
  assert.ok(ignored("x[\n", "x["), "an unclosed [ is literal");
});

Deno.test("isIgnored() treats regex characters literally", () => {
  assert.ok(ignored("a+b(c).d\n", "a+b(c).d"));
  assert.ok(!ignored("a.b\n", "axb"));
});

Deno.test("isIgnored() never lets a bracket expression match a slash (git's pathname rule)", () => {
  assert.ok(ignored("a[!x]b\n", "a-b"));
  assert.ok(!ignored("a[!x]b\n", "a/b"));
});

// Regression (issue 22, item 10): a .gitignore line compiled to a backtracking RegExp; `*a*a…*b` against a
// long name of a's stalled every walk (list_files, find_symbol) for as long as it took. Now linear.
Deno.test("isIgnored() finishes on a hostile *a*a…*b line against a long name", () => {
  const rules = parseGitignore("*a".repeat(14) + "*b\n", "");
  assert.equal(isIgnored(rules, "a".repeat(200), false), false);
  assert.equal(isIgnored(rules, "deep/" + "a".repeat(200) + "b", false), true);
});

// Regression (issue 22, item 10): trimming trailing spaces and slashes used `\s+$` and `\/+$`, quadratic on a
// long run that is not at the end of the line.
Deno.test("parseGitignore() reads a line with a long inner run of spaces or slashes in one pass", () => {
  const spaces = parseGitignore(`a${" ".repeat(400_000)}b\n`, "");
  assert.equal(spaces.length, 1);
  const slashes = parseGitignore(`a${"/".repeat(400_000)}b/\n`, "");
  assert.equal(slashes[0]!.dirOnly, true);
});

// Regression (issue 22, item 10): list_files and find_symbol walk through these rules; a hostile line made a
// walk over one long file name take as long as the backtracking did.
Deno.test("walkProject() finishes under a hostile .gitignore line and still lists the file", async () => {
  const long = "a".repeat(150);
  const fs = BackendFs.wrap(createMemoryBackend({
    "/.gitignore": "*a".repeat(14) + "*b\n",
    [`/src/${long}`]: "x",
    [`/src/${"a".repeat(14)}b`]: "y",
  }));
  const walked = await walkProject(new Stage(fs, new Sandbox("/")), "");
  assert.deepEqual(walked.entries.map((e) => e.rel), [".gitignore", "src", `src/${long}`]);
  assert.equal(walked.ignored, 1);
});
