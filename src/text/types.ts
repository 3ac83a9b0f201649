/**
 * Shared types of the text engine: parsed edit operations, match outcomes and
 * per-block reports.
 *
 * @module
 */

/** The edit formats the engine parses. */
export type EditFormat = "search-replace" | "udiff" | "apply-patch";

/** One search/replace pair inside a file (a SEARCH/REPLACE block, a hunk, a chunk). */
export interface EditBlock {
  /** Lines to find, without line endings (empty: create the file or append). */
  search: string[];
  /** Lines to put in their place, without line endings. */
  replace: string[];
  /** 1-based line where the search text is expected (a `@@` number, `start_line`), if any. */
  lineHint?: number;
  /** Context lines that must precede the match (`*** Begin Patch` `@@ def f():` headers). */
  anchors?: string[];
  /** The match must end at the last line of the file (`*** End of File`). */
  atEnd?: boolean;
  /** The old side lacks a final newline (`\ No newline at end of file` after a `-` or context line). */
  oldNoEol?: boolean;
  /** The new side lacks a final newline. */
  newNoEol?: boolean;
  /** Replace every match instead of refusing several (str_replace `replace_all`). */
  replaceAll?: boolean;
  /** 1-based line of the edit input where this block starts (for error messages). */
  inputLine: number;
  /**
   * Other readings of a SEARCH/REPLACE block with several `=======` lines (one of them is text): each
   * later divider taken as the real one. Tried when the first reading does not match.
   */
  alternatives?: { search: string[]; replace: string[] }[];
}

/** What one parsed operation does to one file. */
export type FileOp =
  | {
    /** Edit an existing file (or create it from an empty SEARCH). */
    kind: "edit";
    /** Relative path as written in the input. */
    path: string;
    /** The blocks, in input order. */
    blocks: EditBlock[];
    /** Move the file here after editing (`rename to`, `*** Move to`). */
    moveTo?: string;
    /** 1-based input line. */
    inputLine: number;
  }
  | {
    /** Create a file that must not exist yet. */
    kind: "create";
    /** Relative path. */
    path: string;
    /** The lines of the new file, without endings. */
    lines: string[];
    /** Whether the new file ends without a newline. */
    noEol: boolean;
    /** 1-based input line. */
    inputLine: number;
  }
  | {
    /** Delete a file. */
    kind: "delete";
    /** Relative path. */
    path: string;
    /** 1-based input line. */
    inputLine: number;
  };

/** A parsed edit response. */
export interface ParsedEdits {
  /** The format detected or forced. */
  format: EditFormat;
  /** The operations, in input order. */
  ops: FileOp[];
}

/** Which rung of the matching ladder placed a block. */
export type MatchTier =
  | "exact"
  | "trailing_whitespace"
  | "indentation"
  | "blank_lines"
  | "elision"
  | "unicode"
  | "line_numbers"
  | "whitespace"
  | "fuzzy"
  | "create"
  | "append"
  | "insert"
  | "delete";

/** How sure the ladder is that the location is the one the model meant. */
export type Confidence = "high" | "medium" | "low";

/** A located block: where in the file and what to write there. */
export interface BlockMatch {
  /** 0-based index of the first replaced line. */
  start: number;
  /** 0-based index one past the last replaced line. */
  end: number;
  /** The replacement lines (without endings), re-indented and mapped onto the file's own lines. */
  replacement: string[];
  /** The tier that matched. */
  tier: MatchTier;
  /** High for exact-ish tiers, low for fuzzy. */
  confidence: Confidence;
  /** Window similarity (1 for all tiers but fuzzy). */
  similarity: number;
  /** Exact-tier fast path: the UTF-16 span of the matched text in an LF-only file. */
  textSpan?: { from: number; to: number };
}

/** The outcome of one block, as reported in `data.blocks`. */
export interface BlockReport {
  /** 1-based number of the block in the input. */
  block: number;
  /** File it targets. */
  path: string;
  /** 1-based input line where the block starts. */
  input_line: number;
  /** Applied or why not. */
  status: "applied" | "failed" | "skipped";
  /** Tier that placed it (applied blocks). */
  tier?: MatchTier;
  /** Confidence of the placement. */
  confidence?: Confidence;
  /** 1-based inclusive lines replaced in the file as it was before this block. */
  lines?: { start: number; end: number };
  /** 1-based inclusive lines the replacement occupies afterwards. */
  new_lines?: { start: number; end: number };
  /** Fuzzy similarity, when the tier is fuzzy. */
  similarity?: number;
  /** Why it failed: the error payload. */
  error?: { code: string; message: string; hint: string; details?: Record<string, unknown> };
}

/** Options of `matchBlock` (match_block.ts). */
export interface MatchOptions {
  /** Window similarity the fuzzy tier needs (default 0.8). */
  fuzzyThreshold?: number;
  /** Line comparisons the fuzzy tier may spend (default 20000). */
  fuzzyBudget?: number;
  /**
   * Let the low-confidence fuzzy tier place a block (default false: a block only the fuzzy tier finds fails
   * with `no_match`, its window offered as the did-you-mean, because such a SEARCH is most often stale —
   * written against an older version of the code — and placing it would overwrite newer code).
   */
  fuzzy?: boolean;
}

/** A candidate location, 1-based inclusive lines. */
export interface CandidateLines {
  /** First line. */
  start_line: number;
  /** Last line. */
  end_line: number;
}

/**
 * What a line-fed reader of an edit format reports, each as soon as it is read: the one-shot parsers collect
 * the operations, an edit stream acts on each report as it comes.
 */
export interface EditSink {
  /** An operation's file and kind are known, before any of its blocks. */
  file?(at: { path: string; op: FileOp["kind"]; inputLine: number }): void;
  /**
   * A block's search lines are complete, before the block closes: a SEARCH/REPLACE block at its `=======` line
   * (its replacement not read yet), a numbered diff hunk once it has the lines its `@@` header counts.
   */
  search?(block: EditBlock): void;
  /** A block of the current edit operation closed (search and replacement). */
  block?(block: EditBlock): void;
  /** An operation is complete (an edit operation with all its blocks, after them). */
  op(op: FileOp): void;
}

/** A reader of one edit format, fed one line at a time (lines without their endings). */
export interface LineReader {
  /** Read the next line. @throws RecoverableError `invalid_args` at a malformed line. */
  line(text: string): void;
  /** The input ended: close what is open. @throws RecoverableError `invalid_args` for an unclosed block. */
  finish(): void;
}

/** Options of `applyEditOps` (apply_edit_ops.ts). */
export interface ApplyEditOpsOptions extends MatchOptions {
  /** Scan other workspace files for a SEARCH text that matched nothing (default true). */
  searchWorkspace?: boolean;
  /** How messages name the block and its two sides (edit_file says "old_string"/"new_string"). */
  labels?: { where: string; search: string; replace: string };
}

/** What happened to each file. */
export interface FileReport {
  /** Relative path (destination for moves). */
  path: string;
  /** What was done. */
  action: "edited" | "created" | "deleted" | "moved";
  /** Source path of a move. */
  from?: string;
}

/** The outcome of `applyEditOps` (apply_edit_ops.ts). */
export interface ApplyEditOpsResult {
  /** One report per block (and per create/delete op), in input order. */
  blocks: BlockReport[];
  /** Files touched by applied blocks. */
  files: FileReport[];
  /** Moves for dispatch's rename diffs: destination -> source. */
  renames: Map<string, string>;
  /** Number of applied blocks. */
  applied: number;
  /** Number of failed blocks. */
  failed: number;
  /** Non-fatal notes (low-confidence placements). */
  warnings: string[];
}
