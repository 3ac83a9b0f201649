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

const PARTIAL = "a.py\n```\n<<<<<<< SEARCH\na = 1\n=======\na = 5\n>>>>>>> REPLACE\n```\n\n" +
  "b.py\n```\n<<<<<<< SEARCH\nzzz\n=======\nyyy\n>>>>>>> REPLACE\n```\n";

Deno.test("graver apply --partial with failed blocks exits 3 and says which blocks failed", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.py`, "a = 1\nb = 2\n");
    const res = await run(["apply", "-", "--root", dir, "--partial", "--json"], PARTIAL);
    assert.equal(res.code, 3, res.out);
    const result = JSON.parse(res.out);
    assert.equal(result.ok, true);
    assert.equal(result.data.failed, 1);
    const failed = result.data.blocks.filter((b: { status: string }) => b.status === "failed");
    assert.deepEqual(
      failed.map((
        b: { block: number; path: string; error: { code: string } },
      ) => [b.block, b.path, b.error.code]),
      [[2, "b.py", "not_found"]],
    );
    assert.equal(await Deno.readTextFile(`${dir}/a.py`), "a = 5\nb = 2\n");
    // Human output: the failed block is named, same exit code.
    await Deno.writeTextFile(`${dir}/a.py`, "a = 1\nb = 2\n");
    const text = await run(["apply", "-", "--root", dir, "--partial"], PARTIAL);
    assert.equal(text.code, 3);
    assert.match(text.out, /block 2 b\.py FAILED not_found/);
    // Every block failing is not "in part": exit 1, nothing written.
    const none = await run(
      ["apply", "-", "--root", dir, "--partial", "--json"],
      PARTIAL.replace("a = 1", "q"),
    );
    assert.equal(none.code, 1, none.out);
    assert.equal(await Deno.readTextFile(`${dir}/a.py`), "a = 5\nb = 2\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver apply with an empty input says so and what it should hold, exit 2", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const stdin of ["", "  \n\n"]) {
      const res = await run(["apply", "--root", dir], stdin);
      assert.equal(res.code, 2, res.out);
      const err = JSON.parse(res.out).error;
      assert.equal(err.code, "invalid_args");
      assert.equal(err.message, "Cannot run graver apply: the input from stdin is empty");
      assert.match(err.hint, /SEARCH\/REPLACE blocks, a unified diff or a "\*\*\* Begin Patch" envelope/);
    }
    await Deno.writeTextFile(`${dir}/empty.txt`, "");
    const file = await run(["apply", `${dir}/empty.txt`, "--root", dir]);
    assert.equal(file.code, 2);
    assert.match(JSON.parse(file.out).error.message, /the input from ".*empty\.txt" is empty/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver apply declines a low-confidence fuzzy block unless --fuzzy", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = [
      "def total(items):",
      "    result = 0",
      "    for item in items:",
      "        result += item.price * item.quantity",
      "    return result",
      "",
    ].join("\n");
    await Deno.writeTextFile(`${dir}/cart.py`, file);
    // Written against an older version: `cost`/`count` where the file now says `price`/`quantity`.
    const stale =
      "cart.py\n```\n<<<<<<< SEARCH\ndef total(items):\n    result = 0\n    for item in items:\n" +
      "        result += item.cost * item.count\n    return result\n=======\ndef total(items):\n" +
      "    return sum(i.cost * i.count for i in items)\n>>>>>>> REPLACE\n```\n";
    const declined = await run(["apply", "-", "--root", dir, "--json"], stale);
    assert.equal(declined.code, 1, declined.out);
    assert.equal(JSON.parse(declined.out).error.code, "no_match");
    assert.equal(await Deno.readTextFile(`${dir}/cart.py`), file);
    const taken = await run(["apply", "-", "--root", dir, "--json", "--fuzzy"], stale);
    assert.equal(taken.code, 0, taken.out);
    assert.match(await Deno.readTextFile(`${dir}/cart.py`), /return sum\(/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
