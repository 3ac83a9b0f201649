import assert from "node:assert/strict";
import { fileTypeNames, fileTypeTest } from "../../../src/search/file_types.ts";

Deno.test("file_types: ripgrep's names and the manifest's languages, with its file names", () => {
  const py = fileTypeTest(["py"]);
  assert.ok(py("a/b.py") && py("c.pyi"));
  assert.ok(!py("a.pyc"));
  const ruby = fileTypeTest(["ruby"]);
  assert.ok(ruby("Gemfile") && ruby("lib/x.rb"));
  assert.ok(fileTypeTest(["rust", "go"])("main.go"));
  assert.ok(fileTypeNames().includes("ts") && fileTypeNames().includes("typescript"));
});

Deno.test("file_types: an unknown type is refused with the known ones", () => {
  assert.throws(() => fileTypeTest(["cobol"]), { code: "invalid_args", hint: /Use one of: .*\bts\b/ });
});

Deno.test("file_types: ripgrep's types for text without a grammar (md, txt, xml, make …)", () => {
  const md = fileTypeTest(["md"]);
  assert.ok(md("README.md") && md("docs/a.markdown") && !md("a.mdx"));
  const make = fileTypeTest(["make"]);
  assert.ok(make("Makefile") && make("sub/GNUmakefile") && make("rules.mk") && !make("Makefile.txt"));
  assert.ok(fileTypeTest(["txt", "xml"])("pom.xml"));
  assert.ok(
    ["md", "markdown", "txt", "xml", "sql", "make", "config"].every((t) => fileTypeNames().includes(t)),
  );
});
