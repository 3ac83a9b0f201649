/**
 * The text-engine benchmark corpus: real source files shipped in the npm
 * packages under `node_modules/.deno/` (JavaScript, TypeScript, C, C++),
 * deduplicated by content, minified files skipped, in a stable order. Nothing
 * here is code written for graver.
 *
 * @module
 */
import * as fsp from "node:fs/promises";
import { join } from "node:path";
import { ROOT, walkFiles } from "../../_util.ts";

/** One corpus file. */
export interface CorpusFile {
  /** Path relative to node_modules/.deno. */
  path: string;
  /** Its text (LF). */
  text: string;
}

const EXT = /\.(?:js|mjs|cjs|ts|c|h|cc|cpp)$/;

/** Source files, not declarations or minified bundles. */
function isSource(name: string): boolean {
  return EXT.test(name) && !name.endsWith(".d.ts") && !name.includes(".min.");
}

/**
 * Load the corpus.
 *
 * @param options `minLines`/`maxLines` per file, `limit` files.
 * @returns Files sorted by path, unique by content.
 */
export async function loadCorpus(
  options: { minLines?: number; maxLines?: number; limit?: number } = {},
): Promise<CorpusFile[]> {
  const base = join(ROOT, "node_modules/.deno");
  const paths = (await walkFiles(base, isSource)).sort();
  const seen = new Set<string>();
  const out: CorpusFile[] = [];
  for (const p of paths) {
    const raw = await fsp.readFile(p, "utf8");
    if (raw.includes("\0") || raw.includes("\r")) continue;
    const lines = raw.split("\n");
    if (lines.length < (options.minLines ?? 40) || lines.length > (options.maxLines ?? 3000)) continue;
    const long = lines.filter((l) => l.length > 240).length;
    if (long > lines.length / 50) continue;
    if (seen.has(raw)) continue;
    seen.add(raw);
    out.push({ path: p.slice(base.length + 1), text: raw });
    if (options.limit !== undefined && out.length >= options.limit) break;
  }
  return out;
}

/** A small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
