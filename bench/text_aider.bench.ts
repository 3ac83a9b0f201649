/**
 * graver's matching engine against aider's `replace_most_similar_chunk`, side by side on the same real
 * 20k-line Python file (CPython's standard library, concatenated) and the same blocks, in one run:
 *
 * - exact hit: a unique indented 6-line block, one line added (both sides must produce the same new text);
 * - indentation drift: the same block sent with 4 spaces less indentation on every line (same new text);
 * - miss + did-you-mean: half the block's lines stale, so nothing places it; graver's hint is its closest
 *   window (`closestWindow`), aider's is `find_similar_lines`, as its `apply_edits` reports a failed block.
 *
 * graver's side is the engine alone (a fresh `TextDoc` each run, `matchBlock`, then `applyMatch` or
 * `closestWindow`), with a plain `indexOf` of the block on the same text as its baseline. aider's side runs
 * in CPython through `bench/_aider_side.py`, from aider's own `aider/coders/editblock_coder.py`, which this
 * repository does not hold: pass its path with `--aider PATH` (or `GRAVER_AIDER_EDITBLOCK=PATH`), e.g. from
 * an unpacked `aider-chat` wheel. Without it the report compares with the figures of issue 15 (measured on
 * another machine) and says so. Each run times graver, `indexOf` and aider on one case in a row (aider's
 * process answers one run per request), so that the machine's load swings reach all three alike.
 *
 * Goal (issue 15): graver ≥ 20× aider on every path.
 *
 *   deno run -A bench/text_aider.bench.ts [--runs N] [--aider PATH]
 *
 * @module
 */
import { buildCPythonFile } from "./_cpython.ts";
import { describe, machine, printTable, result, runsArg, type Stats, stats } from "./_util.ts";
import { applyMatch } from "../src/text/apply_edit_ops.ts";
import { TextDoc } from "../src/text/_doc.ts";
import { closestWindow } from "../src/text/did_you_mean.ts";
import { matchBlockIn } from "../src/text/match_block.ts";
import type { EditBlock } from "../src/text/types.ts";

const RUNS = runsArg(Deno.args, 40);
const AIDER = (() => {
  const i = Deno.args.indexOf("--aider");
  return i !== -1 ? Deno.args[i + 1] : Deno.env.get("GRAVER_AIDER_EDITBLOCK");
})();
/** aider's times in issue 15 (another machine), used only when aider's file is not given. */
const ISSUE_AIDER_MS: Record<string, number> = { exact: 14.5, drift: 25.6, miss: 118 };

const { text, files } = await buildCPythonFile(20000);
const lines = text.split("\n");

/** The first unique 6-line block from 60 % on whose lines are all substantive and indented ≥ 4 spaces. */
function pickBlock(): { start: number; lines: string[] } {
  for (let s = Math.floor(lines.length * 0.6); s < lines.length - 6; s++) {
    const b = lines.slice(s, s + 6);
    if (b.some((l) => l.trim().length < 10 || !l.startsWith("    "))) continue;
    const needle = "\n" + b.join("\n") + "\n";
    const first = text.indexOf(needle);
    if (first !== -1 && text.indexOf(needle, first + 1) === -1) return { start: s, lines: b };
  }
  throw new Error("text_aider.bench: no usable block");
}

const block = pickBlock();
const replace = [
  block.lines[0]!,
  block.lines[1]!.match(/^\s*/)![0] + "trace('edited')",
  ...block.lines.slice(1),
];
const other = lines.slice(Math.floor(lines.length / 4), Math.floor(lines.length / 4) + 6);
const cases: { name: "exact" | "drift" | "miss"; label: string; block: EditBlock }[] = [
  { name: "exact", label: "exact hit", block: { search: block.lines, replace, inputLine: 1 } },
  {
    name: "drift",
    label: "indentation drift (4 spaces less)",
    block: {
      search: block.lines.map((l) => l.slice(4)),
      replace: replace.map((l) => l.slice(4)),
      inputLine: 1,
    },
  },
  {
    name: "miss",
    label: "miss + did-you-mean",
    // Half the lines stale (other real lines of the file): no tier may place it, the hint must find it.
    block: { search: block.lines.map((l, i) => i % 2 === 0 ? other[i]! : l), replace, inputLine: 1 },
  },
];

/** graver's engine on one case; returns the new text (placed) or the hint's first line (miss). */
function graver(c: EditBlock, miss: boolean): string | number {
  const doc = new TextDoc(text);
  const out = matchBlockIn(doc, c);
  if (miss) {
    if (out.ok) throw new Error("text_aider.bench: the miss block was placed");
    return closestWindow(doc, c.search)?.start_line ?? 0;
  }
  if (!out.ok) throw new Error(`text_aider.bench: graver did not place the block (${out.code})`);
  return applyMatch(doc, out.match, c);
}

function baseline(c: EditBlock): number {
  return text.indexOf(c.search.join("\n"));
}

async function sha(s: string): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s)));
  return [...d].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// What each side must do, checked before anything is timed.
const expected = text.replace(block.lines.join("\n"), replace.join("\n"));
for (const c of cases) {
  const out = graver(c.block, c.name === "miss");
  if (c.name === "miss" && out !== block.start + 1) {
    throw new Error(`text_aider.bench: graver's hint is line ${out}, not ${block.start + 1}`);
  }
  if (c.name !== "miss" && out !== expected) {
    throw new Error(`text_aider.bench: graver's ${c.name} text differs`);
  }
}

/** aider's side: a CPython process that runs one case per line asked (null when aider's file is not given). */
async function startAider(): Promise<
  { run: (name: string) => Promise<{ ms: number; out: string }>; stop: () => Promise<void> } | null
> {
  if (!AIDER) return null;
  const dir = await Deno.makeTempDir({ prefix: "graver-aider-" });
  const job = `${dir}/job.json`;
  await Deno.writeTextFile(
    job,
    JSON.stringify({
      text,
      cases: cases.map((c) => ({
        name: c.name,
        search: c.block.search.join("\n") + "\n",
        replace: c.block.replace.join("\n") + "\n",
        kind: c.name === "miss" ? "miss" : "replace",
      })),
    }),
  );
  const child = new Deno.Command("python3", {
    args: [new URL("./_aider_side.py", import.meta.url).pathname, AIDER, job],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  async function readLine(): Promise<string> {
    while (!buffered.includes("\n")) {
      const { value, done } = await lines.read();
      if (done) throw new Error("text_aider.bench: aider's side stopped (see its error above)");
      buffered += value;
    }
    const nl = buffered.indexOf("\n");
    const line = buffered.slice(0, nl);
    buffered = buffered.slice(nl + 1);
    return line;
  }
  return {
    async run(name) {
      await writer.write(new TextEncoder().encode(name + "\n"));
      return JSON.parse(await readLine());
    },
    async stop() {
      await writer.close();
      await child.status;
      await lines.cancel().catch(() => {});
      await Deno.remove(dir, { recursive: true });
    },
  };
}

const samples: Record<string, { graver: number[]; indexOf: number[]; aider: number[] }> = {};
for (const c of cases) samples[c.name] = { graver: [], indexOf: [], aider: [] };
for (const c of cases) for (let i = 0; i < 5; i++) graver(c.block, c.name === "miss"), baseline(c.block);
const aider = await startAider();
const want = await sha(expected);
try {
  // Interleaved: each run times graver, indexOf and aider on one case in a row, so load swings hit all three.
  for (let i = 0; i < RUNS; i++) {
    for (const c of cases) {
      const s = samples[c.name]!;
      let t = performance.now();
      graver(c.block, c.name === "miss");
      s.graver.push(performance.now() - t);
      t = performance.now();
      baseline(c.block);
      s.indexOf.push(performance.now() - t);
      if (aider) {
        const a = await aider.run(c.name);
        if (c.name !== "miss" && a.out !== want) {
          throw new Error(`text_aider.bench: aider's ${c.name} text differs from graver's`);
        }
        s.aider.push(a.ms);
      }
    }
  }
} finally {
  await aider?.stop();
}

console.log(`# graver's matching engine vs aider's replace_most_similar_chunk (${machine()})`);
console.log(
  `file: ${lines.length - 1} lines (${
    (text.length / 1024).toFixed(0)
  } KiB) from ${files} CPython stdlib modules; ` +
    `block: 6 lines at line ${block.start + 1}; ${RUNS} runs each, interleaved`,
);
const rows: string[][] = [[
  "path",
  "graver engine",
  "indexOf",
  "× indexOf",
  "aider",
  "aider ÷ graver (medians)",
  "(minimums)",
]];
for (const c of cases) {
  const g = stats(samples[c.name]!.graver);
  const b = stats(samples[c.name]!.indexOf);
  const a: Stats | null = aider ? stats(samples[c.name]!.aider) : null;
  const aMedian = a ? a.median : ISSUE_AIDER_MS[c.name]!;
  const ratio = aMedian / g.median;
  rows.push([
    c.label,
    describe(g),
    describe(b),
    `${(g.median / Math.max(b.median, 0.001)).toFixed(1)}×`,
    a ? describe(a) : `${aMedian} ms (issue 15, other machine)`,
    `${ratio.toFixed(1)}×`,
    a ? `${(a.min / g.min).toFixed(1)}×` : "—",
  ]);
  result(
    `text vs aider ${c.name}`,
    `graver ${g.median.toFixed(2)} ms, aider ${aMedian.toFixed(1)} ms${a ? "" : " (issue 15's figure)"}: ${
      ratio.toFixed(1)
    }×${a ? ` (minimums ${(a.min / g.min).toFixed(1)}×)` : ""} (goal ≥ 20×: ${
      ratio >= 20 ? "met" : "NOT met"
    }); ${(g.median / Math.max(b.median, 0.001)).toFixed(1)}× a plain indexOf`,
  );
}
printTable(rows);
if (!aider) {
  console.log(
    "aider's file not given (--aider PATH to aider/coders/editblock_coder.py): ratios use issue 15's figures",
  );
}
