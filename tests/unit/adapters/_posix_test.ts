import assert from "node:assert/strict";
import { MountTable } from "../../../src/adapters/_mounts.ts";
import { readOpenNow } from "../../../src/adapters/_posix.ts";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";
import { BackendFs } from "../../../src/fs/backend.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import * as fsp from "node:fs/promises";
import { closeSync, openSync } from "node:fs";

const dec = new TextDecoder();

/**
 * A tree on the disk: files of several sizes (one past the synchronous read's bound of a turn), a folder, a
 * FIFO, a link to a file inside and one to a file outside, and a folder reached through a link.
 */
async function fixture(): Promise<{ root: string; outside: string }> {
  const root = await Deno.makeTempDir({ prefix: "graver-read-many-" });
  const outside = await Deno.makeTempDir({ prefix: "graver-read-many-outside-" });
  await Deno.mkdir(`${root}/dir`);
  await Deno.writeTextFile(`${root}/dir/a.txt`, "alpha\n");
  await Deno.writeTextFile(`${root}/empty.txt`, "");
  await Deno.writeFile(`${root}/bin.dat`, new Uint8Array([0, 1, 2, 255, 0, 10]));
  await Deno.writeFile(`${root}/big.txt`, new Uint8Array(3 * 1024 * 1024 + 17).fill(120));
  await Deno.writeTextFile(`${outside}/secret.txt`, "outside\n");
  await Deno.symlink(`${root}/dir/a.txt`, `${root}/to_a`);
  await Deno.symlink(`${outside}/secret.txt`, `${root}/to_outside`);
  await Deno.symlink(`${root}/dir`, `${root}/to_dir`);
  await mkfifo(`${root}/fifo`);
  return { root, outside };
}

/** Make a named pipe with the system's `mkfifo`. */
async function mkfifo(path: string): Promise<void> {
  const { success } = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.ok(success, "mkfifo");
}

/** What a read answered, as something to compare: the text, null, or the error's code. */
function shown(got: Uint8Array | null | Error): string | null {
  if (got === null) return null;
  if (got instanceof Error) return `error ${(got as { code?: string }).code}`;
  return `bytes ${got.length} ${dec.decode(got.subarray(0, 16))}`;
}

/** What `BackendFs.read` answers for a path, as {@linkcode shown}. */
async function readOne(fs: BackendFs, path: string): Promise<string | null> {
  return shown(await fs.read(path).catch((err: Error) => err));
}

Deno.test("readMany answers as read does: bytes, links followed, a folder and a FIFO refused, absent files null", async () => {
  const { root, outside } = await fixture();
  try {
    const names = [
      "dir/a.txt",
      "empty.txt",
      "bin.dat",
      "big.txt",
      "to_a",
      "to_outside",
      "to_dir/a.txt",
      "dir",
      "fifo", // opened with O_NONBLOCK and refused on its fstat: no hang
      "gone.txt",
      "dir/a.txt/x",
    ];
    const paths = names.map((n) => `${root}/${n}`);
    const fs = BackendFs.wrap(createDiskBackend());
    const got = await fs.readMany(paths);
    const want = await Promise.all(paths.map((p) => readOne(fs, p)));
    assert.deepEqual(got.map(shown), want);
    assert.deepEqual(got.map(shown).slice(-4), ["error EISDIR", "error binary_file", null, null]);
    assert.equal((got[3] as Uint8Array).length, 3 * 1024 * 1024 + 17);
    assert.equal(dec.decode(got[0] as Uint8Array), "alpha\n");
    assert.equal((got[0] as Uint8Array).constructor, Uint8Array, "a plain array, not a pooled Buffer");
    // The FIFO's refusal says what it is, in the words `read` uses (what the descriptor is open on is told by
    // `/proc/self/fd` in Deno, by `fstat` elsewhere).
    const fifo = await fs.read(`${root}/fifo`).catch((err: Error) => err);
    assert.match((got[8] as Error).message, /a named pipe \(FIFO\)/);
    assert.equal((got[8] as Error).message, (fifo as Error).message);
    // The raw backend answers the absent file with the error readFile throws.
    const raw = await createDiskBackend().readMany!([`${root}/gone.txt`]);
    assert.equal((raw[0] as { code?: string }).code, "ENOENT");
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("readManyStated answers as readMany does, each file with the stat of what was read; no link followed", async () => {
  const { root, outside } = await fixture();
  try {
    // Read synchronously (local files) and asynchronously (the 3 MiB one, past a turn's bytes; a path through a
    // folder that is a link).
    const names = [
      "dir/a.txt",
      "empty.txt",
      "big.txt",
      "to_a",
      "to_outside",
      "to_dir/a.txt",
      "dir",
      "fifo",
      "gone.txt",
    ];
    const paths = names.map((n) => `${root}/${n}`);
    const fs = BackendFs.wrap(createDiskBackend());
    assert.ok(fs.readsStated);
    const stated = await fs.readManyStated(paths);
    const plain = await fs.readMany(paths);
    const bytesOf = (r: (typeof stated)[number]) => r === null || r instanceof Error ? r : r.bytes;
    // A path that is a link (its last part) is refused, ELOOP: a caller of real paths meets one only where a
    // link was swapped in. A folder above that is a link is the path's business (the walk gives real paths).
    const links = new Set(["to_a", "to_outside"]);
    assert.deepEqual(
      stated.map(bytesOf).map(shown),
      plain.map((p, i) => links.has(names[i]!) ? "error ELOOP" : shown(p)),
    );
    for (const [i, r] of stated.entries()) {
      if (r === null || r instanceof Error) continue;
      const target = await Deno.stat(paths[i]!); // the stat is of the file read
      assert.ok(r.stat.isFile(), names[i]);
      assert.equal(Number(r.stat.size), r.bytes.length, names[i]);
      assert.equal(Number((r.stat as { ino?: number }).ino), target.ino, names[i]);
      assert.equal(r.bytes.constructor, Uint8Array, "a plain array, not a pooled Buffer");
    }
    assert.deepEqual(stated.slice(-3).map((r) => r instanceof Error ? "error" : r), ["error", "error", null]);
    assert.equal(BackendFs.wrap(createMemoryBackend({})).readsStated, false);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("readMany reads a local regular file synchronously and a link's target asynchronously", async () => {
  if (MountTable.read()?.isLocal(Deno.realPathSync(Deno.env.get("TMPDIR") ?? "/tmp")) !== true) return;
  const { root, outside } = await fixture();
  try {
    const file = `${root}/dir/a.txt`;
    // The file is changed right after the call, before its promise is awaited: a synchronous read has read it
    // already, an asynchronous one reads what is there when it runs.
    const direct = createDiskBackend().readMany!([file]);
    Deno.writeTextFileSync(file, "beta\n");
    assert.equal(dec.decode((await direct)[0] as Uint8Array), "alpha\n");
    // The synchronous open never follows a link (O_NOFOLLOW): the link's target is read the async way.
    const linked = createDiskBackend().readMany!([`${root}/to_a`]);
    Deno.writeTextFileSync(file, "gamma\n");
    assert.equal(dec.decode((await linked)[0] as Uint8Array), "gamma\n");
    // Nor is a path through a folder that is a link read synchronously (syncStatable leaves it out).
    const throughLink = createDiskBackend().readMany!([`${root}/to_dir/a.txt`]);
    Deno.writeTextFileSync(file, "delta\n");
    assert.equal(dec.decode((await throughLink)[0] as Uint8Array), "delta\n");
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("readMany lets the event loop run between its chunks of synchronous reads", async () => {
  if (MountTable.read() === null) return; // no /proc: every read is async anyway
  const { root, outside } = await fixture();
  try {
    const paths = Array.from({ length: 600 }, () => `${root}/dir/a.txt`);
    let fired = false;
    setTimeout(() => fired = true, 0);
    const due = performance.now() + 5;
    while (performance.now() < due) { /* the timer is due before readMany starts */ }
    const read = createDiskBackend().readMany!(paths);
    assert.equal(fired, false, "the first chunk is read before the call returns");
    const got = await read;
    assert.equal(fired, true, "a due timer fired while readMany ran");
    assert.ok(got.every((b) => b instanceof Uint8Array && dec.decode(b) === "alpha\n"));
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("BackendFs.readMany without a backend readMany reads each file as read does", async () => {
  const { root, outside } = await fixture();
  try {
    const { readMany: _, ...plain } = createDiskBackend();
    const fs = BackendFs.wrap(plain);
    assert.equal(fs.readsMany, false);
    assert.equal(BackendFs.wrap(createDiskBackend()).readsMany, true);
    const paths = ["dir/a.txt", "fifo", "dir", "gone.txt"].map((n) => `${root}/${n}`);
    assert.deepEqual((await fs.readMany(paths)).map(shown), [
      "bytes 6 alpha\n",
      "error binary_file",
      "error EISDIR",
      null,
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("the disk's readdir with entry types lists as node:fs/promises' does: kinds, links, a FIFO, errors", async () => {
  const { root, outside } = await fixture();
  try {
    const disk = createDiskBackend();
    const viaNode = {
      ...disk,
      readdir: (p: string, o?: { withFileTypes?: boolean }) => fsp.readdir(p, o as never),
    };
    for (const dir of [root, `${root}/dir`, `${root}/to_dir`, "/"]) {
      assert.deepEqual(
        await BackendFs.wrap(disk).listTyped(dir),
        await BackendFs.wrap(viaNode as typeof disk).listTyped(dir),
        dir,
      );
    }
    assert.deepEqual((await BackendFs.wrap(disk).listTyped(root)).map((e) => `${e.name} ${e.kind}`), [
      "big.txt file",
      "bin.dat file",
      "dir dir",
      "empty.txt file",
      "fifo other",
      "to_a symlink",
      "to_dir symlink",
      "to_outside symlink",
    ]);
    // Errors carry node:fs's codes: an absent folder and a file are listed as empty by listTyped.
    for (const [path, code] of [[`${root}/gone`, "ENOENT"], [`${root}/empty.txt`, "ENOTDIR"]]) {
      const err = await disk.readdir(path!, { withFileTypes: true }).catch((e: Error) => e);
      assert.equal((err as { code?: string }).code, code, path);
      assert.deepEqual(await BackendFs.wrap(disk).listTyped(path!), []);
    }
    // Names alone (isomorphic-git's call) stay strings.
    assert.ok((await disk.readdir(`${root}/dir`)).every((n) => typeof n === "string"));
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("a folder statMany stat'ed alone is listed without another lstat in that turn, and only then", async () => {
  const { root, outside } = await fixture();
  const real = Deno.lstatSync;
  const lstats: string[] = [];
  Deno.lstatSync = (path) => (lstats.push(String(path)), real(path));
  try {
    const disk = createDiskBackend();
    const dir = `${root}/dir`;
    await disk.statMany!([dir]); // the mount table's check of the folders above may lstat them too
    const afterStat = lstats.filter((p) => p === dir).length;
    assert.deepEqual(await disk.readdir(dir, { withFileTypes: true }).then((es) => es.length), 1);
    assert.equal(lstats.filter((p) => p === dir).length, afterStat, "listed under the stat just taken");
    await disk.statMany!([dir]);
    await new Promise((resolve) => setTimeout(resolve, 5)); // a turn later the stat is old news
    await disk.readdir(dir, { withFileTypes: true });
    assert.equal(lstats.filter((p) => p === dir).length, afterStat + 2, "a later listing stats it again");
  } finally {
    Deno.lstatSync = real;
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("readOpenNow reads what a file holds: its stat'ed size, or more or less when it changed since", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graver-read-open-" });
  const path = `${dir}/f.txt`;
  // The file's size is stat'ed, then it changes, then it is read as a search reads it.
  const readAfter = (change: () => void): string => {
    const fd = openSync(path, "r");
    try {
      const size = Deno.statSync(path).size;
      change();
      const bytes = readOpenNow(fd, size);
      assert.equal(bytes.constructor, Uint8Array);
      return dec.decode(bytes);
    } finally {
      closeSync(fd);
    }
  };
  try {
    Deno.writeTextFileSync(path, "hello\n");
    assert.equal(readAfter(() => {}), "hello\n");
    const same = readAfter(() => {});
    assert.equal(new TextEncoder().encode(same).length, 6, "exactly the stat'ed bytes, nothing past them");
    // Grown past the stat by one byte, and by more than the probe's 64 KiB: all of it.
    assert.equal(readAfter(() => Deno.writeTextFileSync(path, "!", { append: true })), "hello\n!");
    const big = "x".repeat(200_000);
    assert.equal(readAfter(() => Deno.writeTextFileSync(path, big, { append: true })), `hello\n!${big}`);
    // Shrunk, and emptied.
    Deno.writeTextFileSync(path, "hello\n");
    assert.equal(readAfter(() => Deno.truncateSync(path, 2)), "he");
    assert.equal(readAfter(() => Deno.truncateSync(path, 0)), "");
    Deno.writeTextFileSync(path, "");
    assert.equal(readAfter(() => {}), "");
    assert.equal(readAfter(() => Deno.writeTextFileSync(path, "late")), "late");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a folder statMany found real is not lstat'ed again to read its files; one that is a link is", async () => {
  if (MountTable.read()?.isLocal(Deno.realPathSync(Deno.env.get("TMPDIR") ?? "/tmp")) !== true) return;
  const real = Deno.lstatSync;
  const lstats: string[] = [];
  Deno.lstatSync = (path) => (lstats.push(String(path)), real(path));
  try {
    const disk = createDiskBackend();
    // The judgement serves SYNC_TRUST_MS: a run slowed past it by a busy machine stats again, so three tries.
    let times = 0;
    for (let attempt = 0; attempt < 3 && times !== 1; attempt++) {
      const { root, outside } = await fixture();
      try {
        const dir = `${root}/dir`;
        lstats.length = 0;
        await disk.statMany!([dir, `${root}/empty.txt`]); // a walk stats the entries, then reads the files
        const [bytes] = await disk.readMany!([`${dir}/a.txt`]);
        assert.equal(dec.decode(bytes as Uint8Array), "alpha\n");
        times = lstats.filter((p) => p === dir).length;
      } finally {
        await Deno.remove(root, { recursive: true });
        await Deno.remove(outside, { recursive: true });
      }
    }
    assert.equal(times, 1, "the folder's lstat by statMany serves the read of its file");
    // A folder that is a link is judged no folder: its file is read the async way, through the link.
    const { root, outside } = await fixture();
    try {
      await disk.statMany!([`${root}/to_dir`]);
      const throughLink = disk.readMany!([`${root}/to_dir/a.txt`]);
      Deno.writeTextFileSync(`${root}/dir/a.txt`, "beta\n");
      assert.equal(dec.decode((await throughLink)[0] as Uint8Array), "beta\n", "read after the call: async");
    } finally {
      await Deno.remove(root, { recursive: true });
      await Deno.remove(outside, { recursive: true });
    }
  } finally {
    Deno.lstatSync = real;
  }
});

Deno.test("readdir lists a local folder synchronously, a folder reached through a link asynchronously", async () => {
  if (MountTable.read() === null) return; // no /proc: every listing is async
  const { root, outside } = await fixture();
  const real = Deno.readDirSync;
  const listedNow: string[] = [];
  try {
    (Deno as { readDirSync: typeof real }).readDirSync = (path) => (listedNow.push(String(path)), real(path));
    const disk = createDiskBackend();
    const names = async (dir: string) =>
      ((await disk.readdir(dir, { withFileTypes: true })) as { name: string }[]).map((e) => e.name).sort();
    assert.deepEqual(await names(`${root}/dir`), ["a.txt"]);
    assert.deepEqual(await names(`${root}/to_dir`), ["a.txt"], "a link to a folder is listed as its target");
    await disk.readdir(`${root}/dir`); // names alone: node:fs/promises' own
    assert.deepEqual(listedNow, [`${root}/dir`]);
  } finally {
    (Deno as { readDirSync: typeof real }).readDirSync = real;
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("synchronous listings in a row let the event loop run (a walk's awaits alone would not)", async () => {
  if (MountTable.read() === null) return;
  const { root, outside } = await fixture();
  try {
    const disk = createDiskBackend();
    let fired = -1;
    let listed = 0;
    setTimeout(() => fired = listed, 0);
    const due = performance.now() + 5;
    while (performance.now() < due) { /* the timer is due before the first listing */ }
    for (; listed < 2000; listed++) await disk.readdir(`${root}/dir`, { withFileTypes: true });
    assert.ok(fired >= 0 && fired < 2000, `the due timer fired after ${fired} listings of 2000`);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});
