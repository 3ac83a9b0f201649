/**
 * How far a JavaScript grep can go on this machine: the floor of a cold `graver grep -F` in a fresh Deno
 * process, against `rg` and the runtime's own start, in one run (interleaved, medians). In hono's package
 * (577 files), each run times, as whole processes:
 *
 * - `rg -F PATTERN` (with the ignore flags bench/search_text.bench.ts gives it);
 * - an empty `deno run` (the runtime's start: nothing imported);
 * - the floor, `_grep_floor_child.ts`: `Deno.readDirSync`, `Deno.readFileSync`, `indexOf`, the lines printed
 *   — no ignore rules, no guards, no versions;
 * - the floor with graver's read guard (`--guarded`: `node:fs` loaded, each file opened with `O_NONBLOCK` and
 *   `O_NOFOLLOW`, its type checked, read, closed);
 * - `bin/graver grep -F PATTERN` and `bin/graver --version` (the goal: grep ≤ rg + graver's process start).
 *
 * The floor's output is checked equal to rg's (sorted) first. Ratios are of medians from the same run.
 *
 *   deno run -A bench/grep_floor.ts [--runs N]
 *
 * @module
 */
import { RG_SAME_IGNORES } from "../tests/unit/search/_rg.ts";
import { describe, machine, printTable, result, ROOT, runsArg, stats } from "./_util.ts";

const RUNS = runsArg(Deno.args, 9);
const PATTERN = "createElement";
const root = Deno.realPathSync(`${ROOT}node_modules/hono`);
const deno = Deno.execPath();
const config = ["--config", `${ROOT}deno.json`];
const floorChild = ["run", "-A", ...config, `${ROOT}bench/_grep_floor_child.ts`, PATTERN];

/** What each contender runs, by name. */
const CONTENDERS: Record<string, [string, string[]]> = {
  rg: ["rg", [...RG_SAME_IGNORES, "-n", "--column", "--no-heading", "--color", "never", "-F", PATTERN]],
  "deno run (empty)": [deno, ["run", "-A", ...config, `${ROOT}bench/_import_child.ts`]],
  floor: [deno, floorChild],
  "floor, guarded reads": [deno, [...floorChild, "--guarded"]],
  "bin/graver grep -F": [`${ROOT}bin/graver`, ["grep", "-F", PATTERN]],
  "bin/graver --version": [`${ROOT}bin/graver`, ["--version"]],
};

/** One process: its wall time, its stdout, and the floor's own figures from stderr (none for the others). */
async function run(name: string): Promise<{ ms: number; out: string; inner: Record<string, number> }> {
  const [cmd, args] = CONTENDERS[name]!;
  const t = performance.now();
  const got = await new Deno.Command(cmd, { args, cwd: root, stdout: "piped", stderr: "piped" }).output();
  const ms = performance.now() - t;
  const err = new TextDecoder().decode(got.stderr).trim();
  const inner = name.startsWith("floor") ? JSON.parse(err) as Record<string, number> : {};
  return { ms, out: new TextDecoder().decode(got.stdout), inner };
}

/** Sorted lines, so that rg's thread order does not matter. */
const sorted = (text: string) => text.split("\n").filter((l) => l !== "").sort().join("\n");

const want = sorted((await run("rg")).out);
for (const name of ["floor", "floor, guarded reads", "bin/graver grep -F"]) {
  if (sorted((await run(name)).out) !== want) throw new Error(`${name} does not print what rg prints`);
}
const wall: Record<string, number[]> = {};
const inner: Record<string, number[]> = {};
for (let i = 0; i < RUNS; i++) {
  for (const name of Object.keys(CONTENDERS)) {
    const got = await run(name);
    (wall[name] ??= []).push(got.ms);
    for (const [k, v] of Object.entries(got.inner)) (inner[`${name}: ${k}`] ??= []).push(v);
  }
}
const m = (name: string) => stats(wall[name]!).median;
const mi = (key: string) => stats(inner[key]!).median;

console.log(
  `# the floor of a cold JavaScript grep (${machine()}; hono, 577 files; -F ${PATTERN}; ${RUNS} runs)\n`,
);
printTable([
  ["process", "wall"],
  ...Object.keys(CONTENDERS).map((name) => [name, describe(stats(wall[name]!))]),
]);
console.log();
printTable([
  ["inside the floor's process (median ms)", "plain", "guarded reads"],
  ["walk, read, scan, print", mi("floor: work").toFixed(1), mi("floor, guarded reads: work").toFixed(1)],
  ["import of node:fs", "-", mi("floor, guarded reads: node_fs").toFixed(1)],
]);
console.log();
const empty = m("deno run (empty)");
const budget = m("rg") + m("bin/graver --version");
result("floor / rg (whole processes)", `${(m("floor") / m("rg")).toFixed(2)}×`);
result("floor's work in process / rg's whole process", `${(mi("floor: work") / m("rg")).toFixed(2)}×`);
result("floor − empty deno run / rg", `${((m("floor") - empty) / m("rg")).toFixed(2)}×`);
result("floor, guarded reads / floor", `${(m("floor, guarded reads") / m("floor")).toFixed(2)}×`);
result("bin/graver grep / floor", `${(m("bin/graver grep -F") / m("floor")).toFixed(2)}×`);
result(
  "bin/graver grep / (rg + bin/graver --version): the goal",
  `${(m("bin/graver grep -F") / budget).toFixed(2)}× (${m("bin/graver grep -F").toFixed(0)} ms vs ${
    budget.toFixed(0)
  } ms)`,
);
result(
  "graver's grep beyond its start (grep − --version) / rg",
  `${((m("bin/graver grep -F") - m("bin/graver --version")) / m("rg")).toFixed(2)}× (${
    (m("bin/graver grep -F") - m("bin/graver --version")).toFixed(0)
  } ms vs ${m("rg").toFixed(1)} ms)`,
);
