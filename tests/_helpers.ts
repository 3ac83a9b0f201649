/**
 * Test helpers shared by unit tests: a fault-injecting backend and a memfs
 * snapshot.
 *
 * @module
 */
import type { Backend } from "../src/fs/backend.ts";

const OPS = [
  "readFile",
  "writeFile",
  "rename",
  "unlink",
  "mkdir",
  "readdir",
  "stat",
  "lstat",
  "readlink",
  "rmdir",
] as const;

/** A backend wrapper whose `failAt`-th mutating operation throws (once, or forever after with `crash`). */
export function faultyBackend(
  inner: Backend,
  options: { failAt: number; crash?: boolean; ops?: readonly string[] },
): Backend & { count: number } {
  const mutating = new Set(options.ops ?? ["writeFile", "rename", "unlink", "mkdir", "rmdir"]);
  const state = { count: 0, crashed: false };
  const wrapper: Record<string, unknown> = {};
  for (const op of OPS) {
    const fn = (inner as unknown as Record<string, unknown>)[op];
    if (typeof fn !== "function") continue;
    wrapper[op] = (...args: unknown[]) => {
      if (state.crashed) return Promise.reject(new Error(`injected crash: ${op} after the crash`));
      if (mutating.has(op)) {
        state.count++;
        if (state.count === options.failAt) {
          if (options.crash) state.crashed = true;
          const err = new Error(`injected fault: ${op} #${state.count}`) as Error & { code: string };
          err.code = "EIO";
          return Promise.reject(err);
        }
      }
      return (fn as (...a: unknown[]) => Promise<unknown>).apply(inner, args);
    };
  }
  Object.defineProperty(wrapper, "count", { get: () => state.count });
  return wrapper as unknown as Backend & { count: number };
}

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
