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
import denoJson from "../../deno.json" with { type: "json" };
import { RecoverableError } from "../errors.ts";
import { errnoCode } from "../fs/backend.ts";
import type { Backend } from "../fs/backend.ts";
import { nearestNames } from "../fs/stage.ts";
import type { WasmLoader } from "../syntax/grammars.ts";
import { describeTools } from "../tools/catalogue.ts";
import type { ToolResult } from "../tools/types.ts";
import { createWorkspace, type Workspace, type WorkspaceOptions } from "../workspace.ts";

/** graver's version (from `deno.json`). */
export const VERSION: string = denoJson.version;

/** The documented exit codes. */
export const EXIT = {
  /** The call succeeded. */
  ok: 0,
  /** The call was refused or failed: nothing was written. */
  failed: 1,
  /** Usage error: unknown command or option, bad arguments, a root that is not a directory. */
  usage: 2,
  /** Applied in part: ok, but some blocks (or plan steps) failed and were skipped (`data.failed > 0`). */
  partial: 3,
} as const;

/** What the CLI needs from its runtime (built by an adapter entry). */
export interface CliHost {
  /** Write to stdout. */
  stdout(text: string): void;
  /** Write to stderr. */
  stderr(text: string): void;
  /** Read all of stdin. */
  readStdin(): Promise<string>;
  /**
   * stdin as bytes as they arrive (`graver apply - --stream` reads a model's output while it is written).
   * Absent: a stream reads all of stdin first, then feeds it line by line.
   */
  stdinStream?(): ReadableStream<Uint8Array>;
  /** Read a host file (outside any workspace), for `apply FILE`. */
  readHostFile(path: string): Promise<string>;
  /** The current directory (absolute posix). */
  cwd: string;
  /** The disk backend. */
  backend: Backend;
  /** Wasm for grammars. */
  wasm: WasmLoader;
  /** Colour human output: stdout is a terminal and `NO_COLOR` is unset (the adapter decides; default false). */
  color?: boolean;
  /** Show progress lines: stderr is a terminal (default false). */
  progress?: boolean;
  /** How long work runs before its progress line appears, in ms (default 400). */
  progressDelayMs?: number;
}

/** One option of a command. */
export interface CliFlag {
  /** `string` takes a value (`--root DIR` or `--root=DIR`); `boolean` takes none. */
  kind: "string" | "boolean";
  /** The value's placeholder in help, e.g. `"DIR"` (string options). */
  value?: string;
  /** One line for `--help`, e.g. `"the workspace root (default: the current directory)"`. */
  help: string;
  /** A one-letter form, e.g. `"i"` for `-i` (boolean ones may be grouped: `-iw`; a value may follow: `-A3`). */
  short?: string;
}

/** The options every workspace command takes: `--root`, `--session`, `--guard`, `--gate`, the compass's and `--events`. */
export const WORKSPACE_FLAGS: Readonly<
  Record<
    | "root"
    | "session"
    | "guard"
    | "gate"
    | "compass"
    | "persona"
    | "events"
    | "checkpoints"
    | "no-checkpoints"
    | "max-checkpoints",
    CliFlag
  >
> = {
  root: {
    kind: "string",
    value: "DIR",
    help: "the workspace root, an existing directory (default: the current one)",
  },
  session: {
    kind: "string",
    value: "ID",
    help: "a session: its read ledger persists in .graver/sessions/ID.json and guards its edits",
  },
  guard: {
    kind: "string",
    value: "MODE",
    help: "the read guard: off, warn or refuse (needs --session; default refuse for call, off for apply)",
  },
  gate: {
    kind: "string",
    value: "MODE",
    help:
      "the definition gate on freeform edits: off, warn or refuse (default refuse with --session for call, else off)",
  },
  compass: {
    kind: "string",
    value: "MODE",
    help:
      "route freeform edits of code: off (default here), suggest (a reminder naming the structural tool) or rewrite",
  },
  persona: {
    kind: "string",
    value: "NAME",
    help: "use .graver/personas/NAME.json (edit_strategy.prefer, reminders)",
  },
  events: {
    kind: "boolean",
    help: "print events (compass_routing_decision, graver.commit …) as JSON lines on stderr",
  },
  checkpoints: {
    kind: "boolean",
    help:
      "record each applied edit as a checkpoint in .graver/checkpoints/ (graver undo reverts it; on by default with --session)",
  },
  "no-checkpoints": {
    kind: "boolean",
    help: "record no checkpoints, even with --session",
  },
  "max-checkpoints": {
    kind: "string",
    value: "N",
    help: "keep at most N checkpoints, pruning the oldest past it (default 200)",
  },
};

/** What a command's `run` receives. */
export interface CliInvocation {
  /** Parsed options by name (without `--`); a string option given twice holds its last value. */
  flags: Record<string, string | boolean>;
  /** Every value of each string option, in order (for options that may repeat, e.g. `-g A -g B`). */
  values: Record<string, string[]>;
  /** Positional arguments. */
  positional: string[];
  /** The runtime. */
  host: CliHost;
  /** Open the workspace at `--root` (resolved against the cwd; refused unless it is an existing directory). */
  open(root: string | undefined): Promise<Workspace>;
}

/** A subcommand of `graver`. */
export interface CliCommand {
  /** The command word. */
  name: string;
  /** The synopsis after `graver `, e.g. `"apply [FILE|-] [--root DIR]"`. */
  synopsis: string;
  /** One line for the command list. */
  summary: string;
  /** More paragraphs for `graver help NAME`. */
  details: string;
  /** Its options (`--help` is implied). */
  flags: Record<string, CliFlag>;
  /** At most this many positional arguments; more are refused, naming them. */
  maxPositional: number;
  /** Run it and return the exit code. */
  run(invocation: CliInvocation): Promise<number>;
}

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

/** The usage text of `graver --help`. */
export function usage(): string {
  // "help" last: it is about the others.
  const commands = [...COMMANDS.values()].sort((a, b) =>
    Number(a.name === "help") - Number(b.name === "help")
  );
  const width = Math.max(...commands.map((c) => c.name.length));
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
    `--${n}${f.value ? ` ${f.value}` : ""}`,
    f.help,
  ]);
  rows.push(["--help", "this text"]);
  const width = Math.max(...rows.map(([l]) => l.length));
  const flags = rows.map(([l, h]) => `  ${l.padEnd(width)}  ${h}\n`).join("");
  return `usage: graver ${c.synopsis}

${c.summary}

${c.details.trim()}

options:
${flags}
exit codes: 0 ok, 1 refused or failed (nothing written), 2 usage error, 3 applied in part
`;
}

/** The result of {@linkcode parseFlags}. */
export interface ParsedFlags {
  /** Options by name. */
  flags: Record<string, string | boolean>;
  /** Every value of each string option, in order. */
  values: Record<string, string[]>;
  /** Positional arguments (everything after `--` included). */
  rest: string[];
  /** Whether `--help` or `-h` was given. */
  help: boolean;
  /** The first problem, as a sentence fragment. */
  error?: string;
}

/**
 * Split `--flag value` / `--flag=value` options out of argv. An unknown
 * option is an error with the nearest known ones; `--` ends the options.
 *
 * @example Values may contain "="
 * ```ts
 * import { parseFlags } from "./cli.ts";
 * import assert from "node:assert/strict";
 *
 * const { flags, rest } = parseFlags(["--root=/tmp/a=b", "x"], { root: "string" });
 * assert.equal(flags["root"], "/tmp/a=b");
 * assert.deepEqual(rest, ["x"]);
 * assert.match(parseFlags(["--rot", "d"], { root: "string" }).error!, /did you mean "--root"/);
 * ```
 *
 * @param argv Arguments.
 * @param spec Option name -> kind.
 * @param shorts One-letter forms: letter -> option name.
 * @returns Options, positionals, `--help`, and the first error.
 */
export function parseFlags(
  argv: string[],
  spec: Record<string, "string" | "boolean">,
  shorts: Readonly<Record<string, string>> = {},
): ParsedFlags {
  const out: ParsedFlags = { flags: {}, values: {}, rest: [], help: false };
  const setValue = (name: string, value: string) => {
    out.flags[name] = value;
    (out.values[name] ??= []).push(value);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      out.rest.push(...argv.slice(i + 1));
      break;
    }
    if (a === "--help" || a === "-h") {
      out.help = true;
      continue;
    }
    if (!a.startsWith("-") || a === "-") {
      out.rest.push(a);
      continue;
    }
    if (!a.startsWith("--") && shorts[a[1]!] !== undefined) {
      i = parseShort(argv, i, { spec, shorts, out, setValue });
      continue;
    }
    const body = a.replace(/^--?/, "");
    const eq = body.indexOf("=");
    const name = eq === -1 ? body : body.slice(0, eq);
    const inline = eq === -1 ? undefined : body.slice(eq + 1);
    const kind = spec[name];
    if (!kind || !a.startsWith("--")) {
      const near = nearestNames(name, Object.keys(spec), 2);
      out.error ??= `unknown option "${a.startsWith("--") ? "--" : "-"}${name}"${
        near.length > 0 ? ` (did you mean ${near.map((n) => `"--${n}"`).join(" or ")}?)` : ""
      }`;
      continue;
    }
    if (kind === "boolean") {
      if (inline !== undefined) out.error ??= `option "--${name}" takes no value (got "${inline}")`;
      else out.flags[name] = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) out.error ??= `option "--${name}" needs a value`;
    else setValue(name, value);
  }
  return out;
}

/**
 * One argument of one-letter options: `-i`, a group of boolean ones (`-iw`), or one taking a value, attached
 * (`-A3`) or next (`-A 3`).
 *
 * @returns The index of the last argument it used.
 */
function parseShort(
  argv: string[],
  at: number,
  ctx: {
    spec: Record<string, "string" | "boolean">;
    shorts: Readonly<Record<string, string>>;
    out: ParsedFlags;
    setValue: (name: string, value: string) => void;
  },
): number {
  const letters = argv[at]!.slice(1);
  for (let k = 0; k < letters.length; k++) {
    const name = ctx.shorts[letters[k]!];
    if (name === undefined) {
      ctx.out.error ??= `unknown option "-${letters[k]}" in "${argv[at]}"`;
      return at;
    }
    if (ctx.spec[name] === "boolean") {
      ctx.out.flags[name] = true;
      continue;
    }
    const attached = letters.slice(k + 1);
    const value = attached !== "" ? attached : argv[at + 1];
    if (value === undefined) ctx.out.error ??= `option "-${letters[k]}" needs a value`;
    else ctx.setValue(name, value);
    return attached !== "" ? at : at + 1;
  }
  return at;
}

/**
 * Resolve `--root` against the host cwd to an absolute posix path.
 *
 * @param cwd The current directory (absolute posix).
 * @param root The `--root` value, if any.
 * @returns The absolute path.
 */
export function resolveRoot(cwd: string, root: string | undefined): string {
  if (root === undefined) return cwd;
  if (root.startsWith("/")) return root;
  const parts = cwd.split("/").filter(Boolean);
  for (const seg of root.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") parts.pop();
    else parts.push(seg);
  }
  return "/" + parts.join("/");
}

/**
 * Open the workspace at `root` on the host's disk, refusing (`invalid_args`)
 * a root that does not exist or is not a directory: graver never creates it.
 *
 * @param host The runtime.
 * @param root The `--root` value, if any.
 * @returns The workspace.
 */
export async function openRoot(
  host: CliHost,
  root: string | undefined,
  flags: Record<string, string | boolean> = {},
): Promise<Workspace> {
  const path = resolveRoot(host.cwd, root);
  const shown = root ?? path;
  const where = root !== undefined && path !== root ? ` (resolved to "${path}")` : "";
  let isDir: boolean;
  try {
    isDir = (await host.backend.stat(path)).isDirectory();
  } catch (err) {
    const code = errnoCode(err);
    const reason = code === "ENOENT" || code === "ENOTDIR"
      ? "no such directory"
      : `cannot stat it (${err instanceof Error ? err.message : String(err)})`;
    throw new RecoverableError("invalid_args", `Cannot open root "${shown}": ${reason}${where}`, {
      hint: "Pass --root an existing directory (check the spelling); graver never creates the root",
      details: { root: shown, resolved: path },
    });
  }
  if (!isDir) {
    const parent = path.slice(0, path.lastIndexOf("/")) || "/";
    throw new RecoverableError("invalid_args", `Cannot open root "${shown}": it is a file, not a directory`, {
      hint: `Pass --root the directory to work in (e.g. "${parent}") and the file's path in the tool's args`,
      details: { root: shown, resolved: path },
    });
  }
  return await createWorkspace({
    backend: host.backend,
    root: path,
    wasm: host.wasm,
    ...workspaceFlags(host, flags),
  });
}

/**
 * The compass options `--compass MODE` and `--persona NAME` ask for; every command that opens a workspace
 * reads them the same way.
 *
 * @param flags Parsed options.
 * @returns `{ compass }`, or nothing when neither flag is given.
 * @throws RecoverableError `invalid_args` for an unknown mode.
 */
export function compassFlagOptions(flags: Record<string, string | boolean>): Partial<WorkspaceOptions> {
  const [mode, persona] = [flags["compass"], flags["persona"]];
  if (mode !== undefined && mode !== "off" && mode !== "suggest" && mode !== "rewrite") {
    throw new RecoverableError("invalid_args", `Cannot use --compass ${JSON.stringify(mode)}`, {
      hint: "Pass --compass off, suggest or rewrite",
      details: { flag: "compass", value: mode },
    });
  }
  if (typeof mode !== "string" && typeof persona !== "string") return {};
  return {
    compass: {
      ...(typeof mode === "string" ? { mode } : {}),
      ...(typeof persona === "string" ? { persona } : {}),
    },
  };
}

/**
 * The workspace option `--max-checkpoints N` asks for.
 *
 * @param flags Parsed flags.
 * @returns `{ maxCheckpoints }`, or nothing when the flag is absent.
 * @throws RecoverableError `invalid_args` when N is not a whole number of at least 1.
 */
export function maxCheckpointsFlag(flags: Record<string, string | boolean>): Partial<WorkspaceOptions> {
  const value = flags["max-checkpoints"];
  if (value === undefined) return {};
  const n = Number(value);
  if (typeof value !== "string" || !/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
    throw new RecoverableError("invalid_args", `Cannot use --max-checkpoints ${JSON.stringify(value)}`, {
      hint: "Pass --max-checkpoints N with N a whole number of at least 1 (default 200)",
      details: { flag: "max-checkpoints", value },
    });
  }
  return { maxCheckpoints: n };
}

/** The workspace options `--compass`, `--persona`, `--checkpoints` and `--events` ask for. */
function workspaceFlags(host: CliHost, flags: Record<string, string | boolean>): Partial<WorkspaceOptions> {
  const out: Partial<WorkspaceOptions> = { ...compassFlagOptions(flags), ...maxCheckpointsFlag(flags) };
  // A session is an agent's: undo is on for it unless turned off, as agents expect.
  const session = typeof flags["session"] === "string";
  if (flags["no-checkpoints"] !== true && (flags["checkpoints"] === true || session)) out.checkpoints = true;
  if (flags["events"] === true) {
    out.telemetry = {
      counter() {},
      event: (name, attributes) => host.stderr(JSON.stringify({ event: name, ...attributes }) + "\n"),
    };
  }
  return out;
}

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
  const c = command ? COMMANDS.get(command) : undefined;
  host.stderr(c ? `usage: graver ${c.synopsis}\n` : usage());
  return EXIT.usage;
}

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

function unknownCommand(host: CliHost, name: string): number {
  const tools = describeTools().map((t) => t.name);
  if (tools.includes(name)) {
    return usageError(host, undefined, {
      message: `unknown command "${name}": it is a tool`,
      hint: `Run it with: graver call ${name} '<json args>' (see "graver tools ${name}")`,
    });
  }
  const near = nearestNames(name, [...COMMANDS.keys()], 3);
  return usageError(host, undefined, {
    message: `unknown command "${name}"`,
    hint: near.length > 0
      ? `Did you mean ${near.map((n) => `"graver ${n}"`).join(", ")}? Run "graver --help" for usage`
      : `Run "graver --help" for usage`,
    details: { command: name, did_you_mean: near },
  });
}

function internalError(host: CliHost, command: string | undefined, err: unknown): number {
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
    const c = COMMANDS.get(command);
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
    const parsed = parseFlags(rest, spec, shorts);
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
      positional: parsed.rest,
      host,
      open: (root) => openRoot(host, root, parsed.flags),
    });
  } catch (err) {
    return internalError(host, command, err);
  }
}
