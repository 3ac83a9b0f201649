/**
 * Serve a fetch handler with `Bun.serve` (the HTTP surface's glue for Bun).
 *
 * @module
 */
import type { ServeHandle, ServeOptions } from "../../surfaces/cli_serve.ts";

/** The part of Bun's global this module uses (Deno's checker has no Bun types). */
declare const Bun: {
  serve(options: {
    hostname: string;
    port: number;
    idleTimeout: number;
    fetch(request: Request): Promise<Response>;
  }): { hostname: string; port: number; stop(closeActive?: boolean): Promise<void> | void };
};

/**
 * Listen on `hostname:port` with `Bun.serve`. The idle timeout is off: an
 * event stream or a long tool call may be quiet for a while.
 *
 * @param fetch The app's fetch handler.
 * @param options Address and port (0: any free port).
 * @returns The listening server.
 */
export function serve(
  fetch: (request: Request) => Promise<Response>,
  options: ServeOptions,
): Promise<ServeHandle> {
  const server = Bun.serve({ hostname: options.hostname, port: options.port, idleTimeout: 0, fetch });
  return Promise.resolve({
    hostname: server.hostname,
    port: server.port,
    // Stop listening; a request in flight finishes first (its commit and its answer), as with Deno.serve: a
    // stop guard's grace bounds how long that may take.
    shutdown: async () => {
      await server.stop();
    },
  });
}
