import assert from "node:assert/strict";
import { checkpointStep } from "../../../src/tools/checkpoint_step.ts";

/** A host whose checkpoints record what they are given. */
function recordingHost() {
  const records: { landed: unknown; meta: unknown }[] = [];
  const checkpoints = {
    record: (landed: unknown, meta: unknown) => Promise.resolve(void records.push({ landed, meta })),
  };
  return { records, host: { checkpoints } as never };
}

const call = { tool: { name: "edit_file" }, session: "s1" } as never;
const landed = [{ path: "a.ts" }] as never;

Deno.test("checkpointStep() records a landed commit with its tool and session, and the checkpoint an undo reverts", async () => {
  const step = checkpointStep();
  assert.equal(step.stage, "review");
  const { records, host } = recordingHost();
  await step.landed!(call, landed, {}, host);
  await step.landed!(call, landed, { undid: "cp-7" }, host);
  assert.deepEqual(records, [
    { landed, meta: { tool: "edit_file", session: "s1" } },
    { landed, meta: { tool: "edit_file", session: "s1", undoes: "cp-7" } },
  ]);
});

Deno.test("checkpointStep() does nothing on a host without checkpoints, and judges no call", async () => {
  const step = checkpointStep();
  await step.landed!(call, landed, {}, { checkpoints: undefined } as never);
  assert.equal(step.run(call, {} as never), undefined);
});
