/**
 * The file contents a read cache keeps ({@linkcode KeptFiles}): bounded in bytes, least recently used first
 * out — but scan-resistant. A search over more than the bound would otherwise push out, file by file, what it
 * and the next search read first, and every search of a large tree would read it all again (a scan through an
 * LRU); and a file that changed would push out the next file the search was about to reuse, whose miss would
 * push out the next (a cascade). So a file the current search or the one before it kept or used is never
 * pushed out: when only those are left, the new file is not kept, nor is anything else this search reads —
 * what is kept stays the prefix the searches share.
 *
 * @module
 */
import type { StatId } from "./stat_identity.ts";

/** One kept file: the stat it was read under, and its bytes. */
export interface Kept {
  id: StatId;
  bytes: Uint8Array;
  /** The search that last kept or used it. */
  gen: number;
  /** The change count when the stat that last showed it unchanged was taken (the read cache's watches). */
  seen?: number;
}

/**
 * Kept files by absolute backend path, in least-recently-used order.
 *
 * @example Over the bound, the least recently used of an earlier search goes first
 * ```ts
 * import assert from "node:assert/strict";
 * import { KeptFiles } from "./kept_files.ts";
 *
 * const files = new KeptFiles(8);
 * const id = { size: 4, mtime: 0, ctime: 0, ino: undefined };
 * files.keep("/a", { id, bytes: new Uint8Array(4), gen: files.gen });
 * files.keep("/b", { id, bytes: new Uint8Array(4), gen: files.gen });
 * files.newSearch();
 * files.newSearch(); // two searches on: /a and /b may go
 * files.keep("/c", { id, bytes: new Uint8Array(4), gen: files.gen });
 * assert.deepEqual([files.get("/a"), files.size, files.bytes], [undefined, 2, 8]);
 * ```
 */
export class KeptFiles {
  readonly #maxBytes: number;
  readonly #kept = new Map<string, Kept>();
  #bytes = 0;
  /** Counts searches: what the current one and the one before kept or used is not pushed out. */
  #gen = 0;
  /** The search that found no room to keep a file: it keeps nothing more. */
  #fullGen = -1;

  /**
   * An empty store.
   *
   * @param maxBytes Most bytes of contents held.
   */
  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** The current search (0: reads outside any search, a plain LRU). */
  get gen(): number {
    return this.#gen;
  }

  /** Files held. */
  get size(): number {
    return this.#kept.size;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.#bytes;
  }

  /** A search begins: its reads follow. */
  newSearch(): void {
    this.#gen++;
  }

  /**
   * A kept file, if any (not counted as a use: see {@linkcode KeptFiles.use}).
   *
   * @param abs Absolute backend path.
   * @returns The kept entry, or undefined.
   */
  get(abs: string): Kept | undefined {
    return this.#kept.get(abs);
  }

  /**
   * Every kept file with its path, least recently used first (not counted as uses).
   *
   * @returns The entries.
   */
  entries(): IterableIterator<[string, Kept]> {
    return this.#kept.entries();
  }

  /**
   * A kept file used by the current search: moved to the most recently used end.
   *
   * @param abs Absolute backend path.
   * @param kept Its entry.
   * @returns Its bytes.
   */
  use(abs: string, kept: Kept): Uint8Array {
    this.#kept.delete(abs);
    this.#kept.set(abs, kept);
    kept.gen = this.#gen;
    return kept.bytes;
  }

  /**
   * Keep a file's bytes, letting go of the least recently used that neither this search nor the one before it
   * kept or used, while over the bound (see the module's doc).
   *
   * @param abs Absolute backend path.
   * @param kept Its entry.
   */
  keep(abs: string, kept: Kept): void {
    if (kept.bytes.length > this.#maxBytes) return;
    const searching = this.#gen > 0; // reads outside a search: plain LRU
    if (searching && this.#fullGen === this.#gen) return;
    for (const [path, old] of this.#kept) {
      if (this.#bytes + kept.bytes.length <= this.#maxBytes) break;
      if (searching && old.gen >= this.#gen - 1) {
        this.#fullGen = this.#gen;
        return;
      }
      this.drop(path, old);
    }
    if (this.#bytes + kept.bytes.length > this.#maxBytes) return;
    this.#kept.set(abs, kept);
    this.#bytes += kept.bytes.length;
  }

  /**
   * Forget one kept file.
   *
   * @param abs Absolute backend path.
   * @param kept Its entry.
   */
  drop(abs: string, kept: Kept): void {
    this.#kept.delete(abs);
    this.#bytes -= kept.bytes.length;
  }
}
