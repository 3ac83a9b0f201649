/**
 * graver's HTTP API and MCP endpoint as a Cloudflare Worker module: the
 * same hono app as `graver serve`, over a workspace that lives in the
 * isolate (an in-memory backend unless the embedder passes one). A worker
 * is never on loopback, so it refuses every request until the
 * `GRAVER_TOKEN` secret (16+ characters) is set. Checkpoints stay off (the
 * checkpoint tools say so), so a bundle may leave isomorphic-git out.
 *
 * The entry imports the wasm as modules (workerd cannot compile wasm from
 * bytes) and exports the handler:
 *
 * ```ts ignore
 * import runtime from "./wasm/web-tree-sitter.wasm";
 * import typescript from "./grammars/wasm/typescript.wasm";
 * import { createWorker } from "@graver/core/adapters/workerd/worker";
 * export default createWorker({
 *   wasm: { runtime, grammars: { typescript } },
 *   // Only for MCP at /mcp. A dynamic import: a bundler that splits code (esbuild --splitting) keeps the
 *   // MCP SDK and zod in a chunk loaded by the first /mcp request, out of the module evaluated at start.
 *   mcp: (c) => import("@graver/core/surfaces/mcp-http").then((m) => new m.McpSessions(c)),
 * });
 * ```
 *
 * @module
 */
import { createMapBackend } from "../../fs/map_backend.ts";
import type { Backend } from "../../fs/backend.ts";
import { EventHub } from "../../surfaces/events.ts";
import { createHttpApp, type HttpSurface, type McpEndpoint } from "../../surfaces/http.ts";
import type { EventHub as Events } from "../../surfaces/events.ts";
import type { Workspace } from "../../workspace.ts";
import { createWorkspace } from "../../workspace.ts";
import { createWasmLoader, type ModuleWasmOptions } from "./mod.ts";

/** Options of {@linkcode createWorker}. */
export interface WorkerOptions {
  /** The runtime and grammar wasm modules the entry imported. */
  wasm: ModuleWasmOptions;
  /**
   * Where files live (default: the small Map-based in-memory backend, one per isolate, seeded with
   * `files`; memfs would add ~250 KB of Node polyfills to the bundle).
   */
  backend?: Backend;
  /** Files to seed the in-memory backend with (absolute paths). */
  files?: Record<string, string>;
  /** Largest request body (default 4 MiB). */
  maxBodyBytes?: number;
  /** Per-request time limit in ms (default 60 000). */
  timeoutMs?: number;
  /**
   * Serve MCP at `/mcp`: build the endpoint over the worker's workspace, e.g.
   * `({ workspace, events }) => new McpSessions({ workspace, events })` (from
   * `@graver/core/surfaces/mcp-http`), or a promise of it (a dynamic import: called on the first `/mcp`
   * request only, so the MCP SDK can stay in a lazily loaded chunk). Without it the worker serves the HTTP
   * API only and does not bundle the MCP SDK.
   */
  mcp?: (context: { workspace: Workspace; events: Events }) => McpEndpoint | Promise<McpEndpoint>;
}

/** The bindings the worker reads. */
export interface WorkerEnv {
  /** The bearer token every request but /v1/health must carry (required, 16+ characters). */
  GRAVER_TOKEN?: string;
  /** Comma-separated origins allowed to call from browsers (default none). */
  GRAVER_CORS?: string;
}

/** A module worker's default export. */
export interface GraverWorker {
  /** Answer one request. */
  fetch(request: Request, env?: WorkerEnv): Promise<Response>;
}

/**
 * An MCP endpoint made on its first request (a failed making is retried by the next request).
 *
 * @param make Builds the real endpoint (may import its code).
 * @returns The endpoint the app mounts.
 */
function lazyEndpoint(make: () => McpEndpoint | Promise<McpEndpoint>): McpEndpoint {
  let made: Promise<McpEndpoint> | undefined;
  let ready: McpEndpoint | undefined;
  return {
    async handle(request: Request): Promise<Response> {
      made ??= Promise.resolve().then(make).then((e) => ready = e, (err) => {
        made = undefined;
        throw err;
      });
      return await (await made).handle(request);
    },
    get size() {
      return ready?.size ?? 0;
    },
    close: () => ready?.close() ?? Promise.resolve(),
  };
}

/**
 * Build the worker.
 *
 * @param options The wasm modules, backend and limits.
 * @returns The default export.
 */
export function createWorker(options: WorkerOptions): GraverWorker {
  let surface: Promise<HttpSurface> | undefined;
  async function open(env: WorkerEnv): Promise<HttpSurface> {
    const events = new EventHub();
    const workspace = await createWorkspace({
      backend: options.backend ?? createMapBackend(options.files ?? {}),
      wasm: createWasmLoader(options.wasm),
      telemetry: events,
    });
    return createHttpApp({
      workspace,
      events,
      token: env.GRAVER_TOKEN!,
      corsOrigins: (env.GRAVER_CORS ?? "").split(",").map((o) => o.trim()).filter(Boolean),
      ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.mcp ? { mcp: lazyEndpoint(() => options.mcp!({ workspace, events })) } : {}),
    });
  }
  return {
    async fetch(request: Request, env: WorkerEnv = {}): Promise<Response> {
      if ((env.GRAVER_TOKEN ?? "").length < 16) {
        return Response.json({
          ok: false,
          error: {
            code: "unauthorized",
            message: "Cannot serve: the GRAVER_TOKEN secret is not set (or shorter than 16 characters)",
            hint: "Set it (e.g. wrangler secret put GRAVER_TOKEN); a worker is never on loopback",
          },
        }, { status: 503 });
      }
      surface ??= open(env);
      return await (await surface).fetch(request);
    },
  };
}
