import assert from "node:assert/strict";
import { ModuleResolver, tsconfigMapping } from "../../../src/syntax/module_resolution.ts";

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
  assert.equal(ModuleResolver.systemOf("go"), null);
  assert.equal(r.resolve("a.go", "go", "./x"), null);
});
