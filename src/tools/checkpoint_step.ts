/**
 * The checkpoint step: each applied top-level commit records the files it
 * changed (bytes and permission bits, before and after) as a checkpoint in
 * the host's shadow repository (workspace option `checkpoints`). It records
 * from its `landed` hook, under the commit lock, so a checkpoint is part of
 * the committed change: two commits' records never interleave, and a record
 * that fails rolls its commit back. Dry runs, refusals and a plan's nested
 * ops record nothing (they never commit).
 *
 * @module
 */
import type { PipelineStep } from "./types.ts";

/**
 * The step that records checkpoints; a no-op when the host has none.
 *
 * @returns A review-stage step whose `landed` hook records the commit.
 */
export function checkpointStep(): PipelineStep {
  return {
    name: "checkpoints",
    stage: "review",
    run() {},
    async landed(call, landed, data, host) {
      if (!host.checkpoints) return;
      const undid = data["undid"];
      await host.checkpoints.record(landed, {
        tool: call.tool.name,
        session: call.session,
        ...(typeof undid === "string" ? { undoes: undid } : {}),
      });
    },
  };
}
