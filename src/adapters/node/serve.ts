/**
 * Serve a fetch handler with `@hono/node-server` (the HTTP surface's glue
 * for Node).
 *
 * @module
 */
import { serve as nodeServe } from "@hono/node-server";
import type { ServeHandle, ServeOptions } from "../../surfaces/cli_serve.ts";

/**
 * Listen on `hostname:port` with Node's http server through @hono/node-server.
 *
 * @param fetch The app's fetch handler.
 * @param options Address and port (0: any free port).
 * @returns The listening server.
 */
export function serve(
  fetch: (request: Request) => Promise<Response>,
  options: ServeOptions,
): Promise<ServeHandle> {
  return new Promise((resolve) => {
    const server = nodeServe({ fetch, hostname: options.hostname, port: options.port }, (info) => {
      resolve({
        hostname: info.address,
        port: info.port,
        shutdown: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            (server as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      });
    });
  });
}
