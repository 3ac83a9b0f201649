import assert from "node:assert/strict";

const CLI = new URL("../../../src/adapters/deno/cli.ts", import.meta.url).pathname;

async function graver(args: string[], cwd: string, stdin?: string) {
  const cmd = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, ...args],
    cwd,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const child = cmd.spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  const stdout = new TextDecoder().decode(out.stdout);
  if (stdout === "") console.error(new TextDecoder().decode(out.stderr));
  return { code: out.code, stdout };
}

Deno.test("graver call prints one JSON object and exits 0 / 1 / 2", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.py`, "x = 1\n");
    const read = await graver(["call", "read_file", '{"path":"a.py"}'], dir);
    assert.equal(read.code, 0);
    const obj = JSON.parse(read.stdout);
    assert.equal(obj.ok, true);
    assert.equal(obj.data.content, "1\tx = 1");

    const write = await graver(
      ["call", "write_file", "-", "--root", dir],
      "/",
      JSON.stringify({
        path: "a.py",
        content: "x = 2\n",
        expected_version: obj.data.version,
      }),
    );
    assert.equal(write.code, 0, write.stdout);
    assert.equal(await Deno.readTextFile(`${dir}/a.py`), "x = 2\n");

    const stale = await graver([
      "call",
      "write_file",
      JSON.stringify({
        path: "a.py",
        content: "x = 3\n",
        expected_version: obj.data.version,
      }),
    ], dir);
    assert.equal(stale.code, 1);
    assert.equal(JSON.parse(stale.stdout).error.code, "stale_base");
    assert.equal(await Deno.readTextFile(`${dir}/a.py`), "x = 2\n");

    const escape = await graver(["call", "read_file", '{"path":"../../etc/passwd"}'], dir);
    assert.equal(escape.code, 1);
    assert.equal(JSON.parse(escape.stdout).error.code, "sandbox_violation");

    const usage = await graver(["call", "read_file", "{not json"], dir);
    assert.equal(usage.code, 2);
    assert.equal(JSON.parse(usage.stdout).ok, false);
    assert.equal((await graver(["frobnicate"], dir)).code, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver tools --json prints the catalogue", async () => {
  const res = await graver(["tools", "--json"], "/");
  assert.equal(res.code, 0);
  const tools = JSON.parse(res.stdout) as { name: string; inputSchema: { type: string } }[];
  assert.ok(tools.some((t) => t.name === "read_file" && t.inputSchema.type === "object"));
});

Deno.test("two graver processes writing from the same version: exactly one lands", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/n.txt`, "0\n");
    const read = JSON.parse((await graver(["call", "read_file", '{"path":"n.txt"}'], dir)).stdout);
    const version = read.data.version;
    const results = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        graver([
          "call",
          "write_file",
          JSON.stringify({ path: "n.txt", content: `${i}\n`, expected_version: version }),
        ], dir)
      ),
    );
    const landed = results.filter((r) => r.code === 0);
    assert.equal(landed.length, 1, results.map((r) => r.stdout).join("\n"));
    for (const r of results.filter((r) => r.code !== 0)) {
      assert.equal(JSON.parse(r.stdout).error.code, "stale_base");
    }
    const winner = JSON.parse(landed[0]!.stdout).changes[0].diff as string;
    assert.match(winner, new RegExp(`\\+${(await Deno.readTextFile(`${dir}/n.txt`)).trim()}`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
