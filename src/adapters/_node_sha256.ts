/**
 * `node:crypto`'s SHA-256 lent to the versions (`fs/version.ts`) by the Deno, Node and Bun adapters: a
 * synchronous digest, several times faster than WebCrypto's one operation per file on a search's many small
 * files (bench/search_structural.bench.ts).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { lendSha256 } from "../fs/version.ts";

/**
 * The SHA-256 of `bytes` as lowercase hex, by `node:crypto` (the bytes hashed in place, not copied).
 *
 * @param bytes The exact content.
 * @returns The digest.
 */
export function nodeSha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Lend {@linkcode nodeSha256} to the versions of this process (what the posix adapters do on load). */
export function lendNodeSha256(): void {
  lendSha256(nodeSha256);
}
