/**
 * A commit of a large file on the disk holds no extra whole copy of it: the compare-and-swap and the re-check
 * before the rename compare the file with the staged original piece by piece, and a single original is the
 * backup pack itself. The guarantees stay: a change by another writer is refused (`stale_base`) at either point.
 */
import assert from "node:assert/strict";
import { BackendFs, isRecoverable } from "../../../src/mod.ts";
import type { Backend } from "../../../src/fs/backend.ts";
import { commitChanges } from "../../../src/fs/commit.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import { Stage } from "../../../src/fs/stage.ts";
import { IN_PLACE_HASH_BYTES, versionOf } from "../../../src/fs/version.ts";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";

/** A text file just over the size from which a commit compares in pieces. */
function bigText(): Uint8Array {
  const line = new TextEncoder().encode("export const value = 1;\n");
  const out = new Uint8Array(IN_PLACE_HASH_BYTES + line.length * 10);
  for (let at = 0; at + line.length <= out.length; at += line.length) out.set(line, at);
  return out.fill(0x0a, out.length - (out.length % line.length));
}

/** The disk, with every whole-file read of `path` and every write recorded. */
function recordingDisk(path: string) {
  const disk = createDiskBackend();
  const wholeReads: string[] = [];
  const writes: { path: string; bytes: Uint8Array }[] = [];
  let beforeOpen: ((n: number) => Promise<void>) | null = null;
  let opens = 0;
  const backend: Backend = {
    ...disk,
    readFile: (p) => {
      if (p.endsWith(path)) wholeReads.push(p);
      return disk.readFile(p);
    },
    writeFile: (p, bytes, options) => {
      writes.push({ path: p, bytes });
      return disk.writeFile(p, bytes, options);
    },
    openReader: async (p) => {
      if (beforeOpen !== null) await beforeOpen(++opens);
      return disk.openReader!(p);
    },
  };
  return {
    backend,
    wholeReads,
    writes,
    onOpen: (fn: (n: number) => Promise<void>) => beforeOpen = fn,
  };
}

/** A root on the disk with `big.ts`, a stage over `backend` that rewrote its first line, and the bytes. */
async function stagedEdit(backend: Backend) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "graver-commit-large-" }));
  const original = bigText();
  await Deno.writeFile(`${root}/big.ts`, original);
  const fs = BackendFs.wrap(backend);
  const sandbox = new Sandbox(root);
  const stage = new Stage(fs, sandbox);
  const edited = (await stage.read("big.ts"))!.bytes.slice();
  edited.set(new TextEncoder().encode("export const value = 2;\n"));
  await stage.write("big.ts", edited);
  return { root, fs, sandbox, changes: stage.changes(), original, edited };
}

Deno.test("commitChanges() lands a large file without reading it whole again, its backup the staged original itself", async () => {
  const disk = recordingDisk("/big.ts");
  const { root, fs, sandbox, changes, edited } = await stagedEdit(disk.backend);
  try {
    disk.wholeReads.length = 0;
    const [landed] = await commitChanges({ fs, sandbox }, changes);
    assert.equal(landed!.after_version, await versionOf(edited));
    assert.deepEqual(await Deno.readFile(`${root}/big.ts`), edited);
    // Before: the compare-and-swap and the re-check before the rename each read the whole file again.
    assert.deepEqual(disk.wholeReads, []);
    const pack = disk.writes.find((w) => w.path.endsWith("/originals.pack"));
    assert.ok(pack, "a backup pack was written");
    assert.equal(pack.bytes, changes[0]!.before, "the pack is written from the staged original, not a copy");
    assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name), ["big.ts"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("commitChanges() refuses a large file another writer changed after it was staged (same size, last byte)", async () => {
  const disk = recordingDisk("/big.ts");
  const { root, fs, sandbox, changes, original } = await stagedEdit(disk.backend);
  try {
    const theirs = original.slice();
    theirs[theirs.length - 2] = 0x20;
    await Deno.writeFile(`${root}/big.ts`, theirs);
    const theirsVersion = await versionOf(theirs);
    await assert.rejects(
      () => commitChanges({ fs, sandbox }, changes),
      (e) => isRecoverable(e, "stale_base") && e.details?.["current_version"] === theirsVersion,
    );
    assert.deepEqual(await Deno.readFile(`${root}/big.ts`), theirs);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("commitChanges() refuses a large file changed between the compare-and-swap and its rename, and rolls back", async () => {
  const disk = recordingDisk("/big.ts");
  const { root, fs, sandbox, changes, original } = await stagedEdit(disk.backend);
  const theirs = original.slice();
  theirs[0] = 0x45; // "Export…": the first byte, the first piece compared
  // The first piece-by-piece read is the compare-and-swap, the second the re-check just before the rename.
  disk.onOpen(async (n) => {
    if (n === 2) await Deno.writeFile(`${root}/big.ts`, theirs);
  });
  try {
    await assert.rejects(
      () => commitChanges({ fs, sandbox }, changes),
      (e) => isRecoverable(e, "stale_base"),
    );
    assert.deepEqual(await Deno.readFile(`${root}/big.ts`), theirs);
    assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name), ["big.ts"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
