import assert from "node:assert/strict";
import { RecoverableError } from "../../../src/errors.ts";
import { Stage } from "../../../src/fs/stage.ts";
import { planChangeSignature, stageChangeSignature } from "../../../src/structural/signature.ts";
import { textOf, workspaceOf } from "../tools/_bindings_fixtures.ts";

Deno.test("scratch", async () => {
  const ws = await workspaceOf({}, {
    "a.ts":
      "export function f(a: number, b: string, c = 1) {\n  return a + b;\n}\nf(1, 'x');\nf(2, 'y', 3);\n",
    "b.ts":
      "import { f } from './a';\nimport { f as g } from './a';\nexport const v = f(1, 'z', 4) + g(5, 'w');\n",
  });
  const stage = new Stage(ws.fs, ws.sandbox);
  const plan = await planChangeSignature(ws, stage, "a.ts", "f", [{ name: "b", rename: "bee" }, "a", {
    name: "z",
    default: "0",
  }], { tool: "t" });
  console.log(plan.before, "->", plan.after, plan.mapping, plan.callSites);
  await stageChangeSignature(stage, plan);
  for (const c of stage.changes()) console.log(c.path, "\n" + new TextDecoder().decode(c.after!));
});
