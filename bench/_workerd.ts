/**
 * The workerd part of bench/surfaces.bench.ts: graver's HTTP worker built
 * as it ships (minified, split: what a request does not need stays in lazy
 * chunks), its size, and its cold start — spawning `workerd serve` to the
 * first response — for each kind of first request, against a trivial worker,
 * a worker importing only the same wasm and one evaluating graver's JS
 * without calling it, all interleaved in the same run
 * (bench/workerd_cold.mjs); and the steps of the first answers timed inside
 * workerd (bench/_workerd_phases.ts).
 *
 * @module
 */
import { BUILD, bundle } from "../tests/runtimes/_harness.ts";
import { buildHttpWorker, type HttpWorkerBuild } from "../tests/runtimes/workerd/http_bundle.ts";
import { describe, ms, printTable, result, ROOT, type Stats, stats } from "./_util.ts";
import { buildPhasesWorker, PHASES } from "./_workerd_phases.ts";

const TOKEN = "bench-token-0123456789abcdef";
/** The real TypeScript file the worker is seeded with (read, then edited structurally, by first requests). */
const SEED = "src/fs/lines.ts";

/** Sizes of one module file. */
interface Size {
  path: string;
  raw: number;
  gz: number;
}

/** What {@linkcode measureWorkerd} found. */
export interface WorkerdFigures {
  /** Cold start (wall time, spawn → first response) per case name. */
  cold: Map<string, Stats>;
  /** CPU time workerd had used when the first response arrived, per case name. */
  cpu: Map<string, Stats>;
  /** Inside the phases worker: ms of each step since the previous one (the first since the spawn). */
  phases: Map<string, Stats>;
  /** The worker with MCP: its modules by role. */
  full: BuildSizes;
  /** The same worker without MCP. */
  httpOnly: BuildSizes;
  /** Minified bytes by package (of the whole JS, chunks included). */
  byPackage: [string, number][];
}

/** Sizes of one build. */
export interface BuildSizes {
  /** The entry module. */
  entry: Size;
  /** The chunks it imports statically (with the entry: what workerd evaluates at start). */
  chunks: Size[];
  /** JS chunks loaded on first need (dynamic import). */
  lazy: Size[];
  /** Wasm modules. */
  wasm: Size[];
}

async function gz(bytes: Uint8Array): Promise<number> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

async function size(path: string): Promise<Size> {
  const bytes = await Deno.readFile(`${ROOT}${path}`);
  return { path, raw: bytes.length, gz: await gz(bytes) };
}

async function sizes(build: HttpWorkerBuild): Promise<BuildSizes> {
  return {
    entry: await size(build.entry),
    chunks: await Promise.all(build.chunks.map(size)),
    lazy: await Promise.all(build.lazy.map(size)),
    wasm: await Promise.all(build.wasm.map(size)),
  };
}

/** Sum of the gzipped sizes. */
export function gzTotal(list: Size[]): number {
  return list.reduce((n, s) => n + s.gz, 0);
}

/** The JS chunks buildHttpWorker wrote beside an entry module (`<name>.chunks/`), none for one module. */
async function chunksOf(entry: string): Promise<string[]> {
  const dir = `${entry.replace(/\.js$/, "")}.chunks`;
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(`${ROOT}${dir}`)) {
      if (e.isFile && e.name.endsWith(".js")) out.push(`${dir}/${e.name}`);
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return out.sort();
}

/**
 * Build the workers and measure them.
 *
 * @param runs Cold starts per case.
 * @param baseline Another build of the worker (its entry module, relative to the repository root, importing
 *   the same wasm and seeded with the same file, e.g. built from an earlier commit; its chunks, if any, in
 *   `<entry name>.chunks/` beside it as buildHttpWorker writes them), measured in the same run.
 * @returns Sizes and cold starts.
 */
export async function measureWorkerd(runs: number, baseline?: string): Promise<WorkerdFigures> {
  const seed = await Deno.readTextFile(`${ROOT}${SEED}`);
  const full = await buildHttpWorker({
    outfile: "build/workerd/bench_worker.js",
    minify: true,
    files: { "/src/lines.ts": seed },
  });
  const httpOnly = await buildHttpWorker({
    outfile: "build/workerd/bench_http_only_worker.js",
    minify: true,
    mcp: false,
  });
  await Deno.writeTextFile(
    `${BUILD}workerd/trivial.ts`,
    'export default { fetch() { return new Response("ok"); } };\n',
  );
  await bundle("build/workerd/trivial.ts", "build/workerd/trivial.js", ["--minify"]);
  await Deno.writeTextFile(
    `${BUILD}workerd/wasm_only.js`,
    [
      ...full.wasm.map((p, i) => `import m${i} from "../../${p}";`),
      `export default { fetch() { return new Response(String([${
        full.wasm.map((_, i) => `m${i}`).join(", ")
      }].every((m) => m instanceof WebAssembly.Module))); } };`,
      "",
    ].join("\n"),
  );

  // Where the minified bytes come from, by package.
  const outputs = JSON.parse(await Deno.readTextFile(`${ROOT}${full.metafile}`)).outputs as Record<
    string,
    { inputs: Record<string, { bytesInOutput: number }> }
  >;
  const byPackage = new Map<string, number>();
  for (const { inputs } of Object.values(outputs)) {
    for (const [file, { bytesInOutput }] of Object.entries(inputs)) {
      const m = /node_modules\/(?:\.deno\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(file);
      const key = m ? m[1]! : file.startsWith("src/") ? file.split("/").slice(0, 2).join("/") + "/" : file;
      byPackage.set(key, (byPackage.get(key) ?? 0) + bytesInOutput);
    }
  }

  const auth = { authorization: `Bearer ${TOKEN}` };
  const post = (tool: string, args: unknown) => ({
    path: `/v1/tools/${tool}`,
    init: {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(args),
    },
  });
  // The worker's modules evaluated, its fetch never called: what evaluating graver's JS costs.
  await Deno.writeTextFile(
    `${BUILD}workerd/eval_only.js`,
    [
      `import worker from "./${full.entry.slice(full.entry.lastIndexOf("/") + 1)}";`,
      `export default { fetch() { return new Response(typeof worker.fetch); } };`,
      "",
    ].join("\n"),
  );
  const modules = [full.entry, ...full.chunks, ...full.lazy, ...full.wasm];
  // The first requests, for a worker made of `mods` (names prefixed by `prefix`).
  const firstRequests = (prefix: string, mods: string[]): Record<string, unknown>[] => {
    const graver = { modules: mods, bindings: { GRAVER_TOKEN: TOKEN } };
    return [
      { name: `${prefix}health`, ...graver, path: "/v1/health", expect: '"ok":true' },
      {
        name: `${prefix}tools`,
        ...graver,
        path: "/v1/tools",
        init: { headers: auth },
        expect: '"replace_symbol"',
      },
      {
        name: `${prefix}read_file .ts`,
        ...graver,
        ...post("read_file", { path: "src/lines.ts" }),
        expect: "lineStart",
      },
      {
        name: `${prefix}create_file .ts`,
        ...graver,
        ...post("create_file", {
          path: "src/a.ts",
          content: "export function f(x: number): number {\n  return x + 1;\n}\n",
        }),
        expect: '"status":"applied"',
      },
      {
        name: `${prefix}replace_symbol`,
        ...graver,
        ...post("replace_symbol", {
          path: "src/lines.ts",
          name_path: "isBlankLine",
          new_text:
            "export function isBlankLine(line: string): boolean {\n  return line.trim().length === 0;\n}",
        }),
        expect: '"status":"applied"',
      },
    ];
  };
  const cases: Record<string, unknown>[] = [
    { name: "trivial", modules: ["build/workerd/trivial.js"], path: "/", expect: "ok" },
    { name: "wasm only", modules: ["build/workerd/wasm_only.js", ...full.wasm], path: "/", expect: "true" },
    { name: "eval only", modules: ["build/workerd/eval_only.js", ...modules], path: "/", expect: "function" },
    ...firstRequests("", modules),
    // A worker built elsewhere (e.g. from an earlier commit) with the same wasm and seed: before/after.
    ...(baseline ? firstRequests("baseline: ", [baseline, ...await chunksOf(baseline), ...full.wasm]) : []),
  ];
  const phasesWorker = await buildPhasesWorker({ "/src/lines.ts": seed });
  cases.push({ name: "phases", modules: [phasesWorker, ...full.wasm], path: "/", phases: true });
  const casesFile = `${BUILD}workerd/cold_cases.json`;
  await Deno.writeTextFile(casesFile, JSON.stringify(cases));
  const tmp = await Deno.makeTempDir({ prefix: "graver-bench-workerd-" });
  try {
    const cold = await new Deno.Command("node", {
      args: ["bench/workerd_cold.mjs", ROOT.replace(/\/$/, ""), String(runs), casesFile],
      cwd: ROOT,
      env: { TMPDIR: tmp },
      stdout: "piped",
      stderr: "inherit",
    }).output();
    if (cold.code !== 0) throw new Error("bench/workerd_cold.mjs failed");
    const out = JSON.parse(new TextDecoder().decode(cold.stdout)) as {
      wall: Record<string, number[]>;
      cpu: Record<string, number[]>;
      phases: Record<string, [string, number][][]>;
    };
    const steps = out.phases["phases"]!;
    return {
      cold: new Map(Object.entries(out.wall).map(([k, v]) => [k, stats(v)])),
      cpu: new Map(Object.entries(out.cpu).map(([k, v]) => [k, stats(v)])),
      phases: new Map(PHASES.map((p, i) => [p, stats(steps.map((run) => run[i]![1]))])),
      full: await sizes(full),
      httpOnly: await sizes(httpOnly),
      byPackage: [...byPackage].sort((a, b) => b[1] - a[1]),
    };
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

/**
 * Print the workerd tables and RESULT lines.
 *
 * @param f The figures.
 * @param runs Cold starts per case.
 */
export function reportWorkerd(f: WorkerdFigures, runs: number): void {
  const t = f.cold.get("trivial")!;
  const tc = f.cpu.get("trivial")!;
  console.log(
    `\n## workerd: spawn \`workerd serve\` → first response (${runs} cold starts each, interleaved)\n`,
  );
  console.log(
    "wall: spawn → first response; CPU: the CPU time of workerd's threads by then (less sensitive to other load)\n",
  );
  printTable([
    ["worker, first request", "wall", "× trivial", "− trivial", "CPU", "CPU × trivial", "CPU − trivial"],
    ...[...f.cold].map(([name, s]) => {
      const c = f.cpu.get(name)!;
      return [
        ["trivial", "wasm only", "eval only", "phases"].includes(name)
          ? `${name} worker`
          : name.startsWith("baseline")
          ? name
          : `graver: ${name}`,
        describe(s),
        `${(s.median / t.median).toFixed(2)}×`,
        ms(s.median - t.median),
        ms(c.median),
        `${(c.median / tc.median).toFixed(2)}×`,
        ms(c.median - tc.median),
      ];
    }),
  ]);
  console.log(
    "\nInside workerd (bench/_workerd_phases.ts: every step in one request, in this order; ms since the previous " +
      "step, the first since the spawn):\n",
  );
  printTable([
    ["step", "ms"],
    ...[...f.phases].map(([step, s], i) => [
      i === 0 ? "spawn → JS evaluation starts (workerd, wasm compile, JS compile)" : step,
      describe(s),
    ]),
  ]);
  console.log("");
  const row = (label: string, s: Size) => [label, s.path, String(s.raw), String(s.gz)];
  printTable([
    ["module", "file", "bytes", "gzip"],
    row("entry (HTTP API + MCP), minified", f.full.entry),
    ...f.full.chunks.map((c) => row("chunk loaded at start", c)),
    ...f.full.lazy.map((c) => row("lazy chunk", c)),
    row("entry (HTTP API only), minified", f.httpOnly.entry),
    ...f.httpOnly.chunks.map((c) => row("its chunk loaded at start", c)),
    ...f.full.wasm.map((w) => row("wasm", w)),
  ]);
  console.log("\nminified JS by package (bytes, entry and chunks):");
  for (const [k, v] of f.byPackage.slice(0, 16)) console.log(`  ${k}: ${v}`);
  console.log("");
  const first = (name: string) => {
    const s = f.cold.get(name)!;
    const c = f.cpu.get(name)!;
    const b = f.cpu.get(`baseline: ${name}`);
    return `${name} ${ms(s.median)} (${(s.median / t.median).toFixed(2)}×, +${
      ms(s.median - t.median)
    }; CPU +${ms(c.median - tc.median)}${b ? ` vs baseline +${ms(b.median - tc.median)}` : ""})`;
  };
  result(
    "workerd cold start",
    `spawn → first response, trivial worker ${ms(t.median)} (CPU ${ms(tc.median)}); graver ${
      ["health", "tools", "read_file .ts", "create_file .ts", "replace_symbol"].map(first).join(", ")
    }; goal ≤ 80 ms with the TS grammar (create_file): ${
      f.cold.get("create_file .ts")!.median <= 80 ? "met" : "NOT met"
    }`,
  );
  const startup = f.full.entry.gz + gzTotal(f.full.chunks);
  const httpStartup = f.httpOnly.entry.gz + gzTotal(f.httpOnly.chunks);
  const lazy = gzTotal(f.full.lazy);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  result(
    "workerd bundle",
    `JS evaluated at start ${kb(startup)} gzipped (${
      ((f.full.entry.raw + f.full.chunks.reduce((n, c) => n + c.raw, 0)) / 1024).toFixed(0)
    } KB minified; without MCP ${kb(httpStartup)}), ${
      kb(lazy)
    } more in ${f.full.lazy.length} lazy chunks (all JS ${kb(startup + lazy)}); wasm apart ${
      f.full.wasm.map((w) => `${w.path.replace(/^.*\//, "")} ${(w.gz / 1024).toFixed(0)} KB gz`).join(", ")
    }; goal ≤ 150 KB: ${startup <= 150 * 1024 ? "met for the JS evaluated at start" : "NOT met"}${
      startup + lazy <= 150 * 1024 ? " and for all JS" : ", not for all JS"
    }`,
  );
}
