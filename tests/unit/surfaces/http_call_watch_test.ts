import assert from "node:assert/strict";
import type { PipelineStep } from "../../../src/tools/types.ts";
import { startRealServer } from "./_real_server.ts";

Deno.test("while a call is stuck past its time limit, new calls are refused at once and health answers 503", async () => {
  let release = () => {};
  const gate = new Promise<void>((r) => release = r);
  // A real pipeline step that holds list_files until released (as a hung backend would).
  const hold: PipelineStep = {
    name: "hold",
    stage: "guard",
    run: (call) => call.tool.name === "list_files" ? gate : undefined,
  };
  const server = await startRealServer({ timeoutMs: 200 }, { "a.txt": "hi\n" }, [hold]);
  const post = (tool: string, args: unknown) =>
    fetch(`${server.url}/v1/tools/${tool}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(args),
    });
  try {
    const stuck = await post("list_files", {});
    assert.equal(stuck.status, 504);
    await stuck.body?.cancel();
    const health = await fetch(`${server.url}/v1/health`);
    assert.equal(health.status, 503);
    const report = await health.json();
    assert.equal(report.ok, false);
    assert.equal(report.stuck_calls[0].tool, "list_files");
    const refused = await post("read_file", { path: "a.txt" });
    assert.equal(refused.status, 503);
    const body = await refused.json();
    assert.equal(body.error.code, "limit_exceeded");
    assert.match(body.error.message, /still busy with list_files/);
    release();
    await gate;
    for (let i = 0; i < 100 && (await (await fetch(`${server.url}/v1/health`)).json()).ok !== true; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const again = await post("read_file", { path: "a.txt" });
    assert.equal(again.status, 200);
    await again.body?.cancel();
  } finally {
    release();
    await server.stop();
  }
});
