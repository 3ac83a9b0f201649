import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace, type StreamEvent } from "../../../src/mod.ts";

const BLOCKS = "a.txt\n<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n";

async function workspace() {
  return await createWorkspace({ backend: createMemoryBackend({ "/a.txt": "one\ntwo\n" }) });
}

Deno.test("an edit stream fed one character at a time gives the one-shot call's result", async () => {
  const streamed = await workspace();
  const stream = streamed.stream({ tool: "apply_edits", dispatch: { dryRun: true } });
  const seen: StreamEvent[] = [];
  const reader = (async () => {
    for await (const e of stream.events()) seen.push(e);
  })();
  for (const ch of BLOCKS) await stream.write(ch);
  const result = await stream.end();
  await reader;
  const whole = await (await workspace()).call("apply_edits", { text: BLOCKS }, { dryRun: true });
  assert.deepEqual(result, whole);
  assert.deepEqual(seen.at(-1), { type: "result", result });
});

Deno.test("an aborted stream writes nothing and says so", async () => {
  const ws = await workspace();
  const stream = ws.stream({ tool: "apply_edits" });
  await stream.write(BLOCKS);
  stream.abort("the model was cancelled");
  const result = await stream.end();
  assert.equal(result.ok, false);
  assert.match(!result.ok ? result.error.message : "", /aborted.*nothing was written/);
  const read = await ws.call("read_file", { path: "a.txt" });
  assert.match(JSON.stringify(read), /two/);
});

Deno.test("streamed edit_file arguments that are not a JSON object are refused, not guessed", async () => {
  const ws = await workspace();
  const stream = ws.stream({ tool: "edit_file" });
  await stream.write('{"path": "a.txt", "old_text": "two"');
  const result = await stream.end();
  assert.equal(result.ok, false);
  assert.equal(!result.ok && result.error.code, "invalid_args");
});
