/**
 * Test helpers shared by unit tests: a memfs snapshot and text encoding (the
 * fault-injecting backend is `tests/conformance/fault_backend.ts`).
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
