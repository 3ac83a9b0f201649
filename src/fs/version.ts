/**
 * Content versions: the SHA-256 of the exact bytes, as lowercase hex.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { sha256 } from "./_sha256.ts";

/** A content version: 64 lowercase hex characters of SHA-256 over the exact bytes. */
export type Version = string;

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/**
 * From this size on, {@linkcode versionOf} hashes the bytes in place ({@linkcode sha256}, about 3× slower than
 * WebCrypto) rather than let WebCrypto take a copy of them: on a large file that copy is what sets an edit's
 * peak memory. 8 MiB, the parse limit's default: the files only text tools can edit.
 */
export const IN_PLACE_HASH_BYTES = 8 * 1024 * 1024;

/**
 * A synchronous SHA-256 of some bytes as lowercase hex, hashed in place: what a runtime's adapter lends where
 * it has one (`node:crypto` in Deno, Node and Bun).
 */
export type SyncSha256 = (bytes: Uint8Array) => string;

/** The digest an adapter lent ({@linkcode lendSha256}), or null: WebCrypto. */
let lentSha256: SyncSha256 | null = null;

/**
 * Hash versions with `digest` from now on in this process (null: WebCrypto and {@linkcode sha256} again). An
 * adapter lends its runtime's native digest: WebCrypto's is asynchronous, one operation per file, and costs
 * several times a synchronous one on the many small files of a search (hono's 382 files: 13.7 ms one after
 * another, against 0.8 ms with `node:crypto` in Deno). The digest must be SHA-256 over the exact bytes.
 *
 * @param digest The synchronous digest, or null.
 *
 * @example
 * ```ts
 * import { lendSha256, versionOf, versionOfNow } from "@graver/core/fs";
 * import { createHash } from "node:crypto";
 * import assert from "node:assert/strict";
 *
 * const bytes = new TextEncoder().encode("hello\n");
 * lendSha256((b) => createHash("sha256").update(b).digest("hex"));
 * assert.equal(versionOfNow(bytes), "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03");
 * lendSha256(null);
 * assert.equal(versionOfNow(bytes), undefined);
 * assert.equal((await versionOf(bytes)).slice(0, 12), "5891b5b522d5");
 * ```
 */
export function lendSha256(digest: SyncSha256 | null): void {
  lentSha256 = digest;
}

/**
 * The version of some bytes without a promise, where an adapter lent a synchronous digest
 * ({@linkcode lendSha256}); undefined elsewhere (then {@linkcode versionOf}).
 *
 * @param bytes The exact file content.
 * @returns The lowercase hex digest, or undefined.
 */
export function versionOfNow(bytes: Uint8Array): Version | undefined {
  return lentSha256?.(bytes);
}

/**
 * Compute the version of some bytes (SHA-256: WebCrypto, or in place from {@linkcode IN_PLACE_HASH_BYTES} on).
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
  if (lentSha256 !== null) return lentSha256(bytes);
  const digest = bytes.length >= IN_PLACE_HASH_BYTES
    ? sha256(bytes)
    : new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
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

/** The shortest prefix of a version accepted in place of the full one (as `shortVersion` shows it). */
export const MIN_VERSION_PREFIX = 12;

/**
 * Whether the version a caller holds names `actual`: all 64 hex characters,
 * or a prefix of at least {@linkcode MIN_VERSION_PREFIX} (any letter case).
 * Refuses a shorter prefix with `invalid_args`.
 *
 * @param actual The current version (null: the file is absent).
 * @param expected The version or prefix the caller passed.
 * @param path The file, for the refusal's message.
 * @returns True when `expected` is `actual` or a long-enough prefix of it.
 *
 * @example A 12-character prefix, as messages show it
 * ```ts
 * import { versionMatches, versionOf } from "@graver/core/fs";
 * import assert from "node:assert/strict";
 *
 * const v = await versionOf(new TextEncoder().encode("hello\n"));
 * assert.ok(versionMatches(v, v.slice(0, 12), "a.txt"));
 * assert.ok(!versionMatches(v, "0".repeat(64), "a.txt"));
 * assert.throws(() => versionMatches(v, v.slice(0, 6), "a.txt"), { code: "invalid_args" });
 * ```
 */
export function versionMatches(actual: Version | null, expected: string, path: string): boolean {
  const want = expected.toLowerCase();
  if (want.length < MIN_VERSION_PREFIX || !/^[0-9a-f]+$/.test(want)) {
    throw new RecoverableError(
      "invalid_args",
      `Cannot check "${path}" against version "${expected}": a version needs at least ${MIN_VERSION_PREFIX} hex characters${
        /^[0-9a-f]*$/.test(want) ? `, got ${want.length}` : ""
      }`,
      {
        hint:
          `Pass the version read_file returned: all 64 characters, or its first ${MIN_VERSION_PREFIX} or more (call read_file with {"path": "${path}"} to get it)`,
        suggestedCall: { tool: "read_file", args: { path } },
        details: { path, expected_version: expected, min_length: MIN_VERSION_PREFIX },
      },
    );
  }
  return actual !== null && actual.startsWith(want);
}
