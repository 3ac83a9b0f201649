/**
 * `graver serve` (the HTTP API and MCP over Streamable HTTP) and `graver
 * mcp` (MCP over stdio). Both need a runtime's server and standard streams,
 * so an adapter's CLI entry registers them with its {@linkcode ServeHost}
 * ({@linkcode registerServeCommands}). The HTTP app (hono) and the MCP SDK
 * load when one of them runs, so that every other command starts without
 * them (~0.2 s of module loading per CLI call).
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import type { TelemetrySink } from "../telemetry.ts";
import type { MatchPool } from "../structural/search/match_pool.ts";
import type { WasmLoader } from "../syntax/grammars.ts";
import type { CallRunner } from "./call_runner.ts";
import { createWorkspace, type Workspace, type WorkspaceOptions } from "../workspace.ts";
import {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_MS,
  DEFAULT_SHUTDOWN_GRACE_MS,
  DEFAULT_TIMEOUT_MS,
  STALL_MARGIN_MS,
} from "./http_limits.ts";
import {
  type CliCommand,
  type CliHost,
  type CliInvocation,
  compassFlagOptions,
  EXIT,
  maxCheckpointsFlag,
  registerCliCommand,
  resolveRoot,
  usageError,
  WORKSPACE_FLAGS,
} from "./cli.ts";
import { EventHub } from "./events.ts";

/** Where and how to listen. */
export interface ServeOptions {
  /** Address to bind (default `127.0.0.1`). */
  hostname: string;
  /** Port (0: any free port). */
  port: number;
}

/** A listening server. */
export interface ServeHandle {
  /** The bound address. */
  hostname: string;
  /** The bound port. */
  port: number;
  /** Stop listening and close open connections. */
  shutdown(): Promise<void>;
}

/** How the host guards a server's stop (`ServeHost.untilStopped`); 0 or absent: no such guard. */
export interface StopGuard {
  /** After a stop signal, end the process if the shutdown has not finished within this many ms. */
  graceMs?: number;
  /** End the process when the event loop has been blocked this many ms (a call stuck in synchronous work). */
  stallMs?: number;
}

/** What a worker running the calls needs (see {@linkcode ServeHost.isolate}). */
export interface IsolateOptions {
  /** The workspace root. */
  root: string;
  /** The policy options of the served workspace. */
  workspace: Partial<WorkspaceOptions>;
  /** The request time limit: a call still running then is stopped. */
  timeoutMs: number;
  /** The event feed. */
  telemetry: TelemetrySink;
}

/** The calls' runner in a worker that `ServeHost.isolate` starts, closed with the server. */
export type IsolatedRunner = CallRunner & { close(): void };

/** A runtime's way to serve a fetch handler (`src/adapters/<runtime>/serve.ts`). */
export type ServeFunction = (
  fetch: (request: Request) => Promise<Response>,
  options: ServeOptions,
) => Promise<ServeHandle>;

/** What `graver serve` and `graver mcp` need from the runtime. */
export interface ServeHost {
  /** Serve a fetch handler. */
  serve: ServeFunction;
  /** The process's stdin as a stream (for `graver mcp`). */
  stdin(): ReadableStream<Uint8Array>;
  /** The process's stdout as a stream (for `graver mcp`). */
  stdout(): WritableStream<Uint8Array>;
  /** An environment variable (`GRAVER_TOKEN`). */
  env(name: string): string | undefined;
  /**
   * Resolves when the process is asked to stop (SIGINT, SIGTERM). A host that can (Deno's) also guards
   * the stop as `guard` says: it ends the process when the shutdown outlives the grace, or when the event
   * loop stays blocked past the stall limit.
   */
  untilStopped(guard?: StopGuard): Promise<void>;
  /**
   * Run the HTTP API's tool calls in a worker with its own workspace on `root`, stopping a call at the time
   * limit (`graver serve --isolate`; Deno's adapter has it). Absent: calls run in the server's event loop.
   */
  isolate?(options: IsolateOptions): IsolatedRunner | Promise<IsolatedRunner>;
  /**
   * Workers that parse and match structural searches on other cores, for the served workspace (a long-lived
   * process, where their start pays; Deno's adapter has it), loading the same wasm as the workspace.
   * Absent: searches parse on the event loop's thread.
   */
  matchPool?(wasm: WasmLoader): MatchPool | Promise<MatchPool>;
}

/** The policy options `serve` and `mcp` share with `graver call`: compass, persona, read guard, gate. */
const POLICY_FLAGS = {
  compass: WORKSPACE_FLAGS.compass,
  persona: WORKSPACE_FLAGS.persona,
  guard: {
    kind: "string",
    value: "MODE",
    help: "the read guard of every session: off, warn or refuse (default refuse)",
  },
  gate: {
    kind: "string",
    value: "MODE",
    help: "the definition gate on freeform edits of every session: off, warn or refuse (default refuse)",
  },
  checkpoints: {
    kind: "boolean",
    help: "record each applied edit as a checkpoint (the default here: undo is on for agent sessions)",
  },
  "no-checkpoints": {
    kind: "boolean",
    help: "record no checkpoints (checkpoint tools still read the ones already in .graver/checkpoints/)",
  },
  "max-checkpoints": WORKSPACE_FLAGS["max-checkpoints"],
} as const;

const MODES: Record<string, readonly string[]> = {
  compass: ["off", "suggest", "rewrite"],
  guard: ["off", "warn", "refuse"],
  gate: ["off", "warn", "refuse"],
};

/** The workspace `serve` and `mcp` work on: `--root`, the policy flags, events to the feed. */
async function openServed(
  hosts: { cli: CliHost; serve: ServeHost },
  flags: Record<string, string | boolean>,
  open: CliInvocation["open"],
): Promise<{ workspace: Workspace; events: EventHub; root: string; matchPool: MatchPool | undefined }> {
  const { cli } = hosts;
  const root = resolveRoot(cli.cwd, flags["root"] as string | undefined);
  const opened = await open(flags["root"] as string | undefined);
  const events = new EventHub();
  const matchPool = cli.wasm ? await hosts.serve.matchPool?.(cli.wasm) : undefined;
  const workspace = await createWorkspace({
    backend: opened.fs,
    root,
    ...(cli.wasm ? { wasm: cli.wasm } : {}),
    ...(matchPool ? { matchPool } : {}),
    telemetry: events,
    ...policyOptions(flags),
  });
  return { workspace, events, root, matchPool };
}

/** The workspace options of the policy flags (`invalid_args` for an unknown mode). */
function policyOptions(flags: Record<string, string | boolean>): Partial<WorkspaceOptions> {
  for (const [flag, modes] of Object.entries(MODES)) {
    const value = flags[flag];
    if (value !== undefined && !modes.includes(String(value))) {
      throw new RecoverableError("invalid_args", `Cannot use --${flag} ${JSON.stringify(value)}`, {
        hint: `Pass --${flag} ${modes.join(", ")}`,
        details: { flag, value },
      });
    }
  }
  const out: Partial<WorkspaceOptions> = { ...compassFlagOptions(flags), ...maxCheckpointsFlag(flags) };
  // An agent session gets undo by default, as the agents it serves expect; --no-checkpoints turns it off.
  out.checkpoints = flags["no-checkpoints"] !== true;
  if (typeof flags["guard"] === "string") out.readGuard = flags["guard"] as "off" | "warn" | "refuse";
  if (typeof flags["gate"] === "string") out.definitionGate = flags["gate"] as "off" | "warn" | "refuse";
  return out;
}

function numberFlag(value: string | boolean | undefined, fallback: number): number | null {
  if (value === undefined) return fallback;
  const n = Number(value);
  return typeof value === "string" && /^\d+$/.test(value) && Number.isSafeInteger(n) ? n : null;
}

/** The numbers `graver serve` takes. */
interface ServeLimits {
  port: number;
  maxBody: number;
  timeout: number;
  bodyTimeout: number;
  maxSessions: number;
  sessionIdle: number;
  shutdownGrace: number;
  stallLimit: number;
}

/** The port and the limits from `graver serve`'s flags, or what is wrong with one of them. */
function serveLimits(flags: Record<string, string | boolean>): ServeLimits | string {
  const port = numberFlag(flags["port"], 8787);
  const maxBody = numberFlag(flags["max-body"], DEFAULT_MAX_BODY_BYTES);
  const timeout = numberFlag(flags["timeout"], DEFAULT_TIMEOUT_MS);
  const bodyTimeout = numberFlag(flags["body-timeout"], DEFAULT_BODY_TIMEOUT_MS);
  const maxSessions = numberFlag(flags["max-sessions"], DEFAULT_MAX_SESSIONS);
  const sessionIdle = numberFlag(flags["session-idle"], DEFAULT_SESSION_IDLE_MS);
  const shutdownGrace = numberFlag(flags["shutdown-grace"], DEFAULT_SHUTDOWN_GRACE_MS);
  const stallLimit = numberFlag(flags["stall-limit"], timeout ? timeout + STALL_MARGIN_MS : 0);
  if (port === null || port > 65535) return "--port must be 0-65535";
  if (maxBody === null || maxBody < 1) return "--max-body must be a positive integer";
  if (maxSessions === null || maxSessions < 1) return "--max-sessions must be a positive integer";
  if (timeout === null) return "--timeout must be a whole number of ms";
  if (bodyTimeout === null) return "--body-timeout must be a whole number of ms";
  if (sessionIdle === null) return "--session-idle must be a whole number of ms";
  if (shutdownGrace === null) return "--shutdown-grace must be a whole number of ms";
  if (stallLimit === null) return "--stall-limit must be a whole number of ms";
  return { port, maxBody, timeout, bodyTimeout, maxSessions, sessionIdle, shutdownGrace, stallLimit };
}

/**
 * Register `graver serve` and `graver mcp` for a runtime.
 *
 * @param host The runtime's server, streams, environment and stop signal.
 */
export function registerServeCommands(host: ServeHost): void {
  registerCliCommand({
    name: "serve",
    synopsis:
      "serve [--host ADDR] [--port N] [--token TOKEN] [--root DIR] [--cors ORIGINS] [--compass MODE] [--guard MODE] [--gate MODE]",
    summary: "Serve the HTTP API (/v1) and MCP over Streamable HTTP (/mcp) on one workspace",
    details: SERVE_DETAILS,
    flags: SERVE_FLAGS,
    maxPositional: 0,
    run: (invocation) => runServe(host, invocation),
  });
  registerCliCommand({
    name: "mcp",
    synopsis: "mcp [--root DIR] [--instructions TEXT] [--compass MODE] [--guard MODE] [--gate MODE]",
    summary: "Serve MCP over stdio (newline-delimited JSON-RPC) on one workspace",
    details: MCP_DETAILS,
    flags: MCP_FLAGS,
    maxPositional: 0,
    run: (invocation) => runMcp(host, invocation),
  });
}

/** What `graver help serve` says beyond the summary. */
const SERVE_DETAILS = `
Runs until interrupted. Prints one JSON line when listening: {"ok":true,"url":...,"root":...}.
Routes: GET /v1/health, GET /v1/tools, POST /v1/tools/:name, GET /v1/events (server-sent events), /mcp.
A bearer token is required on every route but /v1/health when given, and graver refuses to listen on a
non-loopback address without one (at least 16 characters). Prefer the GRAVER_TOKEN environment variable to
--token: a command line is visible to other users of the machine.
Every HTTP and MCP session is a named session: the read guard and the definition gate judge its edits
(--guard, --gate relax them) and the compass suggests structural tools (--compass, --persona).
SIGINT/SIGTERM end the event streams and stop the server; if requests still run after --shutdown-grace ms,
the process exits anyway. An event loop blocked past --stall-limit ms (a call stuck in synchronous work) ends
the process, for a supervisor to restart it; with --isolate the HTTP API's calls run in a worker instead, and
one still running at --timeout is stopped (the worker is replaced; sessions' ledgers reset) while the server
keeps answering; GET /v1/health answers 503 while a call is stuck past its limit.`;

/** The flags of `graver serve`. */
const SERVE_FLAGS: CliCommand["flags"] = {
  root: WORKSPACE_FLAGS.root,
  ...POLICY_FLAGS,
  host: { kind: "string", value: "ADDR", help: "address to bind (default 127.0.0.1)" },
  port: { kind: "string", value: "N", help: "port (default 8787; 0: any free port)" },
  token: { kind: "string", value: "TOKEN", help: "bearer token (default: $GRAVER_TOKEN)" },
  cors: {
    kind: "string",
    value: "ORIGINS",
    help: "comma-separated origins browsers may call from (default: none, CORS off)",
  },
  "max-body": {
    kind: "string",
    value: "BYTES",
    help: `largest request body (default ${DEFAULT_MAX_BODY_BYTES})`,
  },
  timeout: {
    kind: "string",
    value: "MS",
    help: `per-request time limit (default ${DEFAULT_TIMEOUT_MS})`,
  },
  "body-timeout": {
    kind: "string",
    value: "MS",
    help: `time to receive a request body; slower ones get 408 (default ${DEFAULT_BODY_TIMEOUT_MS})`,
  },
  "max-sessions": {
    kind: "string",
    value: "N",
    help: "most named sessions held; one more drops the least recently used (default 1000)",
  },
  "session-idle": {
    kind: "string",
    value: "MS",
    help: "a named session idle this long is dropped (default 1800000: 30 minutes; 0: never)",
  },
  "shutdown-grace": {
    kind: "string",
    value: "MS",
    help:
      `after SIGINT/SIGTERM, exit anyway when requests still run this long (default ${DEFAULT_SHUTDOWN_GRACE_MS})`,
  },
  "stall-limit": {
    kind: "string",
    value: "MS",
    help: `exit when the event loop is blocked this long (default: --timeout + ${STALL_MARGIN_MS}; 0: never)`,
  },
  isolate: {
    kind: "boolean",
    help: "run the HTTP API's tool calls in a worker, stopped at the time limit (Deno)",
  },
  "no-mcp": { kind: "boolean", help: "do not serve /mcp" },
};

/** What `graver help mcp` says beyond the summary. */
const MCP_DETAILS = `
For MCP clients that start a server process (e.g. {"command": "graver", "args": ["mcp", "--root", "DIR"]}).
Reads requests from stdin and writes responses and notifications to stdout until stdin closes; nothing
else is written to stdout. The connection is one MCP session and one graver session (a named session: the
read guard and the definition gate judge its edits; --guard and --gate relax them).`;

/** The flags of `graver mcp`. */
const MCP_FLAGS: CliCommand["flags"] = {
  root: WORKSPACE_FLAGS.root,
  ...POLICY_FLAGS,
  instructions: {
    kind: "string",
    value: "TEXT",
    help: "session-start instructions for the model (default: graver's own)",
  },
};

/** `graver serve`: check the flags, build the surface, listen until stopped, then close everything. */
async function runServe(host: ServeHost, { flags, host: cli, open }: CliInvocation): Promise<number> {
  const hostname = (flags["host"] as string | undefined) ?? "127.0.0.1";
  const limits = serveLimits(flags);
  if (typeof limits === "string") return usageError(cli, "serve", { message: limits });
  const token = (flags["token"] as string | undefined) ?? host.env("GRAVER_TOKEN");
  const { assertServable, createHttpApp } = await import("./http.ts");
  const { McpSessions } = await import("./mcp_http.ts");
  assertServable({ hostname, token });
  if (flags["isolate"] === true && !host.isolate) {
    return usageError(cli, "serve", { message: "--isolate is not available on this runtime" });
  }
  const { workspace, events, root, matchPool } = await openServed({ cli, serve: host }, flags, open);
  const runner = flags["isolate"] === true
    ? await host.isolate!({
      root,
      workspace: policyOptions(flags),
      timeoutMs: limits.timeout,
      telemetry: events,
    })
    : undefined;
  const cors = typeof flags["cors"] === "string"
    ? flags["cors"].split(",").map((o) => o.trim()).filter(Boolean)
    : [];
  const surface = createHttpApp({
    workspace,
    events,
    maxBodyBytes: limits.maxBody,
    timeoutMs: limits.timeout,
    bodyTimeoutMs: limits.bodyTimeout,
    sessions: { maxSessions: limits.maxSessions, idleMs: limits.sessionIdle },
    ...(runner ? { runner } : {}),
    corsOrigins: cors,
    ...(flags["no-mcp"] !== true
      ? {
        mcp: new McpSessions({
          workspace,
          events,
          timeoutMs: limits.timeout,
          maxBodyBytes: limits.maxBody,
          ...(runner ? { runner } : {}),
        }),
      }
      : {}),
    ...(token !== undefined ? { token } : {}),
  });
  const server = await host.serve(surface.fetch, { hostname, port: limits.port });
  const shown = server.hostname.includes(":") ? `[${server.hostname}]` : server.hostname;
  const url = `http://${shown}:${server.port}`;
  cli.stdout(JSON.stringify({ ok: true, url, root, token: token !== undefined }) + "\n");
  cli.stderr(`graver serve: listening on ${url} (root ${root}${token ? ", token required" : ""})\n`);
  await host.untilStopped({ graceMs: limits.shutdownGrace, stallMs: limits.stallLimit });
  await surface.close();
  runner?.close();
  await server.shutdown();
  await workspace.close();
  matchPool?.close();
  return EXIT.ok;
}

/** `graver mcp`: one MCP session over the process's standard streams, until stdin closes or a stop signal. */
async function runMcp(host: ServeHost, { flags, host: cli, open }: CliInvocation): Promise<number> {
  const [{ createMcpServer }, { StreamTransport }] = await Promise.all([
    import("./mcp.ts"),
    import("./stream_transport.ts"),
  ]);
  const { workspace, events, matchPool } = await openServed({ cli, serve: host }, flags, open);
  const server = createMcpServer({
    workspace,
    session: crypto.randomUUID(),
    events,
    ...(typeof flags["instructions"] === "string" ? { instructions: flags["instructions"] } : {}),
  });
  const transport = new StreamTransport(host.stdin(), host.stdout());
  const closed = new Promise<void>((resolve) => transport.onclose = resolve);
  transport.onerror = (err) => cli.stderr(`graver mcp: ${err.message}\n`);
  await server.connect(transport);
  // The SDK wraps onclose; wait for the transport's own end (stdin closed).
  await Promise.race([closed, host.untilStopped({ graceMs: DEFAULT_SHUTDOWN_GRACE_MS })]);
  await server.close();
  await workspace.close();
  matchPool?.close();
  return EXIT.ok;
}
