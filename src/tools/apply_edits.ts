/**
 * apply_edits: apply a model's edit response — SEARCH/REPLACE blocks, a
 * unified diff or a `*** Begin Patch` envelope — through the matching ladder.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { applyEngine, parseEngine } from "./_lazy.ts";
import { DRY_RUN, objectSchema } from "./_schema.ts";
import type { HandlerResult, ToolDefinition } from "./types.ts";
import { BLOCK, FILE_PATH, INTEGER, shape, STRING } from "./_result_schema.ts";

/** Arguments of apply_edits. */
export interface ApplyEditsArgs {
  /** The edit text. */
  text: string;
  /** Force a format (default auto-detect). */
  format?: "auto" | "search-replace" | "udiff" | "apply-patch";
  /** Apply the blocks that match and report the rest (one commit). */
  partial?: boolean;
  /** Let the low-confidence fuzzy tier write (default: the workspace's `fuzzy`, false). */
  fuzzy?: boolean;
  /** Versions the caller read, by path; a changed file is refused with stale_base. */
  expected_versions?: Record<string, string>;
  /** What the syntax guard does with new parse errors (default: the workspace's mode). */
  syntax_guard?: "refuse" | "warn" | "off";
  /** Preview only. */
  dry_run?: boolean;
}

/** Largest edit text accepted (UTF-16 code units). */
export const MAX_EDIT_TEXT = 8 * 1024 * 1024;

/** The apply_edits tool. */
export const applyEdits: ToolDefinition<ApplyEditsArgs> = {
  name: "apply_edits",
  description:
    "Apply edits written as SEARCH/REPLACE blocks (file path on the line above <<<<<<< SEARCH), a unified diff, or a *** Begin Patch envelope, across one or more files. Each block is placed by a matching ladder (exact, whitespace, indentation, blank lines, '...' elisions, Unicode punctuation, copied line numbers, spacing inside lines; bounded fuzzy only with fuzzy: true) and refused when ambiguous; data.blocks reports the tier and lines of each. All-or-nothing unless partial is true. Refused per block: no_match (with the closest lines), ambiguous (every candidate), already_applied; a stale expected_versions entry is stale_base. For one replacement in one file, edit_file is simpler; for a whole definition, replace_symbol.",
  inputSchema: objectSchema({
    text: { type: "string", minLength: 1, description: "The edits, as the model wrote them" },
    format: {
      type: "string",
      enum: ["auto", "search-replace", "udiff", "apply-patch"],
      description: "Edit format (default auto-detect)",
    },
    partial: {
      type: "boolean",
      description: "Apply the matching blocks and report the failed ones (default false)",
    },
    fuzzy: {
      type: "boolean",
      description:
        "Let the low-confidence fuzzy tier apply a block whose SEARCH differs from the file in real tokens (default false: such a block fails with the window as did-you-mean, since it is most often stale)",
    },
    expected_versions: {
      type: "object",
      additionalProperties: { type: "string", pattern: "^[0-9a-fA-F]{1,64}$" },
      description: "Map of path to the version read; a file that changed since is refused with stale_base",
    },
    dry_run: DRY_RUN,
  }, ["text"]),
  kind: "freeform_edit",
  mutates: true,
  resultData: shape({
    format: { enum: ["search-replace", "udiff", "apply-patch"] },
    applied: INTEGER,
    failed: INTEGER,
    blocks: { type: "array", items: BLOCK },
    files: {
      type: "array",
      items: shape({
        path: FILE_PATH,
        action: { ...STRING, description: "edited, created, deleted or moved" },
      }, [
        "path",
      ]),
    },
  }, ["format", "applied", "failed", "blocks"]),
  async handler(args, { stage, workspace, checkGuardable }) {
    if (args.text.length > MAX_EDIT_TEXT) {
      throw new RecoverableError(
        "limit_exceeded",
        `Cannot apply edits: the text is ${args.text.length} characters, over the ${MAX_EDIT_TEXT} limit`,
        { hint: "Split the edits into several apply_edits calls, or replace whole files with write_file" },
      );
    }
    const [{ parseEdits }, { applyEditOps, editFailure, windowsShown }] = await Promise.all([
      parseEngine(),
      applyEngine(),
    ]);
    const parsed = parseEdits(args.text, args.format === undefined ? {} : { format: args.format });
    const edited = parsed.ops.filter((op) => op.kind === "edit");
    await checkGuardable(await Promise.all(edited.map((op) => stage.resolve(op.path))));
    for (const [path, version] of Object.entries(args.expected_versions ?? {})) {
      await stage.checkExpected(await stage.resolve(path), version);
    }
    const result = await applyEditOps(stage, parsed.ops, { fuzzy: args.fuzzy ?? workspace.fuzzy ?? false });
    for (const b of result.blocks) {
      if (b.status === "applied") {
        workspace.telemetry.counter("graver.text.blocks", 1, { tier: b.tier ?? "unknown" });
      } else workspace.telemetry.counter("graver.text.blocks", 1, { refused: b.error?.code ?? "unknown" });
    }
    if (result.failed > 0 && (!args.partial || result.applied === 0)) throw editFailure(result);
    const warnings = [...result.warnings];
    if (result.failed > 0) {
      warnings.push(
        `${result.failed} block${result.failed === 1 ? "" : "s"} failed and ${
          result.failed === 1 ? "was" : "were"
        } skipped (partial): ${
          result.blocks.filter((b) => b.status === "failed").map((b) =>
            `block ${b.block}: ${b.error!.message}`
          ).join("; ")
        }`,
      );
    }
    const out: HandlerResult = {
      data: {
        format: parsed.format,
        applied: result.applied,
        failed: result.failed,
        blocks: result.blocks,
        files: result.files,
      },
      warnings,
    };
    if (result.renames.size > 0) out.renames = result.renames;
    // The failed blocks' did-you-mean windows (a partial apply) are displayed lines too.
    const shown = windowsShown(result.blocks);
    if (shown.length > 0) out.shown = shown;
    return out;
  },
};
