/**
 * One fresh process of bench/first_call.bench.ts: loads the grammar and the
 * tags query, then times `outline` of the corpus file on new workspaces (no
 * parse cache), the first call and then WARM more, and prints one JSON line:
 * `{"load": ms, "first": ms, "warm": [ms...], "symbols": n}`.
 *
 *   deno run -A [--v8-flags=...] bench/first_call_child.ts FILE [WARM]
 *
 * @module
 */
import { createDiskBackend, createWasmLoader } from "../src/adapters/deno/mod.ts";
import { createWorkspace, Grammars } from "../src/mod.ts";
import { loadQuery } from "../src/syntax/queries.ts";

const [file, warmArg] = Deno.args;
if (!file) throw new Error("usage: first_call_child.ts FILE [WARM]");
const dir = file.slice(0, file.lastIndexOf("/"));
const rel = file.slice(dir.length + 1);
const WARM = Number(warmArg ?? 5);

let t0 = performance.now();
const grammars = new Grammars(createWasmLoader());
await grammars.language("typescript");
await loadQuery(grammars, "typescript", "tags");
const load = performance.now() - t0;

async function outline(): Promise<{ ms: number; symbols: number }> {
  const ws = await createWorkspace({ backend: createDiskBackend(), root: dir, grammars });
  const start = performance.now();
  const r = await ws.call("outline", { path: rel, max_symbols: 100000 });
  const ms = performance.now() - start;
  if (!r.ok) throw new Error(`outline failed: ${r.error.code}: ${r.error.message}`);
  await ws.close();
  let n = 0;
  const count = (list: { children?: unknown[] }[]) => {
    for (const s of list) {
      n++;
      if (s.children) count(s.children as { children?: unknown[] }[]);
    }
  };
  count((r.data as { symbols: { children?: unknown[] }[] }).symbols);
  return { ms, symbols: n };
}

t0 = performance.now();
const first = await outline();
const warm: number[] = [];
for (let i = 0; i < WARM; i++) {
  const w = await outline();
  if (w.symbols !== first.symbols) {
    throw new Error(`outline found ${w.symbols} symbols, first ${first.symbols}`);
  }
  warm.push(w.ms);
}
console.log(JSON.stringify({ load, first: first.ms, warm, symbols: first.symbols }));
