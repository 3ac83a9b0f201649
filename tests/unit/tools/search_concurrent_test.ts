import assert from "node:assert/strict";
import { createDiskBackend, createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createWorkspace } from "../../../src/mod.ts";
import { okData } from "./_files.ts";

/** A copy of hono's published package: a real tree searched while it is walked. */
async function honoCopy(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "graver-concurrent-" });
  const from = Deno.realPathSync(new URL("../../../node_modules/hono", import.meta.url).pathname);
  const { code } = await new Deno.Command("cp", { args: ["-r", `${from}/.`, root] }).output();
  assert.equal(code, 0);
  await new Promise((resolve) => setTimeout(resolve, 1100)); // every file old enough for the cache to keep
  return root;
}

const SEARCHES: [string, Record<string, unknown>][] = [
  ["search_text", { pattern: "return", output_mode: "count", max_results: 10_000 }],
  ["search_text", { pattern: "createElement", literal: true, max_results: 5 }],
  ["search_structural", { pattern: "new Response($$$A)", language: "js", max_results: 10_000 }],
  ["search_structural", { pattern: "return $X", language: "js", max_results: 7 }],
];

/** A result without its timing. */
function answer(data: Record<string, unknown>): string {
  return JSON.stringify(data, (k, v) => k === "elapsed_ms" ? undefined : v);
}

Deno.test("searches run at once in one session answer as they do one after another, and see an edit made between", async () => {
  const root = await honoCopy();
  const ws = await createWorkspace({ backend: createDiskBackend(), root, wasm: createWasmLoader() });
  try {
    const oneByOne = async () => {
      const out: string[] = [];
      for (const [tool, args] of SEARCHES) out.push(answer(okData(await ws.call(tool, args))));
      return out;
    };
    const atOnce = async () =>
      (await Promise.all(SEARCHES.map(([tool, args]) => ws.call(tool, args)))).map((r) => answer(okData(r)));
    // At once over a cold session, a warm one, and one whose tree changed (its walk not remembered), each
    // against the same searches one after another.
    const cold = await atOnce();
    assert.deepEqual(cold, await oneByOne(), "cold");
    assert.deepEqual(await atOnce(), cold, "warm");
    await Deno.writeTextFile(
      `${root}/dist/adapter/zz-added.js`,
      "export function added() {\n  return 1;\n}\n",
    );
    const changed = await atOnce();
    assert.deepEqual(changed, await oneByOne(), "changed");
    assert.notDeepEqual(changed, cold);
    // An edit while searches run: each search gives the tree before or after it, never a mix of stale bytes.
    const file = "dist/helper/html/index.js";
    const before = await Deno.readTextFile(`${root}/${file}`);
    const searching = Promise.all(SEARCHES.map(([tool, args]) => ws.call(tool, args)));
    const edit = okData(
      await ws.call("edit_replace_text", {
        pattern: "raw",
        replacement: "rawText",
        path: file,
        literal: true,
      }),
    );
    for (const r of await searching) okData(r);
    const after = await Deno.readTextFile(`${root}/${file}`);
    assert.equal(after, before.replaceAll("raw", "rawText"));
    assert.equal(edit["replaced"], before.split("raw").length - 1);
    const found = okData(
      await ws.call("search_text", { pattern: "rawText", literal: true, path: file, output_mode: "count" }),
    );
    const counts = found["counts"] as { count: number }[];
    assert.equal(counts[0]?.count, after.split("\n").filter((l) => l.includes("rawText")).length);
  } finally {
    await ws.close();
    await Deno.remove(root, { recursive: true });
  }
});
