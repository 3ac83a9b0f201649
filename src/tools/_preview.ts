/**
 * The diffs of a stage's pending changes, as a dry run shows them: one
 * git-style diff per file, a move as one rename diff.
 *
 * @module
 */
import type { CommittedChange } from "../fs/commit.ts";
import type { Stage } from "../fs/stage.ts";
import { unifiedDiff } from "../fs/unified_diff.ts";
import { versionOf } from "../fs/version.ts";

/**
 * Describe what committing `stage` would change, without writing.
 *
 * @param stage The stage.
 * @param renames Moves to show as renames: destination -> source.
 * @returns One change per file, with its diff.
 */
export async function previewChanges(
  stage: Stage,
  renames: Map<string, string> | undefined,
): Promise<CommittedChange[]> {
  const pending = stage.changes();
  const renamedFrom = new Set(renames?.values() ?? []);
  const out: CommittedChange[] = [];
  for (const c of pending) {
    if (c.after === null && renamedFrom.has(c.path)) continue;
    const fromPath = renames?.get(c.path);
    const before = fromPath ? pending.find((p) => p.path === fromPath)?.before ?? null : c.before;
    out.push({
      path: c.path,
      before_version: c.baseVersion,
      after_version: c.after === null ? null : await versionOf(c.after),
      diff: unifiedDiff(c.path, before, c.after, fromPath ? { fromPath } : {}),
    });
  }
  return out;
}
