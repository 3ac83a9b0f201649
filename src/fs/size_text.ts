/**
 * A byte count as a message shows it to a person or a model: `16 MiB`, `1.3 MiB`, `900 KiB`, `12 bytes`. One
 * rule for every message that names a size (a parse limit, a size limit, a file left out).
 *
 * @module
 */

/**
 * A size in bytes as people read it: MiB from 1 MiB, KiB from 1 KiB (one decimal, none when whole), else bytes.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { sizeText } from "./size_text.ts";
 *
 * assert.equal(sizeText(16 * 1024 * 1024), "16 MiB");
 * assert.equal(sizeText(1_400_000), "1.3 MiB");
 * assert.equal(sizeText(4096), "4 KiB");
 * assert.equal(sizeText(12), "12 bytes");
 * ```
 *
 * @param bytes A size in bytes.
 * @returns The size with its unit.
 */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
