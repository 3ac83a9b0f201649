import assert from "node:assert/strict";
import { RecoverableError } from "../../../../src/errors.ts";
import { Stage } from "../../../../src/fs/stage.ts";
import { versionOf } from "../../../../src/fs/version.ts";
import { fileBindings } from "../../../../src/syntax/bindings.ts";
import { checkFileLocal, isFileLocalLanguage } from "../../../../src/structural/shared/file_local.ts";
import { workspaceWith } from "../_fixtures.ts";

const UTIL_C = [
  "#define TWICE(x) (helper(x) * 2)",
  "static int helper(int v) {",
  "  int local = v + 1;",
  "  return local;",
  "}",
  "",
].join("\n");

/** The file-local target of `name` (first occurrence) in `path`. */
async function targetIn(files: Record<string, string>, path: string, name: string) {
  const ws = await workspaceWith(files);
  const text = files[path]!;
  const fb = await fileBindings(ws, {
    path,
    language: "c",
    version: await versionOf(new TextEncoder().encode(text)),
    text,
  });
  const occurrence = fb!.occurrences.find((o) => o.name === name && o.kind === "definition")!;
  const stage = new Stage(ws.fs, ws.sandbox);
  const target = { path, language: "c", occurrence, member: false, at: { line: 1, column: 1 }, text };
  return { ws, stage, target };
}

Deno.test("isFileLocalLanguage() holds for the languages without module resolution", () => {
  assert.equal(isFileLocalLanguage("c"), true);
  assert.equal(isFileLocalLanguage("java"), true);
  assert.equal(isFileLocalLanguage("typescript"), false);
  assert.equal(isFileLocalLanguage("go"), false);
});

Deno.test("checkFileLocal() lets a function's local through, and refuses a name a macro body uses", async () => {
  const { ws, stage, target } = await targetIn({ "util.c": UTIL_C }, "util.c", "local");
  assert.deepEqual(await checkFileLocal(ws, stage, { target, scope: "project", tool: "t" }), []);
  const helper = await targetIn({ "util.c": UTIL_C }, "util.c", "helper");
  await assert.rejects(
    () => checkFileLocal(helper.ws, helper.stage, { target: helper.target, scope: "project", tool: "t" }),
    (e: unknown) =>
      e instanceof RecoverableError && e.code === "unresolved" && /macro defined on line 1/.test(e.message),
  );
});

Deno.test("checkFileLocal() refuses a project-wide call when another file names the symbol, and lists it for scope file", async () => {
  const files = {
    "a.c": "int shared(void) { return 1; }\n",
    "b.c": "int shared(void);\nint g(void) { return shared(); }\n",
  };
  const { ws, stage, target } = await targetIn(files, "a.c", "shared");
  await assert.rejects(
    () =>
      checkFileLocal(ws, stage, { target, scope: "project", tool: "edit_rename_symbol", newName: "common" }),
    (e: unknown) => {
      assert.ok(e instanceof RecoverableError);
      assert.equal(e.code, "unsupported_language");
      assert.deepEqual(e.suggestedCall?.args, {
        path: "a.c",
        target: { line: 1, column: 1 },
        scope: "file",
        new_name: "common",
      });
      return true;
    },
  );
  assert.deepEqual(await checkFileLocal(ws, stage, { target, scope: "file", tool: "t" }), ["b.c"]);
});
