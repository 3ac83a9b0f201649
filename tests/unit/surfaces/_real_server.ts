/**
 * A real graver HTTP server on 127.0.0.1 (Deno.serve through the Deno
 * adapter) over a workspace on a temp directory, and raw TCP requests to it:
 * what a misbehaving client does (declares a body and never sends it,
 * dribbles it) needs a socket, not `fetch`.
 *
 * @module
 */
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";
import { serve } from "../../../src/adapters/deno/serve.ts";
import { EventHub } from "../../../src/surfaces/events.ts";
import { createHttpApp, type HttpAppOptions } from "../../../src/surfaces/http.ts";
import type { PipelineStep } from "../../../src/tools/types.ts";
import { createWorkspace, type Workspace } from "../../../src/workspace.ts";

/** A running server and its workspace. */
export interface RealServer {
  /** The port on 127.0.0.1. */
  port: number;
  /** Base URL. */
  url: string;
  /** The temp directory that is the workspace root. */
  root: string;
  /** The workspace. */
  workspace: Workspace;
  /** The event hub. */
  events: EventHub;
  /** Stop the server and remove the directory. */
  stop(): Promise<void>;
}

/**
 * Start the HTTP surface on 127.0.0.1 (any free port) over a temp directory.
 *
 * @param options App options (the workspace is made here).
 * @param files Files to create first (relative path → text).
 * @param steps Pipeline steps of the workspace.
 * @returns The server.
 */
export async function startRealServer(
  options: Partial<HttpAppOptions> = {},
  files: Record<string, string> = {},
  steps: PipelineStep[] = [],
): Promise<RealServer> {
  const root = await Deno.makeTempDir({ prefix: "graver-http-" });
  for (const [path, text] of Object.entries(files)) await Deno.writeTextFile(`${root}/${path}`, text);
  const events = new EventHub();
  const workspace = await createWorkspace({ backend: createDiskBackend(), root, telemetry: events, steps });
  const surface = createHttpApp({ workspace, events, ...options });
  const server = await serve(surface.fetch, { hostname: "127.0.0.1", port: 0 });
  return {
    port: server.port,
    url: `http://127.0.0.1:${server.port}`,
    root,
    workspace,
    events,
    async stop() {
      await surface.close();
      await server.shutdown();
      await workspace.close();
      await Deno.remove(root, { recursive: true });
    },
  };
}

/** An open raw connection to a server. */
export interface RawConnection {
  /** Send text. */
  send(text: string): Promise<void>;
  /**
   * Read until the response head and its `Content-Length` body have arrived, the server closes, or
   * `waitMs` passes (then `answered` is false: the server did not answer).
   */
  response(waitMs: number): Promise<{ answered: boolean; status: number; head: string; body: string }>;
  /** Close the socket. */
  close(): void;
}

/**
 * Open a TCP connection to `127.0.0.1:port`.
 *
 * @param port The server's port.
 * @returns The connection.
 */
export async function rawConnect(port: number): Promise<RawConnection> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const enc = new TextEncoder();
  let closed = false;
  return {
    async send(text) {
      await conn.write(enc.encode(text));
    },
    async response(waitMs) {
      const dec = new TextDecoder();
      const buf = new Uint8Array(16384);
      let text = "";
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<"late">((r) => timer = setTimeout(() => r("late"), waitMs));
      try {
        for (;;) {
          const split = text.indexOf("\r\n\r\n");
          if (split >= 0) {
            const head = text.slice(0, split);
            const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
            const body = text.slice(split + 4);
            if (body.length >= length) {
              return { answered: true, status: Number(head.split(" ")[1]), head, body };
            }
          }
          const n = await Promise.race([conn.read(buf), late]);
          if (n === "late" || n === null) return { answered: false, status: 0, head: text, body: "" };
          text += dec.decode(buf.subarray(0, n));
        }
      } finally {
        clearTimeout(timer);
      }
    },
    close() {
      if (closed) return;
      closed = true;
      try {
        conn.close();
      } catch {
        // Already closed by the server.
      }
    },
  };
}
