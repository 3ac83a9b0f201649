/**
 * A structural search of a pathological file: one call chain N links long (`a.b().b()….b();`, default
 * 20,000), the tree 2N levels deep, searched for `$A.b()` (N matches, each holding the ones before it) with
 * `output_mode: "count"`, through a fresh workspace on disk — against `ast-grep run -p` on the same file in the
 * same run (its matches counted from `--json=stream`, one line each).
 *
 *   AST_GREP=tools/node_modules/.bin/ast-grep deno run -A bench/deep_chain.bench.ts [--links N] [--runs R]
 *
 * @module
 */
import { createDiskBackend, createWasmLoader } from "../src/adapters/deno/mod.ts";
import { createWorkspace } from "../src/mod.ts";
import { machine, result, runsArg, stats } from "./_util.ts";

const at = Deno.args.indexOf("--links");
const LINKS = at >= 0 ? Number(Deno.args[at + 1]) : 20_000;
const RUNS = runsArg(Deno.args, 3);
const AST_GREP = Deno.env.get("AST_GREP");

/** graver's count of `$A.b()` in a fresh workspace over `root`, and the wall time it took. */
async function graverOnce(root: string): Promise<{ ms: number; count: number }> {
  const t = performance.now();
  const ws = await createWorkspace({ backend: createDiskBackend(), root, wasm: createWasmLoader() });
  try {
    const r = await ws.call("search_structural", { pattern: "$A.b()", language: "js", output_mode: "count" });
    if (!r.ok) throw new Error(JSON.stringify(r));
    const counts = (r.data as { counts: { count: number }[] }).counts;
    return { ms: performance.now() - t, count: counts.reduce((n, f) => n + f.count, 0) };
  } finally {
    await ws.close();
  }
}

/** ast-grep's count of the same matches in one process, and its wall time. */
async function astGrepOnce(bin: string, root: string): Promise<{ ms: number; count: number }> {
  const t = performance.now();
  const out = await new Deno.Command(bin, {
    args: ["run", "-p", "$A.b()", "--lang", "js", "--json=stream", "."],
    cwd: root,
    stdout: "piped",
    stderr: "null",
  }).output();
  const ms = performance.now() - t;
  let count = 0;
  for (const byte of out.stdout) if (byte === 10) count++;
  return { ms, count };
}

const root = await Deno.makeTempDir({ prefix: "graver-deep-chain-" });
try {
  await Deno.writeTextFile(`${root}/chain.js`, "a" + ".b()".repeat(LINKS) + ";\n");
  console.log(`# a ${LINKS.toLocaleString("en")}-link call chain (${machine()})\n`);
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const g = await graverOnce(root);
    if (g.count !== LINKS) throw new Error(`graver counted ${g.count} matches, not ${LINKS}`);
    ours.push(g.ms);
    if (!AST_GREP) continue;
    const a = await astGrepOnce(AST_GREP, root);
    if (a.count !== LINKS) throw new Error(`ast-grep counted ${a.count} matches, not ${LINKS}`);
    theirs.push(a.ms);
  }
  const g = stats(ours).median;
  console.log(`graver search_structural, count: median ${g.toFixed(0)} ms over ${RUNS} runs`);
  if (theirs.length > 0) {
    const a = stats(theirs).median;
    console.log(`ast-grep run -p, JSON stream: median ${a.toFixed(0)} ms`);
    result("deep call chain, graver / ast-grep", `${(g / a).toFixed(3)}× (${LINKS} links)`);
  } else console.log("(set AST_GREP to compare with ast-grep)");
} finally {
  await Deno.remove(root, { recursive: true });
}
