/**
 * An edit placed again: when another writer changed a call's files between its reads and its commit, which
 * calls may simply run again on the new bytes (an edit placed on text whose caller pinned no version), how
 * many times, and what the result then says.
 *
 * @module
 */
import type { ToolDefinition, ToolResult } from "./types.ts";

/** Runs of one edit, at most: the first, and four more while other writers keep moving its files. */
export const MAX_ATTEMPTS = 5;

/** Kinds whose edit is placed on the text it finds (so it can be placed again), not written whole. */
const PLACED_KINDS: ReadonlySet<string> = new Set([
  "freeform_edit",
  "text_patch",
  "structural",
  "derived",
  "rewrite",
]);

/** Arguments by which a caller pins the version it edits: then a moved base is refused, never re-placed. */
const PINNING_ARGS = ["expected_version", "expected_hash", "ids"];

/**
 * The files another writer changed between this call's reads and its commit, when the call may simply run
 * again on the new bytes: an edit placed on text (not a whole-file write, a move or a deletion), whose caller
 * pinned no version. The next run places the edit on the new content, and is refused as any call would be
 * when it no longer matches exactly and uniquely — no update is lost either way. Null: nothing to redo.
 */
export function movedUnpinned(tool: ToolDefinition, rawArgs: unknown, result: ToolResult): string[] | null {
  if (result.ok || result.error.code !== "stale_base" || result.error.details?.["phase"] !== "commit") {
    return null;
  }
  if (!tool.kind || !PLACED_KINDS.has(tool.kind)) return null;
  const args = typeof rawArgs === "object" && rawArgs !== null ? rawArgs as Record<string, unknown> : {};
  if (PINNING_ARGS.some((a) => args[a] !== undefined)) return null;
  const files = result.error.details?.["files"] as { path: string }[] | undefined;
  return files?.map((f) => f.path) ?? [];
}

/** What a result says when its edit was placed again after another writer changed its files. */
export function placedAgainWarning(paths: readonly string[]): string {
  const names = [...new Set(paths)].map((p) => `"${p}"`).join(", ");
  return `Another writer changed ${names} while this call ran; the edit was placed again on the new content ` +
    "and landed (pass expected_version to be refused instead). Read the file again before your next edit there";
}
