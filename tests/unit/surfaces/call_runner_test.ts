import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace } from "../../../src/mod.ts";
import { workspaceRunner } from "../../../src/surfaces/call_runner.ts";

Deno.test("workspaceRunner() runs calls on the workspace and carries a session's ledger out and back in", async () => {
  const workspace = await createWorkspace({ backend: createMemoryBackend({ "/a.txt": "one\ntwo\n" }) });
  const runner = workspaceRunner(workspace);
  assert.equal(runner.stopsCalls, undefined, "it leaves the time limit to the server");
  assert.ok((await runner.call("read_file", { path: "a.txt" }, { session: "s" })).ok);
  assert.equal(await runner.hasSession("s"), true);
  const ledger = await runner.exportSession("s");
  await runner.forgetSession("s");
  assert.equal(await runner.hasSession("s"), false);
  await runner.importSession("s", ledger);
  assert.equal(await runner.hasSession("s"), true);
  assert.deepEqual(await runner.exportSession("s"), ledger);
  let resets = 0;
  runner.onReset(() => resets++);
  assert.equal(resets, 0, "the workspace's own runner never resets");
});
