/**
 * What the CLI answers besides a command's own output: a tool result's exit code, the one JSON object on
 * stdout, and the usage error, unknown command and internal error, each one JSON object with its exit code.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { nearestNames } from "../fs/stage.ts";
import { describeTools } from "../tools/catalogue.ts";
import type { ToolResult } from "../tools/types.ts";
import { type CliHost, EXIT } from "./_cli_contract.ts";
import { cliCommand, cliCommandNames, usage } from "./_cli_registry.ts";

/**
 * The exit code of a tool result: 1 when not ok, 3 when ok but some blocks
 * failed and were skipped (`data.failed > 0`, as `apply_edits` with
 * `partial` reports), else 0.
 *
 * @param result A ToolResult.
 * @returns The exit code.
 */
export function exitCodeOf(result: ToolResult): number {
  if (!result.ok) return EXIT.failed;
  const failed = result.data["failed"];
  return typeof failed === "number" && failed > 0 ? EXIT.partial : EXIT.ok;
}

/**
 * Print one JSON object (two-space indented) on stdout.
 *
 * @param host The runtime.
 * @param value The object.
 */
export function printJson(host: CliHost, value: unknown): void {
  host.stdout(JSON.stringify(value, null, 2) + "\n");
}

/**
 * Answer a usage error: one `invalid_args` JSON object on stdout, the
 * synopsis on stderr, exit 2.
 *
 * @param host The runtime.
 * @param command The command word (or undefined for graver itself).
 * @param problem What is wrong (`message`, a sentence fragment), a hint instead of the default, and details.
 * @returns 2.
 */
export function usageError(
  host: CliHost,
  command: string | undefined,
  problem: { message: string; hint?: string; details?: Record<string, unknown> },
): number {
  const { message, ...options } = problem;
  const helpCmd = command ? `graver ${command} --help` : "graver --help";
  const error: Record<string, unknown> = {
    code: "invalid_args",
    message: `Cannot run ${command ? `graver ${command}` : "graver"}: ${message}`,
    hint: options.hint ?? `Run "${helpCmd}" for usage`,
  };
  if (options.details) error["details"] = options.details;
  printJson(host, { ok: false, error });
  const c = command ? cliCommand(command) : undefined;
  host.stderr(c ? `usage: graver ${c.synopsis}\n` : usage());
  return EXIT.usage;
}

/** Answer a command word nobody registered: a tool's name says how to call it; else the nearest commands. */
export function unknownCommand(host: CliHost, name: string): number {
  const tools = describeTools().map((t) => t.name);
  if (tools.includes(name)) {
    return usageError(host, undefined, {
      message: `unknown command "${name}": it is a tool`,
      hint: `Run it with: graver call ${name} '<json args>' (see "graver tools ${name}")`,
    });
  }
  const near = nearestNames(name, cliCommandNames(), 3);
  return usageError(host, undefined, {
    message: `unknown command "${name}"`,
    hint: near.length > 0
      ? `Did you mean ${near.map((n) => `"graver ${n}"`).join(", ")}? Run "graver --help" for usage`
      : `Run "graver --help" for usage`,
    details: { command: name, did_you_mean: near },
  });
}

/**
 * Answer what a command threw: a refusal as its JSON (exit 2 for `invalid_args`), anything else as an
 * `internal` bug.
 */
export function internalError(host: CliHost, command: string | undefined, err: unknown): number {
  if (err instanceof RecoverableError) {
    printJson(host, { ok: false, error: err.toJSON() });
    return err.code === "invalid_args" ? EXIT.usage : EXIT.failed;
  }
  printJson(host, {
    ok: false,
    error: {
      code: "internal",
      message: `Cannot run ${command ? `graver ${command}` : "graver"}: ${
        err instanceof Error ? err.message : String(err)
      }`,
      hint: "This is a bug in graver: report it with the command line that caused it",
    },
  });
  return EXIT.failed;
}
