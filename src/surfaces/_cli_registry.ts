/**
 * The registered `graver` commands and their help texts: a command registers itself at load, and `graver
 * --help`, `graver help NAME` and a usage error's synopsis are written from what it registered.
 *
 * @module
 */
import { type CliCommand, VERSION } from "./_cli_contract.ts";
import { maxOf } from "../arrays.ts";

const COMMANDS = new Map<string, CliCommand>();

/**
 * Register a subcommand (engines add theirs, e.g. `graver apply`). Its
 * options are parsed, `--help` answered and extra arguments refused before
 * `run` is called.
 *
 * @param command The command.
 */
export function registerCliCommand(command: CliCommand): void {
  COMMANDS.set(command.name, command);
}

/**
 * The registered command of that word.
 *
 * @param name A command word.
 * @returns The command, or undefined when none has that name.
 */
export function cliCommand(name: string): CliCommand | undefined {
  return COMMANDS.get(name);
}

/** The words of every registered command, in the order they registered. */
export function cliCommandNames(): string[] {
  return [...COMMANDS.keys()];
}

/** The usage text of `graver --help`. */
export function usage(): string {
  // "help" last: it is about the others.
  const commands = [...COMMANDS.values()].sort((a, b) =>
    Number(a.name === "help") - Number(b.name === "help")
  );
  const width = maxOf(commands.map((c) => c.name.length));
  const list = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}\n`).join("");
  const synopses = commands.filter((c) => c.name !== "help").map((c) => `  graver ${c.synopsis}\n`)
    .join("");
  return `graver ${VERSION} — sandboxed, hash-guarded edits for coding agents

usage:
${synopses}  graver help [COMMAND]      (or COMMAND --help)
  graver --version

commands:
${list}
exit codes: 0 ok, 1 refused or failed (nothing written), 2 usage error, 3 applied in part
`;
}

/**
 * The help text of one command.
 *
 * @param name A registered command.
 * @returns The text, or undefined for an unknown command.
 */
export function commandHelp(name: string): string | undefined {
  const c = COMMANDS.get(name);
  if (!c) return undefined;
  const rows: [string, string][] = Object.entries(c.flags).map(([n, f]) => [
    `--${n}${f.value ? f.kind === "optional" || f.kind === "switch" ? `[=${f.value}]` : ` ${f.value}` : ""}`,
    f.help,
  ]);
  rows.push(["--help", "this text"]);
  const width = maxOf(rows.map(([l]) => l.length));
  const flags = rows.map(([l, h]) => `  ${l.padEnd(width)}  ${h}\n`).join("");
  return `usage: graver ${c.synopsis}

${c.summary}

${c.details.trim()}

options:
${flags}
exit codes: 0 ok, 1 refused or failed (nothing written), 2 usage error, 3 applied in part
`;
}
