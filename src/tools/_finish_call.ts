/**
 * Step 6 of dispatch for a top-level call: the pipeline's staged changes committed atomically (with the
 * `landed` steps told), or described as a commit would on a dry run or a handler's refusal, and the result
 * shaped: its status, changes, data, warnings and reminders, or the failure envelope.
 *
 * @module
 */
import { isRecoverable } from "../errors.ts";
import {
  commitChanges,
  type CommitOptions,
  type CommittedChange,
  describeChanges,
  modesOf,
} from "../fs/commit.ts";
import { failure } from "./_call_failure.ts";
import { type PipelineInput, runPipeline } from "./_pipeline.ts";
import type { CallInProgress, DispatchOptions, ToolHost, ToolResult } from "./types.ts";

/** A top-level call's options, and who is told the call once it is built (the `after` steps need it). */
export interface FinishOptions extends DispatchOptions {
  /** Told the call in progress, before its steps run. */
  onCall: (call: CallInProgress) => void;
}

/** Steps 1–6 of a top-level call: the pipeline, then commit or preview. */
export async function finish(
  host: ToolHost,
  input: PipelineInput,
  options: FinishOptions,
): Promise<ToolResult> {
  const { tool } = input;
  const { onCall } = options;
  let current: CallInProgress | undefined;
  try {
    const out = await runPipeline(host, input, {
      session: options.session ?? "default",
      explicitSession: options.session !== undefined,
      readGuard: options.readGuard,
      gate: options.gate,
      dryRun: options.dryRun === true,
      nested: false,
      onCall: (c) => {
        current = c;
        onCall(c);
      },
    });
    const { call, handled, warnings, pending } = out;
    const reminders = call.reminders;
    // 6. finish: commit, or preview
    let changes: CommittedChange[];
    if (call.dryRun || handled.refusal) {
      changes = await describeChanges(pending, {
        renames: handled.renames,
        modes: await modesOf(host.fs, host.sandbox, pending),
      });
    } else {
      const commitOptions: CommitOptions = { lock: host.lock };
      if (handled.renames) commitOptions.renames = handled.renames;
      const landing = (host.steps ?? []).filter((step) => step.landed);
      if (landing.length > 0) {
        commitOptions.onLanded = async (landed) => {
          for (const step of landing) await step.landed!(call, landed, handled.data ?? {}, host);
        };
      }
      changes = await commitChanges({ fs: host.fs, sandbox: host.sandbox }, pending, commitOptions);
      if (changes.length > 0) {
        host.telemetry.counter("graver.commit.files", changes.length, { tool: call.tool.name });
        host.telemetry.event("graver.commit", {
          tool: call.tool.name,
          files: changes.length,
          session: call.session,
        });
      }
    }
    if (handled.refusal) {
      const refusal = handled.refusal(changes);
      call.shown = refusal.shown;
      return { ...failure(call.tool.name, refusal, host), reminders };
    }
    call.shown = handled.shown ?? [];
    const status = !call.tool.mutates
      ? "read"
      : changes.length === 0
      ? "no_change"
      : call.dryRun
      ? "dry_run"
      : "applied";
    return { ok: true, tool: call.tool.name, status, changes, data: handled.data ?? {}, warnings, reminders };
  } catch (err) {
    // What the refusal displayed (a did-you-mean window), for the `after` steps (the ledger).
    if (current) current.shown = isRecoverable(err) ? err.shown : [];
    // reminders route steps attached before a refusal still reach the caller
    return { ...failure(tool.name, err, host), reminders: current?.reminders ?? [] };
  }
}
