/**
 * The stop guard's worker (see `stop_guard.ts`): it has an event loop of its
 * own, so it hears SIGINT/SIGTERM and notices a silent main thread even while
 * the main thread is blocked in synchronous work.
 *
 * Messages in: `{ type: "start", graceMs, stallMs }`, `{ type: "beat" }`.
 * Messages out: `{ type: "armed" }` once listening, `{ type: "stop", signal }`.
 *
 * @module
 */

/** The worker's global scope (Deno's checker types `self` as a window). */
const scope = self as unknown as {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
};

/** Say why on stderr, then end the whole process (Deno.exit in a worker ends only the worker). */
function kill(why: string): never {
  try {
    Deno.stderr.writeSync(new TextEncoder().encode(`graver serve: ${why}\n`));
  } finally {
    Deno.kill(Deno.pid, "SIGKILL");
  }
  throw new Error("unreachable");
}

let lastBeat = Date.now();
scope.onmessage = (event: MessageEvent) => {
  const message = event.data as { type: string; graceMs?: number; stallMs?: number };
  if (message.type === "beat") {
    lastBeat = Date.now();
    return;
  }
  if (message.type !== "start") return;
  const graceMs = message.graceMs ?? 0;
  const stallMs = message.stallMs ?? 0;
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => {
      if (stopping) kill(`${signal} again: exiting now`);
      stopping = true;
      scope.postMessage({ type: "stop", signal });
      if (graceMs > 0) {
        setTimeout(() => kill(`still not stopped ${graceMs} ms after ${signal}: exiting`), graceMs);
      }
    });
  }
  if (stallMs > 0) {
    lastBeat = Date.now();
    setInterval(() => {
      const silent = Date.now() - lastBeat;
      if (silent > stallMs) {
        kill(
          `the event loop has been blocked for ${silent} ms (a call stuck in synchronous work, past ${stallMs} ms): exiting so that a supervisor can restart the server`,
        );
      }
    }, Math.min(1000, Math.max(50, stallMs / 4)));
  }
  scope.postMessage({ type: "armed" });
};
