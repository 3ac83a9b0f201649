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
export function createMemoryBackend(files: Record<string, string | Uint8Array> = {}): Backend {
  const { vol } = memfs();
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
