/**
 * The `graver` CLI entry for Deno (`deno task graver ...`).
 *
 * @module
 */
import { runCli } from "../../surfaces/cli.ts";
import "../../surfaces/cli_commands.ts";
import { registerServeCommands } from "../../surfaces/cli_serve.ts";
import { createDiskBackend, createWasmLoader } from "./mod.ts";

/** Write all bytes (writeSync may write only part of a large buffer). */
function writeAll(out: { writeSync(b: Uint8Array): number }, text: string): void {
  let bytes = new TextEncoder().encode(text);
  while (bytes.length > 0) bytes = bytes.subarray(out.writeSync(bytes));
}

/**
 * Write to stdout; when its reader has gone (`graver grep … | head`), stop quietly with status 0, as ripgrep
 * does, instead of failing on every later write. Nothing is written to stdout during a commit: a command
 * prints once its call has returned.
 */
function writeStdout(text: string): void {
  try {
    writeAll(Deno.stdout, text);
  } catch (err) {
    if (err instanceof Deno.errors.BrokenPipe) Deno.exit(0);
    throw err;
  }
}

/** Write to stderr; a reader that has gone is no reason to fail. */
function writeStderr(text: string): void {
  try {
    writeAll(Deno.stderr, text);
  } catch (err) {
    if (!(err instanceof Deno.errors.BrokenPipe)) throw err;
  }
}

/** Read all of stdin as text. */
async function readStdin(): Promise<string> {
  return await new Response(Deno.stdin.readable).text();
}

/**
 * Colour when stdout is a terminal, unless NO_COLOR is set (https://no-color.org); FORCE_COLOR forces it.
 * Progress lines when stderr is a terminal.
 */
function terminal(): { color: boolean; progress: boolean } {
  const env = (name: string) => Deno.env.get(name) ?? "";
  const forced = env("FORCE_COLOR") !== "" && env("FORCE_COLOR") !== "0";
  return {
    color: env("NO_COLOR") === "" && (forced || Deno.stdout.isTerminal()),
    progress: Deno.stderr.isTerminal(),
  };
}

// The server, its stop guard, its call worker and its match pool load when `serve` or `mcp` runs: every other command
// starts without them.
registerServeCommands({
  serve: async (fetch, options) => (await import("./serve.ts")).serve(fetch, options),
  stdin: () => Deno.stdin.readable,
  stdout: () => Deno.stdout.writable,
  env: (name) => Deno.env.get(name),
  untilStopped: async (guard) => (await import("./stop_guard.ts")).untilStopped(guard),
  isolate: async (options) => (await import("./call_worker.ts")).createWorkerRunner(options),
  // A served session searches again and again: keep idle workers a minute rather than start them each time.
  matchPool: async (wasm) => (await import("./match_pool.ts")).createMatchPool({ wasm, idleMs: 60_000 }),
});

if (import.meta.main) {
  // `deno task graver` runs in the project directory; the task passes the caller's
  // directory as `--cwd DIR` so that --root defaults to where the user stands.
  let args = Deno.args;
  let cwd = Deno.cwd();
  if (args[0] === "--cwd" && args[1] !== undefined) {
    // An empty INIT_CWD (the task run outside npm) means: where deno runs.
    if (args[1] !== "") cwd = args[1];
    args = args.slice(2);
  }
  const wasm = createWasmLoader();
  const code = await runCli(args, {
    stdout: writeStdout,
    stderr: writeStderr,
    readStdin,
    stdinStream: () => Deno.stdin.readable,
    // Through the disk backend's read, which never opens a FIFO, socket or device: `graver apply FIFO` or a
    // rule file that is one would wait for a writer for ever.
    readHostFile: async (p) => {
      const bytes = await createDiskBackend().readFile(p);
      return typeof bytes === "string" ? bytes : new TextDecoder().decode(bytes);
    },
    cwd,
    backend: createDiskBackend(),
    wasm,
    // `graver sg` over a large tree parses on two cores. Its workers start cold (a worker's start costs about
    // what 1 MB of parsing does), so only once a search has parsed 1,000,000 characters on its own.
    matchPool: async () =>
      (await import("./match_pool.ts")).createMatchPool({ wasm, idleMs: 10_000, startChars: 1_000_000 }),
    ...terminal(),
  });
  Deno.exit(code);
}
