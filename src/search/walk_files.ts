/**
 * Text search's files from the one project walk (`project/`'s `ProjectView.list`: `.gitignore` rules,
 * `node_modules`, links inside the root followed once, special files never opened), plus ripgrep's rule for
 * hidden files: a file or folder whose name starts with "." is left out unless `hidden` is asked for.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import type { Stage } from "../fs/stage.ts";
import { openProject } from "../project/project_view.ts";
import { type ReadCache, readCacheOf } from "../project/read_cache.ts";
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
 *   backend: a `Stage` hashes every file it reads, and a search hashes only the files it returns.
 *   `cache`: a {@linkcode ReadCache}, or `"session"` for the one every session over the stage's backend
 *   shares; a read-only search passes it so that an unchanged file is not read again (an edit never does: it
 *   reads every file afresh).
 * @returns The search's view of the tree.
 */
export function walkSearchFiles(
  source: Stage,
  options: { readBytes?: (real: string) => Promise<Uint8Array | null>; cache?: ReadCache | "session" } = {},
): SearchFiles {
  const cache = options.cache === "session" ? readCacheOf(source.fs) : options.cache;
  const readBytes = options.readBytes ??
    (async (real: string) =>
      source.hasWrite(real)
        ? (await source.read(real))?.bytes ?? null
        : cache
        ? await cache.read(source.sandbox.abs(real))
        : await source.fs.read(source.sandbox.abs(real)));
  /** Each listed file's real path, and its backend path where its stat was primed in the cache. */
  const realOf = new Map<string, { real: string; primed?: string }>();
  let left: SourceSkipped = { ignored: 0, unreadable: 0 };
  async function list(scope: FileScope): Promise<SearchFile[]> {
    realOf.clear();
    left = { ignored: 0, unreadable: 0 };
    const target = scope.path === "" ? null : await source.follow?.(scope.path).catch(() => null);
    if (target?.kind === "file") {
      realOf.set(scope.path, { real: target.rel });
      return [{ path: scope.path }];
    }
    if (target !== undefined && (target === null || target.kind === null) && scope.path !== "") {
      throw notFound(scope.path);
    }
    // No filter of ours in the walk (files only, its default): a session's cache may answer it from memory.
    const walked = await openProject({ stage: source }).list({
      under: scope.path,
      limit: Infinity,
      includeIgnored: scope.noIgnore,
      ignoreFiles: SEARCH_IGNORE_FILES,
      ...(cache ? { cache } : {}),
    });
    const entries = scope.hidden ? walked.entries : walked.entries.filter((e) => !isHiddenPath(e.rel));
    const hidden = walked.entries.length - entries.length;
    left = { ignored: walked.ignored + hidden, unreadable: walked.skipped.unreadable };
    // Every file's stat in one call where the backend can: the reads that follow check them against the cache.
    const primed: string[] = [];
    for (const e of entries) {
      const abs = cache && !source.hasWrite(e.real) ? source.sandbox.abs(e.real) : undefined;
      realOf.set(e.rel, abs === undefined ? { real: e.real } : { real: e.real, primed: abs });
      if (abs !== undefined) primed.push(abs);
    }
    await cache?.prime(primed);
    return entries.map((e) => ({ path: e.rel }));
  }
  return {
    async *files(scope) {
      yield* await list(scope);
    },
    list,
    async read(path) {
      const bytes = await readBytes(realOf.get(path)?.real ?? path);
      if (bytes === null) throw new Error(`"${path}" is gone`);
      return bytes;
    },
    readHeld(path) {
      // Only where the default reading goes through the cache: a file the stage has written is read there.
      const listed = realOf.get(path);
      if (!cache || options.readBytes || listed?.primed === undefined || source.hasWrite(listed.real)) {
        return undefined;
      }
      return cache.held(listed.primed); // the very string primed, its hash computed once
    },
    skipped: () => left,
  };
}
