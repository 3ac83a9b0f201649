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
 * Steps 1–5 are {@linkcode runPipeline}; a plan (edit_dry_run) runs each op
 * through them on a forked stage and never commits.
 *
 * @module
 */
import { Validator } from "@cfworker/json-schema";
import { errnoError, isRecoverable, RecoverableError } from "../errors.ts";
import {
  commitChanges,
  type CommitOptions,
  type CommittedChange,
  describeChanges,
  modesOf,
} from "../fs/commit.ts";
import { nearestNames, type PendingChange, Stage } from "../fs/stage.ts";
import { changeLanguage } from "../syntax/change_language.ts";
import type { SyntaxGuardMode } from "../syntax/types.ts";
import { DEFAULT_RESULT_CHARS, fitResult } from "./result_fit.ts";
import { findTool, TOOLS } from "./catalogue.ts";
import { syntaxGuardEngine } from "./_lazy.ts";
import type {
  CallInProgress,
  HandlerResult,
  ReadGuardMode,
  StepResult,
  ToolDefinition,
  ToolHost,
  ToolResult,
} from "./types.ts";

/** Per-call options. */
export interface DispatchOptions {
  /** Session id (default "default"; naming one turns on the session's policies, e.g. the read guard). */
  session?: string;
  /** Force a dry run regardless of args. */
  dryRun?: boolean;
  /** The read guard's mode for this call, overriding the session policy ("off" for a one-shot apply). */
  readGuard?: ReadGuardMode;
  /** The definition gate's mode for this call, overriding the session policy (e.g. `--gate` on a one-shot call). */
  gate?: "off" | "warn" | "refuse";
  /**
   * Most characters this call's result holds as JSON, overriding the workspace's `resultChars` (a terminal
   * command that prints every match, such as `graver grep`, passes `Infinity`: nothing is cut).
   */
  resultChars?: number;
}

const VALIDATORS = new WeakMap<ToolDefinition, Validator>();

function validator(tool: ToolDefinition): Validator {
  let v = VALIDATORS.get(tool);
  if (!v) VALIDATORS.set(tool, v = new Validator(tool.inputSchema as never, "2020-12", false));
  return v;
}

function schemaProperties(tool: ToolDefinition): string[] {
  const props = tool.inputSchema["properties"];
  return props && typeof props === "object" ? Object.keys(props) : [];
}

/** The schema of one property, following a JSON pointer's property steps. */
function schemaAt(schema: Record<string, unknown>, pointer: string): Record<string, unknown> | null {
  let node: unknown = schema;
  for (const step of pointer.split("/").filter((p) => p !== "")) {
    if (node === null || typeof node !== "object") return null;
    const n = node as Record<string, unknown>;
    if (/^\d+$/.test(step) && n["items"] && typeof n["items"] === "object") node = n["items"];
    else node = (n["properties"] as Record<string, unknown> | undefined)?.[step];
  }
  return node !== null && typeof node === "object" ? node as Record<string, unknown> : null;
}

function jsonType(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

function valueAt(args: unknown, pointer: string): unknown {
  let v: unknown = args;
  for (const step of pointer.split("/").filter((p) => p !== "")) {
    v = v !== null && typeof v === "object" ? (v as Record<string, unknown>)[step] : undefined;
  }
  return v;
}

/** One schema error as a sentence naming the argument, what it must be and what it got. */
function problemOf(
  e: { keyword: string; instanceLocation: string; error: string },
  tool: ToolDefinition,
  args: unknown,
): string {
  const at = e.instanceLocation.replace(/^#\/?/, "");
  const name = at === "" ? "the arguments" : `"${at.replaceAll("/", ".")}"`;
  const schema = schemaAt(tool.inputSchema, at) ?? {};
  const value = valueAt(args, at);
  const about = typeof schema["description"] === "string" ? ` (${schema["description"]})` : "";
  switch (e.keyword) {
    case "type": {
      const want = [schema["type"]].flat().join(" or ");
      return `${name} must be ${want || "another type"}, not ${jsonType(value)}${about}`;
    }
    case "required": {
      const missing = /"([^"]+)"/.exec(e.error)?.[1];
      return missing ? `"${missing}" is required` : `${name}: ${e.error}`;
    }
    case "minLength":
      return typeof value === "string" && value.length === 0
        ? `${name} is empty${about}`
        : `${name} is shorter than ${schema["minLength"]} characters`;
    case "maxLength":
      return `${name} is longer than ${schema["maxLength"]} characters`;
    case "minItems":
      return `${name} needs at least ${schema["minItems"]} item${schema["minItems"] === 1 ? "" : "s"}`;
    case "maxItems":
      return `${name} takes at most ${schema["maxItems"]} items`;
    case "enum":
      return `${name} must be one of ${
        (schema["enum"] as unknown[] ?? []).map((x) => JSON.stringify(x)).join(", ")
      }, not ${JSON.stringify(value)}`;
    case "pattern":
      return `${name} has the wrong form${about}: ${JSON.stringify(value)}`;
    case "minimum":
    case "maximum":
      return `${name} must be ${e.keyword === "minimum" ? "at least" : "at most"} ${schema[e.keyword]}, not ${
        JSON.stringify(value)
      }`;
    default:
      return `${name}: ${e.error.replace(/\.$/, "")}`;
  }
}

/** Fold the tool's argument aliases into their schema names; both given and different is refused. */
function foldAliases(tool: ToolDefinition, args: Record<string, unknown>): Record<string, unknown> {
  if (!tool.aliases) return args;
  let out = args;
  for (const [alias, name] of Object.entries(tool.aliases)) {
    if (!(alias in args)) continue;
    if (name in args && JSON.stringify(args[name]) !== JSON.stringify(args[alias])) {
      throw new RecoverableError(
        "invalid_args",
        `Cannot call ${tool.name}: "${alias}" and "${name}" name the same argument and differ`,
        { hint: `Pass only "${name}"`, details: { alias, name } },
      );
    }
    if (out === args) out = { ...args };
    out[name] = args[alias];
    delete out[alias];
  }
  return out;
}

const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Refuse a string argument that holds a lone surrogate (half of a UTF-16 pair, e.g. an emoji cut in two):
 * UTF-8 cannot store it, and writing it would silently turn it into U+FFFD. Walks the arguments without
 * recursion.
 */
function refuseLoneSurrogates(tool: ToolDefinition, args: Record<string, unknown>): void {
  const stack: [unknown, string][] = Object.entries(args).map(([k, v]) => [v, k]);
  while (stack.length > 0) {
    const [value, at] = stack.pop()!;
    if (typeof value === "string") {
      const hit = LONE_SURROGATE.exec(value);
      if (!hit) continue;
      const unit = `U+${hit[0].charCodeAt(0).toString(16).toUpperCase()}`;
      throw new RecoverableError(
        "invalid_args",
        `Cannot call ${tool.name}: argument "${at}" holds a lone surrogate (${unit} at character ${hit.index}), which is not text: UTF-8 cannot store it`,
        {
          hint:
            "Send complete characters: a surrogate pair must not be split (an emoji or other character outside the BMP cut in half is the usual cause)",
          details: { argument: at, index: hit.index, code_unit: unit },
        },
      );
    }
    if (Array.isArray(value)) value.forEach((v, i) => stack.push([v, `${at}[${i}]`]));
    else if (value !== null && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) stack.push([v, `${at}.${k}`]);
    }
  }
}

/**
 * Validate args: fold the tool's aliases, then check its JSON Schema.
 *
 * @param tool The tool.
 * @param args The raw args.
 * @returns The args, aliases folded.
 * @throws `invalid_args` naming each argument that is wrong, what it must be, and the shape expected.
 */
export function validateArgs(tool: ToolDefinition, args: unknown): Record<string, unknown> {
  if (args === undefined || args === null) args = {};
  if (typeof args !== "object" || Array.isArray(args)) {
    throw new RecoverableError(
      "invalid_args",
      `Cannot call ${tool.name}: arguments must be a JSON object, not ${jsonType(args)}`,
      {
        hint: `Pass one object with the properties ${schemaProperties(tool).join(", ")}`,
        details: { schema: tool.inputSchema },
      },
    );
  }
  args = foldAliases(tool, args as Record<string, unknown>);
  if (tool.foldArgs) args = tool.foldArgs(args as Record<string, unknown>);
  const result = validator(tool).validate(args);
  if (result.valid) {
    refuseLoneSurrogates(tool, args as Record<string, unknown>);
    return args as Record<string, unknown>;
  }
  const known = schemaProperties(tool);
  const problems: string[] = [];
  const unknown = new Set(Object.keys(args as object).filter((k) => !known.includes(k)));
  for (const e of result.errors) {
    const at = e.instanceLocation.replace(/^#\/?/, "");
    if (e.keyword === "false" && at.includes("/")) unknown.add(at); // an unknown property of a nested object
    if (e.keyword === "properties" || e.keyword === "false" || e.keyword === "additionalProperties") continue;
    if (e.keyword === "items" || e.keyword === "anyOf" && result.errors.length > 1) continue; // said by the leaves
    const problem = problemOf(e, tool, args);
    if (!problems.includes(problem)) problems.push(problem);
  }
  for (const k of unknown) {
    const leaf = k.slice(k.lastIndexOf("/") + 1);
    const misplaced = k.includes("/") && known.includes(leaf);
    const near = nearestNames(leaf, known, 1);
    problems.push(
      misplaced
        ? `unknown property "${k}": "${leaf}" belongs at the top level`
        : `unknown property "${k}"${
          near.length > 0 && !k.includes("/") ? ` (did you mean "${near[0]}"?)` : ""
        }`,
    );
  }
  const required = (tool.inputSchema["required"] as string[] | undefined) ?? [];
  throw new RecoverableError(
    "invalid_args",
    `Cannot call ${tool.name}: ${problems.slice(0, 5).join("; ") || "arguments do not match the schema"}`,
    {
      hint: `${tool.name} takes ${known.map((k) => required.includes(k) ? `${k} (required)` : k).join(", ")}`,
      details: { problems, schema: tool.inputSchema },
    },
  );
}

/** A failed call as the one error envelope every surface returns (refusals counted, bugs reported). */
function failure(tool: string, thrown: unknown, host: ToolHost): ToolResult & { ok: false } {
  // What the system refused (permission denied, a name too long, ...) is no bug: it says so.
  const err = isRecoverable(thrown)
    ? thrown
    : errnoError(thrown, { relOf: (p) => host.sandbox.relOf(p) }) ?? thrown;
  if (isRecoverable(err)) {
    err.caller ??= `graver.${tool}`;
    host.telemetry.counter("graver.tool.refusals", 1, { tool, code: err.code });
    return { ok: false, tool, error: err.toJSON(), reminders: [] };
  }
  const message = err instanceof Error ? err.message : String(err);
  host.telemetry.counter("graver.tool.internal_errors", 1, { tool });
  host.telemetry.event("graver.internal_error", { tool, message });
  return {
    ok: false,
    tool,
    error: {
      code: "internal",
      message: `Cannot complete ${tool}: ${message}`,
      hint:
        "This is a bug in graver; nothing was written. Retry once, then report it with the arguments used",
    },
    reminders: [],
  };
}

/**
 * Whether a JSON value nests at most `maxDepth` deep and holds at most `maxNodes` values, checked without
 * recursion: what an error may echo back (a mistyped tool name with 20,000 levels of arguments must not
 * overflow the stack of whoever serialises the refusal).
 */
function smallJson(value: unknown, maxDepth = 16, maxNodes = 2000): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let nodes = 0; stack.length > 0; nodes++) {
    const [v, depth] = stack.pop()!;
    if (nodes >= maxNodes || depth > maxDepth) return false;
    if (v !== null && typeof v === "object") {
      for (const child of Object.values(v)) stack.push([child, depth + 1]);
    }
  }
  return true;
}

function unknownTool(name: string, rawArgs: unknown): RecoverableError {
  const names = TOOLS.map((t) => t.name);
  const near = nearestNames(name, names, 3);
  return new RecoverableError(
    "not_found",
    `Cannot call "${name}": no such tool${near.length > 0 ? ` (did you mean ${near.join(", ")}?)` : ""}`,
    {
      hint: `Known tools: ${names.join(", ")}`,
      ...(near.length > 0
        ? {
          suggestedCall: {
            tool: near[0]!,
            args:
              rawArgs !== null && typeof rawArgs === "object" && !Array.isArray(rawArgs) && smallJson(rawArgs)
                ? rawArgs as Record<string, unknown>
                : {},
          },
        }
        : {}),
      details: { tools: names, did_you_mean: near },
    },
  );
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

/** What steps 1–5 of the pipeline leave for the finish. */
interface PipelineOutcome {
  call: CallInProgress;
  handled: HandlerResult;
  warnings: string[];
  pending: PendingChange[];
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
  const asked = call.args["syntax_guard"];
  return handled.syntaxGuard ??
    (asked === "refuse" || asked === "warn" || asked === "off" ? asked : host.syntaxGuard);
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
async function runPipeline(
  host: ToolHost,
  tool: ToolDefinition,
  rawArgs: unknown,
  stage: Stage,
  options: {
    session: string;
    explicitSession: boolean;
    readGuard?: ReadGuardMode | undefined;
    gate?: "off" | "warn" | "refuse" | undefined;
    dryRun: boolean;
    nested: boolean;
    onCall?: (call: CallInProgress) => void;
  },
): Promise<PipelineOutcome> {
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
    const out = await runPipeline(host, tool, rawArgs, stage, {
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
      result = await finish(host, tool, rawArgs, stage, options, (c) => call = c);
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

/** Runs of one edit, at most: the first, and four more while other writers keep moving its files. */
const MAX_ATTEMPTS = 5;

/** Kinds whose edit is placed on the text it finds (so it can be placed again), not written whole. */
const PLACED_KINDS: ReadonlySet<string> = new Set([
  "freeform_edit",
  "text_patch",
  "structural",
  "derived",
  "rewrite",
]);

/** Arguments by which a caller pins the version it edits: then a moved base is refused, never re-placed. */
const PINNING_ARGS = ["expected_version", "expected_hash", "ids"];

/**
 * The files another writer changed between this call's reads and its commit, when the call may simply run
 * again on the new bytes: an edit placed on text (not a whole-file write, a move or a deletion), whose caller
 * pinned no version. The next run places the edit on the new content, and is refused as any call would be
 * when it no longer matches exactly and uniquely — no update is lost either way. Null: nothing to redo.
 */
function movedUnpinned(tool: ToolDefinition, rawArgs: unknown, result: ToolResult): string[] | null {
  if (result.ok || result.error.code !== "stale_base" || result.error.details?.["phase"] !== "commit") {
    return null;
  }
  if (!tool.kind || !PLACED_KINDS.has(tool.kind)) return null;
  const args = typeof rawArgs === "object" && rawArgs !== null ? rawArgs as Record<string, unknown> : {};
  if (PINNING_ARGS.some((a) => args[a] !== undefined)) return null;
  const files = result.error.details?.["files"] as { path: string }[] | undefined;
  return files?.map((f) => f.path) ?? [];
}

/** What a result says when its edit was placed again after another writer changed its files. */
function placedAgainWarning(paths: readonly string[]): string {
  const names = [...new Set(paths)].map((p) => `"${p}"`).join(", ");
  return `Another writer changed ${names} while this call ran; the edit was placed again on the new content ` +
    "and landed (pass expected_version to be refused instead). Read the file again before your next edit there";
}

/** Record a top-level refusal as the `graver.refusal` event (tool, code, session: never arguments). */
function refused(result: ToolResult & { ok: false }, session: string, host: ToolHost): ToolResult {
  host.telemetry.event("graver.refusal", { tool: result.tool, code: result.error.code, session });
  return result;
}

/** Steps 1–6 of a top-level call: the pipeline, then commit or preview. */
async function finish(
  host: ToolHost,
  tool: ToolDefinition,
  rawArgs: unknown,
  stage: Stage,
  options: DispatchOptions,
  onCall: (call: CallInProgress) => void,
): Promise<ToolResult> {
  let current: CallInProgress | undefined;
  try {
    const out = await runPipeline(host, tool, rawArgs, stage, {
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
