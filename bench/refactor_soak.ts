/**
 * The refactor soak: thousands of random refactors on real code no one here
 * wrote, each checked with the language's own tools. Every trial ends as one
 * of: applied and the checker is clean; refused with a reason code; or
 * applied and broken — silent damage, the number that must be 0. A result that
 * listed unresolved candidates (`data.unresolved`: same-name uses it could not
 * tie to the symbol without types, left alone and named in a warning) and then
 * broke is counted apart: the agent was told where to look.
 *
 * Code bases (copied into a temporary git repository, reset after each trial):
 * - `ts`: rxjs@7.8.2's `src/` (the pinned npm dependency), checked in process
 *   by TypeScript's own incremental checker (`bench/_ts_checker.ts`, strict, as
 *   the rename oracle configures it): damage is a diagnostic the baseline lacks.
 * - `py`: CPython's `email` package with its test suite (`test.test_email`),
 *   from the Python that runs this machine's `python3`: damage is a file that no
 *   longer byte-compiles, a module that no longer imports, or a test that no
 *   longer passes. A trial runs the tests that call a function its change can
 *   affect, and every `--full-every`-th applied trial (10) the whole suite too
 *   (`bench/_soak_python.ts` says what the targeted check covers).
 * - `rust`: the semver and smallvec crates (Debian's `librust-semver-dev`,
 *   `librust-smallvec-dev`; cargo on PATH), `cargo check` (`bench/_soak_rust.ts`).
 * - `go`: go-cmp (Debian's `golang-go`, `golang-github-google-go-cmp-dev`),
 *   `go vet` (`bench/_soak_go.ts`).
 * A language whose toolchain or packages are missing is skipped with a message naming them.
 *
 * Refactors: renames of randomly chosen bindings (module level, locals,
 * parameters, class members), `edit_change_signature` (parameters reversed),
 * `edit_extract_function` (a random run of lines in a function), `edit_inline`,
 * `edit_move_decl` (to a new module beside it) and `move_file`, all through the
 * CLI's own path: a disk workspace and `Workspace.call`.
 *
 * Run: `deno run -A bench/refactor_soak.ts [--lang ts|py|rust|go|all] [--count N] [--seed S] [--kinds a,b] [--full-every N] [--verbose]`
 * (SIGTERM stops it early, reporting the trials done).
 * Writes `bench/results/refactor_soak.tsv` and every damage case to `bench/results/soak/`.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { promises as fsp } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDiskBackend, createWasmLoader } from "../src/adapters/deno/mod.ts";
import { fileBindings } from "../src/syntax/bindings.ts";
import { Stage } from "../src/fs/stage.ts";
import { createWorkspace, type Workspace } from "../src/workspace.ts";
import { ROOT } from "./_util.ts";
import { rxjsCompilerOptions, TsChecker } from "./_ts_checker.ts";
import { rng } from "./corpus/text/corpus.ts";
import { MissingToolchain } from "./_soak_native.ts";
import { rustCorpus } from "./_soak_rust.ts";
import { goCorpus } from "./_soak_go.ts";
import { pythonCorpus, pythonInlinable, pythonParamOrder, pythonStatementRange } from "./_soak_python.ts";

const args = Deno.args;
const opt = (name: string, dflt: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1]! : dflt;
};
const LANGS = opt("--lang", "all") === "all" ? ["ts", "py", "rust", "go"] : [opt("--lang", "all")];
const COUNT = Number(opt("--count", "100"));
const SEED = Number(opt("--seed", "1"));
const VERBOSE = args.includes("--verbose");
const FULL_EVERY = Number(opt("--full-every", "10"));
const KINDS = opt("--kinds", "rename,signature,extract,inline,move_decl,move_file").split(",");

/** One code base: where it comes from, its language, how it is checked. */
interface Corpus {
  name: string;
  language: "typescript" | "python" | "rust" | "go";
  /** Files to refactor (relative to the copy's root). */
  editable: (rel: string) => boolean;
  /** New diagnostics or failures after a change (empty: clean). */
  check(dir: string, changed: Map<string, string | null>): string[] | Promise<string[]>;
  /** A fresh name for `name` in this language. */
  rename(name: string): string;
  /** A new module path beside `rel`. */
  sibling(rel: string, stem: string): string;
  /** Stop what the checker keeps running. */
  close?: () => Promise<void>;
  /** A line on how the checker did, for the report. */
  summary?: () => string;
  /** The planner's knowledge of the language, so it asks for what a user could (default: any). */
  planner?: {
    /** A parameter order the language accepts for the function `d` (null: none to try). */
    paramOrder(text: string, d: Decl): string[] | null;
    /** Whether `d` is declared in a form `edit_inline` takes. */
    inlinable(d: Decl): boolean;
    /** Whole statements from `d`'s line on (null: none start there). */
    statementRange(lines: string[], d: Decl, count: number): { start_line: number; end_line: number } | null;
  };
}

const git = (dir: string, ...a: string[]) => {
  const r = spawnSync("git", a, { cwd: dir, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${a.join(" ")}: ${r.stderr}`);
  return r.stdout;
};

async function copyTree(from: string, to: string, keep: (name: string) => boolean): Promise<void> {
  await fsp.mkdir(to, { recursive: true });
  for (const e of await fsp.readdir(from, { withFileTypes: true })) {
    if (e.name === "__pycache__") continue;
    if (e.isDirectory()) await copyTree(join(from, e.name), join(to, e.name), keep);
    else if (keep(e.name)) await fsp.copyFile(join(from, e.name), join(to, e.name));
  }
}

async function readTree(dir: string, keep: (rel: string) => boolean): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const rel of git(dir, "ls-files").split("\n").filter(Boolean)) {
    if (keep(rel)) out.set(rel, await fsp.readFile(join(dir, rel), "utf8"));
  }
  return out;
}

// ---- TypeScript: rxjs src, checked by the incremental checker

async function tsCorpus(dir: string): Promise<Corpus> {
  await copyTree(join(ROOT, "node_modules/rxjs/src"), dir, (n) => n.endsWith(".ts") || n.endsWith(".json"));
  const files = await readTreeAfterInit(dir, (rel) => rel.endsWith(".ts"));
  const checker = new TsChecker("/rx/", files, rxjsCompilerOptions("/rx/"));
  return {
    name: "rxjs@7.8.2 src (tsc strict)",
    language: "typescript",
    editable: (rel) => rel.endsWith(".ts") && !rel.endsWith(".d.ts"),
    check: (_dir, changed) => checker.check(changed),
    rename: (name) => `${name}Soak`,
    sibling: (rel, stem) => `${rel.slice(0, rel.lastIndexOf("/") + 1)}${stem}.ts`,
  };
}

// ---- Python: email + test_email (bench/_soak_python.ts)
async function pyCorpus(dir: string): Promise<Corpus> {
  const checker = await pythonCorpus(dir, {
    copyTree,
    commitBase: async (d) => void await readTreeAfterInit(d, () => false),
    fullEvery: FULL_EVERY,
  });
  return {
    name: `CPython ${checker.version} email + test_email`,
    language: "python",
    editable: (rel) => rel.startsWith("email/") && rel.endsWith(".py"),
    check: (_dir, changed) => checker.check(changed),
    rename: (name) => `${name}_soak`,
    sibling: (rel, stem) => `${rel.slice(0, rel.lastIndexOf("/") + 1)}${stem}.py`,
    planner: {
      paramOrder: (text, d) => pythonParamOrder(text, d.line, d.name),
      inlinable: (d) => d.defs === 1 && pythonInlinable(d.lineText, d.name),
      statementRange: (lines, d, count) => pythonStatementRange(lines, d.line, count),
    },
    close: () => checker.close(),
    summary: () =>
      `full-suite confirmations ${checker.fullRuns}, selection misses ${checker.selectionMisses}`,
  };
}

async function readTreeAfterInit(dir: string, keep: (rel: string) => boolean): Promise<Map<string, string>> {
  git(dir, "init", "-q");
  git(dir, "add", "-A");
  git(dir, "-c", "user.email=soak@graver", "-c", "user.name=soak", "commit", "-qm", "base");
  return await readTree(dir, keep);
}

// ---- candidates
interface Decl {
  path: string;
  line: number;
  column: number;
  name: string;
  category: "module" | "local" | "parameter" | "member";
  /** Parameter names, for functions. */
  params?: string[];
  /** The declaration's line. */
  lineText: string;
  /** How many times its binding is declared or assigned in the file. */
  defs: number;
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

async function declarations(ws: Workspace, corpus: Corpus, files: string[]): Promise<Decl[]> {
  const out: Decl[] = [];
  const stage = new Stage(ws.fs, ws.sandbox);
  for (const rel of files) {
    const t = await stage.readText(rel);
    const fb = await fileBindings(ws, {
      path: rel,
      language: corpus.language,
      version: t.version,
      text: t.text,
    });
    if (!fb) continue;
    const paramsOf = new Map<number, string[]>();
    for (const o of fb.occurrences) {
      if (o.kind !== "definition" || o.binding?.kind !== "parameter") continue;
      const list = paramsOf.get(o.scope.nameStart) ?? [];
      if (o.scope.kind === "function" && !list.includes(o.name)) list.push(o.name);
      paramsOf.set(o.scope.nameStart, list);
    }
    const defs = new Map<unknown, number>();
    for (const o of fb.occurrences) {
      if (o.kind === "definition") defs.set(o.binding, (defs.get(o.binding) ?? 0) + 1);
    }
    const lines = t.text.split("\n");
    for (const o of fb.occurrences) {
      const pos = lineColumn(t.text, o.start);
      const at = {
        path: rel,
        ...pos,
        name: o.name,
        lineText: lines[pos.line - 1]!,
        defs: defs.get(o.binding) ?? 1,
      };
      if (o.kind === "member_definition") out.push({ ...at, category: "member" });
      if (o.kind !== "definition" || !o.binding || o.binding.kind === "import") continue;
      const category = o.binding.scope.kind === "module"
        ? "module"
        : o.binding.scope.kind === "class"
        ? "member"
        : o.binding.kind === "parameter"
        ? "parameter"
        : "local";
      const params = paramsOf.get(o.start);
      out.push({ ...at, category, ...(params ? { params } : {}) });
    }
  }
  return out;
}

// ---- one trial
interface Trial {
  kind: string;
  tool: string;
  args: Record<string, unknown>;
}

function pick<T>(rand: () => number, items: readonly T[]): T | undefined {
  return items.length === 0 ? undefined : items[Math.floor(rand() * items.length)];
}

async function plan(
  kind: string,
  rand: () => number,
  decls: Decl[],
  corpus: Corpus,
  readText: (rel: string) => Promise<string>,
): Promise<Trial | null> {
  const target = (d: Decl) => ({ line: d.line, column: d.column });
  if (kind === "rename") {
    const d = pick(rand, decls);
    if (!d) return null;
    return {
      kind: `rename:${d.category}`,
      tool: "edit_rename_symbol",
      args: { path: d.path, target: target(d), new_name: corpus.rename(d.name) },
    };
  }
  if (kind === "signature") {
    const d = pick(rand, decls.filter((x) => (x.params?.filter((p) => p !== "self").length ?? 0) >= 2));
    if (!d) return null;
    const params = corpus.planner
      ? corpus.planner.paramOrder(await readText(d.path), d)
      : d.params!.filter((p) => p !== "self" && p !== "cls").reverse();
    if (!params) return null;
    return { kind, tool: "edit_change_signature", args: { path: d.path, name_path: target(d), params } };
  }
  if (kind === "inline") {
    const d = pick(
      rand,
      decls.filter((x) =>
        (x.category === "local" || x.category === "module") && (corpus.planner?.inlinable(x) ?? true)
      ),
    );
    return d
      ? { kind: `inline:${d.category}`, tool: "edit_inline", args: { path: d.path, target: target(d) } }
      : null;
  }
  if (kind === "move_decl") {
    const d = pick(rand, decls.filter((x) => x.category === "module"));
    if (!d) return null;
    const to = corpus.sibling(d.path, `soak_moved_${Math.floor(rand() * 1e6)}`);
    return { kind, tool: "edit_move_decl", args: { path: d.path, name_path: d.name, to_path: to } };
  }
  if (kind === "move_file") {
    const d = pick(rand, decls);
    if (!d || d.path.endsWith("__init__.py") || d.path.endsWith("index.ts")) return null;
    const stem = d.path.slice(d.path.lastIndexOf("/") + 1).replace(/\.\w+$/, "");
    return { kind, tool: "move_file", args: { from: d.path, to: corpus.sibling(d.path, `${stem}_soak`) } };
  }
  if (kind === "extract") {
    const d = pick(rand, decls.filter((x) => x.category === "local"));
    if (!d) return null;
    const lines = (await readText(d.path)).split("\n");
    const span = 1 + Math.floor(rand() * 4);
    const range = corpus.planner
      ? corpus.planner.statementRange(lines, d, span)
      : { start_line: d.line, end_line: Math.min(lines.length, d.line + span - 1) };
    if (!range) return null;
    return {
      kind,
      tool: "edit_extract_function",
      args: {
        path: d.path,
        range,
        // A helper's name is private, as an agent's extracted helper usually is: a
        // public method on a class whose tests list every public attribute (the
        // email policies) would fail those tests for a name the caller chose.
        name: corpus.language === "python" ? "_soak_extracted" : "soakExtracted",
      },
    };
  }
  return null;
}

interface Tally {
  attempts: number;
  clean: number;
  refused: Map<string, number>;
  damage: number;
  /** Applied with unresolved candidates listed and left alone, and broken (at a candidate, most likely). */
  warned: number;
  internal: number;
}

async function soak(corpus: Corpus, dir: string): Promise<Map<string, Tally>> {
  const rand = rng(SEED); // deterministic: a damage case replays from its seed
  const ws = await createWorkspace({ backend: createDiskBackend(), root: dir, wasm: createWasmLoader() });
  const files = (await readTree(dir, corpus.editable)).keys();
  const decls = await declarations(ws, corpus, [...files]);
  console.log(`${corpus.name}: ${decls.length} declarations`);
  const tallies = new Map<string, Tally>();
  const readText = (rel: string) => fsp.readFile(join(dir, rel), "utf8");
  await fsp.mkdir(join(ROOT, "bench/results/soak"), { recursive: true });
  const started = performance.now();
  let checkMs = 0;
  for (let i = 0; i < COUNT && !stopping; i++) {
    if (i > 0 && i % 50 === 0) {
      console.log(`… ${i} trials, ${((performance.now() - started) / 1000).toFixed(0)} s`);
      report(`${corpus.name}, the first ${i} trials`, tallies, []);
    }
    const trial = await plan(KINDS[i % KINDS.length]!, rand, decls, corpus, readText);
    if (!trial) continue;
    const tally = tallies.get(trial.kind) ??
      { attempts: 0, clean: 0, refused: new Map(), damage: 0, warned: 0, internal: 0 };
    tallies.set(trial.kind, tally);
    tally.attempts++;
    const path = String(trial.args.path ?? trial.args.from);
    await ws.call("read_file", { path });
    let res = await ws.call(trial.tool, trial.args);
    const listed = !res.ok && /its parameters: ([^)]*)\)/.exec(res.error.message);
    if (trial.tool === "edit_change_signature" && listed) {
      // As an agent would: take the parameters the refusal names, reversed.
      trial.args.params = listed[1]!.split(", ").filter((p) => p !== "self" && p !== "cls").reverse();
      res = await ws.call(trial.tool, trial.args);
    }
    if (!res.ok) {
      const code = res.error.code;
      if (code === "internal") tally.internal++;
      if (VERBOSE || code === "internal") {
        console.log(
          `${code} ${trial.tool} ${JSON.stringify(trial.args)}: ${res.error.message.slice(0, 300)}`,
        );
      }
      tally.refused.set(code, (tally.refused.get(code) ?? 0) + 1);
    } else if (res.status === "applied") {
      // What changed on disk (a move's result folds its source into the destination's diff).
      const changed = new Map<string, string | null>();
      for (const line of git(dir, "status", "--porcelain", "-uall").split("\n").filter(Boolean)) {
        const rel = line.slice(3);
        changed.set(rel, line.startsWith(" D") ? null : await readText(rel));
      }
      const checkStart = performance.now();
      const problems = await corpus.check(dir, changed);
      checkMs += performance.now() - checkStart;
      // Candidates the result listed and left alone (data.unresolved; a rename's unchanged string occurrences
      // in a file the failure names, such as a test's literal list of a module's public names): breakage
      // there was warned of, not silent. Each such case is kept too, to be read.
      const data = res.data as
        | { unresolved?: unknown[]; text_occurrences?: { path: string; in: string }[] }
        | undefined;
      const strings = (data?.text_occurrences ?? [])
        .filter((t) => t.in === "string" && problems.some((p) => p.includes(t.path)));
      const candidates = (data?.unresolved?.length ?? 0) + strings.length;
      if (problems.length === 0) tally.clean++;
      else if (candidates > 0) {
        tally.warned++;
        const file = join(ROOT, `bench/results/soak/${corpus.language}-${SEED}-${i}-warned.json`);
        await fsp.writeFile(file, JSON.stringify({ trial, problems, data, diff: git(dir, "diff") }, null, 2));
      } else {
        tally.damage++;
        const file = join(ROOT, `bench/results/soak/${corpus.language}-${SEED}-${i}.json`);
        await fsp.writeFile(file, JSON.stringify({ trial, problems, diff: git(dir, "diff") }, null, 2));
        console.log(
          `DAMAGE ${trial.kind} ${JSON.stringify(trial.args)}\n  ${problems.slice(0, 3).join("\n  ")}`,
        );
      }
    } else {
      if (VERBOSE) console.log(`${res.status} ${trial.tool} ${JSON.stringify(trial.args)}`);
      tally.refused.set(res.status, (tally.refused.get(res.status) ?? 0) + 1);
    }
    git(dir, "checkout", "-q", "--", ".");
    git(dir, "clean", "-fdq");
  }
  const perTrial = (ms: number) => (ms / COUNT / 1000).toFixed(2);
  console.log(
    `${COUNT} trials: ${perTrial(performance.now() - started)} s a trial, of which the checker ${
      perTrial(checkMs)
    } s`,
  );
  return tallies;
}

function report(corpus: string, tallies: Map<string, Tally>, lines: string[]): void {
  console.log(`\n${corpus}`);
  console.log(
    "refactor\tattempts\tapplied-clean\trefused\tsilent damage\tbroken at listed candidates\tinternal\trefusals by code",
  );
  for (const [kind, t] of [...tallies].sort()) {
    const refused = [...t.refused.values()].reduce((a, b) => a + b, 0);
    const codes = [...t.refused].map(([c, n]) => `${c} ${n}`).join(", ");
    const row =
      `${kind}\t${t.attempts}\t${t.clean}\t${refused}\t${t.damage}\t${t.warned}\t${t.internal}\t${codes}`;
    console.log(row);
    lines.push(`${corpus}\t${row}`);
  }
}

// SIGTERM ends a long run early: the trial under way finishes and what was counted is reported.
let stopping = false;
const stop = () => stopping = true;
Deno.addSignalListener("SIGTERM", stop);
const lines: string[] = [];
for (const lang of LANGS) {
  const dir = await fsp.mkdtemp(join(tmpdir(), `graver-soak-${lang}-`));
  const makers: Record<string, (dir: string) => Promise<Corpus>> = {
    ts: tsCorpus,
    py: pyCorpus,
    rust: rustCorpus,
    go: goCorpus,
  };
  const make = makers[lang]!;
  const corpus = await make(dir).catch((e) => e instanceof MissingToolchain ? e : Promise.reject(e));
  if (corpus instanceof MissingToolchain) {
    console.log(`${lang}: skipped, ${corpus.message}`);
    continue;
  }
  report(corpus.name, await soak(corpus, dir), lines);
  if (corpus.summary) console.log(corpus.summary());
  await corpus.close?.();
  await fsp.rm(dir, { recursive: true, force: true });
  await fsp.rm(`${dir}-target`, { recursive: true, force: true });
}
await fsp.writeFile(join(ROOT, "bench/results/refactor_soak.tsv"), lines.join("\n") + "\n");
console.log(
  `\nseed ${SEED}, ${COUNT} trials per language${
    stopping ? " (stopped early)" : ""
  }; damage cases in bench/results/soak/`,
);
Deno.removeSignalListener("SIGTERM", stop);
