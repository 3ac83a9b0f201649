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

Deno.test("graver call search_structural parses in the host's pool and closes it; other tools never ask for one", async () => {
  const { MatchPool } = await import("../../../src/structural/search/match_pool.ts");
  const { createWasmLoader } = await import("../../../src/adapters/deno/mod.ts");
  const url = new URL("../../../src/adapters/deno/_match_worker_main.ts", import.meta.url);
  const pools: InstanceType<typeof MatchPool>[] = [];
  const matchPool = async () => {
    const pool = new MatchPool({
      spawn: () => new Worker(url, { type: "module" }) as never,
      wasm: createWasmLoader(),
      size: 2,
    });
    pools.push(pool);
    await pool.warm(); // ready: every file goes to the workers
    return pool;
  };
  const dir = await Deno.makeTempDir({ prefix: "graver-cli-call-pool-" });
  try {
    for (let i = 0; i < 10; i++) {
      await Deno.writeTextFile(`${dir}/f${i}.js`, `function f() {\n  return ${i};\n}\n`);
    }
    const args = JSON.stringify({ pattern: "return $X", output_mode: "count" });
    const run = await inProcess(["call", "search_structural", args], { cwd: dir, matchPool });
    assert.equal(run.code, 0, run.stderr);
    assert.equal((JSON.parse(run.stdout).data.counts as unknown[]).length, 10);
    assert.equal(pools.length, 1);
    assert.ok(pools[0]!.matched > 0, "the workers matched the files");
    assert.equal(pools[0]!.ready, 0, "the command closed its pool");
    const read = await inProcess(["call", "read_file", '{"path":"f0.js"}'], { cwd: dir, matchPool });
    assert.equal(read.code, 0, read.stderr);
    assert.equal(pools.length, 1, "read_file asked for no pool");
  } finally {
    for (const pool of pools) pool.close();
    await Deno.remove(dir, { recursive: true });
  }
});
