/**
 * A cheap, runtime-neutral smoke test of a persistent backend (lightning-fs
 * in Chromium): one round trip with a stale base, a move and a delete. Not
 * part of the conformance digest.
 *
 * @module
 */
import { type Backend, BackendFs, createWorkspace } from "../../src/mod.ts";
import { equal } from "../conformance/assert.ts";
import { refused, succeeded } from "../conformance/cases/_calls.ts";

/**
 * Run the smoke test under `root` on a backend.
 *
 * @param backend The backend (empty or not: `root` is created).
 * @param root A fresh directory to work in.
 * @returns "<what> smoke ok".
 */
export async function backendSmoke(backend: Backend, root: string): Promise<string> {
  const ws = await createWorkspace({ backend, root });
  const other = await createWorkspace({ backend, root });
  succeeded(await ws.call("create_file", { path: "src/a.txt", content: "\uFEFFone\r\ntwo\r\n" }), "applied");
  const read = succeeded(await ws.call("read_file", { path: "src/a.txt" }), "read");
  const v0 = read.data["version"];
  succeeded(
    await ws.call("write_file", { path: "src/a.txt", content: "\uFEFFone\r\nTWO\r\n", expected_version: v0 }),
    "applied",
  );
  refused(
    await other.call("write_file", { path: "src/a.txt", content: "x\n", expected_version: v0 }),
    "stale_base",
  );
  succeeded(await ws.call("move_file", { from: "src/a.txt", to: "lib/a.txt" }), "applied");
  const bytes = await BackendFs.wrap(backend).read(`${root}/lib/a.txt`);
  equal(
    bytes && new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes),
    "\uFEFFone\r\nTWO\r\n",
    "stored bytes",
  );
  succeeded(await ws.call("delete_file", { path: "lib/a.txt" }), "applied");
  return "backend smoke ok";
}

/**
 * Several writers, each with its own backend instance over one store (as two
 * browser tabs have), commit concurrently from the same base version: exactly
 * one lands, every other is refused with `stale_base`, and the store holds
 * the winner's bytes whole.
 *
 * @param open Opens a new backend instance over the shared store.
 * @param root A fresh directory to work in.
 * @returns "<what> concurrency ok".
 */
export async function concurrencySmoke(open: () => Backend, root: string): Promise<string> {
  const first = await createWorkspace({ backend: open(), root });
  succeeded(await first.call("create_file", { path: "shared.txt", content: "base\n" }), "applied");
  const base = succeeded(await first.call("read_file", { path: "shared.txt" }), "read").data["version"];
  const writers = await Promise.all([0, 1, 2, 3].map(() => createWorkspace({ backend: open(), root })));
  const results = await Promise.all(
    writers.map((ws, i) =>
      ws.call("write_file", {
        path: "shared.txt",
        content: `writer ${i}\n`.repeat(200),
        expected_version: base,
      })
    ),
  );
  const winners = results.flatMap((r, i) => r.ok ? [i] : []);
  equal(winners.length, 1, "commits that landed");
  for (const r of results) if (!r.ok) refused(r, "stale_base");
  const bytes = await BackendFs.wrap(open()).read(`${root}/shared.txt`);
  equal(bytes && new TextDecoder().decode(bytes), `writer ${winners[0]}\n`.repeat(200), "stored bytes");
  return "backend concurrency ok";
}
