/**
 * The per-request time limit the served surfaces share.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";

/**
 * Wait for `work`, at most `ms` milliseconds. On expiry the caller gets a
 * `limit_exceeded` error; the work itself cannot be cancelled and goes on
 * (a commit already under way completes), which the hint says.
 *
 * @param work The call.
 * @param ms The limit (0 or less: none).
 * @param what What is being waited for, e.g. `"read_file"`.
 * @returns The work's value.
 */
export function withTimeLimit<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  if (!(ms > 0) || !Number.isFinite(ms)) return work;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        new RecoverableError("limit_exceeded", `Cannot answer ${what}: no result within ${ms} ms`, {
          hint:
            "The call may still complete: read the files it touches (their versions) before retrying, or split the work into smaller calls",
          details: { time_limit_ms: ms },
        }),
      );
    }, ms);
  });
  return Promise.race([work, expiry]).finally(() => clearTimeout(timer));
}
