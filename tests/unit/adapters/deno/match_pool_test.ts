/**
 * Deno's match pool never keeps a process alive for long: a process that searched through the pool and never
 * closed it exits once its workers have been idle for `idleMs`, and one that closes it exits at once.
 */
import assert from "node:assert/strict";

const SCRIPT = `
import { createMemoryBackend, createWorkspace } from "${new URL("../../../../src/mod.ts", import.meta.url)}";
import { createWasmLoader } from "${new URL("../../../../src/adapters/deno/mod.ts", import.meta.url)}";
import { createMatchPool } from "${new URL("../../../../src/adapters/deno/match_pool.ts", import.meta.url)}";
const matchPool = createMatchPool({ size: 2, idleMs: 5000 });
const files = {};
// 40 files of 5,000 characters: past what a search matches on its own thread before it asks the workers.
const pad = "// " + "x".repeat(4960) + "\\n";
for (let i = 0; i < 40; i++) files["/f" + i + ".js"] = pad + "function f() { return " + i + "; }\\n";
const ws = await createWorkspace({ backend: createMemoryBackend(files), wasm: createWasmLoader(), matchPool });
await matchPool.warm();
const result = await ws.call("search_structural", { pattern: "return $X", max_results: 1000 });
console.log(JSON.stringify({ matches: result.data.matches.length, pooled: matchPool.matched }));
if (Deno.args[0] === "close") matchPool.close();
`;

/** Run the script in a new process; the test fails if it is still running after a minute. */
async function run(mode: string): Promise<{ code: number; out: { matches: number; pooled: number } }> {
  const path = await Deno.makeTempFile({
    suffix: ".ts",
    dir: new URL("../../../../", import.meta.url).pathname,
  });
  try {
    await Deno.writeTextFile(path, SCRIPT);
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", path, mode],
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const killer = setTimeout(() => child.kill(), 60_000);
    const { code, stdout } = await child.output();
    clearTimeout(killer);
    return { code, out: JSON.parse(new TextDecoder().decode(stdout)) };
  } finally {
    await Deno.remove(path);
  }
}

Deno.test("a process that searched through the pool exits once its workers are idle, closed or not", async () => {
  for (const mode of ["close", "idle"]) {
    const { code, out } = await run(mode);
    assert.equal(code, 0, `${mode}: the process was killed, not ended`);
    assert.equal(out.matches, 40, mode);
    assert.ok(out.pooled > 0, `${mode}: the workers matched no file`);
  }
});
