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
        // Stop listening and close the idle connections; a request in flight finishes first (its commit
        // and its answer), as with Deno.serve: a stop guard's grace bounds how long that may take. Its
        // keep-alive connection is closed as soon as it is idle (Node closes only those idle at close()).
        shutdown: () =>
          new Promise<void>((done) => {
            const idle = server as { closeIdleConnections?: () => void };
            const sweep = setInterval(() => idle.closeIdleConnections?.(), 50);
            server.close(() => {
              clearInterval(sweep);
              done();
            });
            idle.closeIdleConnections?.();
          }),
      });
    });
  });
}
