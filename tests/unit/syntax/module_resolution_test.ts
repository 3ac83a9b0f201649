import assert from "node:assert/strict";
import { goModulePath, ModuleResolver, tsconfigMapping } from "../../../src/syntax/module_resolution.ts";

const FILES = [
  "src/a.ts",
  "src/b.tsx",
  "src/lib/index.ts",
  "src/util/x.js",
  "src/types.d.ts",
  "gyp/__init__.py",
  "gyp/easy_xml.py",
  "gyp/generator/__init__.py",
  "gyp/generator/make.py",
];

Deno.test("ModuleResolver resolves relative ECMAScript specifiers with extensions and index files", () => {
  const r = new ModuleResolver(FILES);
  assert.equal(r.resolve("src/b.tsx", "tsx", "./a"), "src/a.ts");
  assert.equal(r.resolve("src/b.tsx", "tsx", "./a.js"), "src/a.ts", "a .js specifier names the .ts source");
  assert.equal(r.resolve("src/a.ts", "typescript", "./b"), "src/b.tsx");
  assert.equal(r.resolve("src/a.ts", "typescript", "./lib"), "src/lib/index.ts");
  assert.equal(r.resolve("src/lib/index.ts", "typescript", "../util/x"), "src/util/x.js");
  assert.equal(r.resolve("src/a.ts", "typescript", "./types"), "src/types.d.ts");
  assert.equal(r.resolve("src/a.ts", "typescript", "react"), null, "a package is not a workspace file");
  assert.equal(r.resolve("src/a.ts", "typescript", "./missing"), null);
});

Deno.test("ModuleResolver applies tsconfig baseUrl and paths", () => {
  const mapping = tsconfigMapping(
    `{
      // comments and trailing commas are fine
      "compilerOptions": { "baseUrl": ".", "paths": { "@app/*": ["src/*"], "lib": ["src/lib"], }, },
    }`,
    "",
  );
  assert.deepEqual(mapping, { baseUrl: "", paths: { "@app/*": ["src/*"], "lib": ["src/lib"] } });
  const r = new ModuleResolver(FILES, mapping);
  assert.equal(r.resolve("src/b.tsx", "tsx", "@app/a"), "src/a.ts");
  assert.equal(r.resolve("src/b.tsx", "tsx", "lib"), "src/lib/index.ts");
  assert.equal(r.resolve("src/b.tsx", "tsx", "src/a"), "src/a.ts", "baseUrl alone");
  assert.equal(tsconfigMapping('{"compilerOptions": {"strict": true}}', ""), null);
  assert.equal(tsconfigMapping("not json", ""), null);
});

Deno.test("ModuleResolver resolves Python packages, modules and relative imports", () => {
  const r = new ModuleResolver(FILES);
  assert.equal(r.resolve("gyp/easy_xml_test.py", "python", "gyp"), "gyp/__init__.py");
  assert.equal(r.resolve("main.py", "python", "gyp.easy_xml"), "gyp/easy_xml.py");
  assert.equal(r.resolve("gyp/generator/make.py", "python", ".."), "gyp/__init__.py");
  assert.equal(r.resolve("gyp/generator/make.py", "python", "..easy_xml"), "gyp/easy_xml.py");
  assert.equal(r.resolve("gyp/easy_xml.py", "python", ".generator.make"), "gyp/generator/make.py");
  assert.equal(r.resolve("gyp/easy_xml.py", "python", "os.path"), null);
  assert.equal(ModuleResolver.systemOf("lua"), null);
  assert.equal(r.resolve("a.lua", "lua", "./x"), null);
});

Deno.test("ModuleResolver resolves Go import paths under go.mod's module path to package directories", () => {
  const files = [
    "cmp/compare.go",
    "cmp/internal/diff/diff.go",
    "cmp/internal/diff/debug_enable.go",
    "cmp/internal/flags/flags.go",
  ];
  const r = new ModuleResolver(files, null, { goModules: [{ dir: "", path: "github.com/google/go-cmp" }] });
  assert.equal(
    r.resolve("cmp/compare.go", "go", "github.com/google/go-cmp/cmp/internal/diff"),
    "cmp/internal/diff",
  );
  assert.equal(r.resolve("cmp/compare.go", "go", "github.com/google/go-cmp/cmp"), "cmp");
  assert.equal(
    r.resolve("cmp/compare.go", "go", "github.com/google/go-cmp/cmp/internal/value"),
    null,
    "no files",
  );
  assert.equal(r.resolve("cmp/compare.go", "go", "reflect"), null, "the standard library");
  assert.equal(r.resolve("cmp/compare.go", "go", "github.com/google/go-cmpx/cmp"), null, "another module");
  assert.equal(ModuleResolver.moduleOf("cmp/internal/diff/diff.go", "go"), "cmp/internal/diff");
  assert.equal(ModuleResolver.moduleOf("src/a.ts", "typescript"), "src/a.ts");
  assert.equal(
    goModulePath("// c\nmodule github.com/google/go-cmp\n\ngo 1.13\n"),
    "github.com/google/go-cmp",
  );
  assert.equal(goModulePath("go 1.13\n"), null);
});

Deno.test("ModuleResolver resolves Rust mod and use paths within the crate", () => {
  const files = ["src/lib.rs", "src/error.rs", "src/parse.rs", "src/a/mod.rs", "src/a/b.rs", "src/a/b/c.rs"];
  const r = new ModuleResolver(files);
  assert.equal(r.resolve("src/lib.rs", "rust", "parse"), "src/parse.rs", "mod parse; from the crate root");
  assert.equal(r.resolve("src/lib.rs", "rust", "a"), "src/a/mod.rs", "a/mod.rs");
  assert.equal(r.resolve("src/a/mod.rs", "rust", "b"), "src/a/b.rs", "child of a mod.rs");
  assert.equal(r.resolve("src/a/b.rs", "rust", "c"), "src/a/b/c.rs", "child of b.rs lives in b/");
  assert.equal(r.resolve("src/parse.rs", "rust", "crate::error"), "src/error.rs");
  assert.equal(r.resolve("src/parse.rs", "rust", "crate"), "src/lib.rs");
  assert.equal(r.resolve("src/a/b/c.rs", "rust", "crate::a::b"), "src/a/b.rs");
  assert.equal(r.resolve("src/a/b.rs", "rust", "super"), "src/a/mod.rs");
  assert.equal(r.resolve("src/a/b/c.rs", "rust", "super::super"), "src/a/mod.rs");
  assert.equal(r.resolve("src/error.rs", "rust", "super::parse"), "src/parse.rs");
  assert.equal(r.resolve("src/a/mod.rs", "rust", "self::b::c"), "src/a/b/c.rs");
  assert.equal(r.resolve("src/parse.rs", "rust", "core::fmt"), null, "another crate");
  assert.equal(r.resolve("src/parse.rs", "rust", "crate::Version"), null, "an item, not a module");
  assert.equal(ModuleResolver.submodule("rust", "crate", "parse"), "crate::parse");
  assert.equal(ModuleResolver.submodule("python", "..pkg", "m"), "..pkg.m");
  assert.equal(ModuleResolver.submodule("python", "..", "m"), "..m");
});

Deno.test("ModuleResolver resolves a Rust path from each file, not once per directory", () => {
  // value-bag: internal/mod.rs and internal/fmt.rs share a directory; `super` is lib.rs from the first and
  // internal/mod.rs from the second.
  const r = new ModuleResolver(["src/lib.rs", "src/internal/mod.rs", "src/internal/fmt.rs"]);
  assert.equal(r.resolve("src/internal/mod.rs", "rust", "super"), "src/lib.rs");
  assert.equal(r.resolve("src/internal/fmt.rs", "rust", "super"), "src/internal/mod.rs");
  assert.equal(r.resolve("src/internal/mod.rs", "rust", "fmt"), "src/internal/fmt.rs");
  assert.equal(r.resolve("src/internal/fmt.rs", "rust", "fmt"), null, "fmt.rs has no child module fmt");
});
