/**
 * Speed of the matching ladder on 1k / 5k / 20k-line files (real sources from
 * node_modules/.deno concatenated), as ratios to a plain `indexOf` baseline
 * measured in the same run, interleaved:
 *
 * - exact hit: locate a unique 6-line block and produce the new text
 *   (baseline: `indexOf` + splice);
 * - drift: the same block sent with its indentation shifted by two spaces,
 *   placed by the indentation tier and re-indented (baseline: `indexOf` → -1);
 * - miss with hint: a block with half its lines changed, through every tier
 *   to `no_match`, plus the did-you-mean window (baseline: `indexOf` → -1);
 * - fuzzy: a block with a one-token typo, placed by the fuzzy tier
 *   (baseline: `indexOf` → -1).
 *
 *   deno run -A bench/text_speed.bench.ts [--runs N]
 *
 * @module
 */
import { loadCorpus } from "./corpus/text/corpus.ts";
import { describe, printTable, result, runsArg, type Stats, stats } from "./_util.ts";
import { applyMatch } from "../src/text/apply_edit_ops.ts";
import { TextDoc } from "../src/text/_doc.ts";
import { closestWindow } from "../src/text/did_you_mean.ts";
import { matchBlock, matchBlockIn } from "../src/text/match_block.ts";
import type { EditBlock } from "../src/text/types.ts";

const RUNS = runsArg(Deno.args, 40);
const SIZES = [1000, 5000, 20000];

const corpus = await loadCorpus({ minLines: 100 });

/** Concatenate distinct corpus files until `lines` lines. */
function buildFile(lines: number): { text: string; sources: number } {
  const out: string[] = [];
  let sources = 0;
  for (const f of corpus) {
    if (out.length >= lines) break;
    out.push(...f.text.replace(/\n$/, "").split("\n"));
    sources++;
  }
  return { text: out.slice(0, lines).join("\n") + "\n", sources };
}

/** Unique, substantive 6-line blocks from `at` (fraction of the file) on. */
function* blocks(text: string, at: number): Generator<{ start: number; lines: string[] }> {
  const all = text.split("\n");
  for (let s = Math.floor(all.length * at); s < all.length - 6; s++) {
    const b = all.slice(s, s + 6);
    if (b.some((l) => l.trim().length < 10)) continue;
    const needle = "\n" + b.join("\n") + "\n";
    const first = text.indexOf(needle);
    if (first !== -1 && text.indexOf(needle, first + 1) === -1) yield { start: s, lines: b };
  }
}

function typo(line: string): string {
  const m = /[A-Za-z_]{5,}/.exec(line);
  if (!m) return line + "x";
  const w = m[0];
  return line.slice(0, m.index) + w[0] + w[2] + w[1] + w.slice(3) + line.slice(m.index + w.length);
}

function time(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

interface Row {
  size: number;
  op: string;
  subject: Stats;
  baseline: Stats;
}

const rows: Row[] = [];
let sink = 0;
for (const size of SIZES) {
  const { text, sources } = buildFile(size);
  // The first block from 3/4 of the file on where each subject does its real work (checked here,
  // so no figure below can be of a no-op): exact hit, fuzzy placement, miss with the right hint.
  let picked = null;
  const other = text.split("\n").slice(Math.floor(size / 4), Math.floor(size / 4) + 6);
  for (const block of blocks(text, 0.75)) {
    const replace = [block.lines[0]!, "    inserted();", ...block.lines.slice(1)];
    const exact: EditBlock = { search: block.lines, replace, inputLine: 1 };
    const typoBlock: EditBlock = {
      search: block.lines.map((l, i) => i === 2 ? typo(l) : l),
      replace,
      inputLine: 1,
    };
    const missBlock: EditBlock = {
      // Half the lines are stale (replaced by other real lines of the file): no tier may place it.
      search: block.lines.map((l, i) => i % 2 === 0 ? other[i]! : l),
      replace,
      inputLine: 1,
    };
    const e = matchBlock(text, exact);
    const f = matchBlock(text, typoBlock, { fuzzy: true });
    const m = matchBlock(text, missBlock);
    const driftBlock: EditBlock = {
      search: block.lines.map((l) => `  ${l}`),
      replace: replace.map((l) => `  ${l}`),
      inputLine: 1,
    };
    const d = matchBlock(text, driftBlock);
    if (!d.ok || d.match.tier !== "indentation" || d.match.start !== block.start) continue;
    const hint = closestWindow(new TextDoc(text), missBlock.search);
    if (!e.ok || e.match.tier !== "exact" || e.match.start !== block.start) continue;
    if (!f.ok || f.match.tier !== "fuzzy" || f.match.start !== block.start) continue;
    if (m.ok || hint === null || hint.start_line !== block.start + 1) {
      if (Deno.env.get("SPEED_DEBUG")) {
        console.log(JSON.stringify(m).slice(0, 200), JSON.stringify(hint)?.slice(0, 100), block.start);
      }
      continue;
    }
    picked = { block, replace, exact, typoBlock, missBlock, driftBlock };
    break;
  }
  if (picked === null) throw new Error(`no usable block in the ${size}-line file`);
  const { block, replace, exact, typoBlock, missBlock, driftBlock } = picked;
  const needle = block.lines.join("\n");
  const ops: { op: string; subject: () => unknown; baseline: () => unknown }[] = [
    {
      op: "exact hit",
      subject: () => {
        const doc = new TextDoc(text);
        const out = matchBlockIn(doc, exact);
        return out.ok ? applyMatch(doc, out.match, exact).length : 0;
      },
      baseline: () => {
        const at = text.indexOf(needle);
        return (text.slice(0, at) + replace.join("\n") + text.slice(at + needle.length)).length;
      },
    },
    {
      op: "drift (indentation)",
      subject: () => {
        const doc = new TextDoc(text);
        const out = matchBlockIn(doc, driftBlock);
        return out.ok ? applyMatch(doc, out.match, driftBlock).length : 0;
      },
      baseline: () => text.indexOf(driftBlock.search.join("\n")),
    },
    {
      op: "miss + did-you-mean",
      subject: () => {
        const doc = new TextDoc(text);
        const out = matchBlockIn(doc, missBlock);
        return out.ok ? 0 : closestWindow(doc, missBlock.search)?.start_line ?? 0;
      },
      baseline: () => text.indexOf(missBlock.search.join("\n")),
    },
    {
      op: "fuzzy (one-token typo)",
      subject: () => {
        const doc = new TextDoc(text);
        const out = matchBlockIn(doc, typoBlock, { fuzzy: true });
        return out.ok ? applyMatch(doc, out.match, typoBlock).length : 0;
      },
      baseline: () => text.indexOf(typoBlock.search.join("\n")),
    },
  ];
  for (const o of ops) {
    for (let i = 0; i < 5; i++) {
      o.subject();
      o.baseline();
    }
    const s: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      s.push(time(o.subject));
      b.push(time(o.baseline));
    }
    sink += Number(o.subject()) || 0;
    rows.push({ size, op: o.op, subject: stats(s), baseline: stats(b) });
  }
  console.log(`${size} lines: ${(text.length / 1024).toFixed(0)} KiB from ${sources} real files`);
}

console.log(`\n# text engine speed (median of ${RUNS} interleaved runs; Deno ${Deno.version.deno})`);
printTable([
  ["lines", "operation", "ladder", "indexOf baseline", "ratio"],
  ...rows.map((r) => [
    String(r.size),
    r.op,
    describe(r.subject),
    describe(r.baseline),
    `${(r.subject.median / Math.max(r.baseline.median, 0.001)).toFixed(1)}x`,
  ]),
]);
void sink;
const get = (size: number, op: string) => rows.find((r) => r.size === size && r.op === op)!;
const exact20 = get(20000, "exact hit");
const miss20 = get(20000, "miss + did-you-mean");
const drift20 = get(20000, "drift (indentation)");
const fuzzy20 = get(20000, "fuzzy (one-token typo)");
const ratio = (r: Row) => `${(r.subject.median / Math.max(r.baseline.median, 0.001)).toFixed(1)}x indexOf`;
result(
  "text exact hit 20k lines",
  `${exact20.subject.median.toFixed(3)} ms (${ratio(exact20)}; goal < 1 ms: ${
    exact20.subject.median < 1 ? "met" : "NOT met"
  })`,
);
result(
  "text miss + did-you-mean 20k lines",
  `${miss20.subject.median.toFixed(2)} ms (${ratio(miss20)}; goal < 15 ms: ${
    miss20.subject.median < 15 ? "met" : "NOT met"
  })`,
);
result("text drift hit 20k lines", `${drift20.subject.median.toFixed(2)} ms (${ratio(drift20)}; no goal)`);
result("text fuzzy hit 20k lines", `${fuzzy20.subject.median.toFixed(2)} ms (${ratio(fuzzy20)}; no goal)`);
