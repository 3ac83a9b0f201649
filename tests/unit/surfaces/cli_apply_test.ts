import assert from "node:assert/strict";

const CLI = new URL("../../../src/adapters/deno/cli.ts", import.meta.url).pathname;

async function run(args: string[], stdin?: string): Promise<{ code: number; out: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, ...args],
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const { code, stdout } = await child.output();
  return { code, out: new TextDecoder().decode(stdout) };
}

Deno.test("graver apply applies a file of edits, refuses a second run, and reads stdin", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.py`, "def f():\r\n    return 1\r\n");
    const edits = `${dir}/edits.txt`;
    await Deno.writeTextFile(
      edits,
      "a.py\n```python\n<<<<<<< SEARCH\nreturn 1\n=======\nreturn 2\n>>>>>>> REPLACE\n```\n",
    );
    const first = await run(["apply", edits, "--root", dir, "--json"]);
    assert.equal(first.code, 0, first.out);
    const result = JSON.parse(first.out);
    assert.equal(result.ok, true);
    assert.equal(result.data.blocks[0].tier, "indentation");
    assert.equal(await Deno.readTextFile(`${dir}/a.py`), "def f():\r\n    return 2\r\n");
    const again = await run(["apply", edits, "--root", dir, "--json"]);
    assert.equal(again.code, 1);
    assert.equal(JSON.parse(again.out).error.code, "already_applied");
    const dry = await run(
      ["apply", "-", "--root", dir, "--dry-run", "--format", "udiff"],
      "--- a/a.py\n+++ b/a.py\n@@ -2 +2 @@\n-    return 2\n+    return 3\n",
    );
    assert.equal(dry.code, 0, dry.out);
    assert.match(dry.out, /^would apply 1 block/);
    assert.equal(await Deno.readTextFile(`${dir}/a.py`), "def f():\r\n    return 2\r\n");
    const bad = await run(["apply", edits, "--root", dir, "--format", "xml"]);
    assert.equal(bad.code, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
