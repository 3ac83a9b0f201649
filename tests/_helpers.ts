/**
 * Test helpers shared by unit tests: a memfs snapshot, text encoding and
 * fixture lookup (the fault-injecting backend is
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

/**
 * Where a fixture file is: `tests/fixtures/real/<name>` (real files several
 * areas share) when it is there, else `tests/fixtures/<area>/<name>`.
 *
 * @param area The area's fixture folder (e.g. "symbols", "structural").
 * @param name The file name.
 * @returns Its URL.
 */
export function fixtureUrl(area: string, name: string): URL {
  const shared = new URL(`real/${name}`, FIXTURES);
  try {
    if (Deno.statSync(shared).isFile) return shared;
  } catch {
    // Not shared: the area's own copy.
  }
  return new URL(`${area}/${name}`, FIXTURES);
}
