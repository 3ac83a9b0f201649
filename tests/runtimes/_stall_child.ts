/**
 * A Node or Bun process whose main thread blocks in synchronous work (Atomics.wait: no CPU spent) once its
 * adapter's stop guard is armed with a stall limit of 300 ms (`tests/surfaces/serve_stop_runtimes_test.ts`).
 * It prints "ready" before it blocks and "unblocked" if it ever gets out (8 s later). Runtime-neutral: both
 * adapters export the same guard; the Bun one is imported (Node runs the bundle of this file).
 *
 * @module
 */
import process from "node:process";
import { armStopGuard } from "../../src/adapters/bun/stop_guard.ts";

await armStopGuard({ stallMs: 300 });
process.stdout.write("ready\n");
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 8_000);
process.stdout.write("unblocked\n");
process.exit(0);
