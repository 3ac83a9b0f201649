/**
 * A search's view of the project walk's files: their names, their real paths and their backend paths (what
 * the read cache is primed and asked with), and how many hidden ones were left out — made at once from a
 * whole listing, or grown run by run while the walk goes on ({@linkcode GrowingView}).
 *
 * @module
 */
import type { WalkEntry } from "../fs/walk.ts";
import type { Sandbox } from "../fs/sandbox.ts";
import type { Listing } from "../project/project_view.ts";
import type { SearchFile } from "./types.ts";

/** Whether a relative path has a hidden part (a name starting with "."). */
export function isHiddenPath(rel: string): boolean {
  return rel.startsWith(".") || rel.includes("/.");
}

/** A walk's files as a search takes them (see the module's doc). */
export interface SearchView {
  files: SearchFile[];
  /** Listed name -> its index in the arrays below. */
  index: Map<string, number>;
  reals: string[];
  abs: string[];
  /** Each file's index among the walk's entries (hidden ones come between). */
  entryAt: number[];
  /** Hidden files left out. */
  hidden: number;
}

/** A view of nothing (before a search lists). */
export const EMPTY_VIEW: SearchView = {
  files: [],
  index: new Map(),
  reals: [],
  abs: [],
  entryAt: [],
  hidden: 0,
};

/**
 * The view of some entries, all kept.
 *
 * @param entries The entries' relative and real paths.
 * @param sandbox What makes a real path a backend path.
 * @param hidden How many hidden files were left out before.
 * @returns The view.
 */
export function viewOf(
  entries: readonly { rel: string; real: string }[],
  sandbox: Sandbox,
  hidden = 0,
): SearchView {
  return {
    files: entries.map((e) => ({ path: e.rel })),
    index: new Map(entries.map((e, i) => [e.rel, i])),
    reals: entries.map((e) => e.real),
    abs: entries.map((e) => sandbox.abs(e.real)),
    entryAt: entries.map((_, i) => i),
    hidden,
  };
}

/**
 * Views of listings, by the listing's identity and whether hidden files are in: a remembered walk comes back as
 * the same listing (for the same root), so a warm search builds no names or paths again, and the strings it
 * primes the cache with are the ones it looks files up with.
 */
const VIEWS = new WeakMap<Listing, [SearchView | null, SearchView | null]>();

/** Remember a listing's view for its hidden flag. */
function remember(walked: Listing, hidden: boolean, view: SearchView): void {
  let views = VIEWS.get(walked);
  if (views === undefined) VIEWS.set(walked, views = [null, null]);
  views[hidden ? 1 : 0] = view;
}

/**
 * The search's view of a whole listing, made once per listing and hidden flag.
 *
 * @param walked The walk's listing.
 * @param options `hidden`: hidden files are in; `sandbox`: what makes a real path a backend path.
 * @returns The view (the same object for the same listing and flag).
 */
export function searchViewOf(walked: Listing, options: { hidden: boolean; sandbox: Sandbox }): SearchView {
  const known = VIEWS.get(walked)?.[options.hidden ? 1 : 0];
  if (known) return known;
  const grown = new GrowingView(options);
  grown.end(walked);
  return grown.view;
}

/**
 * A view grown from a walk's entries as the walk finds them (its `progress`), equal to
 * {@linkcode searchViewOf} of the whole listing once the walk has ended, and remembered as that listing's.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { Sandbox } from "@graver/core/fs";
 * import { GrowingView } from "./search_view.ts";
 *
 * const grown = new GrowingView({ hidden: false, sandbox: new Sandbox("/w") });
 * const entries = [{ rel: "a.ts", real: "a.ts", kind: "file" as const }];
 * grown.take(entries);
 * entries.push({ rel: ".env", real: ".env", kind: "file" }, { rel: "b.ts", real: "b.ts", kind: "file" });
 * grown.take(entries);
 * assert.deepEqual(grown.view.files, [{ path: "a.ts" }, { path: "b.ts" }]);
 * assert.deepEqual([grown.view.abs, grown.view.hidden], [["/w/a.ts", "/w/b.ts"], 1]);
 * ```
 */
export class GrowingView {
  /** The view so far. */
  readonly view: SearchView = { files: [], index: new Map(), reals: [], abs: [], entryAt: [], hidden: 0 };
  readonly #options: { hidden: boolean; sandbox: Sandbox };
  /** How many of the walk's entries are taken. */
  #taken = 0;

  /** @param options `hidden`: hidden files are in; `sandbox`: what makes a real path a backend path. */
  constructor(options: { hidden: boolean; sandbox: Sandbox }) {
    this.#options = options;
  }

  /** How many of the walk's entries are taken. */
  get taken(): number {
    return this.#taken;
  }

  /**
   * Take the entries after those taken before (the walk's array only grows).
   *
   * @param entries The walk's entries so far.
   */
  take(entries: readonly WalkEntry[]): void {
    const { view } = this;
    const { hidden, sandbox } = this.#options;
    for (; this.#taken < entries.length; this.#taken++) {
      const e = entries[this.#taken]!;
      if (!hidden && isHiddenPath(e.rel)) {
        view.hidden++;
        continue;
      }
      view.index.set(e.rel, view.files.length);
      view.files.push({ path: e.rel });
      view.reals.push(e.real);
      view.abs.push(sandbox.abs(e.real));
      view.entryAt.push(this.#taken);
    }
  }

  /**
   * The walk has ended: its last entries taken, and the view remembered as its listing's.
   *
   * @param walked The whole listing.
   */
  end(walked: Listing): void {
    this.take(walked.entries);
    remember(walked, this.#options.hidden, this.view);
  }
}
