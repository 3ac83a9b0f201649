/**
 * Benchmark: one atomic commit of 1,000 small real source files through
 * graver (`createWorkspace` → `Stage` → `commitChanges`: compare-and-swap,
 * temp files, journal, renames, diffs) against plain `writeFile` of the same
 * files in the same run — on disk (Deno, `node:fs/promises`, a fresh temp
 * directory) and on memfs. Two cases: creating 1,000 files, and updating
 * 1,000 existing files (one line appended to each). Goal: ≤ 0.5 s on disk.
 *
 * Also counts the backend calls one commit makes, and times the CPU parts
 * (SHA-256 versions, unified diffs) on their own, to show where the time goes.
 *
 * Run: `npx -y deno@2.9.6 task bench --filter commit` (`--runs N`).
 *
 * @module
 */
import * as fsp from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { createDiskBackend } from "../src/adapters/deno/mod.ts";
import type { Backend } from "../src/fs/backend.ts";
import { commitChanges } from "../src/fs/commit.ts";
import { createMemoryBackend } from "../src/fs/memory_backend.ts";
import { Stage } from "../src/fs/stage.ts";
import { unifiedDiff } from "../src/fs/unified_diff.ts";
import { versionOf } from "../src/fs/version.ts";
import { createWorkspace } from "../src/workspace.ts";
import { describe, machine, ms, printTable, result, ROOT, runsArg, stats, walkFiles } from "./_util.ts";

const GOAL_MS = 500;
const COUNT = 1000;

interface SourceFile {
  rel: string;
  bytes: Uint8Array;
  edited: Uint8Array;
}

/** 1,000 real source files (200 B – 16 KB) spread evenly over the npm store, keeping their package paths. */
async function sourceFiles(): Promise<SourceFile[]> {
  const store = join(ROOT, "node_modules", ".deno");
  const all: string[] = [];
  await walkFiles(store, (name) => /\.(js|mjs|cjs|ts)$/.test(name), all);
  const small: string[] = [];
  const seen = new Set<string>();
  for (const p of all) {
    const size = (await fsp.stat(p)).size;
    // "<pkg@ver>/node_modules/<name>/<path>" → "<name>/<path>" (a repo-like tree); one version per path
    const rel = relative(store, p).split("/").slice(2).join("/");
    if (size > 200 && size < 16 * 1024 && !seen.has(rel)) {
      seen.add(rel);
      small.push(p);
    }
  }
  if (small.length < COUNT) {
    throw new Error(
      `Cannot pick ${COUNT} source files: only ${small.length} under "${store}"; run "deno task setup"`,
    );
  }
  const step = small.length / COUNT;
  const out: SourceFile[] = [];
  for (let i = 0; i < COUNT; i++) {
    const p = small[Math.floor(i * step)]!;
    const rel = relative(store, p).split("/").slice(2).join("/");
    const bytes = new Uint8Array(await fsp.readFile(p));
    const edited = new Uint8Array([
      ...bytes,
      ...new TextEncoder().encode("// edited by the commit benchmark\n"),
    ]);
    out.push({ rel, bytes, edited });
  }
  return out;
}

/** A backend that counts calls per method. */
function counting(backend: Backend): { backend: Backend; counts: Map<string, number> } {
  const counts = new Map<string, number>();
  const proxy = new Proxy(backend as unknown as Record<string, unknown>, {
    get(target, prop) {
      const v = target[prop as string];
      if (typeof v !== "function") return v;
      return (...args: unknown[]) => {
        counts.set(String(prop), (counts.get(String(prop)) ?? 0) + 1);
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { backend: proxy as unknown as Backend, counts };
}

interface Target {
  name: string;
  /** A fresh, empty root: its backend and absolute root path. */
  fresh(): Promise<{ backend: Backend; root: string; dispose(): Promise<void> }>;
}

let tmpBase = "";
const disk: Target = {
  name: "disk",
  async fresh() {
    const root = await Deno.makeTempDir({ dir: tmpBase, prefix: "run-" });
    return {
      backend: createDiskBackend(),
      root,
      dispose: () => fsp.rm(root, { recursive: true, force: true }),
    };
  },
};
const memfs: Target = {
  name: "memfs",
  fresh() {
    return Promise.resolve({ backend: createMemoryBackend({}), root: "/", dispose: () => Promise.resolve() });
  },
};

/** Plain writes: mkdir -p per directory, then writeFile per file (the baseline). */
async function plainWrite(backend: Backend, root: string, files: SourceFile[], pick: "bytes" | "edited") {
  const raw = backend as unknown as {
    mkdir(p: string, o: { recursive: boolean }): Promise<unknown>;
    writeFile(p: string, d: Uint8Array): Promise<void>;
  };
  if (pick === "bytes") {
    for (const d of new Set(files.map((f) => dirname(join(root, f.rel))))) {
      await raw.mkdir(d, { recursive: true });
    }
  }
  for (const f of files) await raw.writeFile(join(root, f.rel), f[pick]);
}

interface CaseFigures {
  plain: number[];
  commit: number[];
  stageAndCommit: number[];
  counts: Map<string, number>;
}

async function runCase(target: Target, files: SourceFile[], kind: "create" | "update", runs: number) {
  const fig: CaseFigures = { plain: [], commit: [], stageAndCommit: [], counts: new Map() };
  const pick = kind === "create" ? "bytes" : "edited";
  for (let run = -1; run < runs; run++) { // run -1 warms up
    // Baseline: plain writes into a fresh root.
    {
      const { backend, root, dispose } = await target.fresh();
      if (kind === "update") await plainWrite(backend, root, files, "bytes");
      const t = performance.now();
      await plainWrite(backend, root, files, pick);
      if (run >= 0) fig.plain.push(performance.now() - t);
      await dispose();
    }
    // graver: stage every file, then one commit.
    {
      const fresh = await target.fresh();
      if (kind === "update") await plainWrite(fresh.backend, fresh.root, files, "bytes");
      const { backend, counts } = counting(fresh.backend);
      const ws = await createWorkspace({ backend, root: fresh.root });
      const t0 = performance.now();
      const stage = new Stage(ws.fs, ws.sandbox);
      for (const f of files) await stage.write(f.rel, f[pick]);
      const changes = stage.changes();
      counts.clear();
      const t1 = performance.now();
      const landed = await commitChanges({ fs: ws.fs, sandbox: ws.sandbox }, changes);
      const t2 = performance.now();
      if (landed.length !== files.length) {
        throw new Error(`Cannot trust the figures: ${landed.length} files landed`);
      }
      if (run >= 0) {
        fig.commit.push(t2 - t1);
        fig.stageAndCommit.push(t2 - t0);
      }
      if (run === 0) fig.counts = new Map(counts);
      // Spot-check the bytes on the backend.
      const probe = files[files.length >> 1]!;
      const got = new Uint8Array(await fresh.backend.readFile(join(fresh.root, probe.rel)) as Uint8Array);
      if ((await versionOf(got)) !== (await versionOf(probe[pick]))) {
        throw new Error(`Cannot trust the figures: "${probe.rel}" does not hold the committed bytes`);
      }
      await fresh.dispose();
    }
  }
  return fig;
}

const runs = runsArg(Deno.args, 7);
tmpBase = await Deno.makeTempDir({ prefix: "graver-bench-commit-" });
const files = await sourceFiles();
const totalBytes = files.reduce((n, f) => n + f.bytes.length, 0);
const dirs = new Set(files.map((f) => dirname(f.rel))).size;

console.log(`# foundation_commit: one atomic commit of ${COUNT} files vs plain writeFile`);
console.log(`machine: ${machine()}; temp dir ${tmpBase}; ${new Date().toISOString()}`);
console.log(
  `files: ${COUNT} real .js/.mjs/.cjs/.ts files from node_modules (200 B – 16 KB, ${
    (totalBytes / 1024).toFixed(0)
  } KiB in all, ${dirs} directories); update = one line appended to each`,
);

const rows: string[][] = [[
  "backend",
  "case",
  "plain writeFile (baseline)",
  "commitChanges",
  "stage + commit",
  "commit / plain",
]];
const countRows: string[][] = [["backend", "case", "backend calls in one commit (per file)"]];
let headline = 0;
let headlineRatio = 0;
const others: string[] = [];
try {
  for (const target of [disk, memfs]) {
    for (const kind of ["create", "update"] as const) {
      const fig = await runCase(target, files, kind, runs);
      const plain = stats(fig.plain);
      const commit = stats(fig.commit);
      const both = stats(fig.stageAndCommit);
      rows.push([
        target.name,
        kind,
        describe(plain),
        describe(commit),
        ms(both.median),
        `${(commit.median / plain.median).toFixed(1)}×`,
      ]);
      const calls = [...fig.counts].sort(([a], [b]) => a < b ? -1 : 1);
      const total = calls.reduce((n, [, c]) => n + c, 0);
      countRows.push([
        target.name,
        kind,
        `${total} (${(total / COUNT).toFixed(1)}): ${calls.map(([m, c]) => `${m} ${c}`).join(", ")}`,
      ]);
      if (target === disk && kind === "create") {
        headline = commit.median;
        headlineRatio = commit.median / plain.median;
      } else {
        others.push(
          `${target.name} ${kind} ${ms(commit.median)} (${(commit.median / plain.median).toFixed(1)}×)`,
        );
      }
    }
  }
} finally {
  await fsp.rm(tmpBase, { recursive: true, force: true });
}
printTable(rows);
printTable(countRows);

// CPU parts of a commit, on their own: versions (SHA-256) and unified diffs.
const hash: number[] = [];
const diffCreate: number[] = [];
const diffUpdate: number[] = [];
for (let run = -1; run < runs; run++) {
  let t = performance.now();
  for (const f of files) await versionOf(f.edited);
  if (run >= 0) hash.push(performance.now() - t);
  t = performance.now();
  for (const f of files) unifiedDiff(f.rel, { before: null, after: f.bytes });
  if (run >= 0) diffCreate.push(performance.now() - t);
  t = performance.now();
  for (const f of files) unifiedDiff(f.rel, { before: f.bytes, after: f.edited });
  if (run >= 0) diffUpdate.push(performance.now() - t);
}
console.log(
  `CPU inside a commit of ${COUNT} files: SHA-256 of each file ${ms(stats(hash).median)}; ` +
    `unified diffs ${ms(stats(diffCreate).median)} (create), ${ms(stats(diffUpdate).median)} (update)`,
);
console.log(
  `commit of ${COUNT} new files on disk: ${ms(headline)} (${headlineRatio.toFixed(1)}× plain writeFile); ` +
    `goal ≤ ${GOAL_MS} ms — ${headline <= GOAL_MS ? "met" : "NOT met"}`,
);
result(
  `commit ${COUNT} files to disk`,
  `${ms(headline)} new files (${headlineRatio.toFixed(1)}× plain writeFile; goal ≤ ${GOAL_MS} ms: ${
    headline <= GOAL_MS ? "met" : "NOT met"
  }); ${others.join(", ")}`,
);
