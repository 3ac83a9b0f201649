/**
 * Steps 1–5 of dispatch on a stage — validate, route, guard, handle, check syntax — for a top-level call and
 * for a plan's nested op, with what runs between them: a compatibility alias forwarded, a read-only file
 * refused, a file over the parse limit refused before its handler. Nothing here commits.
 *
 * @module
 */
import { isRecoverable, RecoverableError } from "../errors.ts";
import type { PendingChange, Stage } from "../fs/stage.ts";
import { changeLanguage } from "../syntax/change_language.ts";
import type { SyntaxGuardMode } from "../syntax/types.ts";
import { findTool } from "./catalogue.ts";
import { syntaxGuardEngine } from "./_lazy.ts";
import { failure, unknownTool } from "./_call_failure.ts";
import { validateArgs } from "./_validate_args.ts";
import { askedGuardMode } from "./_site_edits.ts";
import type {
  CallInProgress,
  HandlerResult,
  ReadGuardMode,
  StepResult,
  ToolDefinition,
  ToolHost,
} from "./types.ts";

/** What steps 1–5 of the pipeline leave for the finish. */
export interface PipelineOutcome {
  /** The call as routed and guarded. */
  call: CallInProgress;
  /** What the handler returned. */
  handled: HandlerResult;
  /** The call's warnings, the syntax guard's among them. */
  warnings: string[];
  /** What the handler staged. */
  pending: PendingChange[];
}

/** The call {@linkcode runPipeline} runs: the tool asked for, its raw arguments and the stage it edits. */
export interface PipelineInput {
  /** The tool the caller named (a compatibility alias is forwarded to its real tool). */
  tool: ToolDefinition;
  /** The arguments as the caller sent them (validated by the pipeline). */
  rawArgs: unknown;
  /** The stage the handler's changes go to. */
  stage: Stage;
}

/** How {@linkcode runPipeline} runs a call: its session and policies, and whether it is a dry run or nested. */
export interface PipelineOptions {
  /** The session id. */
  session: string;
  /** Whether the caller named the session (it turns on the session's policies). */
  explicitSession: boolean;
  /** The read guard's mode for this call, if the caller overrides it. */
  readGuard?: ReadGuardMode | undefined;
  /** The definition gate's mode for this call, if the caller overrides it. */
  gate?: "off" | "warn" | "refuse" | undefined;
  /** Force a dry run. */
  dryRun: boolean;
  /** A plan's op (run inside another call). */
  nested: boolean;
  /** Told the call once it is built, before the steps run (the finish needs it even after a refusal). */
  onCall?: (call: CallInProgress) => void;
}

/** The real call behind a compatibility alias, validated against the real tool's schema. */
async function forwardAlias(
  host: ToolHost,
  alias: ToolDefinition,
  args: Record<string, unknown>,
  stage: Stage,
): Promise<{ tool: ToolDefinition; args: Record<string, unknown> }> {
  const target = await alias.forward!(args, { workspace: host, stage });
  const tool = findTool(target.tool);
  if (!tool || tool.forward) throw new Error(`${alias.name} forwards to "${target.tool}", not a real tool`);
  return { tool, args: validateArgs(tool, target.args) };
}

/**
 * Refuse to change, move or delete a file whose owner may not write it (no `0o200` bit: `0444`), unless the
 * call passes `allow_read_only: true`: a rename over it lands wherever the directory is writable, so the
 * file's own mode is the only thing that says "leave me".
 */
async function refuseReadOnly(host: ToolHost, call: CallInProgress, pending: PendingChange[]): Promise<void> {
  if (call.args["allow_read_only"] === true) return;
  for (const change of pending) {
    if (change.before === null) continue;
    const mode = await host.fs.mode(host.sandbox.abs(change.path));
    if (mode === null || (mode & 0o200) !== 0) continue;
    const octal = `0${(mode & 0o777).toString(8).padStart(3, "0")}`;
    throw new RecoverableError(
      "permission_denied",
      `Cannot ${
        change.after === null ? "delete" : "change"
      } "${change.path}": it is read-only (mode ${octal})`,
      {
        hint: `Leave it, or pass allow_read_only: true to ${
          change.after === null ? "delete" : "rewrite"
        } it anyway (a rewritten file keeps its mode)`,
        suggestedCall: { tool: call.tool.name, args: { ...call.args, allow_read_only: true } },
        details: { path: change.path, mode: octal },
      },
    );
  }
}

/** The syntax guard mode of a call: the handler's, else the call's `syntax_guard`, else the host's. */
function guardMode(call: CallInProgress, handled: HandlerResult, host: ToolHost): SyntaxGuardMode {
  return handled.syntaxGuard ?? askedGuardMode(call.args, host);
}

/**
 * Step 5's size check ahead of step 4: refuse a guarded edit of a file over the parse limit before the
 * handler computes it (`ToolContext.checkGuardable`); its size comes from a stat, not a read.
 */
async function checkGuardable(
  host: ToolHost,
  call: CallInProgress,
  stage: Stage,
  rels: string[],
): Promise<void> {
  if (!host.trees || guardMode(call, {}, host) !== "refuse") return;
  for (const rel of rels) {
    const bytes = await stage.size(rel);
    if (bytes === null || bytes <= host.trees.maxParseBytes) continue;
    const { refuseOverParseLimit } = await syntaxGuardEngine();
    refuseOverParseLimit(host, rel, bytes);
  }
}

/**
 * Steps 1–5 of dispatch on `stage`: validate, route, guard, handle, check
 * syntax. Throws a `RecoverableError` for a refusal; commits nothing.
 */
export async function runPipeline(
  host: ToolHost,
  input: PipelineInput,
  options: PipelineOptions,
): Promise<PipelineOutcome> {
  let { tool } = input;
  const { rawArgs, stage } = input;
  // 1. validate (a compatibility alias is validated, then replaced by the real call it stands for)
  let args = validateArgs(tool, rawArgs);
  const calledTool = tool.name;
  if (tool.forward) ({ tool, args } = await forwardAlias(host, tool, args, stage));
  const call: CallInProgress = {
    tool,
    calledTool,
    args,
    session: options.session,
    explicitSession: options.explicitSession,
    ...(options.readGuard ? { readGuard: options.readGuard } : {}),
    ...(options.gate ? { gate: options.gate } : {}),
    dryRun: options.dryRun || tool.previewOnly === true || (tool.mutates && args["dry_run"] === true),
    warnings: [],
    reminders: [],
    changes: [],
    nested: options.nested,
  };
  options.onCall?.(call);
  // 2. route, 3. guard: the host's steps, in that order
  const steps = host.steps ?? [];
  for (const phase of ["route", "guard"] as const) {
    for (const step of steps) {
      if (step.stage !== phase) continue;
      const before = { tool: call.tool, args: call.args };
      await step.run(call, host);
      if (call.tool !== before.tool || call.args !== before.args) {
        call.args = validateArgs(call.tool, call.args);
        if (call.tool.mutates && call.args["dry_run"] === true) call.dryRun = true;
      }
    }
  }
  // 4. handle
  const handled = await call.tool.handler(call.args, {
    workspace: host,
    stage,
    session: call.session,
    dryRun: call.dryRun,
    run: (name, args, on) => runNested(host, name, args, on, call),
    checkGuardable: (rels) => checkGuardable(host, call, stage, rels),
  });
  const pending = stage.changes();
  await refuseReadOnly(host, call, pending);
  // 4b. review: steps that judge what the handler staged
  call.changes = pending;
  for (const step of steps) if (step.stage === "review") await step.run(call, host);
  // 5. check syntax
  const warnings = [...call.warnings, ...(handled.warnings ?? [])];
  // (the guard is loaded only when a change has a language to parse)
  const mode = guardMode(call, handled, host);
  if (!handled.skipSyntaxCheck && mode !== "off" && pending.some((c) => changeLanguage(host, c) !== null)) {
    const { guardSyntax } = await syntaxGuardEngine();
    warnings.push(...await guardSyntax(host, pending, { tool: call.tool.name, mode }));
  }
  return { call, handled, warnings, pending };
}

/** A nested call (a plan's op): steps 1–5 on `stage`, never committed, never throwing. */
async function runNested(
  host: ToolHost,
  name: string,
  rawArgs: unknown,
  stage: Stage,
  parent: CallInProgress,
): Promise<StepResult> {
  const tool = findTool(name);
  if (!tool) return { ok: false, tool: name, error: failure(name, unknownTool(name, rawArgs), host).error };
  if (tool.previewOnly) {
    const err = new RecoverableError("invalid_args", `Cannot run ${tool.name} inside a plan`, {
      hint: "List the inner plan's ops directly in this plan",
    });
    return { ok: false, tool: name, error: failure(name, err, host).error };
  }
  try {
    const out = await runPipeline(host, { tool, rawArgs, stage }, {
      session: parent.session,
      explicitSession: parent.explicitSession,
      readGuard: parent.readGuard,
      gate: parent.gate,
      dryRun: true,
      nested: true,
    });
    return {
      ok: true,
      tool: out.call.tool.name,
      data: out.handled.data ?? {},
      warnings: out.warnings,
      reminders: out.call.reminders,
      changes: out.pending,
      ...(out.handled.renames ? { renames: out.handled.renames } : {}),
      ...(out.handled.shown ? { shown: out.handled.shown } : {}),
    };
  } catch (err) {
    const shown = isRecoverable(err) && err.shown.length > 0 ? { shown: err.shown } : {};
    return { ok: false, tool: name, error: failure(name, err, host).error, ...shown };
  }
}
