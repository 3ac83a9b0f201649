/**
 * Checkpoints on lightning-fs (IndexedDB) in Chromium: record commits in the
 * shadow repository under `.graver/checkpoints/`, list them, undo (itself
 * hash-guarded), restore, and find them again from a second lightning-fs
 * instance over the same database (a reload). Not part of the conformance
 * digest.
 *
 * @module
 */
import { type Backend, BackendFs, createWorkspace } from "../../../src/mod.ts";
import { check, equal } from "../../conformance/assert.ts";
import { refused, succeeded } from "../../conformance/cases/_calls.ts";

/**
 * Run the checkpoint round trip under `root`.
 *
 * @param open Opens a new backend instance over the shared store.
 * @param root A fresh directory to work in.
 * @returns "<what> checkpoints ok".
 */
export async function checkpointsSmoke(open: () => Backend, root: string): Promise<string> {
  const backend = open();
  const ws = await createWorkspace({ backend, root, checkpoints: true });
  const text = async (path: string) => {
    const bytes = await BackendFs.wrap(backend).read(`${root}/${path}`);
    return bytes === null ? null : new TextDecoder().decode(bytes);
  };
  succeeded(await ws.call("create_file", { path: "src/a.txt", content: "one\n" }), "applied");
  const v1 = succeeded(await ws.call("read_file", { path: "src/a.txt" }), "read").data["version"];
  succeeded(
    await ws.call("write_file", { path: "src/a.txt", content: "two\n", expected_version: v1 }),
    "applied",
  );
  succeeded(await ws.call("create_file", { path: "b.txt", content: "bee\n" }), "applied");
  const listed = succeeded(await ws.call("checkpoint_list", {}), "read");
  equal(listed.data["total"], 3, "checkpoints recorded");

  // Undo walks back: b.txt goes, then a.txt returns to "one".
  succeeded(await ws.call("checkpoint_undo", {}), "applied");
  equal(await text("b.txt"), null, "b.txt after the first undo");
  succeeded(await ws.call("checkpoint_undo", {}), "applied");
  equal(await text("src/a.txt"), "one\n", "a.txt after the second undo");

  // A reload: a new lightning-fs instance over the same database sees the history.
  const again = await createWorkspace({ backend: open(), root, checkpoints: true });
  const after = succeeded(await again.call("checkpoint_list", {}), "read");
  const entries = after.data["checkpoints"] as { id: string; undone: boolean; undoes?: string }[];
  equal(after.data["total"], 5, "checkpoints after a reload");
  check(entries.filter((c) => c.undone).length === 2, "two checkpoints marked undone");

  // Hash-guarded: a file changed outside graver is not reverted.
  await BackendFs.wrap(backend).raw.writeFile(
    `${root}/src/a.txt`,
    new TextEncoder().encode("edited by hand\n"),
  );
  refused(await again.call("checkpoint_undo", {}), "stale_base");
  equal(await text("src/a.txt"), "edited by hand\n", "a.txt after the refused undo");

  // Restore brings every file changed since the write back to its state right after it.
  await BackendFs.wrap(backend).raw.writeFile(`${root}/src/a.txt`, new TextEncoder().encode("one\n"));
  const second = entries[3]!; // newest first: undo, undo, create b.txt, write a.txt, create a.txt
  succeeded(await again.call("checkpoint_restore", { id: second.id.slice(0, 8) }), "applied");
  equal(await text("src/a.txt"), "two\n", "a.txt after restoring the write");
  equal(await text("b.txt"), null, "b.txt after restoring the write");
  return "backend checkpoints ok";
}
