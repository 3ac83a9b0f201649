/**
 * edit_dry_run: run a plan of tool calls against one transient overlay (each
 * op sees the previous ops' results) and return one git-apply-compatible diff
 * per file. Nothing is written.
 *
 * @module
 */
import { type ErrorPayload, isRecoverable, RecoverableError } from "../errors.ts";
import { type PendingChange, sameBytes, Stage } from "../fs/stage.ts";
import { type Version, versionOf } from "../fs/version.ts";
import { guardSyntax } from "../syntax/syntax_guard.ts";
import { objectSchema } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";

/** One op of a plan. */
export interface PlanOp {
  /** Tool name from the catalogue. */
  tool: string;
  /** Its args object. */
  args?: Record<string, unknown>;
}

/** Arguments of edit_dry_run. */
export interface EditDryRunArgs {
  /** The ops, run in order on one overlay. */
  plan: PlanOp[];
  /** Accepted for uniformity; a dry run never writes. */
  dry_run?: boolean;
}

/** The outcome of one op. */
export interface PlanOpResult {
  /** 0-based position in the plan. */
  index: number;
  /** Tool name. */
  tool: string;
  /** Whether the op applied (on the overlay). */
  ok: boolean;
  /** Why it did not. */
  error?: ErrorPayload;
  /** The tool's data. */
  data?: Record<string, unknown>;
  /** The tool's warnings. */
  warnings?: string[];
  /** Files the op changed, with their versions before and after the op (pass after_version to the next op). */
  changes?: { path: string; before_version: Version | null; after_version: Version | null }[];
}

/** Most ops one plan may hold. */
export const MAX_PLAN_OPS = 100;

function errorPayload(err: unknown, tool: string): ErrorPayload {
  if (isRecoverable(err)) return err.toJSON();
  const message = err instanceof Error ? err.message : String(err);
  return {
    code: "internal",
    message: `Cannot complete ${tool}: ${message}`,
    hint: "This is a bug in graver; nothing was written. Report it with the arguments used",
  };
}

/** The edit_dry_run tool. */
export const editDryRun: ToolDefinition<EditDryRunArgs> = {
  name: "edit_dry_run",
  description:
    'Preview a plan of edits without writing anything: plan is a list of {"tool", "args"} calls run in order on one transient overlay, so op 2 sees op 1\'s result (a failed op changes nothing and the plan continues). Returns each op\'s outcome (ok, error), one git-apply-compatible diff per file in changes, and data.status: "ok" (every op applied), "partial" or "no_ops_applied". Re-run the ops for real once the preview is right.',
  inputSchema: objectSchema({
    plan: {
      type: "array",
      minItems: 1,
      maxItems: MAX_PLAN_OPS,
      description: "Tool calls to preview, in order",
      items: objectSchema({
        tool: { type: "string", minLength: 1, description: "Tool name, e.g. edit_apply_node" },
        args: { type: "object", description: "The tool's args object" },
      }, ["tool"]),
    },
    dry_run: { type: "boolean", description: "Ignored: a dry run never writes" },
  }, ["plan"]),
  mutates: true,
  previewOnly: true,
  async handler(args, ctx) {
    // Imported lazily: the catalogue lists this tool, so a static import would be a cycle.
    const { findTool } = await import("./catalogue.ts");
    const { validateArgs } = await import("./dispatch.ts");
    const ws = ctx.workspace;
    /** Path -> bytes after the ops so far (null: deleted); only files that differ from the store. */
    let overlay = new Map<string, Uint8Array | null>();
    const base = new Map<string, { bytes: Uint8Array | null; version: Version | null }>();
    const ops: PlanOpResult[] = [];
    /** Moves so far: destination -> the path it came from before the plan. */
    const moves = new Map<string, string>();
    for (const [index, op] of args.plan.entries()) {
      const tool = findTool(op.tool);
      if (!tool || tool.name === "edit_dry_run") {
        const err = tool
          ? new RecoverableError("invalid_args", "Cannot nest edit_dry_run inside a plan", {
            hint: "List the inner plan's ops directly in this plan",
            details: { index },
          })
          : new RecoverableError("not_found", `Cannot run op ${index + 1}: no tool named "${op.tool}"`, {
            hint: "Use a tool name from the catalogue (`graver tools`, or describeTools() in the library)",
            details: { index, tool: op.tool },
          });
        ops.push({ index, tool: op.tool, ok: false, error: err.toJSON() });
        continue;
      }
      const stage = new Stage(ws.fs, ws.sandbox);
      try {
        for (const [rel, bytes] of overlay) {
          if (bytes === null) await stage.remove(rel);
          else await stage.write(rel, bytes);
        }
        const opArgs = validateArgs(tool, op.args ?? {});
        const handled = await tool.handler(opArgs, { ...ctx, stage, dryRun: true });
        const pending = stage.changes();
        for (const c of pending) {
          if (!base.has(c.path)) base.set(c.path, { bytes: c.before, version: c.baseVersion });
        }
        // What this op changed, relative to the overlay before it.
        const stepChanges: PendingChange[] = [];
        const touched = new Set([...pending.map((c) => c.path), ...overlay.keys()]);
        for (const path of touched) {
          const prev = overlay.has(path) ? overlay.get(path)! : base.get(path)?.bytes ?? null;
          const now = pending.find((c) => c.path === path);
          const after = now ? now.after : base.get(path)?.bytes ?? null;
          if (sameBytes(prev, after)) continue;
          stepChanges.push({
            path,
            baseVersion: prev === null ? null : await versionOf(prev),
            before: prev,
            after,
          });
        }
        const warnings = [...(handled.warnings ?? [])];
        if (!handled.skipSyntaxCheck) {
          warnings.push(
            ...await guardSyntax(ws, tool.name, stepChanges, handled.syntaxGuard ?? ws.syntaxGuard),
          );
        }
        overlay = new Map(pending.map((c) => [c.path, c.after]));
        for (const [to, from] of handled.renames ?? []) {
          const origin = moves.get(from) ?? from;
          moves.delete(from);
          moves.set(to, origin);
        }
        const result: PlanOpResult = { index, tool: tool.name, ok: true, data: handled.data ?? {} };
        if (warnings.length > 0) result.warnings = warnings;
        result.changes = await Promise.all(stepChanges.map(async (c) => ({
          path: c.path,
          before_version: c.baseVersion,
          after_version: c.after === null ? null : await versionOf(c.after),
        })));
        ops.push(result);
      } catch (err) {
        ops.push({ index, tool: tool.name, ok: false, error: errorPayload(err, tool.name) });
      } finally {
        stage.discard();
      }
    }
    // The plan's net result goes into the call's stage; dispatch previews it (this tool never commits).
    for (const [rel, bytes] of overlay) {
      if (bytes === null) await ctx.stage.remove(rel);
      else await ctx.stage.write(rel, bytes);
    }
    const applied = ops.filter((o) => o.ok).length;
    const status = applied === ops.length ? "ok" : applied === 0 ? "no_ops_applied" : "partial";
    const failed = ops.filter((o) => !o.ok);
    // A file moved (and maybe edited) by the plan is previewed as one rename diff.
    const renames = new Map(
      [...moves].filter(([to, from]) =>
        to !== from && overlay.get(to) && overlay.has(from) && overlay.get(from) === null
      ),
    );
    return {
      ...(renames.size > 0 ? { renames } : {}),
      data: { status, applied, failed: failed.length, ops },
      warnings: failed.map((o) =>
        `Op ${o.index + 1} (${o.tool}) failed: ${o.error?.message ?? "unknown error"}`
      ),
      skipSyntaxCheck: true,
    };
  },
};
