import assert from "node:assert/strict";
import { inProcess, json } from "./_cli.ts";

Deno.test("graver call runs one tool with its JSON args (inline or on stdin) and prints one ToolResult", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.py`, "x = 1\n");
    const read = await inProcess(["call", "read_file", '{"path":"a.py"}', "--root", dir]);
    assert.equal(read.code, 0);
    assert.equal(json(read).data.content, "1\tx = 1");
    const dry = await inProcess(["call", "write_file", "-", "--root", dir, "--dry-run"], {
      stdin: JSON.stringify({ path: "a.py", content: "x = 2\n" }),
    });
    assert.equal(json(dry).status, "dry_run");
    assert.equal(await Deno.readTextFile(`${dir}/a.py`), "x = 1\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver call answers a missing tool or args that are no JSON with a usage error, exit 2", async () => {
  const none = await inProcess(["call"]);
  assert.equal(none.code, 2);
  assert.match(json(none).error.message, /missing tool name/);
  const bad = await inProcess(["call", "read_file", "{not json"]);
  assert.equal(bad.code, 2);
  assert.match(json(bad).error.message, /args are not valid JSON/);
});
