/**
 * The match pool of a one-shot structural command (`graver sg`, `graver call search_structural`): asked of the
 * host once, handed to every workspace the command opens, and closed when the command ends. Its workers start
 * only once a search has much to parse (the host's `startChars`), so a small search never pays for them.
 *
 * @module
 */
import type { CliInvocation } from "./_cli_contract.ts";

/**
 * Run a command with the host's match pool (where it has one) in the workspaces it opens.
 *
 * @example A host without a pool: the command's own opener, and nothing to close
 * ```ts
 * import assert from "node:assert/strict";
 * import { withCommandPool } from "./_cli_pool.ts";
 *
 * const asked: unknown[] = [];
 * const invocation = {
 *   flags: {}, values: {}, positional: [],
 *   host: {} as never,
 *   open: (root: string | undefined, options?: unknown) => (asked.push(options), Promise.resolve({} as never)),
 * };
 * await withCommandPool(invocation, (open) => open("/w"), { maxParseBytes: 1024 });
 * assert.deepEqual(asked, [{ maxParseBytes: 1024 }]);
 * ```
 *
 * @param invocation The command's invocation (its host and opener).
 * @param run The command, given the opener to use.
 * @param options `maxParseBytes`: the parse limit of the workspaces it opens.
 * @returns What the command returns.
 */
export async function withCommandPool<T>(
  invocation: Pick<CliInvocation, "host" | "open">,
  run: (open: CliInvocation["open"]) => Promise<T>,
  options: { maxParseBytes?: number } = {},
): Promise<T> {
  const pool = await invocation.host.matchPool?.();
  const opened = { ...(pool ? { matchPool: pool } : {}), ...options };
  try {
    return await run((root, more) => invocation.open(root, { ...opened, ...more }));
  } finally {
    pool?.close();
  }
}
