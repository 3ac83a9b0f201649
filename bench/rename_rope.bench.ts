/**
 * Benchmark: Python rename against rope.
 *
 * The code base: the `email` package of Debian's Python 3.11 standard library
 * (`/usr/lib/python3.11/email`, 29 files, ~10,000 lines: relative and
 * absolute imports inside the package, classes, `self.x`), copied to a
 * temporary directory and into a memory workspace. The oracle: Debian's
 * `python3-rope` (rope 1.7.0; `apt-get install python3-rope`), through
 * `bench/_rope_oracle.py`: `rope.contrib.findit.find_occurrences` (what its
 * Rename uses; unsure occurrences excluded) at each declaration.
 *
 * 1. Precision and recall per symbol on a deterministic sample of
 *    declarations (module-level names, locals, parameters; class members
 *    separately), compared as (file, UTF-16 offset).
 * 2. Cold rename: a fresh rope Project and `Rename(...).get_changes` (timed
 *    inside Python, imports excluded) vs a fresh workspace and an
 *    `edit_rename_symbol` dry run (after a warm-up round), same symbols.
 *
 * `--hierarchy` asks rope for a member's occurrences along its class hierarchy (`in_hierarchy=True`, as its
 * Rename offers): the overrides in subclasses that graver's search includes, as the TypeScript service does.
 *
 * Skips (exit 0) when Python's email package or rope is missing.
 * Run: `deno run -A bench/rename_rope.bench.ts [--sample N] [--runs N] [--hierarchy] [--verbose]`.
 * Writes the per-symbol table to `bench/results/rename_rope.tsv`.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { promises as fsp } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { createWasmLoader } from "../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../src/fs/memory_backend.ts";
import { Stage } from "../src/fs/stage.ts";
import { findReferences } from "../src/structural/references/references.ts";
import { fileBindings } from "../src/syntax/bindings.ts";
import { createWorkspace } from "../src/workspace.ts";
import { describe, ROOT, stats } from "./_util.ts";

const args = Deno.args;
const flag = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const SAMPLE = flag("--sample", 150);
const RUNS = flag("--runs", 3);
const VERBOSE = args.includes("--verbose");
const PYTHON = "/usr/bin/python3";
const SOURCE = "/usr/lib/python3.11/email";
const ORACLE = join(ROOT, "bench/_rope_oracle.py");

const probe = spawnSync(PYTHON, ["-c", "import rope; print(rope.VERSION)"], { encoding: "utf8" });
let haveSource = true;
try {
  await fsp.stat(SOURCE);
} catch {
  haveSource = false;
}
if (probe.status !== 0 || !haveSource) {
  console.log(`skipped: needs ${SOURCE} and rope for ${PYTHON} (apt-get install python3-rope)`);
  console.log("RESULT rename_rope: skipped (no rope or no Python email package)");
  Deno.exit(0);
}
const ropeVersion = probe.stdout.trim();

const files = new Map<string, string>();
async function collect(dir: string): Promise<void> {
  for await (const e of await fsp.opendir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory() && e.name !== "__pycache__") await collect(p);
    else if (e.name.endsWith(".py")) {
      files.set(`email/${relative(SOURCE, p).replaceAll("\\", "/")}`, await fsp.readFile(p, "utf8"));
    }
  }
}
await collect(SOURCE);
const root = await fsp.mkdtemp(join(tmpdir(), "graver-rope-"));
for (const [rel, text] of files) {
  await fsp.mkdir(join(root, rel, ".."), { recursive: true });
  await fsp.writeFile(join(root, rel), text);
}
const lines = [...files.values()].reduce((n, t) => n + t.split("\n").length, 0);
console.log(`# Python rename vs rope\n`);
console.log(`code base: ${SOURCE} (Debian python3.11) — ${files.size} files, ${lines} lines`);
console.log(`oracle: rope ${ropeVersion} (Debian python3-rope) find_occurrences\n`);

const memFiles = () => Object.fromEntries([...files].map(([rel, text]) => [`/${rel}`, text]));
const ws = await createWorkspace({ backend: createMemoryBackend(memFiles()), wasm: createWasmLoader() });

interface Pick {
  path: string;
  offset: number;
  name: string;
  category: "module" | "local" | "parameter" | "member";
}
const all: Pick[] = [];
const stage = new Stage(ws.fs, ws.sandbox);
for (const rel of [...files.keys()].sort()) {
  const t = await stage.readText(rel);
  const fb = await fileBindings(ws, { path: rel, language: "python", version: t.version, text: t.text });
  if (!fb) continue;
  const seen = new Set<object>();
  for (const o of fb.occurrences) {
    if (o.kind !== "definition" || !o.binding || o.binding.kind === "import" || seen.has(o.binding)) continue;
    seen.add(o.binding);
    const scope = o.binding.scope;
    const category = scope.kind === "class"
      ? "member"
      : scope.kind === "module"
      ? "module"
      : o.binding.kind === "parameter"
      ? "parameter"
      : "local";
    if (o.name === "self" || o.name === "cls") continue;
    all.push({ path: rel, offset: o.start, name: o.name, category });
  }
}
const step = Math.max(1, Math.floor(all.length / SAMPLE));
const sample = all.filter((_, i) => i % step === 0).slice(0, SAMPLE);
console.log(
  `sample: every ${step}th of ${all.length} declarations (first occurrence of each) -> ${sample.length} symbols\n`,
);

function rope(request: unknown): unknown {
  const res = spawnSync(PYTHON, [ORACLE], {
    input: JSON.stringify(request),
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (res.status !== 0) throw new Error(`rope failed: ${res.stderr}`);
  return JSON.parse(res.stdout);
}
const HIERARCHY = args.includes("--hierarchy");
const answers = rope({
  root,
  queries: sample.map((p) => ({
    path: p.path,
    offset: p.offset,
    ...(HIERARCHY && p.category === "member" ? { in_hierarchy: true } : {}),
  })),
}) as (
  | { sites: string[] }
  | { error: string }
)[];

function lineCol(text: string, offset: number): { line: number; column: number } {
  return {
    line: text.slice(0, offset).split("\n").length,
    column: offset - (text.lastIndexOf("\n", offset - 1) + 1) + 1,
  };
}

/**
 * Whether a site is an entry of its module's `__all__` (`__all__ = ['a', ...]`): graver renames those (a stale
 * entry breaks `from m import *`); rope's occurrences, and its Rename, leave them out. Counted apart.
 */
function inAll(text: string, offset: number): boolean {
  const at = text.lastIndexOf("__all__", offset);
  return at >= 0 && /^['"]$/.test(text[offset - 1] ?? "") &&
    /^__all__\s*\+?=\s*[[(][^\])]*$/.test(text.slice(at, offset));
}
let allEntries = 0;

const table: string[] = ["category\tpath\tname\tgraver\trope\tcommon\tprecision\trecall\tmissed\textra"];
const byCat = new Map<string, { ours: number; theirs: number; common: number; n: number; exact: number }>();
let ropeErrors = 0;
const ropeEmpty: string[] = [];
for (let i = 0; i < sample.length; i++) {
  const pick = sample[i]!;
  const answer = answers[i]!;
  if ("error" in answer) {
    ropeErrors++;
    if (VERBOSE) console.log(`rope refused ${pick.path} ${pick.name}: ${answer.error}`);
    continue;
  }
  const theirs = new Set(answer.sites);
  if (theirs.size === 0) {
    // rope finds nothing, not even the declaration (keyword-only parameters, comprehension variables): no verdict.
    ropeEmpty.push(`${pick.path} ${pick.name}`);
    continue;
  }
  let ours = new Set<string>();
  try {
    const found = await findReferences(
      ws,
      new Stage(ws.fs, ws.sandbox),
      { path: pick.path, target: lineCol(files.get(pick.path)!, pick.offset), tool: "bench" },
    );
    ours = new Set(found.sites.map((s) => `${s.path}:${s.start}`));
    for (const s of found.sites) {
      const key = `${s.path}:${s.start}`;
      if (!theirs.has(key) && inAll(files.get(s.path)!, s.start)) {
        ours.delete(key);
        allEntries++;
      }
    }
  } catch (e) {
    if (VERBOSE) console.log(`graver refused ${pick.path} ${pick.name}: ${(e as Error).message}`);
  }
  const common = [...ours].filter((k) => theirs.has(k)).length;
  const missed = [...theirs].filter((k) => !ours.has(k));
  const extra = [...ours].filter((k) => !theirs.has(k));
  for (const cat of [pick.category, "all", ...(pick.category === "member" ? [] : ["bindings"])]) {
    const c = byCat.get(cat) ?? { ours: 0, theirs: 0, common: 0, n: 0, exact: 0 };
    c.ours += ours.size;
    c.theirs += theirs.size;
    c.common += common;
    c.n++;
    if (missed.length === 0 && extra.length === 0) c.exact++;
    byCat.set(cat, c);
  }
  table.push(
    [
      pick.category,
      pick.path,
      pick.name,
      ours.size,
      theirs.size,
      common,
      ours.size ? (common / ours.size).toFixed(3) : "-",
      theirs.size ? (common / theirs.size).toFixed(3) : "-",
      missed.slice(0, 3).join(" "),
      extra.slice(0, 3).join(" "),
    ].join("\t"),
  );
  if (VERBOSE && (missed.length || extra.length)) {
    console.log(
      `${pick.category} ${pick.path} ${pick.name}: missed ${missed.slice(0, 4)} extra ${extra.slice(0, 4)}`,
    );
  }
}
await fsp.mkdir(join(ROOT, "bench/results"), { recursive: true });
await fsp.writeFile(join(ROOT, "bench/results/rename_rope.tsv"), table.join("\n") + "\n");
console.log("| symbols | n | exact | precision (sites) | recall (sites) |");
console.log("| --- | --- | --- | --- | --- |");
for (const cat of ["module", "local", "parameter", "bindings", "member", "all"]) {
  const c = byCat.get(cat);
  if (!c) continue;
  console.log(
    `| ${cat} | ${c.n} | ${c.exact} | ${(100 * c.common / Math.max(1, c.ours)).toFixed(2)}% | ${
      (100 * c.common / Math.max(1, c.theirs)).toFixed(2)
    }% |`,
  );
}
console.log(
  `\n${allEntries} sites graver renames are \`__all__\` entries, which rope leaves out (its Rename leaves them stale): counted apart, not as extra sites`,
);
console.log(
  `\nrope refused ${ropeErrors} and found no occurrence at all (not even the declaration) for ${ropeEmpty.length} of ${sample.length} (left out: ${
    ropeEmpty.join(", ")
  }); per-symbol table: bench/results/rename_rope.tsv\n`,
);

// ---- cold rename
const HEAVY: [string, string][] = [
  ["email/message.py", "Message"],
  ["email/charset.py", "Charset"],
  ["email/errors.py", "HeaderParseError"],
];
const cold = [
  ...HEAVY.map(([path, name]) => all.find((p) => p.path === path && p.name === name)).filter((p) =>
    p !== undefined
  ),
  sample.find((p) => p.category === "module")!,
];
const oursMs = new Map<Pick, number[]>(cold.map((p) => [p, []]));
const theirsMs = new Map<Pick, number[]>(cold.map((p) => [p, []]));
for (let run = 0; run <= RUNS; run++) {
  for (const pick of cold) {
    const backend = createMemoryBackend(memFiles());
    const t0 = performance.now();
    const w = await createWorkspace({ backend, wasm: createWasmLoader() });
    const res = await w.call("edit_rename_symbol", {
      path: pick.path,
      target: lineCol(files.get(pick.path)!, pick.offset),
      new_name: `${pick.name}_renamed`,
      dry_run: true,
    });
    const dt = performance.now() - t0;
    if (!res.ok) console.log(`graver refused the cold rename of ${pick.name}: ${res.error.message}`);
    await w.close();
    const r = rope({
      root,
      rename: { path: pick.path, offset: pick.offset, new_name: `${pick.name}_renamed` },
    }) as {
      ms: number;
    };
    if (run > 0) {
      oursMs.get(pick)!.push(dt);
      theirsMs.get(pick)!.push(r.ms);
    }
  }
}
console.log(
  `cold rename (new workspace + edit_rename_symbol dry run | new rope Project + Rename.get_changes), ${RUNS} runs:\n`,
);
console.log("| symbol | graver | rope | ratio |");
console.log("| --- | --- | --- | --- |");
let sumOurs = 0;
let sumTheirs = 0;
for (const pick of cold) {
  const o = stats(oursMs.get(pick)!);
  const t = stats(theirsMs.get(pick)!);
  sumOurs += o.median;
  sumTheirs += t.median;
  console.log(`| ${pick.name} | ${describe(o)} | ${describe(t)} | ${(t.median / o.median).toFixed(1)}× |`);
}
await fsp.rm(root, { recursive: true, force: true });
const b = byCat.get("bindings")!;
const precision = 100 * b.common / Math.max(1, b.ours);
const recall = 100 * b.common / Math.max(1, b.theirs);
console.log(
  `\nRESULT rename_rope: bindings precision ${precision.toFixed(2)}% recall ${
    recall.toFixed(2)
  }% over ${b.n} symbols (goal ≥ 99% / ≥ 98%: ${precision >= 99 && recall >= 98 ? "met" : "NOT met"})`,
);
console.log(
  `RESULT rename_rope_cold: graver ${
    (sumTheirs / sumOurs).toFixed(1)
  }× faster than rope (all ${cold.length} renames: ${sumOurs.toFixed(0)} ms vs ${sumTheirs.toFixed(0)} ms)`,
);
