/**
 * The stop guard of the Node and Bun adapters (their `untilStopped`), the counterpart of Deno's
 * `deno/stop_guard.ts` on `node:process` signals and a `node:worker_threads` watchdog: SIGINT/SIGTERM resolve
 * `stopped` (the server then ends its streams, lets the requests in flight finish and closes), a second signal
 * ends the process at once, and a shutdown still unfinished `graceMs` after the signal ends it too. The main
 * thread beats every 250 ms; silent for `stallMs` (an event loop blocked by a call stuck in synchronous work),
 * the process is ended, for a supervisor to restart it. The watchdog thread owns the grace and the stall
 * timers, so both fire while the main thread is blocked.
 *
 * One difference from Deno: Node and Bun deliver signals to the main thread only (a worker cannot listen for
 * them), so a signal that arrives while the main thread is blocked is heard when it unblocks or, sooner, when
 * the stall limit ends the process.
 *
 * @module
 */
import process from "node:process";
import { Worker } from "node:worker_threads";
import type { StopGuard } from "../surfaces/cli_serve.ts";

/** How often the main thread tells the watchdog it is alive. */
const BEAT_MS = 250;

/**
 * The watchdog's source (CommonJS, run as a worker thread: a string, so a bundled server carries it). It says
 * why on stderr with a synchronous write (the main thread, which relays a worker's `process.stderr`, may be
 * blocked) and ends the process with SIGKILL, as Deno's guard does.
 */
const WATCHDOG = `
const { parentPort } = require("node:worker_threads");
const { writeSync } = require("node:fs");
function kill(why) {
  try { writeSync(2, "graver serve: " + why + "\\n"); } finally { process.kill(process.pid, "SIGKILL"); }
}
let lastBeat = Date.now();
let graceMs = 0;
parentPort.on("message", (m) => {
  if (m.type === "beat") { lastBeat = Date.now(); return; }
  if (m.type === "stop") {
    if (graceMs > 0) setTimeout(() => kill("still not stopped " + graceMs + " ms after " + m.signal + ": exiting"), graceMs);
    return;
  }
  if (m.type === "again") { kill(m.signal + " again: exiting now"); return; }
  if (m.type !== "start") return;
  graceMs = m.graceMs;
  const stallMs = m.stallMs;
  if (stallMs > 0) {
    lastBeat = Date.now();
    setInterval(() => {
      const silent = Date.now() - lastBeat;
      if (silent > stallMs) {
        kill("the event loop has been blocked for " + silent + " ms (a call stuck in synchronous work, past " +
          stallMs + " ms): exiting so that a supervisor can restart the server");
      }
    }, Math.min(1000, Math.max(50, stallMs / 4)));
  }
  parentPort.postMessage({ type: "armed" });
});
`;

/**
 * Arm the stop guard: resolves once its watchdog runs and the signal listeners are in place.
 *
 * @example
 * ```ts ignore
 * import { armStopGuard } from "@graver/core/adapters/node/stop_guard";
 * const { stopped } = await armStopGuard({ graceMs: 10_000, stallMs: 70_000 });
 * await stopped; // SIGINT or SIGTERM
 * ```
 *
 * @param guard The grace after a signal and the stall limit (0 or absent: none).
 * @returns `stopped`: resolves when a stop signal arrives.
 */
export function armStopGuard(guard: StopGuard = {}): Promise<{ stopped: Promise<void> }> {
  const watchdog = new Worker(WATCHDOG, { eval: true });
  watchdog.unref(); // it never keeps a finished server alive
  const beat = setInterval(() => watchdog.postMessage({ type: "beat" }), BEAT_MS);
  beat.unref();
  let stop = () => {};
  const stopped = new Promise<void>((resolve) => stop = resolve);
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      watchdog.postMessage({ type: stopping ? "again" : "stop", signal });
      stopping = true;
      stop();
    });
  }
  return new Promise((armed) => {
    watchdog.on("message", (message: { type?: string }) => {
      if (message.type === "armed") armed({ stopped });
    });
    watchdog.postMessage({ type: "start", graceMs: guard.graceMs ?? 0, stallMs: guard.stallMs ?? 0 });
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
