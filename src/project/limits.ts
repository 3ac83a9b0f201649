/**
 * The limits of the project walk, in one place: how many files a walk lists,
 * how large a file it reads, how many bytes it reads in all. Each use of the
 * walk takes one of the named sets below; they differ only where the use
 * differs, and the reason is written beside each. A walk that reaches a limit
 * says so in its reach ({@linkcode ProjectReach} in `project_view.ts`):
 * nothing is cut short silently.
 *
 * @module
 */

/** The bounds of one walk and the reads that follow it. */
export interface ProjectLimits {
  /** Most files (of those the walk accepts) listed. */
  files: number;
  /** Largest file read, in bytes; a larger one is skipped and counted as `too_large`. */
  fileBytes: number;
  /** Most bytes read by one view in all; past them reads are skipped and counted as `over_budget`. */
  totalBytes: number;
}

/** Most source files a cross-file name search walks (references, rename, move, extract's clash check). */
const RESOLVE_FILES = 20000;

/**
 * The named limit sets. `resolve` and `everyFile` refuse with `limit_exceeded` past their file count (a
 * rename that skipped a file would be wrong); `search` and `hint` stop and report where they stopped.
 */
export const PROJECT_LIMITS: Readonly<Record<"resolve" | "everyFile" | "search" | "hint", ProjectLimits>> = {
  /**
   * Cross-file resolution of names (find_references, edit_rename_symbol, the file-local check): every source
   * file with a module system is seen, none is too large to read.
   */
  resolve: { files: RESOLVE_FILES, fileBytes: Infinity, totalBytes: Infinity },
  /**
   * Import updates after a move list every file, not only source files, since a data file (`./data.json`)
   * is an import target too: four times the source-file limit, for the files of other kinds.
   */
  everyFile: { files: RESOLVE_FILES * 4, fileBytes: Infinity, totalBytes: Infinity },
  /** find_symbol over a directory: it parses what it reads, so fewer and smaller files. */
  search: { files: 5000, fileBytes: 2 * 1024 * 1024, totalBytes: Infinity },
  /** The "found in another file" hint of a failed text edit: a hint is never worth a long read. */
  hint: { files: 300, fileBytes: 512 * 1024, totalBytes: Infinity },
};
