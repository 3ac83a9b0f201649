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
import type { Sandbox } from "../fs/sandbox.ts";
import { type Listing, openProject } from "../project/project_view.ts";
import type { ReadCache } from "../project/read_cache.ts";
import { sessionReadCache } from "../project/session_caches.ts";
import type { FileScope, SearchFile, SearchFiles, SourceSkipped } from "./types.ts";

/**
 * The ignore files a search reads in each folder, as ripgrep does, a later one's rule winning: `.gitignore`,
 * then `.ignore`, then `.rgignore` (files a project keeps out of searches but not out of git).
 */
export const SEARCH_IGNORE_FILES: readonly string[] = [".gitignore", ".ignore", ".rgignore"];

/** Whether a relative path has a hidden part (a name starting with "."). */
export function isHiddenPath(rel: string): boolean {
  return rel.startsWith(".") || rel.includes("/.");
}

/**
 * A walk's files as a search takes them: their names, their real paths and their backend paths (what the cache
 * is primed and asked with), and how many hidden ones were left out.
 */
interface SearchView {
  files: SearchFile[];
  /** Listed name -> its index in the arrays below. */
  index: Map<string, number>;
  reals: string[];
  abs: string[];
  hidden: number;
}

const EMPTY_VIEW: SearchView = { files: [], index: new Map(), reals: [], abs: [], hidden: 0 };

/** The view of some entries. */
function viewOf(entries: readonly { rel: string; real: string }[], sandbox: Sandbox, hidden = 0): SearchView {
  return {
    files: entries.map((e) => ({ path: e.rel })),
    index: new Map(entries.map((e, i) => [e.rel, i])),
    reals: entries.map((e) => e.real),
    abs: entries.map((e) => sandbox.abs(e.real)),
    hidden,
  };
}

/**
 * Views of listings, by the listing's identity and whether hidden files are in: a remembered walk comes back as
 * the same listing (for the same root), so a warm search builds no names or paths again, and the strings it
 * primes the cache with are the ones it looks files up with.
 */
const VIEWS = new WeakMap<Listing, [SearchView | null, SearchView | null]>();

/** The search's view of a listing, made once per listing and hidden flag. */
function searchViewOf(walked: Listing, options: { hidden: boolean; sandbox: Sandbox }): SearchView {
  let views = VIEWS.get(walked);
  if (views === undefined) VIEWS.set(walked, views = [null, null]);
  const k = options.hidden ? 1 : 0;
  if (views[k] === null) {
    const entries = options.hidden ? walked.entries : walked.entries.filter((e) => !isHiddenPath(e.rel));
    views[k] = viewOf(entries, options.sandbox, walked.entries.length - entries.length);
  }
  return views[k]!;
}

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
  const cache = options.cache === "session" ? sessionReadCache(source.fs) : options.cache;
  // A read lands on the file of the workspace it was asked for, under the root or its real path: one whose
  // folder was swapped for a link since the walk is refused (`landedAsAsked`).
  const landing = source.landing;
  const readBytes = options.readBytes ??
    (async (real: string) =>
      source.hasWrite(real)
        ? (await source.read(real))?.bytes ?? null
        : cache
        ? await cache.read(source.sandbox.abs(real), landing)
        : await readReal(source.fs, source.sandbox.abs(real), landing));
  let view: SearchView = EMPTY_VIEW;
  let left: SourceSkipped = { ignored: 0, unreadable: 0 };
  async function list(scope: FileScope): Promise<SearchFile[]> {
    view = EMPTY_VIEW;
    left = { ignored: 0, unreadable: 0 };
    await cache?.sync(source.sandbox.root); // every search begins here: what changed before it is seen
    // A path the sandbox refuses (outside the root, `..` above it, graver's own folder) is refused as such.
    if (scope.path !== "") source.sandbox.lexical(scope.path, { allowRoot: true });
    const target = scope.path === "" ? null : await source.follow?.(scope.path).catch(() => null);
    if (target?.kind === "other") {
      // A FIFO, socket or device named as the scope: never opened, and not a folder to walk either.
      const st = await source.fs.raw.stat(source.sandbox.abs(target.rel)).catch(() => null);
      throw specialFileError(scope.path, (st && specialFileKind(st)) ?? "a special file");
    }
    if (target?.kind === "file") {
      view = viewOf([{ rel: scope.path, real: target.rel }], source.sandbox);
    } else if (target !== undefined && (target === null || target.kind === null) && scope.path !== "") {
      throw notFound(scope.path);
    } else {
      // No filter of ours in the walk (files only, its default): a session's cache may answer it from memory.
      const walked = await openProject({ stage: source }).list({
        under: scope.path,
        limit: Infinity,
        includeIgnored: scope.noIgnore,
        ignoreFiles: SEARCH_IGNORE_FILES,
        ...(cache ? { cache } : {}),
      });
      view = searchViewOf(walked, { hidden: scope.hidden, sandbox: source.sandbox });
      left = { ignored: walked.ignored + view.hidden, unreadable: walked.skipped.unreadable };
    }
    // Every file's stat in one call where the backend can: the reads that follow check them against the cache.
    await cache?.prime(
      source.hasWrites() ? view.abs.filter((_, i) => !source.hasWrite(view.reals[i]!)) : view.abs,
    );
    return view.files;
  }
  const files: SearchFiles = {
    async *files(scope) {
      yield* await list(scope);
    },
    list,
    async read(path) {
      const i = view.index.get(path);
      const bytes = await readBytes(i === undefined ? path : view.reals[i]!);
      if (bytes === null) throw new Error(`"${path}" is gone`);
      return bytes;
    },
    readHeld(path) {
      // Only where the default reading goes through the cache: a file the stage has written is read there.
      const i = view.index.get(path);
      if (!cache || options.readBytes || i === undefined || source.hasWrite(view.reals[i]!)) return undefined;
      return cache.held(view.abs[i]!); // the very string primed, its hash computed once
    },
    skipped: () => left,
    finished: () => cache?.idle(),
  };
  // Batched reads only where the default reading is in use and the backend reads many files at once.
  if (!options.readBytes && source.fs.readsMany) {
    files.readMany = (paths) => readManyOf(paths, { source, view, cache, landing });
  }
  return files;
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
