/**
 * A failed call as dispatch answers it: the one error envelope every surface returns (a refusal counted, a
 * bug reported as `internal`), the refusal of an unknown tool with its nearest names, and the
 * `graver.refusal` event of a top-level refusal.
 *
 * @module
 */
import { errnoError, isRecoverable, RecoverableError } from "../errors.ts";
import { nearestNames } from "../fs/stage.ts";
import { TOOLS } from "./catalogue.ts";
import type { ToolHost, ToolResult } from "./types.ts";

/** A failed call as the one error envelope every surface returns (refusals counted, bugs reported). */
export function failure(tool: string, thrown: unknown, host: ToolHost): ToolResult & { ok: false } {
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

/** The refusal of a call to a tool that does not exist, naming the nearest tools and suggesting the first. */
export function unknownTool(name: string, rawArgs: unknown): RecoverableError {
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

/** Record a top-level refusal as the `graver.refusal` event (tool, code, session: never arguments). */
export function refused(result: ToolResult & { ok: false }, session: string, host: ToolHost): ToolResult {
  host.telemetry.event("graver.refusal", { tool: result.tool, code: result.error.code, session });
  return result;
}
