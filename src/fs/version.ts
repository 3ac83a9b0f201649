/**
 * Content versions: the SHA-256 of the exact bytes, as lowercase hex.
 *
 * @module
 */

/** A content version: 64 lowercase hex characters of SHA-256 over the exact bytes. */
export type Version = string;

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/**
 * Compute the version of some bytes (SHA-256, WebCrypto).
 *
 * @param bytes The exact file content.
 * @returns The lowercase hex digest.
 *
 * @example Version of "hello\n"
 * ```ts
 * import { versionOf } from "@graver/core";
 * import assert from "node:assert/strict";
 *
 * const v = await versionOf(new TextEncoder().encode("hello\n"));
 * assert.equal(v, "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03");
 * ```
 */
export async function versionOf(bytes: Uint8Array): Promise<Version> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
  );
  let out = "";
  for (const b of digest) out += HEX[b];
  return out;
}

/**
 * Shorten a version for messages (first 12 hex characters).
 *
 * @param version A full version.
 * @returns Its first 12 characters.
 */
export function shortVersion(version: Version): string {
  return version.slice(0, 12);
}
