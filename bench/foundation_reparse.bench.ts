/**
 * Benchmark: incremental re-parse of the 1 MB TypeScript corpus after a
 * one-line edit, through graver's `TreeCache` (which finds the changed span,
 * edits the cached tree and re-parses from it), against a full parse of the
 * same text in the same run. Goal: re-parse ≤ 2 ms.
 *
 * Also splits the `TreeCache` figure into its parts: the raw web-tree-sitter
 * `tree.edit` + `parser.parse(text, oldTree)` with a precomputed edit, and the
 * span/point computation graver does before it.
 *
 * Run: `npx -y deno@2.9.6 task bench --filter reparse` (`--runs N`: rounds).
 *
 * @module
 */
import type { Edit, Tree } from "web-tree-sitter";
import { createWasmLoader } from "../src/adapters/deno/mod.ts";
import { versionOf } from "../src/fs/version.ts";
import { Grammars } from "../src/syntax/grammars.ts";
import { advancePoint, pointAt, TreeCache } from "../src/syntax/trees.ts";
import { changedSpan } from "../src/fs/text_changes.ts";
import {
  buildCorpus,
  describe,
  describeCorpus,
  machine,
  ms,
  printTable,
  result,
  runsArg,
  stats,
} from "./_util.ts";

const GOAL_MS = 2;
const INCREMENTAL_PER_ROUND = 6;

/** The corpus with one line changed near `fraction` of the way through (an identifier renamed). */
function editOneLine(
  text: string,
  fraction: number,
): { text: string; line: number; before: string; after: string } {
  const lines = text.split("\n");
  const pattern = /^(\s*(?:readonly\s+)?)([A-Za-z_$][\w$]*)(\??\s*[:(])/;
  for (let i = Math.floor(lines.length * fraction); i < lines.length; i++) {
    const m = pattern.exec(lines[i]!);
    if (!m) continue;
    const before = lines[i]!;
    const after = before.replace(pattern, `$1$2Edited$3`);
    lines[i] = after;
    return { text: lines.join("\n"), line: i + 1, before: before.trim(), after: after.trim() };
  }
  throw new Error(`Cannot find a line to edit after ${Math.round(fraction * 100)}% of the corpus`);
}

/** The edit as `TreeCache` derives it (changed span, start point, end points counted from the start). */
function editBetween(before: string, after: string): Edit {
  const span = changedSpan(before, after)!;
  const startPosition = pointAt(before, span.start);
  return {
    startIndex: span.start,
    oldEndIndex: span.oldEnd,
    newEndIndex: span.newEnd,
    startPosition,
    oldEndPosition: advancePoint(before, { from: span.start, point: startPosition, to: span.oldEnd }),
    newEndPosition: advancePoint(after, { from: span.start, point: startPosition, to: span.newEnd }),
  } as Edit;
}

const rounds = runsArg(Deno.args, 10);
const corpus = await buildCorpus();
const grammars = new Grammars(createWasmLoader());
const parser = await grammars.parser("typescript");
const original = corpus.text;
const versionA = await versionOf(new TextEncoder().encode(original));

console.log(
  `# foundation_reparse: incremental re-parse after a one-line edit vs a full parse, 1 MB TypeScript`,
);
console.log(`machine: ${machine()}; ${new Date().toISOString()}`);
console.log(`corpus: ${describeCorpus(corpus)}`);

const rows: string[][] = [[
  "edit at",
  "TreeCache.parse, incremental",
  "raw tree.edit + parse(old)",
  "span + points",
  "full parse (baseline)",
  "full / incremental",
]];
let headline: { inc: number; full: number; raw: number; span: number } | null = null;
for (const fraction of [0.1, 0.5, 0.9]) {
  const edited = editOneLine(original, fraction);
  const versionB = await versionOf(new TextEncoder().encode(edited.text));
  const texts = [original, edited.text] as const;
  const versions = [versionA, versionB] as const;
  const edits = [editBetween(edited.text, original), editBetween(original, edited.text)] as const;

  const cache = new TreeCache(grammars);
  await cache.parse("corpus.ts", "typescript", versionA, original);
  let rawTree: Tree = parser.parse(original)!;
  let state = 0; // which text the cache and rawTree hold
  const inc: number[] = [];
  const raw: number[] = [];
  const span: number[] = [];
  const full: number[] = [];
  for (let round = -1; round < rounds; round++) { // round -1 warms up
    let t = performance.now();
    parser.parse(texts[state]!)!.delete();
    if (round >= 0) full.push(performance.now() - t);
    for (let k = 0; k < INCREMENTAL_PER_ROUND; k++) {
      const next = 1 - state;
      t = performance.now();
      await cache.parse("corpus.ts", "typescript", versions[next]!, texts[next]!);
      const dInc = performance.now() - t;
      t = performance.now();
      editBetween(texts[state]!, texts[next]!);
      const dSpan = performance.now() - t;
      t = performance.now();
      rawTree.edit(edits[next]!);
      const tree = parser.parse(texts[next]!, rawTree)!;
      const dRaw = performance.now() - t;
      rawTree.delete();
      rawTree = tree;
      state = next;
      if (round >= 0) {
        inc.push(dInc);
        raw.push(dRaw);
        span.push(dSpan);
      }
    }
  }
  if (cache.incrementalParses !== (rounds + 1) * INCREMENTAL_PER_ROUND) {
    throw new Error(`Cannot trust the figures: only ${cache.incrementalParses} re-parses were incremental`);
  }
  rawTree.delete();
  cache.forget("corpus.ts");
  const sInc = stats(inc);
  const sFull = stats(full);
  rows.push([
    `${Math.round(fraction * 100)}% (line ${edited.line})`,
    describe(sInc),
    describe(stats(raw)),
    ms(stats(span).median),
    describe(sFull),
    `${(sFull.median / sInc.median).toFixed(0)}×`,
  ]);
  if (fraction === 0.5) {
    headline = { inc: sInc.median, full: sFull.median, raw: stats(raw).median, span: stats(span).median };
    console.log(`edit (line ${edited.line}): \`${edited.before}\` → \`${edited.after}\``);
  }
}
printTable(rows);
const h = headline!;
console.log(
  `re-parse at 50%: ${ms(h.inc)} vs full ${ms(h.full)} (${(h.inc / h.full).toFixed(4)}× of a full parse); ` +
    `goal ≤ ${GOAL_MS} ms — ${h.inc <= GOAL_MS ? "met" : "NOT met"}`,
);
result(
  "re-parse 1 MB TS after a one-line edit",
  `${ms(h.inc)} via TreeCache (tree-sitter edit+parse ${ms(h.raw)}, graver span/points ${ms(h.span)}; ` +
    `full parse ${ms(h.full)}, ratio ${(h.inc / h.full).toFixed(4)}; goal ≤ ${GOAL_MS} ms: ${
      h.inc <= GOAL_MS ? "met" : "NOT met"
    })`,
);

// The same measure on typical file sizes (the 44 KB reference file of docs/runtimes and a 256 KB one).
const sizeRows: string[][] = [[
  "file",
  "TreeCache.parse, incremental",
  "full parse (baseline)",
  "full / incremental",
]];
const bySize: string[] = [];
for (const target of [44 * 1024, 256 * 1024]) {
  const small = await buildCorpus(target);
  const edited = editOneLine(small.text, 0.5);
  const texts = [small.text, edited.text] as const;
  const versions = [
    await versionOf(new TextEncoder().encode(small.text)),
    await versionOf(new TextEncoder().encode(edited.text)),
  ] as const;
  const cache = new TreeCache(grammars);
  await cache.parse("small.ts", "typescript", versions[0], texts[0]);
  const inc: number[] = [];
  const full: number[] = [];
  let state = 0;
  for (let round = -1; round < rounds * 6; round++) {
    const next = 1 - state;
    let t = performance.now();
    await cache.parse("small.ts", "typescript", versions[next]!, texts[next]!);
    if (round >= 0) inc.push(performance.now() - t);
    t = performance.now();
    parser.parse(texts[next]!)!.delete();
    if (round >= 0) full.push(performance.now() - t);
    state = next;
  }
  cache.forget("small.ts");
  const sInc = stats(inc);
  const sFull = stats(full);
  const kb = `${Math.round(small.text.length / 1024)} KB`;
  sizeRows.push([kb, describe(sInc), describe(sFull), `${(sFull.median / sInc.median).toFixed(0)}×`]);
  bySize.push(`${kb} ${ms(sInc.median)} (${sInc.median <= GOAL_MS ? "met" : "NOT met"})`);
}
printTable(sizeRows);
result("re-parse after a one-line edit by file size", `${bySize.join(", ")}; goal ≤ ${GOAL_MS} ms`);
parser.delete();
