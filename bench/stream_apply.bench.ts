/**
 * Streaming apply (issue 26) on a real 20k-line file: the first 20,000 lines of TypeScript's `lib.dom.d.ts`
 * (typescript@5 in node_modules), edited by five SEARCH/REPLACE blocks spread through it (each a unique 4-line
 * window, one line added), streamed in 16-character chunks as a model's tokens arrive. Measured, interleaved in
 * one run on fresh workspaces (the same grammars, engines loaded by a warm-up run first):
 *
 * - placed: from the write of a block's `=======` line (its search side closing) to its `placed` event;
 * - the same for the edits as a unified diff (from the write of a hunk's last counted line) and as streamed
 *   `edit_file` JSON arguments (from the write of the quote that closes `old_text`);
 * - replaced: from the write of its `>>>>>>> REPLACE` line to its `replaced` event (the block applied on the
 *   stream's stage, its diff built);
 * - end(): from `end()` to the result (the call through dispatch, syntax guard on, committed);
 * - one-shot: the same text as one `apply_edits` call on a workspace in the same state (the baseline).
 *
 * Goals (issue 26): placed ≤ 5 ms after the closing marker; end() ≤ 1.1 × the one-shot call.
 *
 *   deno run -A bench/stream_apply.bench.ts [--runs N]
 *
 * @module
 */
import { join } from "node:path";
import { describe, machine, printTable, result, ROOT, runsArg, stats } from "./_util.ts";
import {
  createMemoryBackend,
  createWorkspace,
  Grammars,
  type StreamEvent,
  type Workspace,
} from "../src/mod.ts";
import { createWasmLoader } from "../src/adapters/deno/mod.ts";

const RUNS = runsArg(Deno.args, 15);
const LINES = 20_000;
const CHUNK = 16;
const SOURCE = join(ROOT, "node_modules/typescript/lib/lib.dom.d.ts");

const text = (await Deno.readTextFile(SOURCE)).split("\n").slice(0, LINES).join("\n") + "\n";
const lines = text.split("\n");
const grammars = new Grammars(createWasmLoader());

/** A unique 4-line window at or after `at`, as one SEARCH/REPLACE block adding a comment line. */
function block(at: number): { start: number; needle: string; head: string; search: string; tail: string } {
  for (let s = at; s < lines.length - 4; s++) {
    const b = lines.slice(s, s + 4);
    if (b.some((l) => l.trim().length < 8)) continue;
    const needle = b.join("\n") + "\n";
    const first = text.indexOf(needle);
    if (first === -1 || text.indexOf(needle, first + 1) !== -1) continue;
    return {
      start: s,
      needle,
      head: `<<<<<<< SEARCH\n${needle}`,
      search: "=======\n",
      tail: `${needle}// streamed edit ${at}\n>>>>>>> REPLACE\n`,
    };
  }
  throw new Error("no unique block");
}

const BLOCKS = [1_000, 5_000, 9_000, 13_000, 17_000].map(block);
const EDIT = "lib.dom.d.ts\n" + BLOCKS.map((b) => b.head + b.search + b.tail).join("");

/** The same edits as a unified diff: each hunk's last line completes the lines its header counts. */
const HUNKS = BLOCKS.map((b, k) => {
  const body = b.needle.split("\n").slice(0, -1).map((l) => ` ${l}`);
  const head = `@@ -${b.start + 1},4 +${b.start + 1 + k},5 @@\n${body.join("\n")}\n`;
  return { head, last: `+// streamed edit ${b.start}\n` };
});

async function open(): Promise<Workspace> {
  return await createWorkspace({ backend: createMemoryBackend({ "/lib.dom.d.ts": text }), grammars });
}

/** Feed `piece` in chunks; the time from the write of its last chunk to the first event of `type`. */
async function feed(
  stream: ReturnType<Workspace["stream"]>,
  at: { piece: string; events: { e: StreamEvent; t: number }[]; type?: StreamEvent["type"] },
): Promise<number | null> {
  let last = 0;
  for (let i = 0; i < at.piece.length; i += CHUNK) {
    last = performance.now();
    await stream.write(at.piece.slice(i, i + CHUNK));
  }
  const hit = at.type ? at.events.find((x) => x.e.type === at.type && x.t >= last) : undefined;
  return hit ? hit.t - last : null;
}

/** From the write of each hunk's last counted line to its `placed` event. */
async function diffPlacements(ws: Workspace): Promise<number[]> {
  const events: { e: StreamEvent; t: number }[] = [];
  const stream = ws.stream({ tool: "apply_edits", onEvent: (e) => events.push({ e, t: performance.now() }) });
  await feed(stream, { piece: "--- a/lib.dom.d.ts\n+++ b/lib.dom.d.ts\n", events });
  const out: number[] = [];
  for (const h of HUNKS) {
    await feed(stream, { piece: h.head, events });
    out.push((await feed(stream, { piece: h.last, events, type: "placed" }))!);
  }
  stream.abort("measured");
  await stream.end();
  return out;
}

/** From the write of the quote that closes edit_file's old_text (streamed JSON) to its `placed` event. */
async function jsonPlacement(ws: Workspace, b: typeof BLOCKS[number]): Promise<number> {
  const events: { e: StreamEvent; t: number }[] = [];
  const stream = ws.stream({ tool: "edit_file", onEvent: (e) => events.push({ e, t: performance.now() }) });
  const json = JSON.stringify({
    path: "lib.dom.d.ts",
    old_text: b.needle,
    new_text: `${b.needle}// edited\n`,
  });
  const close = json.indexOf('","new_text"');
  await feed(stream, { piece: json.slice(0, close), events });
  const t = (await feed(stream, { piece: json.slice(close, close + 1), events, type: "placed" }))!;
  stream.abort("measured");
  await stream.end();
  return t;
}

interface Sample {
  hunk: number[];
  json: number[];
  placed: number[];
  replaced: number[];
  end: number;
  oneShot: number;
}

async function once(first: "stream" | "call"): Promise<Sample> {
  const events: { e: StreamEvent; t: number }[] = [];
  const streamed = await open();
  const whole = await open();
  const stream = streamed.stream({
    tool: "apply_edits",
    onEvent: (e) => events.push({ e, t: performance.now() }),
  });
  const sample: Sample = { hunk: [], json: [], placed: [], replaced: [], end: 0, oneShot: 0 };
  const probe = await open();
  sample.hunk = await diffPlacements(probe);
  for (const b of BLOCKS) sample.json.push(await jsonPlacement(probe, b));
  await feed(stream, { piece: "lib.dom.d.ts\n", events });
  for (const b of BLOCKS) {
    await feed(stream, { piece: b.head, events });
    sample.placed.push((await feed(stream, { piece: b.search, events, type: "placed" }))!);
    sample.replaced.push((await feed(stream, { piece: b.tail, events, type: "replaced" }))!);
  }
  const timed = async <T>(f: () => Promise<T>): Promise<[T, number]> => {
    const t = performance.now();
    const out = await f();
    return [out, performance.now() - t];
  };
  const streamEnd = () => timed(() => stream.end());
  const call = () => timed(() => whole.call("apply_edits", { text: EDIT }));
  // Which goes first alternates from run to run.
  let streamedResult, wholeResult;
  if (first === "stream") {
    [streamedResult, sample.end] = await streamEnd();
    [wholeResult, sample.oneShot] = await call();
  } else {
    [wholeResult, sample.oneShot] = await call();
    [streamedResult, sample.end] = await streamEnd();
  }
  if (!streamedResult.ok || JSON.stringify(streamedResult) !== JSON.stringify(wholeResult)) {
    throw new Error(
      `the streamed result differs from the one-shot one: ${JSON.stringify(streamedResult).slice(0, 300)}`,
    );
  }
  return sample;
}

await once("stream"); // loads the engines and grammars both sides use
const samples: Sample[] = [];
for (let r = 0; r < RUNS; r++) samples.push(await once(r % 2 === 0 ? "stream" : "call"));

const placed = stats(samples.flatMap((s) => s.placed));
const hunk = stats(samples.flatMap((s) => s.hunk));
const json = stats(samples.flatMap((s) => s.json));
const replaced = stats(samples.flatMap((s) => s.replaced));
const end = stats(samples.map((s) => s.end));
const oneShot = stats(samples.map((s) => s.oneShot));
const ratio = end.median / oneShot.median;

console.log(`stream_apply: ${LINES} lines of lib.dom.d.ts, ${BLOCKS.length} blocks, ${CHUNK}-char chunks`);
console.log(machine());
printTable([
  ["measure", "median (min, max, n)", "ratio to the one-shot call"],
  ["closing ======= -> placed", describe(placed), (placed.median / oneShot.median).toFixed(3)],
  [">>>>>>> REPLACE -> replaced", describe(replaced), (replaced.median / oneShot.median).toFixed(3)],
  ["diff hunk's last counted line -> placed", describe(hunk), (hunk.median / oneShot.median).toFixed(3)],
  ["edit_file old_text's closing quote -> placed", describe(json), (json.median / oneShot.median).toFixed(3)],
  ["end() -> result", describe(end), ratio.toFixed(3)],
  ["one-shot apply_edits (baseline)", describe(oneShot), "1.000"],
]);
result(
  "stream_apply placed",
  `${placed.median.toFixed(2)} ms after the closing marker (goal ≤ 5 ms); ${
    (placed.median / oneShot.median).toFixed(3)
  } × the one-shot call`,
);
result(
  "stream_apply placed (diff hunk, edit_file JSON)",
  `${hunk.median.toFixed(2)} ms, ${json.median.toFixed(2)} ms after the closing line / quote (goal ≤ 5 ms)`,
);
result("stream_apply end", `${ratio.toFixed(3)} × the one-shot call (goal ≤ 1.1)`);
