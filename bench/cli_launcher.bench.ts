/**
 * One CLI call as an agent pays it, by the three documented ways in: the
 * `bin/graver` launcher `deno task setup` writes (the set-up's Deno binary run
 * directly on the CLI entry), `deno task graver` (the task runner first), and
 * the README's set-up path `npx -y deno@2.9.6 task graver` (npx resolving the
 * package first). Each call is `read_file` of a one-line file in a fresh
 * process, checked for the right content; the three are interleaved.
 *
 * Goal (issue 15): one call through the fast path ≤ 0.3 s.
 *
 *   deno run -A bench/cli_launcher.bench.ts [--runs N]
 *
 * @module
 */
import { describe, machine, printTable, result, ROOT, runsArg, stats } from "./_util.ts";
import { installLauncher } from "../scripts/launcher.ts";

const RUNS = runsArg(Deno.args, 7);

const root = await Deno.makeTempDir();
try {
  await Deno.writeTextFile(`${root}/a.py`, "x = 1\n");
  // The launcher as `deno task setup` writes it, for the Deno running this benchmark.
  const launcher = `${root}/bin/graver`;
  await installLauncher(launcher, ROOT, Deno.execPath());
  const args = ["call", "read_file", '{"path":"a.py"}', "--root", root];
  const ways: { name: string; cmd: string; args: string[] }[] = [
    { name: "bin/graver (launcher)", cmd: launcher, args },
    {
      name: "deno task graver",
      cmd: Deno.execPath(),
      args: ["task", "-q", "--config", `${ROOT}deno.json`, "graver", ...args],
    },
    {
      name: "npx -y deno@2.9.6 task graver",
      cmd: "npx",
      args: ["-y", "deno@2.9.6", "task", "-q", "--config", `${ROOT}deno.json`, "graver", ...args],
    },
  ];
  const time = async (w: (typeof ways)[number]): Promise<number> => {
    const start = performance.now();
    const out = await new Deno.Command(w.cmd, { args: w.args, stdout: "piped", stderr: "piped" }).output();
    const elapsed = performance.now() - start;
    const text = new TextDecoder().decode(out.stdout);
    if (out.code !== 0) throw new Error(`${w.name} exited ${out.code}: ${text}`);
    if (JSON.parse(text).data.content !== "1\tx = 1") throw new Error(`${w.name} read the wrong content`);
    return elapsed;
  };
  for (const w of ways) await time(w); // warm up: module cache, npx cache, disk
  const ms = ways.map(() => [] as number[]);
  for (let i = 0; i < RUNS; i++) for (let k = 0; k < ways.length; k++) ms[k]!.push(await time(ways[k]!));
  const s = ms.map(stats);
  console.log(`# One CLI call (read_file), fresh process each (${machine()})\n`);
  printTable([
    ["way in", "wall time per call", "× the launcher"],
    ...ways.map((w, k) => [w.name, describe(s[k]!), `${(s[k]!.median / s[0]!.median).toFixed(2)}×`]),
  ]);
  console.log("");
  result(
    "cli launcher",
    `read_file through bin/graver ${s[0]!.median.toFixed(0)} ms (goal ≤ 300 ms: ${
      s[0]!.median <= 300 ? "met" : "NOT met"
    }); deno task graver ${s[1]!.median.toFixed(0)} ms (${
      (s[1]!.median / s[0]!.median).toFixed(2)
    }×), npx -y deno@2.9.6 task graver ${s[2]!.median.toFixed(0)} ms (${
      (s[2]!.median / s[0]!.median).toFixed(2)
    }×)`,
  );
} finally {
  await Deno.remove(root, { recursive: true });
}
