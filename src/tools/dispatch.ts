/**
 * dispatch: the one chokepoint every surface calls. Its pipeline, in order:
 *
 * 1. validate — find the tool, fold argument aliases, check the JSON Schema;
 * 2. route — the host's `route` steps (the compass router) may rewrite the call;
 * 3. guard — the host's `guard` steps may refuse it;
 * 4. handle — the tool's handler stages its changes;
 * 5. check syntax — no new parse errors in files with a grammar;
 * 6. finish — commit atomically, or describe the changes on a dry run (as a commit would).
 *
 * Steps 1–5 are `runPipeline` (`_pipeline.ts`, argument checks in `_validate_args.ts`); a plan
 * (edit_dry_run) runs each op through them on a forked stage and never commits. Step 6 is `finish`
 * (`_finish_call.ts`); a failure becomes the one error envelope in `_call_failure.ts`; an edit whose files
 * another writer moved is placed again (`_placed_again.ts`). This module runs a call through them, then
 * step 7: the steps' `after` hooks see the outcome, and the result is fitted to its size budget.
 *
 * @module
 */
import { Stage } from "../fs/stage.ts";
import { DEFAULT_RESULT_CHARS, fitResult } from "./result_fit.ts";
import { findTool } from "./catalogue.ts";
import { failure, refused, unknownTool } from "./_call_failure.ts";
import { finish } from "./_finish_call.ts";
import { MAX_ATTEMPTS, movedUnpinned, placedAgainWarning } from "./_placed_again.ts";
import type { CallInProgress, DispatchOptions, ToolHost, ToolResult } from "./types.ts";

export { validateArgs } from "./_validate_args.ts";
export type { DispatchOptions } from "./types.ts";

/**
 * Run one tool call through the whole pipeline. Never throws: every outcome
 * is a {@linkcode ToolResult}.
 *
 * @param host The workspace (or any {@linkcode ToolHost}).
 * @param request The tool's name and the args object.
 * @param options Session and dry run.
 * @returns The result envelope.
 */
export async function dispatch(
  host: ToolHost,
  request: { tool: string; args: unknown },
  options: DispatchOptions = {},
): Promise<ToolResult> {
  const { tool: name, args: rawArgs } = request;
  const tool = findTool(name);
  const session = options.session ?? "default";
  host.telemetry.counter("graver.tool.calls", 1, { tool: name }); // every call, unknown tools included
  if (!tool) return refused(failure(name, unknownTool(name, rawArgs), host), session, host);
  let call: CallInProgress | undefined;
  let result: ToolResult;
  const moved: string[] = [];
  for (let attempt = 1;; attempt++) {
    const stage = new Stage(host.fs, host.sandbox);
    try {
      result = await finish(host, { tool, rawArgs, stage }, { ...options, onCall: (c) => call = c });
    } finally {
      stage.discard();
    }
    const again = attempt < MAX_ATTEMPTS ? movedUnpinned(tool, rawArgs, result) : null;
    if (again === null) break;
    moved.push(...again);
    host.telemetry.counter("graver.commit.placed_again", 1, { tool: name });
  }
  if (moved.length > 0 && result.ok) result.warnings.push(placedAgainWarning(moved));
  // 7. after: steps see the final outcome (the ledger records reads and writes)
  if (call) {
    for (const step of host.steps ?? []) {
      if (!step.after) continue;
      try {
        await step.after(call, result, host);
      } catch (err) {
        host.telemetry.event("graver.step.failed", { step: step.name, error: String(err), session });
      }
    }
  }
  if (!result.ok) return refused(result, session, host);
  const fullDiff = typeof rawArgs === "object" && rawArgs !== null &&
    (rawArgs as Record<string, unknown>)["full_diff"] === true;
  return fitResult(result, {
    chars: options.resultChars ?? host.resultChars ?? DEFAULT_RESULT_CHARS,
    fullDiff,
  });
}
