/**
 * dispatch: the one chokepoint every surface calls. Validate args against the
 * tool's JSON Schema -> (compass router, guards: hooks for later) -> handler
 * on a fresh stage -> syntax guard -> atomic commit -> one result object.
 *
 * @module
 */
import { Validator } from "@cfworker/json-schema";
import { isRecoverable, RecoverableError } from "../errors.ts";
import { commitChanges, type CommittedChange } from "../fs/commit.ts";
import { nearestNames, Stage } from "../fs/stage.ts";
import { unifiedDiff } from "../fs/unified_diff.ts";
import { versionOf } from "../fs/version.ts";
import { guardSyntax } from "../syntax/syntax_guard.ts";
import { findTool, TOOLS } from "./catalogue.ts";
import type { ToolDefinition, ToolHost, ToolResult } from "./types.ts";

/** Per-call options. */
export interface DispatchOptions {
  /** Session id (default "default"). */
  session?: string;
  /** Force a dry run regardless of args. */
  dryRun?: boolean;
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

/** Validate args; throws `invalid_args` naming each problem and the expected shape. */
export function validateArgs(tool: ToolDefinition, args: unknown): Record<string, unknown> {
  if (args === undefined || args === null) args = {};
  if (typeof args !== "object" || Array.isArray(args)) {
    throw new RecoverableError("invalid_args", `Cannot call ${tool.name}: arguments must be a JSON object`, {
      hint: `Pass one object with the properties ${schemaProperties(tool).join(", ")}`,
      details: { schema: tool.inputSchema },
    });
  }
  const result = validator(tool).validate(args);
  if (result.valid) return args as Record<string, unknown>;
  const known = schemaProperties(tool);
  const problems: string[] = [];
  const unknown = new Set(Object.keys(args as object).filter((k) => !known.includes(k)));
  for (const e of result.errors) {
    const at = e.instanceLocation.replace(/^#\/?/, "");
    if (e.keyword === "false" && at.includes("/")) unknown.add(at); // an unknown property of a nested object
    if (e.keyword === "properties" || e.keyword === "false" || e.keyword === "additionalProperties") continue;
    problems.push(`${at || "(args)"}: ${e.error}`);
  }
  for (const k of unknown) {
    const leaf = k.slice(k.lastIndexOf("/") + 1);
    const misplaced = k.includes("/") && known.includes(leaf);
    problems.push(
      misplaced ? `unknown property "${k}": "${leaf}" belongs at the top level` : `unknown property "${k}"`,
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

function failure(tool: string, err: unknown, ws: ToolHost): ToolResult {
  if (isRecoverable(err)) {
    err.caller ??= `graver.${tool}`;
    ws.telemetry.counter("graver.tool.refusals", 1, { tool, code: err.code });
    return { ok: false, tool, error: err.toJSON(), reminders: [] };
  }
  const message = err instanceof Error ? err.message : String(err);
  ws.telemetry.counter("graver.tool.internal_errors", 1, { tool });
  ws.telemetry.event("graver.internal_error", { tool, message });
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

async function previewChanges(
  stage: Stage,
  renames: Map<string, string> | undefined,
): Promise<CommittedChange[]> {
  const pending = stage.changes();
  const renamedFrom = new Set(renames?.values() ?? []);
  const out: CommittedChange[] = [];
  for (const c of pending) {
    if (c.after === null && renamedFrom.has(c.path)) continue;
    const fromPath = renames?.get(c.path);
    const before = fromPath ? pending.find((p) => p.path === fromPath)?.before ?? null : c.before;
    out.push({
      path: c.path,
      before_version: c.baseVersion,
      after_version: c.after === null ? null : await versionOf(c.after),
      diff: unifiedDiff(c.path, before, c.after, fromPath ? { fromPath } : {}),
    });
  }
  return out;
}

/**
 * Run one tool call. Never throws: every outcome is a {@linkcode ToolResult}.
 *
 * @param ws The workspace.
 * @param name Tool name.
 * @param rawArgs The args object.
 * @param options Session and dry run.
 * @returns The result envelope.
 */
export async function dispatch(
  ws: ToolHost,
  name: string,
  rawArgs: unknown,
  options: DispatchOptions = {},
): Promise<ToolResult> {
  const tool = findTool(name);
  ws.telemetry.counter("graver.tool.calls", 1, { tool: name }); // every call, unknown tools included
  if (!tool) {
    const names = TOOLS.map((t) => t.name);
    const near = nearestNames(name, names, 3);
    return failure(
      name,
      new RecoverableError(
        "not_found",
        `Cannot call "${name}": no such tool${near.length > 0 ? ` (did you mean ${near.join(", ")}?)` : ""}`,
        {
          hint: `Known tools: ${names.join(", ")}`,
          ...(near.length > 0
            ? {
              suggestedCall: {
                tool: near[0]!,
                args: rawArgs !== null && typeof rawArgs === "object" && !Array.isArray(rawArgs)
                  ? rawArgs as Record<string, unknown>
                  : {},
              },
            }
            : {}),
          details: { tools: names, did_you_mean: near },
        },
      ),
      ws,
    );
  }
  const stage = new Stage(ws.fs, ws.sandbox);
  try {
    const args = validateArgs(tool, rawArgs);
    const dryRun = options.dryRun === true || tool.previewOnly === true ||
      (tool.mutates && args["dry_run"] === true);
    // 2./3. compass router and guards hook in here (later issues).
    const handled = await tool.handler(args, {
      workspace: ws,
      stage,
      session: options.session ?? "default",
      dryRun,
    });
    const warnings = [...(handled.warnings ?? [])];
    const pending = stage.changes();
    if (!handled.skipSyntaxCheck) {
      warnings.push(...await guardSyntax(ws, name, pending, handled.syntaxGuard ?? ws.syntaxGuard));
    }
    let changes: CommittedChange[];
    if (dryRun) {
      changes = await previewChanges(stage, handled.renames);
    } else {
      const commitOptions = handled.renames ? { renames: handled.renames, lock: ws.lock } : { lock: ws.lock };
      changes = await commitChanges(ws.fs, ws.sandbox, pending, commitOptions);
      if (changes.length > 0) {
        ws.telemetry.counter("graver.commit.files", changes.length, { tool: name });
        ws.telemetry.event("graver.commit", { tool: name, files: changes.length });
      }
    }
    const status = !tool.mutates
      ? "read"
      : changes.length === 0
      ? "no_change"
      : dryRun
      ? "dry_run"
      : "applied";
    return { ok: true, tool: name, status, changes, data: handled.data ?? {}, warnings, reminders: [] };
  } catch (err) {
    return failure(name, err, ws);
  } finally {
    stage.discard();
  }
}
