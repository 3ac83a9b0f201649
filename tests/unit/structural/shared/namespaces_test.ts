import assert from "node:assert/strict";
import { versionOf } from "../../../../src/fs/version.ts";
import { type FileBindings, fileBindings } from "../../../../src/syntax/bindings.ts";
import { ModuleResolver } from "../../../../src/syntax/module_resolution.ts";
import { namespaceExports, namespaceModule } from "../../../../src/structural/shared/namespaces.ts";
import { workspaceWith } from "../_fixtures.ts";

const FILES: Record<string, string> = {
  "util.ts": "export const a = 1;\n",
  "index.ts": 'export * as util from "./util";\nexport * from "./more";\n',
  "more.ts": 'import * as u from "./util";\nexport { u };\n',
  "app.ts": 'import { util } from "./index";\nutil.a;\n',
};

async function lookupOf() {
  const ws = await workspaceWith(FILES);
  const resolver = new ModuleResolver(Object.keys(FILES));
  const cache = new Map<string, FileBindings | null>();
  const bindings = async (path: string) => {
    if (!cache.has(path)) {
      const text = FILES[path];
      cache.set(
        path,
        text === undefined ? null : await fileBindings(ws, {
          path,
          language: "typescript",
          version: await versionOf(new TextEncoder().encode(text)),
          text,
        }),
      );
    }
    return cache.get(path)!;
  };
  const resolve = (from: string, language: string, source: string) =>
    resolver.resolve(from, language, source);
  return { bindings, resolve };
}

Deno.test("namespaceModule() follows a name to the module it holds whole, through `export *` re-exports", async () => {
  const lookup = await lookupOf();
  assert.equal(await namespaceModule(lookup, "index.ts", { name: "util" }), "util.ts");
  // `u` comes through `export * from "./more"`, which passes on its exported namespace import
  assert.equal(await namespaceModule(lookup, "index.ts", { name: "u" }), "util.ts");
  assert.equal(await namespaceModule(lookup, "index.ts", { name: "a" }), null);
});

Deno.test("namespaceExports() lists the files that pass a module on under a name", async () => {
  const lookup = await lookupOf();
  const files = await Promise.all(Object.keys(FILES).map((p) => lookup.bindings(p)));
  assert.deepEqual(namespaceExports(files.filter((f) => f !== null), lookup.resolve, "util.ts"), [
    { path: "index.ts", name: "util" },
    { path: "more.ts", name: "u" },
  ]);
});
