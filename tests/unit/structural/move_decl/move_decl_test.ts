import assert from "node:assert/strict";
import { RecoverableError } from "../../../../src/errors.ts";
import { Stage } from "../../../../src/fs/stage.ts";
import { planMoveDecl, stageMoveDecl } from "../../../../src/structural/move_decl/move_decl.ts";
import { workspaceWith } from "../_fixtures.ts";

const FILES = {
  "src/math.ts": [
    "const SCALE = 10;",
    "",
    "export function scaled(x: number): number {",
    "  return x * SCALE;",
    "}",
    "",
    "export const LIMIT = SCALE * 100;",
    "",
  ].join("\n"),
  "src/app.ts": 'import { scaled } from "./math";\n\nconsole.log(scaled(1));\n',
};

Deno.test("planMoveDecl() moves a function with what it uses imported back, and rewrites its importers", async () => {
  const ws = await workspaceWith(FILES);
  const stage = new Stage(ws.fs, ws.sandbox);
  const plan = await planMoveDecl(ws, stage, {
    path: "src/math.ts",
    namePath: "scaled",
    toPath: "src/scale.ts",
    tool: "t",
  });
  assert.equal(plan.created, true);
  assert.deepEqual(plan.sourceExported, ["SCALE"]);
  assert.deepEqual(plan.referrers, ["src/app.ts"]);
  await stageMoveDecl(stage, plan);
  const text = async (p: string) => (await stage.readText(p)).text;
  assert.match(
    await text("src/scale.ts"),
    /import \{ SCALE \} from "\.\/math";[\s\S]*export function scaled/,
  );
  assert.equal(await text("src/math.ts"), "export const SCALE = 10;\n\nexport const LIMIT = SCALE * 100;\n");
  assert.equal(await text("src/app.ts"), 'import { scaled } from "./scale";\n\nconsole.log(scaled(1));\n');
});

Deno.test("planMoveDecl() refuses a move that would make two files import each other", async () => {
  const math = FILES["src/math.ts"] +
    "export function twice(x: number): number {\n  return scaled(x) * 2;\n}\n";
  const ws = await workspaceWith({ ...FILES, "src/math.ts": math });
  await assert.rejects(
    () =>
      planMoveDecl(ws, new Stage(ws.fs, ws.sandbox), {
        path: "src/math.ts",
        namePath: "scaled",
        toPath: "src/scale.ts",
        tool: "t",
      }),
    (e: unknown) => e instanceof RecoverableError && e.code === "import_cycle",
  );
});

Deno.test("planMoveDecl() refuses a destination that declares the name already, staging nothing", async () => {
  const ws = await workspaceWith({ ...FILES, "src/scale.ts": "export const scaled = 1;\n" });
  const stage = new Stage(ws.fs, ws.sandbox);
  await assert.rejects(
    () =>
      planMoveDecl(ws, stage, { path: "src/math.ts", namePath: "scaled", toPath: "src/scale.ts", tool: "t" }),
    (e: unknown) => e instanceof RecoverableError && e.code === "destination_conflict",
  );
  assert.deepEqual(stage.changes(), []);
});
