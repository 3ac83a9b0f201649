/**
 * The checkpoint step: after each applied top-level commit, record the files
 * it changed (before and after bytes) as a checkpoint in the host's shadow
 * repository (workspace option `checkpoints`). Dry runs, refusals and a
 * plan's nested ops record nothing.
 *
 * @module
 */
import type { PipelineStep } from "./types.ts";

/**
 * The step that records checkpoints; a no-op when the host has none.
 *
 * @returns A review-stage step whose `after` records the commit.
 */
export function checkpointStep(): PipelineStep {
  return {
    name: "checkpoints",
    stage: "review",
    run() {},
    async after(call, result, host) {
      if (!host.checkpoints || call.nested || !result.ok || result.status !== "applied") return;
      const undid = result.data["undid"];
      await host.checkpoints.record(
        call.changes.map((c) => ({ path: c.path, before: c.before, after: c.after })),
        { tool: result.tool, session: call.session, ...(typeof undid === "string" ? { undoes: undid } : {}) },
      );
    },
  };
}
