import assert from "node:assert/strict";
import { RecoverableError } from "../../../../src/errors.ts";
import { Stage } from "../../../../src/fs/stage.ts";
import { stageTargetEdits } from "../../../../src/structural/edit/edit_targets.ts";
import { selectTargets } from "../../../../src/structural/edit/selectors.ts";
import { loadSource } from "../../../../src/structural/edit/source.ts";
import { workspaceWith } from "../_fixtures.ts";

const TEXT = "log(a);\nlog(b, c);\nwarn(d);\n";

async function selected(pattern: string) {
  const ws = await workspaceWith({ "m.ts": TEXT });
  const stage = new Stage(ws.fs, ws.sandbox);
  const file = await loadSource(ws, stage, { path: "m.ts", tool: "t" });
  const { targets } = await selectTargets(ws, file, { selector: { pattern }, select: "all" });
  return { ws, stage, file, targets };
}

const replaceNode = { start: 0, end: 0, text: "" };
const overlap = { message: "two edits overlap", hint: "select fewer" };

Deno.test("stageTargetEdits() fills each target's metavariables into the code and stages one text", async () => {
  const { ws, stage, file, targets } = await selected("log($$$ARGS)");
  const { edits, warnings } = await stageTargetEdits(ws, stage, {
    file,
    targets,
    code: "console.log($$$ARGS)",
    build: (t, code) => ({ ...replaceNode, start: t.start, end: t.end, text: code }),
    overlap,
  });
  assert.equal(edits.length, 2);
  assert.deepEqual(warnings, []);
  assert.equal((await stage.readText("m.ts")).text, "console.log(a);\nconsole.log(b, c);\nwarn(d);\n");
});

Deno.test("stageTargetEdits() refuses overlapping edits with the caller's message, staging nothing", async () => {
  const { ws, stage, file, targets } = await selected("log($$$ARGS)");
  await assert.rejects(
    () =>
      stageTargetEdits(ws, stage, {
        file,
        targets,
        code: "x",
        // every target's edit spans the whole file (each with its own text): they overlap
        build: (t) => ({ start: 0, end: TEXT.length, text: t.node.text }),
        overlap,
      }),
    (e: unknown) =>
      e instanceof RecoverableError && e.code === "ambiguous" && /two edits overlap/.test(e.message),
  );
  assert.equal((await stage.readText("m.ts")).text, TEXT);
});
