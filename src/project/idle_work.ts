/**
 * Work put off until its caller is idle ({@linkcode IdleWork}): begun by a timer a moment after the call that
 * left it has returned, or at once by the next call that needs it done, whichever comes first. A read cache
 * sets up its watch of a tree this way, after the search that listed the tree rather than inside it.
 *
 * @module
 */

/**
 * Pieces of work run one after another, each begun by a timer or by {@linkcode IdleWork.now}.
 *
 * @example Put off, then needed at once
 * ```ts
 * import assert from "node:assert/strict";
 * import { IdleWork } from "./idle_work.ts";
 *
 * const idle = new IdleWork();
 * const done: string[] = [];
 * idle.later(() => Promise.resolve(void done.push("watch")), 60_000);
 * assert.deepEqual(done, []);
 * await idle.now(); // the next search needs it: it runs now, its timer cleared
 * assert.deepEqual(done, ["watch"]);
 * ```
 */
export class IdleWork {
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Put off and not yet begun, in order. */
  #queue: (() => Promise<void>)[] = [];
  /** The work begun so far, ended when this settles (a failure is the work's own: it is not thrown on). */
  #running: Promise<void> = Promise.resolve();

  /**
   * Put `work` off for `delayMs` (after anything put off before it, whose timer then stands).
   *
   * @param work What to do.
   * @param delayMs How long after now it begins, unless {@linkcode IdleWork.now} begins it first.
   */
  later(work: () => Promise<void>, delayMs: number): void {
    this.#queue.push(work);
    this.#timer ??= setTimeout(() => void this.now(), delayMs);
  }

  /**
   * Begin now what was put off, and wait until every piece begun has ended.
   *
   * @returns When all of it has ended (failed pieces included).
   */
  now(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const queue = this.#queue.splice(0);
    if (queue.length > 0) {
      this.#running = this.#running.then(async () => {
        for (const work of queue) await work().catch(() => {});
      });
    }
    return this.#running;
  }

  /**
   * Drop what was put off and not yet begun; wait for what has begun.
   *
   * @returns When the work begun has ended.
   */
  cancel(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#queue = [];
    return this.#running;
  }
}
