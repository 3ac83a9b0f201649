/**
 * The HTTP test server for runtimes without graver's CLI (Node, Bun): open a
 * disk workspace on a scratch directory, serve the HTTP surface on
 * 127.0.0.1 with the runtime's glue, print `{"url": ...}` on stdout, and run
 * until stdin closes or, with the adapter's stop guard, until SIGINT/SIGTERM (then the requests in flight
 * finish and the calls made settle before the entry exits 0). Runtime-neutral: the entry passes its adapter.
 *
 * @module
 */
import type { Backend } from "../../src/fs/backend.ts";
import type { WasmLoader } from "../../src/syntax/grammars.ts";
import type { ServeFunction, StopGuard } from "../../src/surfaces/cli_serve.ts";
import { EventHub } from "../../src/surfaces/events.ts";
import { createHttpApp } from "../../src/surfaces/http.ts";
import { McpSessions } from "../../src/surfaces/mcp_http.ts";
import { createWorkspace } from "../../src/workspace.ts";

/** What the entry hands over. */
export interface HttpServerSetup {
  /** The runtime's serve glue. */
  serve: ServeFunction;
  /** Its disk backend. */
  backend: Backend;
  /** Its wasm loader. */
  wasm: WasmLoader;
  /** The scratch root (absolute). */
  root: string;
  /** The bearer token. */
  token: string;
  /** Print a line on stdout. */
  print(line: string): void;
  /** Resolves when stdin closes (the test is done). */
  untilStdinCloses(): Promise<void>;
  /** The adapter's stop guard: resolves on SIGINT/SIGTERM, ends the process past the grace. */
  untilStopped?(guard: StopGuard): Promise<void>;
  /** The grace after a stop signal (ms). */
  graceMs?: number;
}

/**
 * Serve until stdin closes or a stop signal arrives.
 *
 * @param setup The runtime's pieces.
 */
export async function runHttpServer(setup: HttpServerSetup): Promise<void> {
  const events = new EventHub();
  const workspace = await createWorkspace({
    backend: setup.backend,
    root: setup.root,
    wasm: setup.wasm,
    telemetry: events,
  });
  const mcp = new McpSessions({ workspace, events });
  const surface = createHttpApp({ workspace, events, token: setup.token, mcp });
  const server = await setup.serve(surface.fetch, { hostname: "127.0.0.1", port: 0 });
  setup.print(JSON.stringify({ url: `http://127.0.0.1:${server.port}` }));
  const stopped = setup.untilStopped?.({ graceMs: setup.graceMs ?? 10_000 });
  await Promise.race([setup.untilStdinCloses(), ...(stopped ? [stopped] : [])]);
  await surface.close();
  await server.shutdown();
  await workspace.close();
}
