/**
 * Child of `bench/search_100k.ts`: in one process, three searches over DIR through one session's read cache (as
 * a server or library session makes them: the first cold, the next two warm), each scanning every file, then
 * prints one JSON line: per search its time, files scanned and matched, the process's memory after it
 * (`Deno.memoryUsage()`: resident set, V8 heap used and reserved, memory outside the heap such as byte
 * arrays), and what the caches hold. Peak RSS is measured around this process by the parent (`/usr/bin/time`).
 *
 *   deno run -A bench/_search_100k_child.ts DIR text [PATTERN]        search_text, `count` mode of a literal
 *   deno run -A bench/_search_100k_child.ts DIR structural [PATTERN]  search_structural (JavaScript files)
 *
 * @module
 */
import { createMemoryBackend, createWorkspace } from "../src/mod.ts";
import { createWasmLoader } from "../src/adapters/deno/mod.ts";
import {
  decodedTextCounts,
  decodedTexts,
  normalizeSearchTextArgs,
  normalizeStructuralArgs,
  searchStructural,
  searchText,
} from "../src/search/mod.ts";
import { patternMatcherOf } from "../src/structural/search/mod.ts";
import { diskReadCache, diskSearchFiles } from "../tests/unit/search/_rg.ts";

const dir = Deno.args[0]!;
const mode = Deno.args[1] ?? "text";
const MiB = 2 ** 20;

/** One search of the session: what it found. */
type Search = () => Promise<{ scanned: number; matched: number; parsed?: number }>;

// GRAVER_TEXT_MIB: the decoded texts' budget for this run (what a host may set), to measure its effect.
const textMiB = Deno.env.get("GRAVER_TEXT_MIB");
if (textMiB !== undefined) decodedTexts.setMaxBytes(Number(textMiB) * MiB);
const cache = diskReadCache();
let trees: { size: number; heldChars?: number } | null = null;
let search: Search;
if (mode === "structural") {
  const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
  trees = ws.trees;
  const query = normalizeStructuralArgs({
    pattern: Deno.args[2] ?? "c.req.header($A)",
    language: "js",
    output_mode: "count",
    max_results: 1e7,
  });
  search = async () => {
    // A matcher per search, as the tool makes one per call.
    const r = await searchStructural(diskSearchFiles(dir, { cache }), query, {
      matcher: patternMatcherOf(ws),
    });
    return {
      scanned: r.summary.files_scanned,
      matched: r.summary.files_matched,
      parsed: r.summary.files_parsed,
    };
  };
} else {
  const query = normalizeSearchTextArgs({
    pattern: Deno.args[2] ?? "createElement",
    literal: true,
    output_mode: "count",
    max_results: 1e7,
  });
  search = async () => {
    const r = await searchText(diskSearchFiles(dir, { cache }), query);
    return { scanned: r.summary.files_scanned, matched: r.summary.files_matched };
  };
}

const runs = [];
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  const found = await search();
  const ms = Math.round(performance.now() - t);
  const m = Deno.memoryUsage();
  // With `--v8-flags=--expose-gc`, the heap's live set after the search too.
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const live = gc ? { liveMiB: Math.round(Deno.memoryUsage().heapUsed / MiB) } : {};
  runs.push({
    ms,
    ...found,
    rssMiB: Math.round(m.rss / MiB),
    heapUsedMiB: Math.round(m.heapUsed / MiB),
    heapTotalMiB: Math.round(m.heapTotal / MiB),
    externalMiB: Math.round(m.external / MiB),
    ...live,
  });
}
console.log(JSON.stringify({
  runs,
  cache: cache.counts(),
  texts: decodedTextCounts(),
  trees: trees === null ? null : { size: trees.size, heldChars: trees.heldChars },
}));
