/**
 * `untilStopped` for Deno's `graver serve` and `graver mcp`: SIGINT/SIGTERM
 * are heard by a worker (`_stop_guard_worker.ts`), not by the main thread,
 * so that a signal is acted on even when the main thread is blocked or the
 * shutdown hangs on a request in flight: after `graceMs` the process is
 * killed. The main thread beats every 250 ms; silent for `stallMs` (an event
 * loop blocked by a call stuck in synchronous work, where no time limit can
 * fire), the process is killed too, for a supervisor to restart it.
 *
 * @module
 */
import type { StopGuard } from "../../surfaces/cli_serve.ts";

/** How often the main thread tells the worker it is alive. */
const BEAT_MS = 250;

/**
 * Arm the stop guard: resolves once its worker listens for signals (and watches the main thread).
 *
 * @example
 * ```ts ignore
 * const { stopped } = await armStopGuard({ graceMs: 10_000, stallMs: 70_000 });
 * await stopped; // SIGINT or SIGTERM
 * ```
 *
 * @param guard The grace after a signal and the stall limit (0 or absent: none).
 * @returns `stopped`: resolves when a stop signal arrives.
 */
export function armStopGuard(guard: StopGuard = {}): Promise<{ stopped: Promise<void> }> {
  const worker = new Worker(new URL("./_stop_guard_worker.ts", import.meta.url), { type: "module" });
  const beat = setInterval(() => worker.postMessage({ type: "beat" }), BEAT_MS);
  Deno.unrefTimer(beat);
  let stop = () => {};
  const stopped = new Promise<void>((resolve) => stop = resolve);
  return new Promise((armed) => {
    worker.onmessage = (event: MessageEvent) => {
      const type = (event.data as { type?: string }).type;
      if (type === "armed") armed({ stopped });
      if (type === "stop") stop();
    };
    worker.postMessage({ type: "start", graceMs: guard.graceMs ?? 0, stallMs: guard.stallMs ?? 0 });
  });
}

/**
 * Resolve on SIGINT or SIGTERM, guarding the stop as `guard` says (see {@linkcode armStopGuard}).
 *
 * @param guard The grace after a signal and the stall limit (0 or absent: none).
 * @returns Resolves when a stop signal arrives.
 */
export async function untilStopped(guard: StopGuard = {}): Promise<void> {
  const { stopped } = await armStopGuard(guard);
  await stopped;
}
