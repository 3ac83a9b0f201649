/**
 * Benchmark: what undo costs a commit. One `edit_file` per call on a 1,000-file tree on disk (hono's published
 * package, copied), in one workspace with checkpoints on and one with them off, alternating call by call so
 * both see the same machine load. Reports the median wall time of a call each way and the ratio (goal:
 * ≤ 1.25×), and the size of `.graver/checkpoints/` after the run.
 *
 * Run: `deno run -A bench/checkpoint_cost.bench.ts [--runs N] [--max M]` (N edits each way, default 60; M: the
 * checkpoints kept, default 200, so that a run longer than M measures pruning too).
 *
 * @module
 */
import { join } from "node:path";
import { createDiskBackend } from "../src/adapters/deno/mod.ts";
import { createWorkspace, type Workspace } from "../src/workspace.ts";
import { describe, machine, printTable, result, ROOT, runsArg, stats } from "./_util.ts";

const RUNS = runsArg(Deno.args, 60);
const MAX = Deno.args.includes("--max") ? Number(Deno.args[Deno.args.indexOf("--max") + 1]) : undefined;
const HONO = Deno.realPathSync(join(ROOT, "node_modules/hono/dist"));

/** A copy of hono's package with 1,000 files (its own 574 and numbered copies of small ones up to 1,000). */
async function tree(): Promise<{ root: string; files: string[] }> {
  const root = await Deno.makeTempDir({ prefix: "graver-cp-bench-" });
  await new Deno.Command("cp", { args: ["-r", HONO, `${root}/dist`] }).output();
  const files: string[] = [];
  let count = 0;
  const walk = (dir: string, rel: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) walk(`${dir}/${e.name}`, `${rel}${e.name}/`);
      else {
        count++;
        if (e.name.endsWith(".js")) files.push(`${rel}${e.name}`);
      }
    }
  };
  walk(`${root}/dist`, "dist/");
  for (let i = 0; count + i < 1000; i++) {
    await Deno.copyFile(`${root}/${files[i % files.length]!}`, `${root}/extra-${i}.js`);
  }
  return { root, files: files.filter((f) => !f.includes("/types/")).slice(0, RUNS) };
}

/** One edit of the first line of `path`, timed through the tool call. */
async function oneEdit(ws: Workspace, at: { root: string; path: string; n: number }): Promise<number> {
  const first = (await Deno.readTextFile(`${at.root}/${at.path}`)).split("\n")[0]!;
  const t0 = performance.now();
  const res = await ws.call("edit_file", {
    path: at.path,
    old_string: first,
    new_string: `${first} // ${at.n}`,
  });
  if (!res.ok) throw new Error(`${at.path}: ${JSON.stringify(res.error)}`);
  return performance.now() - t0;
}

async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for await (const e of Deno.readDir(dir)) {
    const p = `${dir}/${e.name}`;
    total += e.isDirectory ? await sizeOf(p) : (await Deno.stat(p)).size;
  }
  return total;
}

const on = await tree();
const off = await tree();
const withCp = await createWorkspace({
  backend: createDiskBackend(),
  root: on.root,
  checkpoints: true,
  ...(MAX ? { maxCheckpoints: MAX } : {}),
});
const without = await createWorkspace({ backend: createDiskBackend(), root: off.root });
const a: number[] = [];
const b: number[] = [];
for (let i = 0; i < Math.min(on.files.length, off.files.length); i++) {
  a.push(await oneEdit(withCp, { root: on.root, path: on.files[i]!, n: i }));
  b.push(await oneEdit(without, { root: off.root, path: off.files[i]!, n: i }));
}
const sa = stats(a);
const sb = stats(b);
console.log(`\n## What a checkpoint costs a commit (${machine()})\n`);
printTable([
  ["", "edit_file, median", "spread"],
  ["checkpoints on", `${sa.median.toFixed(1)} ms`, describe(sa)],
  ["checkpoints off", `${sb.median.toFixed(1)} ms`, describe(sb)],
]);
const ratio = sa.median / sb.median;
const store = await sizeOf(`${on.root}/.graver/checkpoints`);
result(
  "checkpoint_cost",
  `${a.length} edits each way on a 1,000-file tree: ${ratio.toFixed(2)}× with checkpoints (goal ≤ 1.25×); ` +
    `.graver/checkpoints/ holds ${(store / 1024).toFixed(0)} KiB after ${a.length} checkpoints` +
    (MAX ? ` (${(await withCp.checkpoints!.list()).length} kept, bound ${MAX})` : ""),
);
await Deno.remove(on.root, { recursive: true });
await Deno.remove(off.root, { recursive: true });
