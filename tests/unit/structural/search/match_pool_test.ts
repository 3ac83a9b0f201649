/**
 * The match pool with real Deno workers and real grammars over hono's published package: a pooled search
 * (and rewrite) answers exactly what a search on one thread answers, pages included; a worker that crashes
 * or stops answering mid-search leaves its files to the main thread without losing one.
 */
import assert from "node:assert/strict";
import { createDiskBackend, createWasmLoader } from "../../../../src/adapters/deno/mod.ts";
import { createMatchPool } from "../../../../src/adapters/deno/match_pool.ts";
import { createWorkspace, type Workspace } from "../../../../src/mod.ts";
import { MatchPool, type MatchWorker } from "../../../../src/structural/search/match_pool.ts";

const ROOT = Deno.realPathSync(new URL("../../../../node_modules/hono", import.meta.url));
const WORKER = new URL("../../../../src/adapters/deno/_match_worker_main.ts", import.meta.url);

// The pools below keep idle workers for ten minutes: on a loaded machine the searches on one thread between
// the pooled ones may outlast the default 5 s, and workers ended meanwhile would change which thread matched.

/** A workspace on hono's tree, with the pool or without. */
function open(matchPool?: MatchPool): Promise<Workspace> {
  return createWorkspace({
    backend: createDiskBackend(),
    root: ROOT,
    wasm: createWasmLoader(),
    readGuard: "off",
    ...(matchPool ? { matchPool } : {}),
  });
}

/** A tool's data, without the time it took. */
async function dataOf(ws: Workspace, tool: string, args: Record<string, unknown>): Promise<unknown> {
  const result = await ws.call(tool, args);
  assert.ok(result.ok, JSON.stringify(result));
  const data = structuredClone(result.data) as { summary?: { elapsed_ms?: number } };
  if (data.summary) delete data.summary.elapsed_ms;
  return { data, changes: result.changes };
}

/** Real workers that count the batches they are sent; `tamper` may change or drop a batch on its way. */
function countingSpawn(
  counts: { batches: number; outlines?: number },
  tamper?: (worker: Worker, message: Record<string, unknown>) => boolean,
): () => MatchWorker {
  return () => {
    const worker = new Worker(WORKER, { type: "module" });
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (message: Record<string, unknown>) => {
      if (message.type === "match") counts.batches++;
      if (message.type === "outline") counts.outlines = (counts.outlines ?? 0) + 1;
      if (message.type === "match" && tamper?.(worker, message)) return;
      post(message);
    };
    return worker as unknown as MatchWorker;
  };
}

const SEARCHES: Record<string, unknown>[] = [
  { pattern: "return $X", language: "js" },
  { pattern: "c.req.header($A)", language: "js" },
  { pattern: "new Response($$$A)", language: "js" },
  { rule: { pattern: "await $X", inside: { kind: "for_statement", stopBy: "end" } }, language: "js" },
  { rule: { kind: "throw_statement", has: { pattern: "new Error($M)" } }, language: "js" },
];

Deno.test("a pooled search answers what a search on one thread answers: matches, ids, metavariables, symbols, pages", async () => {
  const counts = { batches: 0 };
  const pool = new MatchPool({
    spawn: countingSpawn(counts),
    wasm: createWasmLoader(),
    size: 2,
    idleMs: 600_000,
    // A fresh clone's first worker type-checks its modules as it starts: seconds on a loaded machine (a
    // suite run beside a storm saw one not ready in 10 s). This test is about answers, not time limits.
    timeoutMs: 120_000,
  });
  try {
    const single = await open();
    const pooled = await open(pool);
    await pool.warm();
    assert.equal(pool.ready, 2);
    for (const search of SEARCHES) {
      for (
        const page of [{ max_results: 100_000, max_chars: 10_000_000 }, { max_results: 7 }, { offset: 40 }]
      ) {
        const args = { ...search, ...page };
        assert.deepEqual(
          await dataOf(pooled, "search_structural", args),
          await dataOf(single, "search_structural", args),
          JSON.stringify(args),
        );
      }
    }
    assert.ok(counts.batches > 10, `the workers matched ${counts.batches} batches`);
    assert.equal(pool.failures, 0);
    // The last search again (another page) is answered from what the workers answered.
    const matched = pool.matched;
    const again = { ...SEARCHES.at(-1), offset: 3 };
    assert.deepEqual(
      await dataOf(pooled, "search_structural", again),
      await dataOf(single, "search_structural", again),
    );
    assert.equal(pool.matched, matched);
  } finally {
    pool.close();
  }
});

Deno.test("a cold search with every worker of its pool ready parses no file on the main thread", async () => {
  const pool = createMatchPool({ size: 2, idleMs: 600_000 });
  try {
    await pool.warm();
    const pooled = await open(pool);
    const args = {
      pattern: "new Response($$$A)",
      language: "js",
      max_results: 100_000,
      max_chars: 10_000_000,
    };
    const result = await pooled.call("search_structural", args);
    assert.ok(result.ok);
    const { summary } = result.data as { summary: { files_parsed: number } };
    assert.ok(summary.files_parsed > 10);
    assert.equal(pool.matched, summary.files_parsed);
    assert.equal(pool.failures, 0);
  } finally {
    pool.close();
  }
});

Deno.test("a pooled search's enclosing symbols come with its matches: no message asks for them afterwards", async () => {
  const counts = { batches: 0, outlines: 0 };
  const pool = new MatchPool({
    spawn: countingSpawn(counts),
    wasm: createWasmLoader(),
    size: 2,
    idleMs: 600_000,
  });
  try {
    await pool.warm();
    const args = { pattern: "c.req.header($A)", language: "js", max_results: 100_000, max_chars: 10_000_000 };
    const pooled = await dataOf(await open(pool), "search_structural", args);
    assert.deepEqual(pooled, await dataOf(await open(), "search_structural", args));
    const { matches } = (pooled as { data: { matches: { symbol?: string }[] } }).data;
    assert.ok(matches.filter((m) => m.symbol !== undefined).length > 10, "matches name their symbols");
    assert.ok(counts.batches > 0);
    assert.equal(counts.outlines, 0);
  } finally {
    pool.close();
  }
});

Deno.test("a pooled rewrite plans the same edits as one on one thread, rewriters and all", async () => {
  const pool = createMatchPool({ size: 2, idleMs: 600_000 });
  try {
    const single = await open();
    const pooled = await open(pool);
    await pool.warm();
    const args = {
      pattern: "throw new Error($M)",
      rewrite: "throw new TypeError($M)",
      language: "js",
      dry_run: true,
    };
    assert.deepEqual(
      await dataOf(pooled, "edit_rewrite_structural", args),
      await dataOf(single, "edit_rewrite_structural", args),
    );
    // With rewriters, whose rules the workers compile and run at the nodes under each match.
    const rewriting = {
      pattern: "new Response($$$A)",
      transform: { B: { rewrite: { source: "$$$A", rewriters: ["str", "num"], joinBy: " ~ " } } },
      rewriters: [
        { id: "str", rule: { kind: "string" }, fix: "S" },
        { id: "num", rule: { kind: "number" }, fix: "N" },
      ],
      rewrite: "respond($B)",
      language: "js",
      max_results: 1000,
      max_chars: 10_000_000,
    };
    const fromPool = await dataOf(pooled, "search_structural", rewriting);
    assert.deepEqual(fromPool, await dataOf(single, "search_structural", rewriting));
    const replacements = (fromPool as { data: { matches: { replacement: string }[] } }).data.matches.map((
      m,
    ) => m.replacement);
    assert.ok(replacements.some((r) => /respond\(.* ~ /.test(r)), replacements.join("\n"));
    assert.ok(pool.matched > 0, "the workers matched files");
    // A fix's expansion (ast-grep's FixConfig) compiled and run in the workers too.
    const widening = {
      rule: { kind: "number", inside: { kind: "arguments" } },
      rewrite: "",
      expand_end: { regex: "," },
      language: "js",
      output_format: "ast-grep",
      max_results: 1000,
      max_chars: 10_000_000,
    };
    const widened = await dataOf(pooled, "search_structural", widening);
    assert.deepEqual(widened, await dataOf(single, "search_structural", widening));
    const offsets = (widened as {
      data: { ast_grep: { range: { byteOffset: { end: number } }; replacementOffsets: { end: number } }[] };
    })
      .data.ast_grep;
    assert.ok(offsets.some((m) => m.replacementOffsets.end > m.range.byteOffset.end), "some span widened");
  } finally {
    pool.close();
  }
});

Deno.test("a worker that crashes mid-search leaves its files to the main thread: nothing is lost", async () => {
  const counts = { batches: 0 };
  // The third batch reaches its worker malformed: the worker throws outside any handler and dies.
  const spawn = countingSpawn(counts, (_worker, message) => {
    if (counts.batches === 3) message.files = 5;
    return false;
  });
  const pool = new MatchPool({ spawn, wasm: createWasmLoader(), size: 2, idleMs: 600_000 });
  try {
    const single = await open();
    const pooled = await open(pool);
    await pool.warm();
    const args = { pattern: "return $X", language: "js", max_results: 100_000, max_chars: 10_000_000 };
    assert.deepEqual(
      await dataOf(pooled, "search_structural", args),
      await dataOf(single, "search_structural", args),
    );
    assert.equal(pool.failures, 1);
    // Its files went to the main thread, which started a new worker in its place.
    await pool.warm();
    assert.equal(pool.ready, 2);
  } finally {
    pool.close();
  }
});

Deno.test("a worker that stops answering is ended at its time limit and its files matched on the main thread", async () => {
  const counts = { batches: 0 };
  // From the second batch on, one worker's batches vanish: it never answers them.
  let silent: Worker | null = null;
  const spawn = countingSpawn(counts, (worker) => {
    silent ??= counts.batches >= 2 ? worker : null;
    return worker === silent;
  });
  const pool = new MatchPool({ spawn, wasm: createWasmLoader(), size: 2, timeoutMs: 200, idleMs: 600_000 });
  try {
    const single = await open();
    const pooled = await open(pool);
    await pool.warm();
    const args = { pattern: "c.req.header($A)", language: "js", max_results: 100_000, max_chars: 10_000_000 };
    assert.deepEqual(
      await dataOf(pooled, "search_structural", args),
      await dataOf(single, "search_structural", args),
    );
    // The silent worker at least (on a loaded machine a slow one may pass the short limit too).
    assert.ok(pool.failures >= 1);
  } finally {
    pool.close();
  }
});

Deno.test("a worker that never gets ready is ended at its time limit, and the search runs on the main thread", async () => {
  // Every worker's runtime is lost on its way: none can say ready.
  const spawn = () => {
    const worker = new Worker(WORKER, { type: "module" });
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (message: Record<string, unknown>) => message.type !== "init" && post(message);
    return worker as unknown as MatchWorker;
  };
  const pool = new MatchPool({ spawn, wasm: createWasmLoader(), size: 2, timeoutMs: 200, idleMs: 600_000 });
  try {
    const single = await open();
    const pooled = await open(pool);
    await pool.warm(); // settles: both were ended
    assert.equal(pool.ready, 0);
    assert.equal(pool.failures, 2);
    const args = {
      pattern: "new Response($$$A)",
      language: "js",
      max_results: 100_000,
      max_chars: 10_000_000,
    };
    assert.deepEqual(
      await dataOf(pooled, "search_structural", args),
      await dataOf(single, "search_structural", args),
    );
    assert.equal(pool.matched, 0);
  } finally {
    pool.close();
  }
});

Deno.test("a grammar the pool cannot load leaves that language's files to the main thread; its workers stay", async () => {
  const loader = createWasmLoader();
  const wasm = { runtime: loader.runtime, grammar: () => Promise.reject(new Error("not vendored here")) };
  const pool = new MatchPool({ spawn: countingSpawn({ batches: 0 }), wasm, size: 2, idleMs: 600_000 });
  try {
    const single = await open();
    const pooled = await open(pool);
    await pool.warm();
    const args = {
      pattern: "throw new Error($M)",
      language: "js",
      max_results: 100_000,
      max_chars: 10_000_000,
    };
    assert.deepEqual(
      await dataOf(pooled, "search_structural", args),
      await dataOf(single, "search_structural", args),
    );
    assert.deepEqual([pool.matched, pool.failures, pool.ready], [0, 0, 2]);
  } finally {
    pool.close();
  }
});

Deno.test("files that reach the pool one by one travel together: a short batch goes only to an idle worker", async () => {
  const counts = { batches: 0 };
  const pool = new MatchPool({
    spawn: countingSpawn(counts),
    wasm: createWasmLoader(),
    size: 1,
    idleMs: 600_000,
  });
  try {
    await pool.warm();
    const query = { pattern: "return $X" };
    const answers: Promise<unknown[]>[] = [];
    for (let i = 0; i < 40; i++) {
      // As a walk hands them on: each file queued on its own turn, the worker's answers not yet heard.
      answers.push(
        pool.match("javascript", query, {
          path: `f${i}.js`,
          text: `function f() { return ${i}; }\n`,
          version: `v${i}`,
        }),
      );
      await Promise.resolve();
    }
    const sites = await Promise.all(answers);
    assert.ok(sites.every((s) => s.length === 1), "every file matched once");
    // The first file alone (the worker was idle), the other 39 together once it answered.
    assert.equal(counts.batches, 2);
  } finally {
    pool.close();
  }
});
