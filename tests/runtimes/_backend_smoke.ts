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
