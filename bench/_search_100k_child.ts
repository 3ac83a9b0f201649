/**
 * Child of `bench/search_100k.ts`: in one process, three `search_text` calls over DIR through one session's read
 * cache (as a server or library session makes them: the first cold, the next two warm), each scanning every
 * file (`count` mode of a literal), then prints one JSON line: per search its time, files scanned and matched,
 * and the cache's held bytes. Peak RSS is measured around this process by the parent (`/usr/bin/time`).
 *
 * @module
 */
import { normalizeSearchTextArgs, searchText } from "../src/search/mod.ts";
import { diskReadCache, diskSearchFiles } from "../tests/unit/search/_rg.ts";

const dir = Deno.args[0]!;
const pattern = Deno.args[1] ?? "createElement";
const cache = diskReadCache();
const query = normalizeSearchTextArgs({ pattern, literal: true, output_mode: "count", max_results: 1e7 });
const runs: { ms: number; scanned: number; matched: number }[] = [];
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  const r = await searchText(diskSearchFiles(dir, { cache }), query);
  runs.push({
    ms: Math.round(performance.now() - t),
    scanned: r.summary.files_scanned,
    matched: r.summary.files_matched,
  });
}
console.log(JSON.stringify({ runs, cache: cache.counts() }));
