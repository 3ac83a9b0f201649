/**
 * Start graver's HTTP server in a runtime as a child process on 127.0.0.1
 * and read the URL it prints: Deno through `graver serve`, Node (bundled)
 * and Bun through tests/runtimes/<runtime>/http_server.ts, workerd through
 * miniflare with the bundled worker.
 *
 * @module
 */
import { bundle, NODE_BANNER, ROOT, toolBin } from "../runtimes/_harness.ts";
import { bundleHttpWorker } from "../runtimes/workerd/http_bundle.ts";

/** The runtimes the HTTP suite runs against. */
export const HTTP_RUNTIMES = ["deno", "node", "bun", "workerd"] as const;

/** One of {@linkcode HTTP_RUNTIMES}. */
export type HttpRuntime = typeof HTTP_RUNTIMES[number];

/** A running server. */
export interface RunningServer {
  /** Its base URL. */
  url: string;
  /** The first line it printed, parsed. */
  info: Record<string, unknown>;
  /** Stop it and wait for it to exit. */
  stop(): Promise<void>;
  /** Send it a signal. */
  kill(signal: Deno.Signal): void;
  /** Its exit. */
  status: Promise<Deno.CommandStatus>;
}

/** How to start a server. */
export interface StartOptions {
  /** Node and Bun: the grace their stop guard gives a shutdown after SIGINT/SIGTERM (default 10 s). */
  graceMs?: number;
}

/** Whether the runtime tools (tools/node_modules) are installed. */
export async function haveTools(): Promise<boolean> {
  try {
    for (const b of ["bun", "esbuild", "workerd"]) await Deno.stat(toolBin(b));
    return true;
  } catch {
    return false;
  }
}

async function spawn(
  cmd: string,
  args: string[],
  env: Record<string, string>,
  stopBy: "stdin" | "signal",
): Promise<RunningServer> {
  const child = new Deno.Command(cmd, {
    args,
    cwd: ROOT,
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  clearTimeout(timer);
  const line = text.split("\n")[0]!;
  let info: Record<string, unknown>;
  try {
    info = JSON.parse(line);
  } catch {
    child.kill("SIGKILL");
    await child.status;
    throw new Error(`Cannot start the ${cmd} server: it printed ${JSON.stringify(text.slice(0, 300))}`);
  }
  // Keep draining stdout so the child never blocks on a full pipe.
  const drain = (async () => {
    while (!(await reader.read()).done) { /* drop */ }
  })().catch(() => {});
  return {
    url: String(info["url"]),
    info,
    kill: (signal) => child.kill(signal),
    status: child.status,
    async stop() {
      if (stopBy === "stdin") await child.stdin.close().catch(() => {});
      else {
        await child.stdin.close().catch(() => {});
        child.kill("SIGTERM");
      }
      const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await child.status;
      clearTimeout(killer);
      await drain;
    },
  };
}

/**
 * Start the HTTP server of `runtime` on a scratch directory.
 *
 * @param runtime Which runtime.
 * @param root The scratch workspace root (disk runtimes; workerd keeps files in memory).
 * @param token The bearer token.
 * @param options The stop guard's grace (Node and Bun).
 * @returns The running server.
 */
export async function startServer(
  runtime: HttpRuntime,
  root: string,
  token: string,
  options: StartOptions = {},
): Promise<RunningServer> {
  const repo = ROOT.replace(/\/$/, "");
  const grace = options.graceMs === undefined ? [] : [String(options.graceMs)];
  switch (runtime) {
    case "deno":
      return await spawn(
        Deno.execPath(),
        ["run", "-A", "src/adapters/deno/cli.ts", "serve", "--root", root, "--port", "0"],
        { GRAVER_TOKEN: token },
        "signal",
      );
    case "node":
      await bundle("tests/runtimes/node/http_server.ts", "build/node/http_server.mjs", [
        "--platform=node",
        "--target=node20",
        `--banner:js=${NODE_BANNER}`,
      ]);
      return await spawn("node", ["build/node/http_server.mjs", repo, root, token, ...grace], {}, "stdin");
    case "bun":
      return await spawn(
        toolBin("bun"),
        ["run", "tests/runtimes/bun/http_server.ts", repo, root, token, ...grace],
        { BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0", DO_NOT_TRACK: "1" },
        "stdin",
      );
    case "workerd": {
      const wasm = await bundleHttpWorker({ outfile: "build/workerd/http_worker.js" });
      const tmp = await Deno.makeTempDir({ prefix: "graver-workerd-http-" });
      const server = await spawn(
        "node",
        ["tests/runtimes/workerd/http_drive.mjs", repo, "build/workerd/http_worker.js", token, ...wasm],
        { TMPDIR: tmp },
        "stdin",
      );
      return {
        ...server,
        async stop() {
          await server.stop();
          await Deno.remove(tmp, { recursive: true }).catch(() => {});
        },
      };
    }
  }
}
