/**
 * Benchmark: rename against the TypeScript language service.
 *
 * The code base: the 251 `.ts` sources rxjs@7.8.2 ships in `src/` (pinned in
 * deno.json, under `node_modules/rxjs/src/`), loaded into a memory workspace.
 * The oracle: typescript@5.9.3's in-process
 * `createLanguageService().findRenameLocations` (no prefix/suffix text, no
 * strings or comments), over the same files with rxjs's own compiler options.
 *
 * 1. Precision and recall per symbol: a deterministic sample of declarations
 *    (module-level names, locals, parameters; and separately class members),
 *    graver's find_references sites vs the language service's rename
 *    locations, compared as (file, offset). Goals: ≥ 99% precision, ≥ 98% recall.
 *    `--picks-out FILE` saves the sample, `--picks FILE` measures a saved one: the same symbols before and
 *    after a change that adds declarations (which moves the every-k-th sampling);
 *    `bench/results/rename_oracle_picks_2026-11-23.json` is the sample of the first figures (200 of the 4,634
 *    declarations graver saw then). `--aliases` asks the service for the rename an editor makes by default
 *    (`providePrefixAndSuffixTextForRename`, VS Code's `typescript.preferences.useAliasesForRenames`): a
 *    shorthand `const { x } = this` then keeps its variable (`{ y: x }`), as graver's rename does, instead of
 *    renaming the variable and its uses with the member.
 * 2. Cold project rename: a fresh workspace over the files (already in a
 *    memory backend, as the language service's host already holds them) and
 *    an `edit_rename_symbol` dry run, vs a fresh language service and
 *    `findRenameLocations`, for the same symbols, interleaved; both after the
 *    warm-up of part 1 (same JIT state). Two sets of symbols: a deterministic
 *    sample of exported module-level names (`--cold-sample N`, default 12: the
 *    typical project rename) and the three most used names (the worst case).
 *    Goal: graver ≥ 5× faster.
 *
 * 3. The same renames, each side in a fresh process (`bench/_rename_cold_child.ts`:
 *    files in memory, modules imported, then timed: wasm, JIT and caches cold).
 *
 * Run: `deno run -A bench/rename_oracle.bench.ts [--sample N] [--runs N] [--process-runs N] [--cold-sample N]
 * [--picks-out FILE | --picks FILE] [--aliases] [--verbose]` (`--process-runs 0` leaves part 3 out).
 * Writes the per-symbol table to `bench/results/rename_oracle.tsv`.
 *
 * @module
 */
import ts from "typescript";
import { spawnSync } from "node:child_process";
import { promises as fsp } from "node:fs";
import { join, relative } from "node:path";
import { createWasmLoader } from "../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../src/fs/memory_backend.ts";
import { Stage } from "../src/fs/stage.ts";
import { fileBindings } from "../src/syntax/bindings.ts";
import { findReferences } from "../src/structural/references/references.ts";
import { createWorkspace, type Workspace } from "../src/workspace.ts";
import { describe, ROOT, stats } from "./_util.ts";
import { rxjsCompilerOptions } from "./_ts_checker.ts";

const args = Deno.args;
const flag = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const SAMPLE = flag("--sample", 200);
const RUNS = flag("--runs", 3);
const VERBOSE = args.includes("--verbose");
const ALIASES = args.includes("--aliases");
const PROCESS_RUNS = flag("--process-runs", 2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const PICKS_IN = option("--picks");
const PICKS_OUT = option("--picks-out");

const SRC = join(ROOT, "node_modules/rxjs/src");
const files = new Map<string, string>();
async function collect(dir: string): Promise<void> {
  for await (const e of await fsp.opendir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory()) await collect(p);
    else if (e.name.endsWith(".ts")) {
      files.set(relative(SRC, p).replaceAll("\\", "/"), await fsp.readFile(p, "utf8"));
    }
  }
}
await collect(SRC);
const bytes = [...files.values()].reduce((n, t) => n + t.length, 0);
console.log(`# rename vs the TypeScript language service\n`);
console.log(`code base: rxjs@7.8.2 src/ — ${files.size} .ts files, ${(bytes / 1024).toFixed(0)} KB`);
console.log(
  `oracle: typescript@${ts.version} LanguageService.findRenameLocations${
    ALIASES ? " (prefix and suffix text: an editor's rename)" : ""
  }\n`,
);

const memFiles = () => Object.fromEntries([...files].map(([rel, text]) => [`/${rel}`, text]));

// ---- the language service
const VROOT = "/rx/";
const OPTIONS: ts.CompilerOptions = rxjsCompilerOptions(VROOT);
function languageService(): ts.LanguageService {
  const names = [...files.keys()].map((f) => VROOT + f);
  const dirs = new Set<string>();
  for (const f of names) {
    for (let d = f.slice(0, f.lastIndexOf("/")); d.length > 1; d = d.slice(0, d.lastIndexOf("/"))) {
      dirs.add(d);
    }
  }
  const read = (f: string) => f.startsWith(VROOT) ? files.get(f.slice(VROOT.length)) : ts.sys.readFile(f);
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => names,
    getScriptVersion: () => "1",
    getScriptSnapshot: (f) => {
      const t = read(f);
      return t === undefined ? undefined : ts.ScriptSnapshot.fromString(t);
    },
    getCurrentDirectory: () => VROOT,
    getCompilationSettings: () => OPTIONS,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (f) => f.startsWith(VROOT) ? files.has(f.slice(VROOT.length)) : ts.sys.fileExists(f),
    readFile: read,
    directoryExists: (d) => d.startsWith(VROOT) ? dirs.has(d.replace(/\/$/, "")) : ts.sys.directoryExists(d),
    getDirectories: () => [],
  };
  return ts.createLanguageService(host, ts.createDocumentRegistry());
}
function oracle(ls: ts.LanguageService, rel: string, offset: number): Set<string> | null {
  const locs = ls.findRenameLocations(VROOT + rel, offset, false, false, {
    providePrefixAndSuffixTextForRename: ALIASES,
  });
  if (!locs) return null;
  return new Set(locs.map((l) => `${l.fileName.slice(VROOT.length)}:${l.textSpan.start}`));
}

// ---- graver
async function workspace(): Promise<Workspace> {
  return await createWorkspace({ backend: createMemoryBackend(memFiles()), wasm: createWasmLoader() });
}

// ---- the sample: every k-th declaration, by kind, in a fixed order
const ws = await workspace();
interface Pick {
  path: string;
  offset: number;
  name: string;
  category: "module" | "local" | "parameter" | "member";
  /** A module-level name the file exports (what other files may import: a project-wide search). */
  exported?: boolean;
}
const all: Pick[] = [];
const stage = new Stage(ws.fs, ws.sandbox);
for (const rel of [...files.keys()].sort()) {
  const t = await stage.readText(rel);
  const fb = await fileBindings(ws, { path: rel, language: "typescript", version: t.version, text: t.text });
  if (!fb) continue;
  for (const o of fb.occurrences) {
    if (o.kind === "member_definition") {
      all.push({ path: rel, offset: o.start, name: o.name, category: "member" });
    }
    if (o.kind !== "definition" || !o.binding || o.binding.kind === "import") continue;
    const category = o.binding.scope.kind === "module"
      ? "module"
      : o.binding.kind === "parameter"
      ? "parameter"
      : "local";
    const exported = category === "module" && fb.exports.some((e) => e.local === o.binding);
    all.push({ path: rel, offset: o.start, name: o.name, category, ...(exported ? { exported } : {}) });
  }
}
const step = Math.max(1, Math.floor(all.length / SAMPLE));
const sample: Pick[] = PICKS_IN
  ? JSON.parse(await fsp.readFile(PICKS_IN, "utf8"))
  : all.filter((_, i) => i % step === 0).slice(0, SAMPLE);
console.log(
  PICKS_IN
    ? `sample: ${sample.length} symbols saved in ${PICKS_IN} (${all.length} declarations now)\n`
    : `sample: every ${step}th of ${all.length} declarations -> ${sample.length} symbols\n`,
);
if (PICKS_OUT) await fsp.writeFile(PICKS_OUT, JSON.stringify(sample, null, 1) + "\n");

const ls = languageService();
interface Row {
  pick: Pick;
  ours: number;
  theirs: number;
  common: number;
  missed: string[];
  extra: string[];
}
const rows: Row[] = [];
for (const pick of sample) {
  const theirs = oracle(ls, pick.path, pick.offset);
  if (!theirs) continue;
  let ours: Set<string>;
  try {
    const found = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
      path: pick.path,
      target: {
        line: ws ? lineOf(files.get(pick.path)!, pick.offset) : 0,
        column: columnOf(files.get(pick.path)!, pick.offset),
      },
      tool: "bench",
    });
    ours = new Set(found.sites.map((s) => `${s.path}:${s.start}`));
  } catch (e) {
    if (VERBOSE) {
      console.log(`graver refused ${pick.path}:${pick.offset} ${pick.name}: ${(e as Error).message}`);
    }
    ours = new Set();
  }
  const common = [...ours].filter((k) => theirs.has(k)).length;
  rows.push({
    pick,
    ours: ours.size,
    theirs: theirs.size,
    common,
    missed: [...theirs].filter((k) => !ours.has(k)),
    extra: [...ours].filter((k) => !theirs.has(k)),
  });
}
function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split("\n").length;
}
function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf("\n", offset - 1) + 1) + 1;
}

const table: string[] = ["category\tpath\tname\tgraver\toracle\tcommon\tprecision\trecall\tmissed\textra"];
const byCat = new Map<string, { ours: number; theirs: number; common: number; n: number; exact: number }>();
for (const r of rows) {
  for (const cat of [r.pick.category, "all", ...(r.pick.category === "member" ? [] : ["bindings"])]) {
    const c = byCat.get(cat) ?? { ours: 0, theirs: 0, common: 0, n: 0, exact: 0 };
    c.ours += r.ours;
    c.theirs += r.theirs;
    c.common += r.common;
    c.n++;
    if (r.missed.length === 0 && r.extra.length === 0) c.exact++;
    byCat.set(cat, c);
  }
  table.push(
    [
      r.pick.category,
      r.pick.path,
      r.pick.name,
      r.ours,
      r.theirs,
      r.common,
      r.ours ? (r.common / r.ours).toFixed(3) : "-",
      r.theirs ? (r.common / r.theirs).toFixed(3) : "-",
      r.missed.slice(0, 3).join(" "),
      r.extra.slice(0, 3).join(" "),
    ].join("\t"),
  );
  if (VERBOSE && (r.missed.length || r.extra.length)) {
    console.log(
      `${r.pick.category} ${r.pick.path} ${r.pick.name}: missed ${r.missed.slice(0, 4)} extra ${
        r.extra.slice(0, 4)
      }`,
    );
  }
}
await fsp.mkdir(join(ROOT, "bench/results"), { recursive: true });
await fsp.writeFile(join(ROOT, "bench/results/rename_oracle.tsv"), table.join("\n") + "\n");

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
console.log(`\nper-symbol table: bench/results/rename_oracle.tsv\n`);

// ---- cold project rename
// Two sets: a deterministic sample of exported module-level names (a typical project rename: other files
// may import them, so the whole workspace is searched), and the three most used names of the code base (the
// worst case: the most files to parse and rename).
const COLD_SAMPLE = flag("--cold-sample", 12);
const HEAVY: [string, string][] = [
  ["internal/Observable.ts", "Observable"],
  ["internal/Subscriber.ts", "Subscriber"],
  ["internal/util/isFunction.ts", "isFunction"],
];
const heavy = HEAVY.map(([path, name]) =>
  all.find((p) => p.path === path && p.name === name && p.category === "module")!
);
const exportedPicks = all.filter((p) => p.exported && !heavy.includes(p));
const coldStep = Math.max(1, Math.floor(exportedPicks.length / COLD_SAMPLE));
const typical = exportedPicks.filter((_, i) => i % coldStep === 0).slice(0, COLD_SAMPLE);
const cold = [...typical, ...heavy];
console.log(
  `cold project rename: ${typical.length} exported names (every ${coldStep}th of ${exportedPicks.length}) and the ${heavy.length} most used\n`,
);
const oursMs = new Map<Pick, number[]>(cold.map((p) => [p, []]));
const theirsMs = new Map<Pick, number[]>(cold.map((p) => [p, []]));
const sites = new Map<Pick, number>();
// One warm-up round (not counted), then RUNS rounds, graver and the service interleaved per symbol.
for (let run = 0; run <= RUNS; run++) {
  for (const pick of cold) {
    const text = files.get(pick.path)!;
    const backend = createMemoryBackend(memFiles());
    const t0 = performance.now();
    const w = await createWorkspace({ backend, wasm: createWasmLoader() });
    const res = await w.call("edit_rename_symbol", {
      path: pick.path,
      target: { line: lineOf(text, pick.offset), column: columnOf(text, pick.offset) },
      new_name: `${pick.name}Renamed`,
      dry_run: true,
    });
    const dt = performance.now() - t0;
    if (!res.ok) console.log(`graver refused the cold rename of ${pick.name}: ${res.error.message}`);
    else sites.set(pick, (res.data as { renamed: number }).renamed);
    await w.close();
    const t1 = performance.now();
    const fresh = languageService();
    const locs = fresh.findRenameLocations(VROOT + pick.path, pick.offset, false, false, {
      providePrefixAndSuffixTextForRename: false,
    });
    const dt2 = performance.now() - t1;
    if (!locs) console.log(`the language service found nothing for ${pick.name}`);
    fresh.dispose();
    if (run > 0) {
      oursMs.get(pick)!.push(dt);
      theirsMs.get(pick)!.push(dt2);
    }
  }
}

/** Print one table (a row per symbol, then the set's sums) and return graver's speed-up over the set. */
function coldTable(
  title: string,
  picks: Pick[],
  ours: Map<Pick, number[]>,
  theirs: Map<Pick, number[]>,
  count: (p: Pick) => string,
): number {
  console.log(`${title}\n`);
  console.log("| symbol | file | sites | graver | language service | ratio |");
  console.log("| --- | --- | --- | --- | --- | --- |");
  let sumOurs = 0;
  let sumTheirs = 0;
  for (const pick of picks) {
    const o = stats(ours.get(pick)!);
    const t = stats(theirs.get(pick)!);
    sumOurs += o.median;
    sumTheirs += t.median;
    console.log(
      `| ${pick.name} | ${pick.path} | ${count(pick)} | ${describe(o)} | ${describe(t)} | ${
        (t.median / o.median).toFixed(1)
      }× |`,
    );
  }
  const ratio = sumTheirs / sumOurs;
  console.log(
    `\nall ${picks.length}: graver ${sumOurs.toFixed(0)} ms, language service ${sumTheirs.toFixed(0)} ms: ${
      ratio.toFixed(1)
    }×\n`,
  );
  return ratio;
}
const what = "new workspace + edit_rename_symbol dry run | new language service + findRenameLocations";
const inTypical = coldTable(
  `cold project rename of the sampled exported names (${what}), ${RUNS} runs after a warm-up:`,
  typical,
  oursMs,
  theirsMs,
  (p) => String(sites.get(p) ?? "-"),
);
const inHeavy = coldTable(
  `the same for the ${heavy.length} most used names:`,
  heavy,
  oursMs,
  theirsMs,
  (p) => String(sites.get(p) ?? "-"),
);
// ---- the same renames, each in a fresh process (module imports excluded; wasm, JIT and caches cold)
const CHILD = join(ROOT, "bench/_rename_cold_child.ts");
function child(who: "graver" | "service", pick: Pick): { ms: number; count: number } {
  const res = spawnSync(Deno.execPath(), ["run", "-A", CHILD, who, pick.path, String(pick.offset)], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (res.status !== 0) throw new Error(`${who} child failed: ${res.stderr}`);
  return JSON.parse(res.stdout.trim().split("\n").pop()!);
}
const procOurs = new Map<Pick, number[]>(cold.map((p) => [p, []]));
const procTheirs = new Map<Pick, number[]>(cold.map((p) => [p, []]));
const counts = new Map<Pick, string>();
for (let run = 0; run < PROCESS_RUNS; run++) {
  for (const pick of cold) {
    const g = child("graver", pick);
    const t = child("service", pick);
    procOurs.get(pick)!.push(g.ms);
    procTheirs.get(pick)!.push(t.ms);
    counts.set(pick, `${g.count} / ${t.count}`);
  }
}
// `--process-runs 0`: no fresh-process figures (NaN below).
const procTypical = PROCESS_RUNS <= 0 ? NaN : coldTable(
  `the sampled exported names, each rename in a fresh process (${PROCESS_RUNS} runs; module imports excluded; sites graver / service):`,
  typical,
  procOurs,
  procTheirs,
  (p) => counts.get(p) ?? "-",
);
const procHeavy = PROCESS_RUNS <= 0 ? NaN : coldTable(
  `the ${heavy.length} most used names in a fresh process each:`,
  heavy,
  procOurs,
  procTheirs,
  (p) => counts.get(p) ?? "-",
);

const b = byCat.get("bindings")!;
const precision = 100 * b.common / Math.max(1, b.ours);
const recall = 100 * b.common / Math.max(1, b.theirs);
console.log(
  `RESULT rename_oracle: bindings precision ${precision.toFixed(2)}% recall ${
    recall.toFixed(2)
  }% over ${b.n} symbols (goal ≥ 99% / ≥ 98%: ${precision >= 99 && recall >= 98 ? "met" : "NOT met"})`,
);
// A fresh-process figure not measured (`--process-runs 0`) neither meets nor misses the goal.
const met = (r: number) => Number.isNaN(r) || r >= 5;
const times = (r: number) => Number.isNaN(r) ? "not run" : `${r.toFixed(1)}×`;
console.log(
  `RESULT rename_cold: ${typical.length} sampled exported names: graver ${
    inTypical.toFixed(1)
  }× faster than the ` +
    `language service in-process, ${times(procTypical)} in fresh processes (goal ≥ 5×: ${
      met(inTypical) && met(procTypical) ? "met" : "NOT met"
    }); the ${heavy.length} most used names: ${inHeavy.toFixed(1)}× and ${times(procHeavy)} (${
      met(inHeavy) && met(procHeavy) ? "met" : "NOT met"
    })`,
);
