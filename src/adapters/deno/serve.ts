/**
 * Serve a fetch handler with `Deno.serve` (the HTTP surface's glue for Deno).
 *
 * @module
 */
import type { ServeHandle, ServeOptions } from "../../surfaces/cli_serve.ts";

/**
 * Listen on `hostname:port` with `Deno.serve`.
 *
 * @example Serve the HTTP surface
 * ```ts ignore
 * import { serve } from "@graver/core/adapters/deno/serve";
 * const server = await serve(surface.fetch, { hostname: "127.0.0.1", port: 8787 });
 * ```
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
    const server = Deno.serve({
      hostname: options.hostname,
      port: options.port,
      onListen: (addr) => {
        resolve({
          hostname: addr.hostname,
          port: addr.port,
          shutdown: () => server.shutdown(),
        });
      },
    }, (request) => fetch(request));
  });
}
