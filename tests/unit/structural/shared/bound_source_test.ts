import assert from "node:assert/strict";
import { RecoverableError } from "../../../../src/errors.ts";
import { Stage } from "../../../../src/fs/stage.ts";
import { openBound } from "../../../../src/structural/shared/bound_source.ts";
import { workspaceWith } from "../_fixtures.ts";

Deno.test("openBound() opens a file with its bindings and its family's rules", async () => {
  const ws = await workspaceWith({ "m.py": "def f(a):\n    b = a + 1\n    return b\n" });
  const { file, fb, rules } = await openBound(ws, new Stage(ws.fs, ws.sandbox), {
    path: "m.py",
    tool: "t",
    doing: "extracting a function",
    languages: ["python", "typescript"],
  });
  assert.equal(file.language, "python");
  assert.equal(rules.family, "python");
  assert.deepEqual(fb.occurrences.filter((o) => o.name === "b").map((o) => o.kind), [
    "definition",
    "reference",
  ]);
});

Deno.test("openBound() refuses a language outside those given, naming the ones it works in", async () => {
  const ws = await workspaceWith({ "m.go": "package m\n\nfunc f() {}\n" });
  await assert.rejects(
    () =>
      openBound(ws, new Stage(ws.fs, ws.sandbox), {
        path: "m.go",
        tool: "t",
        doing: "inlining",
        languages: ["typescript", "tsx", "python"],
      }),
    (e: unknown) =>
      e instanceof RecoverableError && e.code === "unsupported_language" &&
      /inlining works in TypeScript, TSX and Python files, not go/.test(e.message),
  );
});
