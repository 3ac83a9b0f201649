/**
 * The events of an edit stream (private: published by `edit_stream.ts`), apart from the stream so that the
 * placement modules it loads on first write can name them.
 *
 * @module
 */
import type { ToolResult } from "./types.ts";

/** The tools an edit stream can feed: the ones that take model-written text. */
export const STREAM_TOOLS = [
  "apply_edits",
  "apply_patch",
  "edit_file",
  "str_replace_based_edit_tool",
  "str_replace_editor",
] as const;

/** A tool an edit stream can feed. */
export type StreamTool = typeof STREAM_TOOLS[number];

/** A refusal as a stream event carries it: the same payload the whole call's error gives. */
export interface StreamRefusal {
  /** The error code (`no_match`, `ambiguous`, `already_applied`, `stale_base`, `invalid_args` …). */
  code: string;
  /** What went wrong, where. */
  message: string;
  /** What to do next. */
  hint: string;
  /** Closest lines, candidates and other details, as the whole call reports them. */
  details?: Record<string, unknown>;
}

/** One event of an edit stream, delivered as soon as it is decided. */
export type StreamEvent =
  | {
    /** A file operation's header was read (a path line, `--- a/x`/`+++ b/x`, `*** Update File: x`). */
    type: "file";
    /** The file, as written. */
    path: string;
    /** What the operation does. */
    op: "edit" | "create" | "delete";
    /** 1-based line of the edit text. */
    input_line: number;
  }
  | {
    /** A block's search text closed and was placed in the file (as earlier blocks left it). */
    type: "placed";
    /** 1-based block number, as the final result's `data.blocks` numbers it. */
    block: number;
    /** The file. */
    path: string;
    /** 1-based inclusive lines it matched. */
    lines: { start: number; end: number };
    /** The tier of the matching ladder that placed it. */
    tier: string;
    /** 1-based line of the edit text where the block starts. */
    input_line: number;
  }
  | {
    /** A block's search text closed and cannot be placed: the whole call would refuse it the same way. */
    type: "refused";
    /** 1-based block number. */
    block: number;
    /** The file. */
    path: string;
    /** 1-based line of the edit text where the block starts. */
    input_line: number;
    /** The refusal. */
    error: StreamRefusal;
  }
  | {
    /** A placed block's replacement closed: the change it makes. */
    type: "replaced";
    /** 1-based block number. */
    block: number;
    /** The file. */
    path: string;
    /** A unified diff of this block's change alone. */
    diff: string;
  }
  | {
    /** The edit text itself cannot be parsed (a malformed block, an unknown format). */
    type: "parse_error";
    /** The refusal the whole call would give. */
    error: StreamRefusal;
  }
  | {
    /**
     * The stream stopped early (`stop_on_refusal`, an abort, or a text past the tool's size limit): the
     * generation can be cancelled; `end()` gives the result.
     */
    type: "stopped";
    /** Why. */
    reason: "refusal" | "parse_error" | "aborted" | "limit_exceeded";
    /** The block that stopped it, if one did. */
    block?: number;
    /** The refusal or parse error that stopped it (absent for an abort). */
    error?: StreamRefusal;
  }
  | {
    /** The final result, the same object `end()` resolves to. */
    type: "result";
    /** The dispatch result. */
    result: ToolResult;
  };

/** A block's decision: the `placed` or `refused` event. */
export type BlockDecision = Extract<StreamEvent, { type: "placed" | "refused" }>;

/** A block report as the final result gives it (the text engine's `BlockReport`, as far as events read it). */
export interface ReportLike {
  block: number;
  path: string;
  input_line: number;
  status: string;
  tier?: string;
  lines?: { start: number; end: number };
  new_lines?: { start: number; end: number };
  error?: StreamRefusal;
}

/**
 * The `placed` or `refused` event of a block report: a placed block's lines are those it replaces (a created
 * file's: the lines it will have; a deleted file's: `{start: 0, end: 0}`).
 *
 * @param report The block's report.
 * @returns Its event.
 */
export function reportEvent(report: ReportLike): BlockDecision {
  const { block, path, input_line } = report;
  if (report.status !== "applied") {
    const error = report.error ?? { code: "internal", message: `Block ${block} was not applied`, hint: "" };
    return { type: "refused", block, path, input_line, error };
  }
  const lines = report.lines ?? report.new_lines ?? { start: 0, end: 0 };
  return { type: "placed", block, path, lines, tier: report.tier ?? "exact", input_line };
}

/**
 * Whether two events decide a block the same way (same kind, lines and tier, or the same refusal).
 *
 * @param a The earlier decision, if any.
 * @param b The new one.
 * @returns True when `b` adds nothing to `a`.
 */
export function sameDecision(a: BlockDecision | undefined, b: BlockDecision): boolean {
  if (a === undefined || a.type !== b.type) return false;
  if (a.type === "placed" && b.type === "placed") {
    return a.tier === b.tier && a.lines.start === b.lines.start && a.lines.end === b.lines.end;
  }
  if (a.type === "refused" && b.type === "refused") {
    return a.error.code === b.error.code && a.error.message === b.error.message;
  }
  return false;
}
