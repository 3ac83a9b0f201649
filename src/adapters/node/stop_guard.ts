/**
 * `untilStopped` for a graver server in Node: SIGINT/SIGTERM through `node:process` (Node's signal API),
 * the grace after a signal and the stall limit kept by a watchdog thread (`node:worker_threads`), so that
 * both end the process even while the main thread is blocked. The same behaviour as Deno's
 * `adapters/deno/stop_guard.ts`, but for when a signal is heard: see `../_process_stop_guard.ts`.
 *
 * ```ts ignore
 * import { untilStopped } from "@graver/core/adapters/node/stop_guard";
 * const server = await serve(surface.fetch, { hostname: "127.0.0.1", port: 8787 });
 * await untilStopped({ graceMs: 10_000 }); // SIGINT or SIGTERM
 * await surface.close();
 * await server.shutdown(); // the requests in flight finish; past the grace the guard ends the process
 * await workspace.close(); // waits for the calls already made (a commit is never cut)
 * ```
 *
 * @module
 */
export { armStopGuard, untilStopped } from "../_process_stop_guard.ts";
