/**
 * A process whose main thread blocks in synchronous work (Atomics.wait: no
 * CPU spent) once the stop guard is armed: `term` has a grace of 300 ms
 * after SIGTERM, `stall` a stall limit of 300 ms. It prints "ready" before
 * it blocks and "unblocked" if it ever gets out (8 s later).
 *
 * @module
 */
import { armStopGuard } from "../../../src/adapters/deno/stop_guard.ts";

const mode = Deno.args[0];
const { stopped } = await armStopGuard(mode === "term" ? { graceMs: 300 } : { stallMs: 300 });
console.log("ready");
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 8_000);
console.log("unblocked");
await Promise.race([stopped, new Promise((r) => setTimeout(r, 100))]);
Deno.exit(0);
