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
  return vol.promises as unknown as Backend;
}
