/**
 * MCP over Streamable HTTP: the sessions of one endpoint. An `initialize`
 * POST without an `Mcp-Session-Id` opens a session (its own server and
 * web-standard transport from the SDK; the MCP session id is the graver
 * session id); later requests carry the id and reach that session; DELETE
 * closes it. At most `maxSessions` live at once: opening one more closes the
 * least recently used. Web standards only (`Request` in, `Response` out),
 * so the same code serves in Deno, Bun, Node and workerd.
 *
 * @module
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { ErrorCode } from "../errors.ts";
import { createMcpServer, type McpServerOptions } from "./mcp.ts";

/** Options of {@linkcode McpSessions}. */
export interface McpSessionsOptions extends Omit<McpServerOptions, "session"> {
  /** Most live sessions (default 64); one more closes the least recently used. */
  maxSessions?: number;
  /** Largest request body in bytes the transport reads (default 4 MiB). */
  maxBodyBytes?: number;
}

interface Entry {
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
  lastUsed: number;
}

/** A JSON-RPC error response carrying graver's error code and hint in `data`. */
function rpcError(status: number, code: ErrorCode, message: string, hint: string): Response {
  return Response.json({
    jsonrpc: "2.0",
    error: { code: status === 404 ? -32001 : -32000, message, data: { code, hint } },
    id: null,
  }, { status });
}

/**
 * The MCP sessions of one Streamable HTTP endpoint.
 *
 * @example Mount it on a path of any web-standard server
 * ```ts ignore
 * const sessions = new McpSessions({ workspace, events });
 * Deno.serve((req) => sessions.handle(req));
 * ```
 */
export class McpSessions {
  readonly #options: McpSessionsOptions;
  readonly #sessions = new Map<string, Entry>();

  /**
   * Serve MCP sessions over one workspace.
   *
   * @param options Workspace, events, instructions, limits.
   */
  constructor(options: McpSessionsOptions) {
    this.#options = options;
  }

  /** How many sessions are live. */
  get size(): number {
    return this.#sessions.size;
  }

  /**
   * Answer one request to the MCP endpoint.
   *
   * @param request The HTTP request (POST, GET or DELETE).
   * @returns The response (JSON, or an SSE stream).
   */
  async handle(request: Request): Promise<Response> {
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const entry = this.#sessions.get(id);
      if (!entry) {
        return rpcError(
          404,
          "not_found",
          `Cannot find MCP session "${id.slice(0, 64)}": it was closed, evicted or never opened here`,
          "Initialize a new session (POST initialize without an Mcp-Session-Id header)",
        );
      }
      // Re-insert: the map's order is least recently used first.
      entry.lastUsed = Date.now();
      this.#sessions.delete(id);
      this.#sessions.set(id, entry);
      return await entry.transport.handleRequest(request);
    }
    if (request.method !== "POST") {
      return rpcError(
        400,
        "invalid_args",
        `Cannot ${request.method} the MCP endpoint without an Mcp-Session-Id header`,
        "Open a session first: POST an initialize request; then send its Mcp-Session-Id on every request",
      );
    }
    return await this.#open(request);
  }

  async #open(request: Request): Promise<Response> {
    const sessionId = crypto.randomUUID();
    const { maxSessions = 64, maxBodyBytes = 4 * 1024 * 1024, ...serverOptions } = this.#options;
    const server = createMcpServer({ ...serverOptions, session: sessionId });
    const slot: { entry?: Entry } = {};
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      maxRequestBodySize: maxBodyBytes,
      onsessioninitialized: (sid: string) => {
        while (this.#sessions.size >= maxSessions) this.#evictOldest();
        if (slot.entry) this.#sessions.set(sid, slot.entry);
      },
      onsessionclosed: (sid: string) => {
        this.#sessions.delete(sid);
        this.#forget(sid);
        void server.close();
      },
    });
    slot.entry = { server, transport, lastUsed: Date.now() };
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    // Not an initialize (refused by the transport): the throwaway server goes.
    if (!this.#sessions.has(sessionId)) await server.close();
    return response;
  }

  #evictOldest(): void {
    const [oldest, entry] = this.#sessions.entries().next().value!;
    this.#sessions.delete(oldest);
    this.#forget(oldest);
    void entry.server.close();
  }

  /** Drop a session's ledger wherever its calls run (the runner's worker, or the workspace). */
  #forget(session: string): void {
    const { runner, workspace } = this.#options;
    if (runner) void runner.forgetSession(session).catch(() => {});
    else workspace.forgetSession(session);
  }

  /** Close every session (their streams end). */
  async close(): Promise<void> {
    const all = [...this.#sessions.values()];
    for (const id of this.#sessions.keys()) this.#forget(id);
    this.#sessions.clear();
    await Promise.all(all.map((e) => e.server.close().catch(() => {})));
  }
}
