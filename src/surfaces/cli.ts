/**
 * The CLI surface, runtime-neutral: parses argv, opens a workspace through
 * the injected host, calls dispatch and prints exactly one JSON object.
 * Exit codes: 0 ok, 1 refused or failed (nothing written), 2 usage error.
 *
 * @module
 */
import type { Backend } from "../fs/backend.ts";
import type { WasmLoader } from "../syntax/grammars.ts";
import { describeTools } from "../tools/catalogue.ts";
import type { ToolResult } from "../tools/types.ts";
import { createWorkspace, type Workspace } from "../workspace.ts";

/** What the CLI needs from its runtime (built by an adapter entry). */
export interface CliHost {
  /** Write to stdout. */
  stdout(text: string): void;
  /** Write to stderr. */
  stderr(text: string): void;
  /** Read all of stdin. */
  readStdin(): Promise<string>;
  /** Read a host file (outside any workspace), for `apply FILE`. */
  readHostFile(path: string): Promise<string>;
  /** The current directory (absolute posix). */
  cwd: string;
  /** The disk backend. */
  backend: Backend;
  /** Wasm for grammars. */
  wasm: WasmLoader;
}

/** A subcommand: receives the remaining argv and the open-workspace helper. */
export type CliCommand = (
  argv: string[],
  host: CliHost,
  open: (root: string | undefined) => Promise<Workspace>,
) => Promise<number>;

const EXTRA_COMMANDS = new Map<string, { usage: string; run: CliCommand }>();

/** Register a subcommand (used by engines that add `graver apply` etc.). */
export function registerCliCommand(name: string, usage: string, run: CliCommand): void {
  EXTRA_COMMANDS.set(name, { usage, run });
}

/** The usage text. */
export function usage(): string {
  const extra = [...EXTRA_COMMANDS.values()].map((c) => `  ${c.usage}\n`).join("");
  return `graver — sandboxed, hash-guarded edits for coding agents

usage:
  graver call <tool> '<json args>' [--root DIR] [--session ID] [--dry-run]
  graver tools [--json]
${extra}
exit codes: 0 ok, 1 refused or failed (nothing written), 2 usage error
`;
}

/** Split `--flag value` options out of argv. */
export function parseFlags(
  argv: string[],
  spec: Record<string, "string" | "boolean">,
): { flags: Record<string, string | boolean>; rest: string[]; error?: string } {
  const flags: Record<string, string | boolean> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith("--") || a === "--") {
      rest.push(a);
      continue;
    }
    const [name, inline] = a.slice(2).split("=", 2) as [string, string | undefined];
    const kind = spec[name];
    if (!kind) return { flags, rest, error: `unknown option "--${name}"` };
    if (kind === "boolean") flags[name] = true;
    else {
      const value = inline ?? argv[++i];
      if (value === undefined) return { flags, rest, error: `option "--${name}" needs a value` };
      flags[name] = value;
    }
  }
  return { flags, rest };
}

/** Resolve `--root` against the host cwd to an absolute posix path. */
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

function printJson(host: CliHost, value: unknown): void {
  host.stdout(JSON.stringify(value, null, 2) + "\n");
}

function usageError(host: CliHost, message: string): number {
  printJson(host, {
    ok: false,
    error: {
      code: "invalid_args",
      message: `Cannot run graver: ${message}`,
      hint: "Run graver --help for usage",
    },
  });
  host.stderr(usage());
  return 2;
}

/**
 * Run the CLI.
 *
 * @param argv Arguments after the program name.
 * @param host Runtime services.
 * @returns The exit code.
 */
export async function runCli(argv: string[], host: CliHost): Promise<number> {
  const [command, ...rest] = argv;
  const open = (root: string | undefined) =>
    createWorkspace({ backend: host.backend, root: resolveRoot(host.cwd, root), wasm: host.wasm });
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    host.stdout(usage());
    return command === undefined ? 2 : 0;
  }
  if (command === "tools") {
    const { flags, error } = parseFlags(rest, { json: "boolean" });
    if (error) return usageError(host, error);
    const tools = describeTools();
    if (flags["json"]) printJson(host, tools);
    else for (const t of tools) host.stdout(`${t.name.padEnd(24)} ${t.description}\n`);
    return 0;
  }
  if (command === "call") {
    const { flags, rest: positional, error } = parseFlags(rest, {
      root: "string",
      session: "string",
      "dry-run": "boolean",
    });
    if (error) return usageError(host, error);
    const [tool, json] = positional;
    if (!tool) return usageError(host, "missing tool name");
    let args: unknown = {};
    if (json !== undefined) {
      try {
        args = JSON.parse(json === "-" ? await host.readStdin() : json);
      } catch (err) {
        return usageError(host, `args are not valid JSON (${err instanceof Error ? err.message : err})`);
      }
    }
    const ws = await open(flags["root"] as string | undefined);
    const options: { session?: string; dryRun?: boolean } = {};
    if (typeof flags["session"] === "string") options.session = flags["session"];
    if (flags["dry-run"]) options.dryRun = true;
    const result: ToolResult = await ws.call(tool, args, options);
    printJson(host, result);
    return result.ok ? 0 : 1;
  }
  const extra = EXTRA_COMMANDS.get(command);
  if (extra) return await extra.run(rest, host, open);
  return usageError(host, `unknown command "${command}"`);
}
