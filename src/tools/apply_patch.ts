/**
 * Codex's `apply_patch` tool as a compatibility alias: `{"input": "*** Begin
 * Patch ..."}` forwarded by dispatch to apply_edits with the `apply-patch`
 * format, so the text engine, the guards and the compass treat it as that call.
 *
 * @module
 */
import { forwardedOnly } from "./_alias.ts";
import { DRY_RUN, objectSchema } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";

/** Arguments of apply_patch (Codex's function-tool shape). */
export interface ApplyPatchArgs {
  /** The whole patch, `*** Begin Patch` to `*** End Patch` (a surrounding `apply_patch <<'EOF'` heredoc is fine). */
  input: string;
  /** Versions the caller read, by path; a file changed since is refused with stale_base. */
  expected_versions?: Record<string, string>;
  /** Preview only. */
  dry_run?: boolean;
  /** What the syntax guard does with new parse errors. */
  syntax_guard?: "refuse" | "warn" | "off";
}

/** The apply_patch tool. */
export const applyPatch: ToolDefinition<ApplyPatchArgs> = {
  name: "apply_patch",
  description:
    "Codex's apply_patch, for models trained on it: input is one patch from '*** Begin Patch' to '*** End Patch' with '*** Add File: path', '*** Delete File: path' and '*** Update File: path' sections ('*** Move to: path', '@@ context' headers, ' '/'-'/'+' lines). It runs apply_edits with format apply-patch: every hunk is placed by the matching ladder, all files change or none, and a hunk that matches nowhere or in several places is refused with the closest lines. The result names apply_edits. For SEARCH/REPLACE blocks or unified diffs call apply_edits; for a whole definition, replace_symbol.",
  inputSchema: objectSchema({
    input: {
      type: "string",
      minLength: 1,
      description: "The entire patch, from *** Begin Patch to *** End Patch",
    },
    expected_versions: {
      type: "object",
      additionalProperties: { type: "string", pattern: "^[0-9a-fA-F]{1,64}$" },
      description: "Map of path to the version read; a file that changed since is refused with stale_base",
    },
    dry_run: DRY_RUN,
  }, ["input"]),
  kind: "alias",
  mutates: true,
  forwardsTo: ["apply_edits"],
  aliases: { patch: "input" },
  forward(args) {
    const { input, ...rest } = args;
    return Promise.resolve({ tool: "apply_edits", args: { ...rest, text: input, format: "apply-patch" } });
  },
  handler: forwardedOnly("apply_patch"),
};
