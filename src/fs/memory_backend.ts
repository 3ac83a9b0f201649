/**
 * The embedded default backend: an in-memory filesystem (memfs).
 *
 * @module
 */
import { memfs } from "memfs";
import type { Backend } from "./backend.ts";

/**
 * Create an in-memory backend, optionally seeded with files.
 *
 * @param files Absolute paths to text or bytes.
 * @returns An fs.promises-shaped backend.
 *
 * @example Seed and read
 * ```ts
 * import { createMemoryBackend } from "@graver/core";
 * import assert from "node:assert/strict";
 *
 * const backend = createMemoryBackend({ "/src/a.ts": "export {};\n" });
 * assert.deepEqual(await backend.readdir("/src"), ["a.ts"]);
 * ```
 */
/**
 * The process memfs consults: the host's user and group ids read once. memfs
 * asks for them on every open and every new file, and some runtimes answer
 * slowly (Deno checks a permission each time: ~0.1 ms, a quarter of a cold
 * project rename over 250 files).
 */
function fixedProcess() {
  const host =
    (globalThis as { process?: { getuid?(): number; getgid?(): number; platform?: string } }).process;
  const uid = host?.getuid?.() ?? 0;
  const gid = host?.getgid?.() ?? 0;
  return {
    cwd: () => "/",
    platform: host?.platform ?? "linux",
    emitWarning: () => {},
    env: {},
    getuid: () => uid,
    getgid: () => gid,
  };
}

export function createMemoryBackend(files: Record<string, string | Uint8Array> = {}): Backend {
  const { vol } = memfs({}, { cwd: "/", process: fixedProcess() });
  for (const [path, content] of Object.entries(files)) {
    const dir = path.slice(0, path.lastIndexOf("/")) || "/";
    vol.mkdirSync(dir, { recursive: true });
    vol.writeFileSync(path, content);
  }
  const backend = { ...vol.promises } as unknown as Backend;
  // memfs 4.80's rename over an existing file keeps counting the replaced entry, so its directory can never
  // be removed (rmdir answers ENOTEMPTY once empty). Replace in two synchronous steps instead: no other
  // caller of this in-memory backend can run in between, so the rename stays atomic for them.
  backend.rename = (from: string, to: string): Promise<void> => {
    try {
      vol.lstatSync(from);
      if (vol.existsSync(to) && !vol.lstatSync(to).isDirectory()) vol.unlinkSync(to);
      vol.renameSync(from, to);
      return Promise.resolve();
    } catch (err) {
      return Promise.reject(err);
    }
  };
  return backend;
}
