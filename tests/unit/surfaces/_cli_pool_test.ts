import assert from "node:assert/strict";
import { withCommandPool } from "../../../src/surfaces/_cli_pool.ts";
import type { MatchPool } from "../../../src/structural/search/match_pool.ts";
import type { CliHost } from "../../../src/surfaces/_cli_contract.ts";

/** A host whose pool only counts its closes, and an opener that records what it was asked. */
function setting() {
  let closed = 0;
  const pool = { close: () => closed++ } as unknown as MatchPool;
  const asked: unknown[] = [];
  const invocation = {
    host: { matchPool: () => Promise.resolve(pool) } as unknown as CliHost,
    open: (
      _root: string | undefined,
      options?: unknown,
    ) => (asked.push(options), Promise.resolve({} as never)),
  };
  return { pool, asked, invocation, closed: () => closed };
}

Deno.test("withCommandPool: every workspace the command opens gets the pool and the parse limit; the pool is closed after", async () => {
  const { pool, asked, invocation, closed } = setting();
  const out = await withCommandPool(invocation, async (open) => {
    await open("/a");
    await open("/b");
    assert.equal(closed(), 0, "open while the command runs");
    return 7;
  }, { maxParseBytes: 1024 });
  assert.equal(out, 7);
  assert.deepEqual(asked, [{ matchPool: pool, maxParseBytes: 1024 }, {
    matchPool: pool,
    maxParseBytes: 1024,
  }]);
  assert.equal(closed(), 1);
});

Deno.test("withCommandPool: a command that fails still closes its pool", async () => {
  const { invocation, closed } = setting();
  await assert.rejects(() => withCommandPool(invocation, () => Promise.reject(new Error("boom"))), /boom/);
  assert.equal(closed(), 1);
});
