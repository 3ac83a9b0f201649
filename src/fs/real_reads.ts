/**
 * Reads of real paths — paths a walk or a sandbox resolved, with no link in them — that follow no link swapped
 * in since: where the backend reads stated (`Backend.readManyStated`, the disk's), a path that is a link now is
 * refused `ELOOP` instead of read through (a link may lead out of the workspace); elsewhere as `read` reads.
 *
 * @module
 */
import type { BackendFs } from "./backend.ts";

/**
 * Many real paths' bytes: one answer per path — the bytes, null for an absent file, or the error its read
 * met (a link now, a special file, a folder).
 *
 * @param fs The backend.
 * @param paths Absolute backend paths with no link in them.
 * @returns One answer per path.
 *
 * @example
 * ```ts
 * import { BackendFs, createMemoryBackend } from "@graver/core";
 * import { readRealMany } from "./real_reads.ts";
 * import assert from "node:assert/strict";
 *
 * const fs = BackendFs.wrap(createMemoryBackend({ "/w/a.ts": "a\n" }));
 * const [a, gone] = await readRealMany(fs, ["/w/a.ts", "/w/gone.ts"]);
 * assert.equal(new TextDecoder().decode(a as Uint8Array), "a\n");
 * assert.equal(gone, null);
 * ```
 */
export async function readRealMany(
  fs: BackendFs,
  paths: readonly string[],
): Promise<(Uint8Array | null | Error)[]> {
  if (!fs.readsStated) return await fs.readMany(paths);
  return (await fs.readManyStated(paths)).map((r) => r === null || r instanceof Error ? r : r.bytes);
}

/**
 * One real path's bytes, as {@linkcode readRealMany} reads it; null for an absent file.
 *
 * @param fs The backend.
 * @param path An absolute backend path with no link in it.
 * @returns The bytes, or null.
 * @throws The error its read met (a link now, a special file, a folder).
 */
export async function readReal(fs: BackendFs, path: string): Promise<Uint8Array | null> {
  if (!fs.readsStated) return await fs.read(path);
  const [read] = await fs.readManyStated([path]);
  if (read instanceof Error) throw read;
  return read?.bytes ?? null;
}
