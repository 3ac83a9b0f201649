/**
 * The sites a structural query found in one version of one file, remembered for the next search that asks the
 * same (a session pages on through a search — a cursor matches again every file before its offset — or repeats
 * it). A version names the file's bytes, so an answer never goes stale; what bounds it is size: at most
 * {@linkcode RememberedSites.maxSites} sites over every file and query (the least recently used go first),
 * and an answer longer than {@linkcode RememberedSites.maxPerAnswer} is not kept (a pattern that matches
 * everywhere is matched again). An answer with no site counts as one, so that a store of empty answers is
 * bounded too.
 *
 * @module
 */

/** Where and for what query an answer was found. */
export interface SitesKey {
  /** The file's path. */
  path: string;
  /** The language it was parsed as. */
  language: string;
  /** The file's version (its bytes). */
  version: string;
  /** The query, as a string that tells queries apart (pattern, rule and rewrite). */
  query: string;
}

/** A bounded, least-recently-used store of answers by file version and query. */
export class RememberedSites<T> {
  /** Sites held at most, over every answer. */
  readonly maxSites: number;
  /** The longest answer kept. */
  readonly maxPerAnswer: number;
  #answers = new Map<string, readonly T[]>();
  #held = 0;

  /**
   * ```ts
   * import assert from "node:assert/strict";
   * import { RememberedSites } from "./remembered_sites.ts";
   *
   * const store = new RememberedSites<number>({ maxSites: 3 });
   * const key = (query: string) => ({ path: "a.js", language: "javascript", version: "v1", query });
   * store.remember(key("p"), [1, 2]);
   * store.remember(key("q"), [3, 4]); // over 3 sites: p's answer goes
   * assert.equal(store.answer(key("p")), undefined);
   * assert.deepEqual(store.answer(key("q")), [3, 4]);
   * ```
   *
   * @param bounds Sites held at most (default 50,000) and the longest answer kept (default 10,000).
   */
  constructor(bounds: { maxSites?: number; maxPerAnswer?: number } = {}) {
    this.maxSites = bounds.maxSites ?? 50_000;
    this.maxPerAnswer = Math.min(bounds.maxPerAnswer ?? 10_000, this.maxSites);
  }

  /** Sites held now (an empty answer counts as one). */
  get held(): number {
    return this.#held;
  }

  /**
   * The answer remembered for a key, made the most recently used; undefined when none is.
   *
   * @param key The file version and query.
   * @returns The sites, to read and never change.
   */
  answer(key: SitesKey): readonly T[] | undefined {
    const id = idOf(key);
    const sites = this.#answers.get(id);
    if (sites === undefined) return undefined;
    this.#answers.delete(id);
    this.#answers.set(id, sites);
    return sites;
  }

  /**
   * Remember an answer, letting the least recently used go while the bound is passed. An answer longer than
   * `maxPerAnswer` is not kept.
   *
   * @param key The file version and query.
   * @param sites What the query found there.
   */
  remember(key: SitesKey, sites: readonly T[]): void {
    if (sites.length > this.maxPerAnswer) return;
    const id = idOf(key);
    this.#forget(id);
    this.#answers.set(id, sites);
    this.#held += weightOf(sites);
    for (const oldest of this.#answers.keys()) {
      if (this.#held <= this.maxSites) break;
      this.#forget(oldest);
    }
  }

  /** Forget every answer. */
  clear(): void {
    this.#answers.clear();
    this.#held = 0;
  }

  #forget(id: string): void {
    const sites = this.#answers.get(id);
    if (sites === undefined) return;
    this.#answers.delete(id);
    this.#held -= weightOf(sites);
  }
}

/** What an answer counts against the bound: its sites, and at least one. */
function weightOf(sites: readonly unknown[]): number {
  return Math.max(1, sites.length);
}

/** One string for a key (NUL cannot occur in a path, a language id or a version). */
function idOf(key: SitesKey): string {
  return `${key.path}\0${key.language}\0${key.version}\0${key.query}`;
}
