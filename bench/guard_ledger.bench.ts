/**
 * The read ledger's edit guard on scripted agent edits over real source files
 * (node_modules/.deno: JS, TS, C), each file in its own named session:
 *
 * - `read_all`: read_file with no range (capped at 2000 lines / ~15k tokens), then edit a random line
 *   anywhere in the file — the blind edit past a truncation the guard exists for;
 * - `window`: read 60 lines around a target, then edit the target (inside what was read);
 * - `near_miss`: read 60 lines, then edit a line 1–30 lines past the window;
 * - `outline`: outline the file (signatures, not bodies), then edit a line;
 * - `blind`: edit without reading.
 *
 * Every edit is one edit_file call appending a comment to a line whose text is unique in the file. A
 * refused edit (`unread_range`) is sent again unchanged, once: the scoped auto-expand put the missing
 * lines in the refusal and marked them read, so the retry is what a model would do next.
 *
 * Reports the trigger rate by reason, the share of triggers the identical retry resolved (the seed's
 * gate: > 80 %), and — as a ratio against the same edits with no session in the same run, replayed
 * `--runs` times each way, alternating — what the guard costs per edit call.
 *
 *   deno run -A bench/guard_ledger.bench.ts [--files N] [--seed S] [--runs N]
 *
 * @module
 */
import { loadCorpus, rng } from "./corpus/text/corpus.ts";
import { machine, printTable, result, runsArg, stats } from "./_util.ts";
import { createMemoryBackend, createWorkspace, MemoryTelemetry, type ToolResult } from "../src/mod.ts";
import { createWasmLoader } from "../src/adapters/deno/mod.ts";

const args = Deno.args;
const FILES = Number(args[args.indexOf("--files") + 1] ?? 0) || 120;
const RUNS = runsArg(args, 5);
const SEED = Number(args[args.indexOf("--seed") + 1] ?? 0) || 11;

type Scenario = "read_all" | "window" | "near_miss" | "outline" | "blind";
const SCENARIOS: Scenario[] = ["read_all", "window", "near_miss", "outline", "blind"];

const corpus = (await loadCorpus({ minLines: 200, maxLines: 12000 })).filter((f) =>
  /\.(?:js|mjs|ts|c|h)$/.test(f.path)
);
const random = rng(SEED);
// A seeded sample, largest first: the largest fifth is read whole (where reads get capped), the rest take
// the other scenarios in turn.
const files = corpus.filter(() => random() < Math.min(1, (FILES * 1.5) / corpus.length)).slice(0, FILES)
  .sort((a, b) => b.text.length - a.text.length);
const scenarioOf = (i: number): Scenario =>
  i < Math.ceil(files.length / 5) ? "read_all" : SCENARIOS[1 + (i % (SCENARIOS.length - 1))]!;
const wasm = createWasmLoader();

/** Lines whose text occurs once in the file and is worth editing. */
function uniqueLines(lines: string[]): number[] {
  // Unique even ignoring indentation and trailing blanks (edit_file's tolerant tiers would match both).
  const count = new Map<string, number>();
  for (const l of lines) count.set(l.trim(), (count.get(l.trim()) ?? 0) + 1);
  const out: number[] = [];
  lines.forEach((l, i) => {
    if (
      l.trim().length > 8 && count.get(l.trim()) === 1 && !l.includes("*/") && !l.trimEnd().endsWith("\\")
    ) {
      out.push(i + 1);
    }
  });
  return out;
}

function pick<T>(items: T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

interface Outcome {
  scenario: Scenario;
  lines: number;
  first: string; // "applied" or the error code
  reason?: string;
  retry?: string;
}

const outcomes: Outcome[] = [];
let capped = 0;
const guarded: number[] = [];
const unguarded: number[] = [];
const ratios: number[] = [];
const telemetry = new MemoryTelemetry();

for (const [i, file] of files.entries()) {
  const lines = file.text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const candidates = uniqueLines(lines);
  if (candidates.length < 10) continue;
  const scenario = scenarioOf(i);
  const name = `f${i}${file.path.slice(file.path.lastIndexOf("."))}`;
  /** The scenario's calls, then the timed edit: in a named session, or (the baseline) with none. */
  const play = async (session: boolean) => {
    const ws = await createWorkspace({
      backend: createMemoryBackend({ [`/${name}`]: file.text }),
      wasm,
      ...(session ? { telemetry } : {}),
    });
    const s = session ? { session: `agent-${i}` } : {};
    let truncated = false;
    if (scenario === "read_all") {
      const r = await ws.call("read_file", { path: name }, s);
      truncated = r.ok && r.data["truncated"] === true;
    }
    if (scenario === "window" || scenario === "near_miss") {
      await ws.call("read_file", { path: name, start_line: window, end_line: window + 59 }, s);
    }
    if (scenario === "outline") await ws.call("outline", { path: name }, s);
    const t = performance.now();
    const first = await ws.call("edit_file", edit, s);
    const took = performance.now() - t;
    return { ws, s, first, took, truncated };
  };
  let target = pick(candidates);
  const window = Math.max(1, target - 30);
  if (scenario === "near_miss") {
    const past = candidates.filter((n) => n > window + 59 && n <= window + 89);
    if (past.length === 0) continue;
    target = pick(past);
  }
  const edit = {
    path: name,
    old_text: lines[target - 1],
    new_text: `${lines[target - 1]} /* edited */`,
    syntax_guard: "off",
  };
  const run = await play(true);
  if (run.truncated) capped++;
  const first: ToolResult = run.first;
  const o: Outcome = { scenario, lines: lines.length, first: first.ok ? "applied" : first.error.code };
  if (!first.ok && first.error.code === "unread_range") {
    o.reason = String(first.error.details?.["reason"]);
    const retry = await run.ws.call("edit_file", edit, run.s);
    o.retry = retry.ok ? "applied" : retry.error.code;
  }
  outcomes.push(o);
  if (first.ok) {
    // Cost: only edits that landed at once in the session (a refusal skips the commit, and would flatter it),
    // replayed RUNS times each way, alternating; the file's figure is the ratio of the two medians.
    const a: number[] = [];
    const b: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      a.push((await play(true)).took);
      b.push((await play(false)).took);
    }
    guarded.push(stats(a).median);
    unguarded.push(stats(b).median);
    ratios.push(stats(a).median / stats(b).median);
  }
}

const pct = (n: number, d: number) => d === 0 ? "–" : `${(100 * n / d).toFixed(1)} %`;
console.log(`# Read guard on scripted edits\n\n${machine()}`);
console.log(
  `${outcomes.length} edits on ${outcomes.length} real files (${Math.min(...outcomes.map((o) => o.lines))}–${
    Math.max(...outcomes.map((o) => o.lines))
  } lines, seed ${SEED}), one named session each\n`,
);
const rows = [["scenario", "edits", "applied at once", "unread_range", "by reason", "retry applied"]];
for (const sc of SCENARIOS) {
  const of = outcomes.filter((o) => o.scenario === sc);
  const refused = of.filter((o) => o.first === "unread_range");
  const reasons = new Map<string, number>();
  for (const o of refused) reasons.set(o.reason!, (reasons.get(o.reason!) ?? 0) + 1);
  rows.push([
    sc,
    String(of.length),
    String(of.filter((o) => o.first === "applied").length),
    `${refused.length} (${pct(refused.length, of.length)})`,
    [...reasons].map(([r, n]) => `${r} ${n}`).join(", ") || "–",
    `${refused.filter((o) => o.retry === "applied").length}/${refused.length}`,
  ]);
}
printTable(rows);
console.log(
  `\nread_all: ${capped} of ${
    outcomes.filter((o) => o.scenario === "read_all").length
  } whole-file reads were capped`,
);
const refused = outcomes.filter((o) => o.first === "unread_range");
const resolved = refused.filter((o) => o.retry === "applied");
const other = outcomes.filter((o) => o.first !== "applied" && o.first !== "unread_range");
console.log(
  `\nother first-call failures (not the guard's): ${other.map((o) => o.first).join(", ") || "none"}`,
);
const byReason = ["never_read", "unread_range", "whole_file"].map((r) =>
  `${r} ${pct(outcomes.filter((o) => o.reason === r).length, outcomes.length)}`
).join(", ");
console.log(
  `\ntelemetry: graver.guard.checks ${telemetry.total("graver.guard.checks")}, triggers ${
    telemetry.total("graver.guard.triggers", { outcome: "refused" })
  }, auto_expanded ${telemetry.total("graver.guard.auto_expanded")}, auto_expand_resolved ${
    telemetry.total("graver.guard.auto_expand_resolved")
  }`,
);
const g = stats(guarded);
const u = stats(unguarded);
console.log(
  `edit_file over the ${g.n} edits that landed at once (${RUNS} runs each, alternating): median guarded ${
    g.median.toFixed(2)
  } ms, without a session ${u.median.toFixed(2)} ms; per-file ratio min ${
    stats(ratios).min.toFixed(2)
  }×, max ${stats(ratios).max.toFixed(2)}×`,
);
result(
  "guard trigger rate",
  `${pct(refused.length, outcomes.length)} of ${outcomes.length} scripted edits (${byReason})`,
);
result(
  "guard auto-expand resolution",
  `${pct(resolved.length, refused.length)} of triggers resolved by the identical retry (goal > 80 %: ${
    refused.length > 0 && resolved.length / refused.length > 0.8 ? "met" : "NOT met"
  })`,
);
result(
  "guard cost per edit call",
  `${
    stats(ratios).median.toFixed(2)
  }× the same edit without a session (median of per-file ratios, ${RUNS} runs)`,
);
