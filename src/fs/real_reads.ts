/**
 * Reads of real paths — paths a walk or a sandbox resolved, with no link in them — that follow no link swapped
 * in since: where the backend reads stated (`Backend.readManyStated`, the disk's), a path that is a link now is
 * refused `ELOOP` instead of read through (a link may lead out of the workspace), and so is a read whose open
 * file was somewhere else than asked (a folder on its way swapped for a link: the backend says where it opened
 * the file, `StatedBytes.at`); elsewhere as `read` reads.
 *
 * @module
 */
import type { BackendFs, StatedBytes } from "./backend.ts";
import { landedElsewhere, type Landing, landsAsAsked } from "./landing.ts";

export { type Landing, landingIn, refuseLandedElsewhere } from "./landing.ts";

/**
 * A stated read as its caller may take it: refused `ELOOP` when the backend opened the file somewhere else
 * than the real path asked — a folder on the way is a link now, swapped in since the walk, and what was read
 * may be any file on the machine. Without `landing`, only the path asked itself is where it may land.
 *
 * @param read The backend's answer.
 * @param asked The real path asked for.
 * @param landing Where else it may land (the workspace's root through a link).
 * @returns The answer, or the refusal.
 */
export function landedAsAsked<T extends StatedBytes | null | Error>(
  read: T,
  asked: string,
  landing?: Landing,
): T | Error {
  if (read === null || read instanceof Error || read.at === undefined) return read;
  return landsAsAsked(read.at, asked, landing) ? read : landedElsewhere({ at: read.at, asked, what: "read" });
}

/**
 * Many real paths' bytes: one answer per path — the bytes, null for an absent file, or the error its read
 * met (a link now, a special file, a folder).
 *
 * @param fs The backend.
 * @param paths Absolute backend paths with no link in them.
 * @param landing Where else a read may land than the path asked ({@linkcode landedAsAsked}).
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
  landing?: Landing,
): Promise<(Uint8Array | null | Error)[]> {
  if (!fs.readsStated) return await fs.readMany(paths);
  return (await fs.readManyStated(paths)).map((got, i) => {
    const r = landedAsAsked(got, paths[i]!, landing);
    return r === null || r instanceof Error ? r : r.bytes;
  });
}

/**
 * One real path's bytes, as {@linkcode readRealMany} reads it; null for an absent file.
 *
 * @param fs The backend.
 * @param path An absolute backend path with no link in it.
 * @param landing Where else the read may land than the path asked ({@linkcode landedAsAsked}).
 * @returns The bytes, or null.
 * @throws The error its read met (a link now, a special file, a folder).
 */
export async function readReal(fs: BackendFs, path: string, landing?: Landing): Promise<Uint8Array | null> {
  if (!fs.readsStated) return await fs.read(path);
  const [got] = await fs.readManyStated([path]);
  const read = landedAsAsked(got ?? null, path, landing);
  if (read instanceof Error) throw read;
  return read?.bytes ?? null;
}
