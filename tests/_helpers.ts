/**
 * Test helpers shared by unit tests: a memfs snapshot, text encoding,
 * fixture lookup, and seeded random chunking of a text (the fault-injecting backend is
 * `tests/conformance/fault_backend.ts`).
 *
 * @module
 */
import type { Backend } from "../src/fs/backend.ts";

/** Every file under `dir` (recursive) as path -> text, skipping graver's `.graver/`. */
export async function snapshot(backend: Backend, dir = "/"): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string) => {
    for (const name of (await backend.readdir(d)).map(String).sort()) {
      if (name === ".graver") continue;
      const p = d === "/" ? `/${name}` : `${d}/${name}`;
      const st = await backend.lstat(p);
      if (st.isDirectory()) await walk(p);
      else out[p] = new TextDecoder().decode(await backend.readFile(p) as Uint8Array);
    }
  };
  await walk(dir);
  return out;
}

/** Encode text. */
export function enc(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

const FIXTURES = new URL("./fixtures/", import.meta.url);
const SAMPLES = new URL("./conformance/samples/", import.meta.url);

/**
 * Where a fixture file is: `tests/fixtures/real/<name>` (real files several
 * areas share), else a conformance sample `tests/conformance/samples/<lang>/<name>`
 * (the same real files feed every runtime), else `tests/fixtures/<area>/<name>`.
 *
 * @param area The area's fixture folder (e.g. "symbols", "structural").
 * @param name The file name.
 * @returns Its URL.
 */
export function fixtureUrl(area: string, name: string): URL {
  const isFile = (url: URL) => {
    try {
      return Deno.statSync(url).isFile;
    } catch {
      return false;
    }
  };
  const shared = new URL(`real/${name}`, FIXTURES);
  if (isFile(shared)) return shared;
  for (const lang of Deno.readDirSync(SAMPLES)) {
    const sample = new URL(`${lang.name}/${name}`, SAMPLES);
    if (lang.isDirectory && isFile(sample)) return sample;
  }
  return new URL(`${area}/${name}`, FIXTURES);
}

/** A seeded pseudo-random generator (mulberry32): the same seed gives the same numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `text` cut into pieces of 1 to `max` characters, as a stream of tokens could deliver it. */
export function randomChunks(text: string, rand: () => number, max: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length;) {
    const n = 1 + Math.floor(rand() * max);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}
