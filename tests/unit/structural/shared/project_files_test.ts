import assert from "node:assert/strict";
import { projectOf as opened } from "../_fixtures.ts";

Deno.test("ProjectFiles lists the source files with module resolution, with tsconfig paths in the resolver", async () => {
  const project = await opened({
    "tsconfig.json": '{ "compilerOptions": { "baseUrl": ".", "paths": { "@lib/*": ["lib/*"] } } }',
    "lib/a.ts": "export const a = 1;\n",
    "app.ts": 'import { a } from "@lib/a";\n',
    "notes.md": "# a\n",
    "x.lua": "local a = 1\n",
  });
  assert.deepEqual([...project.files].sort(), [["app.ts", "typescript"], ["lib/a.ts", "typescript"]]);
  assert.equal(project.resolver.resolve("app.ts", "typescript", "@lib/a"), "lib/a.ts");
});

Deno.test("ProjectFiles.candidates() are the files that name the word in code, a comment-only mention set aside", async () => {
  const project = await opened({
    "a.ts": "export function helper() {}\n",
    "b.ts": 'import { helper } from "./a";\nhelper();\n',
    "c.ts": "// helper is documented elsewhere\nexport const c = 1;\n",
    "d.ts": "export const d = 2;\n",
  });
  assert.deepEqual((await project.candidates("a.ts", "helper")).sort(), ["a.ts", "b.ts"]);
  assert.deepEqual([...(project.commented.get("helper")?.keys() ?? [])], ["c.ts"]);
  const fb = await project.bindings("b.ts");
  assert.deepEqual(fb?.imports.map((i) => [i.local.name, i.source]), [["helper", "./a"]]);
});

Deno.test("ProjectFiles.sharedScopes() links the files of one Go package", async () => {
  const project = await opened({
    "go.mod": "module example.com/m\n",
    "p/a.go": "package p\n\nfunc A() int { return b() }\n",
    "p/b.go": "package p\n\nfunc b() int { return 1 }\n",
    "q/c.go": "package q\n\nfunc C() {}\n",
  });
  const fb = await project.bindings("p/a.go");
  assert.deepEqual(await project.sharedScopes(fb!), ["p/b.go"]);
  const shared = await project.sharedBindings(fb!, "b");
  assert.deepEqual(shared.map((s) => s.fb.path), ["p/b.go"]);
});
