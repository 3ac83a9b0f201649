/**
 * The CLI surface, runtime-neutral: parses argv, opens a workspace through
 * the injected host, calls dispatch and prints exactly one JSON object (or,
 * for `--help`, `--version` and human-readable modes, text).
 *
 * Exit codes ({@linkcode EXIT}): 0 ok, 1 refused or failed (nothing
 * written), 2 usage error (the JSON then has `error.code = "invalid_args"`),
 * 3 applied in part (some blocks failed and were skipped).
 *
 * @module
 */
import { nearestNames } from "../fs/stage.ts";
import { type CliHost, EXIT, VERSION } from "./_cli_contract.ts";
import { cliCommand, commandHelp, registerCliCommand, usage } from "./_cli_registry.ts";
import { parseFlags } from "./_cli_flags.ts";
import { openRoot } from "./_cli_workspace.ts";
import { internalError, unknownCommand, usageError } from "./_cli_answers.ts";

export {
  type CliCommand,
  type CliFlag,
  type CliHost,
  type CliInvocation,
  EXIT,
  VERSION,
} from "./_cli_contract.ts";
export { commandHelp, registerCliCommand, usage } from "./_cli_registry.ts";
export { type ParsedFlags, parseFlags } from "./_cli_flags.ts";
export {
  compassFlagOptions,
  maxCheckpointsFlag,
  openRoot,
  resolveRoot,
  WORKSPACE_FLAGS,
} from "./_cli_workspace.ts";
export { exitCodeOf, printJson, usageError } from "./_cli_answers.ts";

registerCliCommand({
  name: "help",
  synopsis: "help [COMMAND]",
  summary: "Show the usage of graver or of one command",
  details: "",
  flags: {},
  maxPositional: 1,
  run({ positional, host }) {
    const [name] = positional;
    if (name === undefined) host.stdout(usage());
    else {
      const text = commandHelp(name);
      if (text === undefined) return Promise.resolve(unknownCommand(host, name));
      host.stdout(text);
    }
    return Promise.resolve(EXIT.ok);
  },
});

/**
 * Run the CLI. Every failure is one JSON object on stdout with the
 * documented exit code, never a stack trace.
 *
 * @param argv Arguments after the program name.
 * @param host Runtime services.
 * @returns The exit code.
 */
export async function runCli(argv: string[], host: CliHost): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined) return usageError(host, undefined, { message: "missing command" });
    if (command === "--help" || command === "-h") {
      host.stdout(usage());
      return EXIT.ok;
    }
    if (command === "--version" || command === "-V") {
      host.stdout(`graver ${VERSION}\n`);
      return EXIT.ok;
    }
    const c = cliCommand(command);
    if (!c) {
      if (command.startsWith("-")) {
        const near = nearestNames(command.replace(/^--?/, ""), ["help", "version"], 2);
        return usageError(host, undefined, {
          message: `unknown option "${command}"${
            near.length > 0 ? ` (did you mean ${near.map((n) => `"--${n}"`).join(" or ")}?)` : ""
          }: options follow the command`,
        });
      }
      return unknownCommand(host, command);
    }
    const spec = Object.fromEntries(Object.entries(c.flags).map(([n, f]) => [n, f.kind]));
    const shorts = Object.fromEntries(
      Object.entries(c.flags).flatMap(([n, f]) => f.short ? [[f.short, n]] : []),
    );
    const parsed = parseFlags(rest, spec, { shorts, foreign: c.foreign });
    if (parsed.help) {
      host.stdout(commandHelp(c.name)!);
      return EXIT.ok;
    }
    if (parsed.error) return usageError(host, c.name, { message: parsed.error });
    if (parsed.rest.length > c.maxPositional) {
      const extra = parsed.rest.slice(c.maxPositional);
      return usageError(host, c.name, {
        message: `unexpected argument${extra.length > 1 ? "s" : ""} ${
          extra.map((a) => JSON.stringify(a)).join(", ")
        }: usage is graver ${c.synopsis}`,
        hint: c.name === "call"
          ? `Quote the JSON args as one argument, e.g. '{"path": "a.ts"}', or pass "-" and send them on stdin`
          : `Run "graver ${c.name} --help" for usage`,
        details: { unexpected: extra },
      });
    }
    return await c.run({
      flags: parsed.flags,
      values: parsed.values,
      counts: parsed.counts,
      order: parsed.order,
      positional: parsed.rest,
      host,
      open: (root, options) => openRoot(host, root, { flags: parsed.flags, ...options }),
    });
  } catch (err) {
    return internalError(host, command, err);
  }
}
