/**
 * What starting graver costs before any work: fresh processes that import a
 * module and stop, and one CLI call (`read_file` of a one-line file), each
 * measured in this tree and, with `--baseline DIR`, in another checkout (e.g.
 * a `git worktree` of main set up with `deno task setup`), interleaved so
 * that both see the same load.
 *
 * Rows: `await import()` of src/workspace.ts, src/tools/dispatch.ts,
 * src/tools/catalogue.ts and the Deno CLI entry (time inside the process,
 * `bench/_import_child.ts`), a trivial `deno run` (wall), and `deno run` of
 * the CLI on `call read_file` (wall, what bin/graver runs).
 *
 *   deno run -A bench/start_cost.bench.ts [--runs N] [--baseline DIR]
 *
 * @module
 */
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, machine, printTable, result, ROOT, runsArg, stats } from "./_util.ts";

const RUNS = runsArg(Deno.args, 7);
const at = Deno.args.indexOf("--baseline");
const BASELINE = at === -1 ? null : resolve(Deno.args[at + 1] ?? "");
const CHILD = join(ROOT, "bench", "_import_child.ts");
const MODULES = [
  "src/workspace.ts",
  "src/tools/dispatch.ts",
  "src/tools/catalogue.ts",
  "src/adapters/deno/cli.ts",
];

/** One measured thing: a label and how to time it once in a tree. */
interface Case {
  label: string;
  time(tree: string): Promise<number>;
}

async function run(args: string[]): Promise<{ ms: number; out: string }> {
  const start = performance.now();
  const out = await new Deno.Command(Deno.execPath(), { args, stdout: "piped", stderr: "piped" }).output();
  const elapsed = performance.now() - start;
  const text = new TextDecoder().decode(out.stdout);
  if (out.code !== 0) {
    throw new Error(`deno ${args.join(" ")} exited ${out.code}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return { ms: elapsed, out: text };
}

const root = await Deno.makeTempDir({ prefix: "graver-bench-start-" });
try {
  await Deno.writeTextFile(`${root}/a.py`, "x = 1\n");
  const cases: Case[] = [
    ...MODULES.map((m): Case => ({
      label: `import ${m} (in process)`,
      time: async (tree) => {
        const url = pathToFileURL(join(tree, m)).href;
        return Number((await run(["run", "-A", "--config", join(tree, "deno.json"), CHILD, url])).out.trim());
      },
    })),
    {
      label: "trivial deno run (wall)",
      time: async (tree) => (await run(["run", "-A", "--config", join(tree, "deno.json"), CHILD])).ms,
    },
    {
      label: "CLI call read_file (wall)",
      time: async (tree) => {
        const r = await run([
          "run",
          "-A",
          "--config",
          join(tree, "deno.json"),
          join(tree, "src/adapters/deno/cli.ts"),
          "call",
          "read_file",
          '{"path":"a.py"}',
          "--root",
          root,
        ]);
        if (JSON.parse(r.out).data.content !== "1\tx = 1") {
          throw new Error("read_file read the wrong content");
        }
        return r.ms;
      },
    },
  ];
  const trees = BASELINE ? [ROOT, BASELINE] : [ROOT];
  for (const c of cases) for (const t of trees) await c.time(t); // warm up: module cache, disk
  const samples = cases.map(() => trees.map(() => [] as number[]));
  for (let i = 0; i < RUNS; i++) {
    for (let k = 0; k < cases.length; k++) {
      for (let t = 0; t < trees.length; t++) samples[k]![t]!.push(await cases[k]!.time(trees[t]!));
    }
  }
  console.log(`# Start cost, fresh process each (${machine()})\n`);
  const header = BASELINE
    ? ["what", "this tree", `baseline (${BASELINE})`, "this / baseline"]
    : ["what", "this tree"];
  const rows = cases.map((c, k) => {
    const s = samples[k]!.map(stats);
    return BASELINE
      ? [c.label, describe(s[0]!), describe(s[1]!), `${(s[0]!.median / s[1]!.median).toFixed(2)}×`]
      : [c.label, describe(s[0]!)];
  });
  printTable([header, ...rows]);
  console.log("");
  const med = (k: number, t: number) => stats(samples[k]![t]!).median;
  const cli = cases.length - 1;
  result(
    "start cost",
    `import src/workspace.ts ${med(0, 0).toFixed(0)} ms, CLI read_file ${
      med(cli, 0).toFixed(0)
    } ms (goal ≤ 300 ms)${
      BASELINE
        ? `; baseline ${med(0, 1).toFixed(0)} ms and ${med(cli, 1).toFixed(0)} ms (${
          (med(0, 0) / med(0, 1)).toFixed(2)
        }× and ${(med(cli, 0) / med(cli, 1)).toFixed(2)}×)`
        : ""
    }`,
  );
} finally {
  await Deno.remove(root, { recursive: true });
}
