/**
 * What a server knows about the tool calls it is running: which are in
 * flight and which have outlived the request time limit. A workspace runs
 * one call at a time, so a call that hangs past its limit holds every later
 * one; before this, each of them waited out its own limit and answered 504.
 * Now a new call is refused at once (503 `limit_exceeded`, naming the stuck
 * call) while one is stuck, and `GET /v1/health` answers 503 with the stuck
 * calls, so that a supervisor can restart the server. (A handler stuck in
 * synchronous work blocks the whole event loop; that is the serving glue's
 * watchdog to end: see `ServeHost.untilStopped`.)
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { withTimeLimit } from "./_time_limit.ts";

/** A call that outlived its time limit and has not settled. */
export interface StuckCall {
  /** The tool. */
  tool: string;
  /** When it started (ms since the epoch). */
  started: number;
  /** Its time limit in ms. */
  time_limit_ms: number;
}

/**
 * The calls of one server, watched against the request time limit.
 *
 * @example A call past its limit is reported until it settles
 * ```ts
 * import { CallWatch } from "./http_call_watch.ts";
 * import assert from "node:assert/strict";
 *
 * const watch = new CallWatch();
 * let finish = () => {};
 * const hung = new Promise<string>((resolve) => finish = () => resolve("late"));
 * await assert.rejects(watch.run("read_file", hung, 10), /no result within 10 ms/);
 * assert.equal(watch.stuck()[0]?.tool, "read_file");
 * finish();
 * await hung;
 * await Promise.resolve();
 * assert.deepEqual(watch.stuck(), []);
 * ```
 */
export class CallWatch {
  #inFlight = 0;
  readonly #stuck = new Set<StuckCall>();

  /** Calls started and not settled. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /**
   * The calls that outlived their time limit and are still running.
   *
   * @returns Oldest first.
   */
  stuck(): StuckCall[] {
    return [...this.#stuck];
  }

  /**
   * Refuse a new call while another one is stuck past its time limit: it would only wait behind it.
   *
   * @param tool The tool about to be called.
   * @throws `limit_exceeded` naming the stuck call.
   */
  assertNotStuck(tool: string): void {
    const first = this.#stuck.values().next().value;
    if (!first) return;
    const seconds = Math.round((Date.now() - first.started) / 1000);
    throw new RecoverableError(
      "limit_exceeded",
      `Cannot run ${tool}: the workspace is still busy with ${first.tool}, which has run for ${seconds} s, past its ${first.time_limit_ms} ms limit`,
      {
        hint:
          "Calls run one at a time: retry after a while. GET /v1/health answers 503 while a call is stuck; restart the server if it stays so",
        details: { stuck_calls: this.stuck() },
      },
    );
  }

  /**
   * Wait for a call at most `timeoutMs` ms (0: no limit); past it the caller gets `limit_exceeded` and the
   * call is reported stuck until it settles.
   *
   * @param tool The tool.
   * @param work The call.
   * @param timeoutMs The request time limit.
   * @returns The call's value.
   */
  async run<T>(tool: string, work: Promise<T>, timeoutMs: number): Promise<T> {
    this.#inFlight++;
    const started = Date.now();
    let entry: StuckCall | undefined;
    let settled = false;
    void work.then(() => {}, () => {}).then(() => {
      settled = true;
      this.#inFlight--;
      if (entry) this.#stuck.delete(entry);
    });
    try {
      return await withTimeLimit(work, timeoutMs, tool);
    } catch (err) {
      if (!settled && err instanceof RecoverableError && err.details?.["time_limit_ms"] !== undefined) {
        entry = { tool, started, time_limit_ms: timeoutMs };
        this.#stuck.add(entry);
      }
      throw err;
    }
  }
}
