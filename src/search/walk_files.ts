/**
 * Text search's files from the one project walk (`project/`'s `ProjectView.list`: `.gitignore` rules,
 * `node_modules`, links inside the root followed once, special files never opened), plus ripgrep's rule for
 * hidden files: a file or folder whose name starts with "." is left out unless `hidden` is asked for.
 *
 * @module
 */
import { type Landing, readReal, readRealMany } from "../fs/real_reads.ts";
import { RecoverableError } from "../errors.ts";
import { specialFileError, specialFileKind } from "../fs/backend.ts";
import type { Stage } from "../fs/stage.ts";
import type { WalkEntry } from "../fs/walk.ts";
import { type FileQuery, type Listing, openProject } from "../project/project_view.ts";
import type { ReadCache } from "../project/read_cache.ts";
import { sessionReadCache } from "../project/session_caches.ts";
import { EMPTY_VIEW, GrowingView, type SearchView, searchViewOf, viewOf } from "./search_view.ts";
import type { FileScope, SearchFile, SearchFiles, SourceSkipped } from "./types.ts";

export { isHiddenPath } from "./search_view.ts";

/**
 * The ignore files a search reads in each folder, as ripgrep does, a later one's rule winning: `.gitignore`,
 * then `.ignore`, then `.rgignore` (files a project keeps out of searches but not out of git).
 */
export const SEARCH_IGNORE_FILES: readonly string[] = [".gitignore", ".ignore", ".rgignore"];

/**
 * Files in the first run the walk hands on (as soon as it has found that many): a page of a few matches is
 * read after the first folders. Each next run holds twice as many, up to {@linkcode MOST_RUN}, so that a whole
 * tree comes in a few dozen runs, not one per folder (each run costs the search a batch of reads).
 */
const FIRST_RUN = 16;

/** Files in a run at most. */
const MOST_RUN = 512;

/** The refusal of a search scope that names nothing. */
function notFound(path: string): RecoverableError {
  return new RecoverableError(
    "not_found",
    `Cannot search "${path}": there is no such file or folder`,
    {
      hint:
        'Pass a folder or file that exists (call list_files to see them), or leave "path" out to search everything',
      details: { path },
      suggestedCall: { tool: "list_files", args: { path: "" } },
    },
  );
}

/**
 * Search files over a stage (staged changes are searched as they will be), listed by the one project walk.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { BackendFs, createMemoryBackend, Sandbox, Stage } from "@graver/core/fs";
 * import { walkSearchFiles } from "./walk_files.ts";
 *
 * const fs = BackendFs.wrap(createMemoryBackend({ "/w/a.ts": "x\n", "/w/.env": "y\n" }));
 * const files = walkSearchFiles(new Stage(fs, new Sandbox("/w")));
 * const seen = [];
 * for await (const f of files.files({ path: "", hidden: false, noIgnore: false })) seen.push(f.path);
 * assert.deepEqual(seen, ["a.ts"]);
 * assert.equal(files.skipped!().ignored, 1);
 * ```
 *
 * @param source The stage to list and read.
 * @param options `readBytes`: how to read a file's bytes by its real path. By default a file the stage has
 *   written (an earlier op of a plan) is read through the stage, and every other file straight from the
 *   backend: a `Stage` hashes every file it reads, and a search hashes only the files it returns. Where the
 *   backend reads many files in one call (`BackendFs.readMany`), the default reading also reads in
 *   batches (`SearchFiles.readMany`); a `readBytes` of the caller's own is used as given, one file at a time.
 *   `cache`: a {@linkcode ReadCache}, or `"session"` for the one every session over the stage's backend
 *   shares; a read-only search passes it so that an unchanged file is not read again (an edit never does: it
 *   reads every file afresh).
 * @returns The search's view of the tree.
 */
export function walkSearchFiles(
  source: Stage,
  options: { readBytes?: (real: string) => Promise<Uint8Array | null>; cache?: ReadCache | "session" } = {},
): SearchFiles {
  // A plain object, as before: a caller may spread it and replace a member.
  const walked = new WalkedFiles(source, options);
  const files: SearchFiles = {
    files: (scope) => walked.files(scope),
    list: (scope) => walked.list(scope),
    listRuns: (scope) => walked.listRuns(scope),
    read: (path) => walked.read(path),
    readHeld: (path) => walked.readHeld(path),
    skipped: () => walked.skipped(),
    finished: () => walked.finished(),
  };
  if (walked.readMany) files.readMany = walked.readMany;
  return files;
}

/** The search files of {@linkcode walkSearchFiles}: the walk's view of the last listing, and how to read. */
class WalkedFiles implements SearchFiles {
  readonly #source: Stage;
  readonly #cache: ReadCache | undefined;
  readonly #readBytes: (real: string) => Promise<Uint8Array | null>;
  /** Whether the reading is the caller's own (`options.readBytes`): no cache, no batches. */
  readonly #ownReading: boolean;
  #view: SearchView = EMPTY_VIEW;
  #left: SourceSkipped = { ignored: 0, unreadable: 0 };
  /** The walk of the last `listRuns`, settled when it has ended and its counts are in. */
  #walking: Promise<unknown> = Promise.resolve();
  /** Files the last `listRuns` handed on, and whether it handed on the whole listing. */
  #handed = 0;
  #whole = true;
  /** The walk's `ignoredBefore` of its entries (`WalkResult.ignoredBefore`). */
  #ignoredBefore: readonly number[] = [];
  /** Many files read in one call, where the default reading is in use and the backend reads many at once. */
  readonly readMany?: (paths: readonly string[]) => Promise<(Uint8Array | null)[]>;

  constructor(
    source: Stage,
    options: { readBytes?: (real: string) => Promise<Uint8Array | null>; cache?: ReadCache | "session" },
  ) {
    this.#source = source;
    const cache = options.cache === "session" ? sessionReadCache(source.fs) : options.cache;
    this.#cache = cache;
    this.#ownReading = options.readBytes !== undefined;
    // A read lands on the file of the workspace it was asked for, under the root or its real path: one whose
    // folder was swapped for a link since the walk is refused (`landedAsAsked`).
    const landing = source.landing;
    this.#readBytes = options.readBytes ??
      (async (real: string) =>
        source.hasWrite(real)
          ? (await source.read(real))?.bytes ?? null
          : cache
          ? await cache.read(source.sandbox.abs(real), landing)
          : await readReal(source.fs, source.sandbox.abs(real), landing));
    if (!options.readBytes && source.fs.readsMany) {
      this.readMany = (paths) => readManyOf(paths, { source, view: this.#view, cache, landing });
    }
  }

  async *files(scope: FileScope): AsyncIterable<SearchFile> {
    yield* await this.list(scope);
  }

  async list(scope: FileScope): Promise<SearchFile[]> {
    const query = await this.#start(scope);
    if (query !== null) {
      const walked = await openProject({ stage: this.#source }).list(query);
      this.#view = searchViewOf(walked, { hidden: scope.hidden, sandbox: this.#source.sandbox });
      this.#walked(walked);
    }
    await this.#prime();
    return this.#view.files;
  }

  /**
   * The files in scope in runs as the walk finds them: a search reads and matches its first files while the
   * rest are listed (a pool's workers parse from the walk's first folders on), in runs of 16, 32, 64 … 512
   * files whatever the walk's pace: a listing the cache remembers, which comes whole, is handed on in the same
   * runs.
   */
  async *listRuns(scope: FileScope): AsyncIterable<SearchFile[]> {
    const query = await this.#start(scope);
    if (query === null) {
      await this.#prime();
      yield this.#view.files;
      return;
    }
    const grown = new GrowingView({ hidden: scope.hidden, sandbox: this.#source.sandbox });
    this.#view = grown.view;
    let entries: readonly WalkEntry[] = [];
    let wake = () => {};
    let ended = false;
    let stop = false;
    const walk = openProject({ stage: this.#source }).list({
      ...query,
      progress: (now, ignoredBefore) => {
        entries = now;
        this.#ignoredBefore = ignoredBefore;
        wake();
      },
      stopped: () => stop,
    });
    const done = walk.then(async (walked) => {
      if (grown.taken === 0 && entries.length === 0) {
        // Remembered whole: its view is made (or found) at once.
        this.#view = searchViewOf(walked, { hidden: scope.hidden, sandbox: this.#source.sandbox });
      } else grown.end(walked);
      this.#ignoredBefore = walked.ignoredBefore ?? [];
      this.#walked(walked);
      await this.#prime(this.#handed);
    }).finally(() => {
      ended = true;
      wake();
    });
    this.#walking = done.catch(() => {});
    let handed = 0;
    let want = FIRST_RUN;
    this.#whole = false;
    try {
      for (;;) {
        // Runs of fixed sizes, however far the walk has got: a page that stops in one has read the same files
        // whether the walk was ahead, behind or remembered whole.
        const files = this.#view.files;
        if (files.length - handed >= want) {
          this.#handed = handed + want;
          yield files.slice(handed, handed += want);
          want = Math.min(2 * want, MOST_RUN);
          continue;
        }
        if (ended) {
          await done; // the walk's failure, in its place
          const all = this.#view.files; // whole now (a remembered listing's own view, when it came whole)
          if (all.length - handed >= want) continue;
          this.#handed = all.length;
          this.#whole = true;
          if (all.length > handed) yield all.slice(handed);
          return;
        }
        if (entries.length === grown.taken) await new Promise<void>((resolve) => wake = resolve);
        if (!ended) grown.take(entries);
      }
    } finally {
      stop = true; // a search that stopped early (a full page) walks no further
    }
  }

  async read(path: string): Promise<Uint8Array> {
    const view = this.#view;
    const i = view.index.get(path);
    const bytes = await this.#readBytes(i === undefined ? path : view.reals[i]!);
    if (bytes === null) throw new Error(`"${path}" is gone`);
    return bytes;
  }

  readHeld(path: string): Uint8Array | undefined {
    // Only where the default reading goes through the cache: a file the stage has written is read there.
    const view = this.#view;
    const i = view.index.get(path);
    if (!this.#cache || this.#ownReading || i === undefined || this.#source.hasWrite(view.reals[i]!)) {
      return undefined;
    }
    return this.#cache.held(view.abs[i]!); // the very string primed, its hash computed once
  }

  /**
   * What the listing left out: the whole scope's counts once every file was handed on; for a search that
   * stopped early, what the walk had ignored up to the last file handed on — the same however far the walk
   * had got, or whether it came whole from the cache — and the folders it could not read as far as it went.
   */
  skipped(): SourceSkipped {
    if (this.#whole) return this.#left;
    const handed = this.#handed;
    if (handed === 0) return { ignored: 0, unreadable: this.#left.unreadable };
    const entry = this.#view.entryAt[handed - 1]!;
    const hidden = entry + 1 - handed; // the entries up to it that the view left out
    return { ignored: (this.#ignoredBefore[entry] ?? 0) + hidden, unreadable: this.#left.unreadable };
  }

  async finished(): Promise<void> {
    await this.#walking; // a search that stopped early: the walk's counts are in once it has ended
    this.#cache?.idle();
  }

  /**
   * A listing begins: the cache's barrier, then the scope checked. Returns the walk's query, or null for a
   * scope that is one file (its view made here).
   */
  async #start(scope: FileScope): Promise<FileQuery | null> {
    const source = this.#source;
    this.#view = EMPTY_VIEW;
    this.#left = { ignored: 0, unreadable: 0 };
    this.#walking = Promise.resolve();
    this.#handed = 0;
    this.#whole = true;
    this.#ignoredBefore = [];
    await this.#cache?.sync(source.sandbox.root); // every search begins here: what changed before it is seen
    // A path the sandbox refuses (outside the root, `..` above it, graver's own folder) is refused as such.
    if (scope.path !== "") source.sandbox.lexical(scope.path, { allowRoot: true });
    const target = scope.path === "" ? null : await source.follow?.(scope.path).catch(() => null);
    if (target?.kind === "other") {
      // A FIFO, socket or device named as the scope: never opened, and not a folder to walk either.
      const st = await source.fs.raw.stat(source.sandbox.abs(target.rel)).catch(() => null);
      throw specialFileError(scope.path, (st && specialFileKind(st)) ?? "a special file");
    }
    if (target?.kind === "file") {
      this.#view = viewOf([{ rel: scope.path, real: target.rel }], source.sandbox);
      return null;
    }
    if (target === null && scope.path !== "") await source.resolve(scope.path); // a link out: the sandbox's refusal
    if (target !== undefined && (target === null || target.kind === null) && scope.path !== "") {
      throw notFound(scope.path);
    }
    // No filter of ours in the walk (files only, its default): a session's cache may answer it from memory.
    // A folder named through a link inside the root is walked where it is (its files under their real paths,
    // as list_files names them): the walk starts from a real path.
    return {
      under: target?.rel ?? scope.path,
      limit: Infinity,
      includeIgnored: scope.noIgnore,
      ignoreFiles: SEARCH_IGNORE_FILES,
      ...(this.#cache ? { cache: this.#cache } : {}),
    };
  }

  /** What a whole walk left out, counted once it has ended. */
  #walked(walked: Listing): void {
    this.#left = { ignored: walked.ignored + this.#view.hidden, unreadable: walked.skipped.unreadable };
  }

  /**
   * Every listed file's stat in one call where the backend can: the reads that follow check them against the
   * cache (those of a walk still going on stat their own files, as the cache is not primed yet). `from`: the
   * files before it were handed on already (a walk that handed on runs as it went), and read by their own
   * stats: priming them again would stat each a second time.
   */
  async #prime(from = 0): Promise<void> {
    const { source, view } = { source: this.#source, view: this.#view };
    const abs = from === 0 ? view.abs : view.abs.slice(from);
    await this.#cache?.prime(
      source.hasWrites() ? abs.filter((_, i) => !source.hasWrite(view.reals[from + i]!)) : abs,
    );
  }
}

/**
 * Read many listed files as {@linkcode walkSearchFiles}' default reading reads each (a file the stage has
 * written through the stage, the rest from the backend or the cache), the backend's part in one call: null
 * where a file cannot be read.
 */
async function readManyOf(
  paths: readonly string[],
  from: { source: Stage; view: SearchView; cache: ReadCache | undefined; landing: Landing },
): Promise<(Uint8Array | null)[]> {
  const { source, view, cache, landing } = from;
  const out: (Uint8Array | null)[] = new Array(paths.length).fill(null);
  const direct: number[] = [];
  const abs: string[] = [];
  for (let i = 0; i < paths.length; i++) {
    const k = view.index.get(paths[i]!);
    const real = k === undefined ? paths[i]! : view.reals[k]!;
    if (source.hasWrite(real)) {
      out[i] = await source.read(real).then((file) => file?.bytes ?? null, () => null);
      continue;
    }
    direct.push(i);
    abs.push(k === undefined ? source.sandbox.abs(real) : view.abs[k]!); // the very string primed
  }
  const got = abs.length === 0
    ? []
    : cache
    ? await cache.readMany(abs, landing)
    : await readRealMany(source.fs, abs, landing);
  direct.forEach((i, k) => {
    const bytes = got[k];
    out[i] = bytes instanceof Uint8Array ? bytes : null;
  });
  return out;
}
