/**
 * `graver sg -p` in a fresh process, as a user or a script runs it, against an `ast-grep run -p` process for
 * the same pattern on the same tree (hono's published package, its JavaScript files), and against
 * `graver --version` (the process start alone); optionally against another checkout of graver
 * (`--against DIR`, a worktree whose `wasm/` and `grammars/wasm/` are set up), to measure a change. Each
 * command's output is checked: the same match lines from both graver checkouts, as many matches as
 * ast-grep's. Runs interleaved; medians.
 *
 *   deno run -A bench/cli_sg.bench.ts [--runs N] [--against DIR]
 *
 * No goal of its own: issue 24's goals are for a search inside a process (`search_structural.bench.ts`); this
 * is what the one-shot command costs, start included.
 *
 * @module
 */
import { astGrepOrExit } from "./_structural.ts";
import { describe, machine, printTable, result, ROOT, runsArg, stats } from "./_util.ts";

const RUNS = runsArg(Deno.args, 7);
const at = Deno.args.indexOf("--against");
const AGAINST = at === -1 ? null : Deno.args[at + 1] ?? null;
const TREE = Deno.realPathSync(`${ROOT}node_modules/hono`);
const PATTERNS = ["c.req.header($A)", "return $X"];

/** One run of a command in the tree: its wall time and output, after checking its exit code. */
async function timed(cmd: string, args: string[], ok: number[] = [0]): Promise<{ ms: number; out: string }> {
  const start = performance.now();
  const run = await new Deno.Command(cmd, { args, cwd: TREE, stdout: "piped", stderr: "piped" }).output();
  const ms = performance.now() - start;
  if (!ok.includes(run.code)) {
    throw new Error(`${cmd} ${args.join(" ")} exited ${run.code}: ${new TextDecoder().decode(run.stderr)}`);
  }
  return { ms, out: new TextDecoder().decode(run.stdout) };
}

/** graver's CLI of a checkout, run by this Deno with that checkout's config. */
function graver(checkout: string, args: string[]) {
  return timed(Deno.execPath(), [
    "run",
    "-A",
    "--config",
    `${checkout}/deno.json`,
    `${checkout}/src/adapters/deno/cli.ts`,
    ...args,
  ]);
}

const bin = await astGrepOrExit("cli_sg.bench.ts");
const here = ROOT.replace(/\/$/, "");
const rows: string[][] = [["command", "this checkout", ...(AGAINST ? ["--against"] : []), "ast-grep"]];
console.log(`# graver sg in a fresh process (${machine()})\n\nhono: ${TREE}\n`);
for (const pattern of PATTERNS) {
  const args = ["sg", "-p", pattern, "--lang", "js"];
  const theirs = () => timed(bin, ["run", "-p", pattern, "--lang", "js", "."]);
  const ours = await graver(here, args);
  const count = ours.out.split("\n").filter((l) => /^\S+:\d+:\d+:/.test(l)).length;
  const sg = (await theirs()).out.split("\n").filter((l) => /^\S+:\d+:/.test(l)).length;
  if (count === 0) throw new Error(`graver found nothing for ${pattern}`);
  if (AGAINST && (await graver(AGAINST, args)).out !== ours.out) {
    throw new Error(`the checkouts differ on ${pattern}`);
  }
  const [mine, other, native] = [[] as number[], [] as number[], [] as number[]];
  for (let i = 0; i < RUNS; i++) {
    mine.push((await graver(here, args)).ms);
    if (AGAINST) other.push((await graver(AGAINST, args)).ms);
    native.push((await theirs()).ms);
  }
  const m = stats(mine);
  rows.push([
    `sg -p '${pattern}' (${count} matches; ast-grep prints ${sg} lines)`,
    describe(m),
    ...(AGAINST ? [describe(stats(other))] : []),
    describe(stats(native)),
  ]);
  result(
    `cli sg ${pattern}`,
    `${m.median.toFixed(0)} ms, ${(m.median / stats(native).median).toFixed(2)}× ast-grep${
      AGAINST ? `, ${(m.median / stats(other).median).toFixed(2)}× --against` : ""
    }`,
  );
}
const start = [] as number[];
const startOther = [] as number[];
for (let i = 0; i < RUNS; i++) {
  start.push((await graver(here, ["--version"])).ms);
  if (AGAINST) startOther.push((await graver(AGAINST, ["--version"])).ms);
}
rows.push([
  "--version (the start)",
  describe(stats(start)),
  ...(AGAINST ? [describe(stats(startOther))] : []),
  "—",
]);
console.log("");
printTable(rows);
