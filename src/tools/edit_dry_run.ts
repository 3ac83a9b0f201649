/**
 * edit_dry_run: run a plan of tool calls, each through dispatch's own
 * pipeline (validation, route and guard steps, handler, syntax guard), on one
 * shared overlay: each op runs on a fork of the plan's stage, so it sees the
 * previous ops' results and its syntax check compares with them. Returns one
 * git-apply-compatible diff per file. Nothing is written.
 *
 * @module
 */
import { type ErrorPayload, RecoverableError, type ShownLines } from "../errors.ts";
import type { Version } from "../fs/version.ts";
import { versionOf } from "../fs/version.ts";
import { objectSchema } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";
import { BOOLEAN, INTEGER, shape, STRING } from "./_result_schema.ts";

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

/** The edit_dry_run tool. */
export const editDryRun: ToolDefinition<EditDryRunArgs> = {
  name: "edit_dry_run",
  description:
    "Preview a plan of edits without writing anything: plan is a list of {\"tool\", \"args\"} calls run in order on one transient overlay, so op 2 sees op 1's result. Every op goes through the same validation and guards as a real call. When every op applies: ok, one git-apply-compatible diff per file in changes, each op's outcome in data.ops. When an op fails (the later ops still run, on the overlay without it): not ok, with the first failed op's error code, every op's outcome, the indexes of the failed ops (details.failed_ops) and the diffs of the ops that applied in error.details. Every op index (data.ops[].index, details.failed_ops, ops[i] in messages) is 0-based: the op's position in plan. Re-run the ops for real once the preview is right.",
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
  kind: "plan",
  mutates: true,
  resultData: shape({
    status: { enum: ["ok", "partial", "no_ops_applied"] },
    applied: INTEGER,
    failed: INTEGER,
    ops: {
      type: "array",
      items: shape({ index: INTEGER, tool: STRING, ok: BOOLEAN, data: { type: "object" } }, [
        "index",
        "tool",
        "ok",
      ]),
    },
  }, ["status", "applied", "failed", "ops"]),
  previewOnly: true,
  async handler(args, ctx) {
    const ops: PlanOpResult[] = [];
    /** What the ops displayed of files (did-you-mean windows): a refused plan shows them all. */
    const shown: ShownLines[] = [];
    /** Moves so far: destination -> the path it came from before the plan. */
    const moves = new Map<string, string>();
    for (const [index, op] of args.plan.entries()) {
      const fork = ctx.stage.fork();
      const step = await ctx.run(op.tool, op.args ?? {}, fork);
      shown.push(...(step.shown ?? []));
      if (!step.ok) {
        ops.push({ index, tool: op.tool, ok: false, error: step.error });
        continue;
      }
      await ctx.stage.merge(fork);
      for (const [to, from] of step.renames ?? []) {
        const origin = moves.get(from) ?? from;
        moves.delete(from);
        moves.set(to, origin);
      }
      const result: PlanOpResult = { index, tool: step.tool, ok: true, data: step.data };
      if (step.warnings.length > 0) result.warnings = step.warnings;
      result.changes = await Promise.all(step.changes.map(async (c) => ({
        path: c.path,
        before_version: c.baseVersion,
        after_version: c.after === null ? null : await versionOf(c.after),
      })));
      ops.push(result);
    }
    const net = new Map(ctx.stage.changes().map((c) => [c.path, c.after]));
    // A file moved (and maybe edited) by the plan is previewed as one rename diff.
    const renames = new Map(
      [...moves].filter(([to, from]) =>
        to !== from && net.get(to) && net.has(from) && net.get(from) === null
      ),
    );
    const applied = ops.filter((o) => o.ok).length;
    const failed = ops.filter((o) => !o.ok);
    const status = failed.length === 0 ? "ok" : applied === 0 ? "no_ops_applied" : "partial";
    const data = { status, applied, failed: failed.length, ops };
    const first = failed[0];
    // What each real call will say: the ops' own warnings (the plan itself is not judged again).
    const warnings = ops.flatMap((o) => (o.warnings ?? []).map((w) => `ops[${o.index}] (${o.tool}): ${w}`));
    return {
      ...(renames.size > 0 ? { renames } : {}),
      ...(warnings.length > 0 ? { warnings } : {}),
      data,
      // The plan's net result is on ctx.stage; dispatch previews it (this tool never commits).
      skipSyntaxCheck: true,
      ...(first?.error
        ? {
          refusal: (changes) =>
            new RecoverableError(
              first.error!.code,
              `Cannot preview the plan: ${failed.length} of ${ops.length} op${
                ops.length === 1 ? "" : "s"
              } failed; ops[${first.index}] (${first.tool}): ${first.error!.message}`,
              {
                hint: `${first.error!.hint}${
                  applied > 0
                    ? `; the ${
                      applied === 1 ? "1 op that applied is" : `${applied} ops that applied are`
                    } in details.changes`
                    : ""
                }. Fix the failed op${failed.length === 1 ? "" : "s"} and preview again`,
                ...(first.error!.suggested_call ? { suggestedCall: first.error!.suggested_call } : {}),
                details: { ...data, failed_ops: failed.map((o) => o.index), changes },
                shown,
              },
            ),
        }
        : {}),
    };
  },
};
