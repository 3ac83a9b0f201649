/** Running the real CLI in tests: in process (runCli with a recording host on the real disk) or as a process. @module */
import type { MatchPool } from "../../../src/structural/search/match_pool.ts";
import { createDiskBackend, createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { runCli } from "../../../src/surfaces/cli.ts";
import "../../../src/surfaces/cli_commands.ts";

/** What a run printed and returned. */
export interface CliRun {
  /** Exit code. */
  code: number;
  /** Everything written to stdout. */
  stdout: string;
  /** Everything written to stderr. */
  stderr: string;
}

/** runCli with a host that records its output; `color` and `progress` say what a terminal would. */
export async function inProcess(
  args: string[],
  options: {
    cwd?: string;
    stdin?: string;
    color?: boolean;
    progress?: boolean;
    matchPool?: () => Promise<MatchPool>;
  } = {},
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    stdout: (t) => stdout += t,
    stderr: (t) => stderr += t,
    readStdin: () => Promise.resolve(options.stdin ?? ""),
    // As the Deno adapter reads a host file: through the disk backend, which never opens a FIFO or device.
    readHostFile: async (p) => {
      const bytes = await createDiskBackend().readFile(p);
      return typeof bytes === "string" ? bytes : new TextDecoder().decode(bytes);
    },
    cwd: options.cwd ?? "/",
    backend: createDiskBackend(),
    wasm: createWasmLoader(),
    color: options.color ?? false,
    progress: options.progress ?? false,
    progressDelayMs: 0,
    ...(options.matchPool ? { matchPool: options.matchPool } : {}),
  });
  return { code, stdout, stderr };
}

const CLI = new URL("../../../src/adapters/deno/cli.ts", import.meta.url).pathname;

/** The CLI as a real process (stdout and stderr piped, so not terminals). */
export async function subprocess(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<CliRun> {
  const env = { ...Deno.env.toObject(), NO_COLOR: "", FORCE_COLOR: "", ...options.env };
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, ...args],
    cwd: options.cwd ?? "/",
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** A temporary project holding copies of real files (tests/fixtures paths -> project paths). */
export async function project(
  files: Record<string, string>,
  extra: Record<string, string> = {},
): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "graver-cli-" });
  for (const [to, from] of Object.entries(files)) {
    const target = `${dir}/${to}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    await Deno.copyFile(new URL(`../../${from}`, import.meta.url), target);
  }
  for (const [to, text] of Object.entries(extra)) {
    const target = `${dir}/${to}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(target, text);
  }
  return dir;
}

/** The one JSON object on stdout. */
// deno-lint-ignore no-explicit-any
export function json(run: CliRun): Record<string, any> {
  try {
    return JSON.parse(run.stdout);
  } catch {
    throw new Error(`stdout is not one JSON object: ${run.stdout}\nstderr: ${run.stderr}`);
  }
}

/** Text without its ANSI colour escapes. */
export function stripAnsi(text: string): string {
  return text.replace(new RegExp(`${String.fromCharCode(27)}\\[\\d+m`, "g"), "");
}

/**
 * Each command line is a usage error (exit 2) whose message matches its hint: what a peer's option that the
 * command does not take says to do instead.
 */
export async function assertRefusedAs(
  run: (args: string[]) => Promise<CliRun>,
  cases: readonly (readonly [readonly string[], RegExp])[],
): Promise<void> {
  for (const [args, hint] of cases) {
    const refused = await run([...args]);
    if (refused.code !== 2) throw new Error(`${args.join(" ")}: exit ${refused.code}, not 2`);
    const message = String(json(refused)["error"]?.["message"]);
    if (!hint.test(message)) throw new Error(`${args.join(" ")}: "${message}" does not match ${hint}`);
  }
}
