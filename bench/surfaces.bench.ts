/**
 * The served surfaces, measured in one run:
 *
 * 1. Per-call latency of the same `read_file` call (an 8 KB TypeScript file
 *    from the hono package) as a fresh CLI process (`graver call`), as an
 *    HTTP request to a warm `graver serve`, and as an MCP `tools/call` over
 *    stdio to a warm `graver mcp` (the SDK's own Client), interleaved.
 * 2. Requests per second through `graver serve` with 8 concurrent clients
 *    for `read_file` and for an edit (`edit_file`, each client flipping a line
 *    of its own file), against the same calls made in-process on a
 *    workspace (`ws.call`, the baseline without HTTP).
 * 3. workerd (bench/_workerd.ts): cold start (spawning the workerd binary
 *    with a generated config) to the first response of graver's worker, for
 *    each kind of first request — `/v1/health`, `/v1/tools`, `read_file` of a
 *    TypeScript file, `create_file` of one (the syntax guard loads the TS
 *    grammar), `replace_symbol` — against a trivial worker and a worker
 *    importing only the same wasm, in the same run; and the worker's JS,
 *    minified and gzipped, wasm apart: the entry module and its lazy chunks
 *    (goals: ≤ 80 ms, ≤ 150 KB).
 *
 *   deno run -A bench/surfaces.bench.ts [--runs N] [--only workerd] [--baseline-worker FILE]
 *
 * `--baseline-worker` adds the first requests of another build of the worker (one module importing
 * `../../wasm/web-tree-sitter.wasm` and `../../grammars/wasm/typescript.wasm`, seeded with
 * `/src/lines.ts` = src/fs/lines.ts, e.g. built from an earlier commit) to the same run.
 *
 * @module
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createDiskBackend, createWasmLoader } from "../src/adapters/deno/mod.ts";
import { createWorkspace } from "../src/workspace.ts";
import { startServer } from "../tests/surfaces/_servers.ts";
import { measureWorkerd, reportWorkerd } from "./_workerd.ts";
import { describe, machine, ms, printTable, result, ROOT, runsArg, stats } from "./_util.ts";

const RUNS = runsArg(Deno.args, 7);
const CLI = `${ROOT}src/adapters/deno/cli.ts`;
const TOKEN = "bench-token-0123456789abcdef";
const SOURCE = `${ROOT}node_modules/hono/dist/types/hono-base.d.ts`;
const ONLY_WORKERD = Deno.args.join(" ").includes("--only workerd");

/** Parts 1 and 2: the CLI, HTTP and MCP surfaces of a local graver, measured and reported. */
async function servedSurfaces(): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "graver-bench-surfaces-" });
  await Deno.mkdir(`${root}/src`);
  const text = await Deno.readTextFile(SOURCE);
  await Deno.writeTextFile(`${root}/src/hono-base.d.ts`, text);
  const ARGS = { path: "src/hono-base.d.ts" };
  const expectRead = (r: { ok: boolean; data?: Record<string, unknown> }) => {
    if (!r.ok || !String(r.data?.["content"]).includes("class Hono")) {
      throw new Error("read_file read the wrong file");
    }
  };

  // ---- 1. latency -------------------------------------------------------------------------------------
  async function cliCall(): Promise<number> {
    const t0 = performance.now();
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CLI, "call", "read_file", JSON.stringify(ARGS), "--root", root],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const elapsed = performance.now() - t0;
    expectRead(JSON.parse(new TextDecoder().decode(out.stdout)));
    return elapsed;
  }

  const server = await startServer("deno", root, TOKEN);
  const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
  async function httpCall(tool: string, args: unknown, session = "bench"): Promise<Record<string, unknown>> {
    const res = await fetch(`${server.url}/v1/tools/${tool}`, {
      method: "POST",
      headers: { ...headers, "graver-session": session },
      body: JSON.stringify(args),
    });
    return await res.json();
  }
  async function httpRead(): Promise<number> {
    const t0 = performance.now();
    const r = await httpCall("read_file", ARGS);
    const elapsed = performance.now() - t0;
    expectRead(r as never);
    return elapsed;
  }

  const mcp = new Client({ name: "graver-bench", version: "1.0.0" });
  await mcp.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-A", CLI, "mcp", "--root", root],
      stderr: "inherit",
    }),
  );
  async function mcpRead(): Promise<number> {
    const t0 = performance.now();
    const res = await mcp.callTool({ name: "read_file", arguments: ARGS });
    const elapsed = performance.now() - t0;
    expectRead(res.structuredContent as never);
    return elapsed;
  }

  const PER_ROUND = 30;
  const cliMs: number[] = [];
  const httpMs: number[] = [];
  const mcpMs: number[] = [];
  await cliCall();
  for (let i = 0; i < 20; i++) {
    await httpRead();
    await mcpRead();
  }
  for (let r = 0; r < RUNS; r++) {
    cliMs.push(await cliCall());
    for (let i = 0; i < PER_ROUND; i++) {
      httpMs.push(await httpRead());
      mcpMs.push(await mcpRead());
    }
  }
  const cli = stats(cliMs);
  const http = stats(httpMs);
  const mcpS = stats(mcpMs);

  // ---- 2. requests per second ------------------------------------------------------------------------
  const CONCURRENCY = 8;
  const SECONDS = 3;

  /** Run `worker(i)` in `CONCURRENCY` loops for `SECONDS`; calls per second (all must succeed). */
  async function throughput(worker: (i: number, n: number) => Promise<boolean>): Promise<number> {
    const end = performance.now() + SECONDS * 1000;
    let done = 0;
    let failed = 0;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, async (_, i) => {
      for (let n = 0; performance.now() < end; n++) {
        if (await worker(i, n)) done++;
        else failed++;
      }
    }));
    if (failed > 0) throw new Error(`${failed} calls failed`);
    return done / ((performance.now() - t0) / 1000);
  }

  for (let i = 0; i < CONCURRENCY; i++) {
    await Deno.writeTextFile(`${root}/src/edit${i}.ts`, "export const v = 0;\n");
  }
  const flip = (i: number, n: number) => ({
    path: `src/edit${i}.ts`,
    old_string: `export const v = ${n % 2};`,
    new_string: `export const v = ${(n + 1) % 2};`,
  });
  // The session reads what it will edit (its read guard refuses edits of unread lines).
  for (let i = 0; i < CONCURRENCY; i++) await httpCall("read_file", { path: `src/edit${i}.ts` });
  const httpReadRps = await throughput(async () => (await httpCall("read_file", ARGS))["ok"] === true);
  const httpEditRps = await throughput(async (i, n) =>
    (await httpCall("edit_file", flip(i, n)))["ok"] === true
  );
  // Baseline: the same calls in-process (no HTTP), on a workspace like the server's.
  const ws = await createWorkspace({ backend: createDiskBackend(), root, wasm: createWasmLoader() });
  const localReadRps = await throughput(async () =>
    (await ws.call("read_file", ARGS, { session: "bench" })).ok
  );
  // The files are back at an even count per client only by chance: reset them for the in-process edits.
  for (let i = 0; i < CONCURRENCY; i++) {
    await Deno.writeTextFile(`${root}/src/edit${i}.ts`, "export const v = 0;\n");
  }
  const localEditRps = await throughput(async (i, n) => (await ws.call("edit_file", flip(i, n))).ok);
  await ws.close();

  await mcp.close();
  await server.stop();
  await Deno.remove(root, { recursive: true });

  // ---- report ------------------------------------------------------------------------------------------
  console.log(`# The served surfaces (${machine()})\n`);
  console.log(`## One read_file call (${text.length} B TypeScript file)\n`);
  printTable([
    ["surface", "per call", "× HTTP"],
    ["CLI: fresh `graver call` process", describe(cli), `${(cli.median / http.median).toFixed(0)}×`],
    ["HTTP: warm `graver serve`", describe(http), "1×"],
    ["MCP over stdio: warm `graver mcp`", describe(mcpS), `${(mcpS.median / http.median).toFixed(2)}×`],
  ]);
  console.log(`\n## Requests per second, ${CONCURRENCY} concurrent clients, ${SECONDS} s each\n`);
  printTable([
    ["call", "HTTP (graver serve)", "in-process ws.call (baseline)", "HTTP / in-process"],
    ["read_file", httpReadRps.toFixed(0), localReadRps.toFixed(0), (httpReadRps / localReadRps).toFixed(2)],
    ["edit_file", httpEditRps.toFixed(0), localEditRps.toFixed(0), (httpEditRps / localEditRps).toFixed(2)],
  ]);
  result(
    "surfaces latency",
    `read_file: CLI ${ms(cli.median)}, HTTP ${ms(http.median)}, MCP stdio ${ms(mcpS.median)}; CLI = ${
      (cli.median / http.median).toFixed(0)
    }× HTTP, ${(cli.median / mcpS.median).toFixed(0)}× MCP; MCP = ${
      (mcpS.median / http.median).toFixed(2)
    }× HTTP`,
  );
  result(
    "surfaces rps",
    `HTTP read_file ${httpReadRps.toFixed(0)}/s (${
      (httpReadRps / localReadRps).toFixed(2)
    }× in-process), edit_file ${httpEditRps.toFixed(0)}/s (${
      (httpEditRps / localEditRps).toFixed(2)
    }× in-process)`,
  );
}

if (ONLY_WORKERD) console.log(`# graver's worker in workerd (${machine()})`);
else await servedSurfaces();
const baselineAt = Deno.args.indexOf("--baseline-worker");
reportWorkerd(await measureWorkerd(RUNS, baselineAt === -1 ? undefined : Deno.args[baselineAt + 1]), RUNS);
