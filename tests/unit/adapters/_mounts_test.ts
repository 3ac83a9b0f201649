import assert from "node:assert/strict";
import { setImmediate } from "node:timers";
import {
  LOCAL_FS_TYPES,
  MountTable,
  parseMountInfo,
  SYNC_TRUST_MS,
  SyncPaths,
  syncStatable,
} from "../../../src/adapters/_mounts.ts";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";

// Lines of a real /proc/self/mountinfo (a container on ext4), then an NFS mount with optional fields, an sshfs
// FUSE mount inside the ext4 tree, a tmpfs inside the NFS mount, and a mount point with a space (`\040`).
const MOUNTINFO = `22 27 0:21 / /proc rw,relatime - proc proc rw
24 27 0:6 / /dev rw,relatime - devtmpfs devtmpfs rw,size=12334460k,nr_inodes=3083615,mode=755
25 24 0:23 / /dev/shm rw,relatime - tmpfs tmpfs rw,size=24684084k
27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard,resv_strict,resuid=65534,resgid=65534
28 27 0:25 / /mnt/sandboxing/model_tools_env/v1/python ro,nosuid,nodev,relatime - tmpfs model_tools_unavailable ro,size=4k,mode=755
45 27 0:50 / /mnt/nfs rw,relatime shared:30 master:2 - nfs4 server:/export rw,vers=4.2,addr=10.0.0.2
46 27 0:51 / /home/me/remote rw,nosuid,nodev,relatime shared:31 - fuse.sshfs me@host:/ rw,user_id=1000
47 45 0:52 / /mnt/nfs/scratch rw,relatime - tmpfs tmpfs rw
48 27 0:53 / /srv/my\\040disk\\134x rw,relatime - xfs /dev/sdb1 rw
`;

Deno.test("parseMountInfo reads the mount point (unescaped) and the type after the optional fields", () => {
  const mounts = parseMountInfo(MOUNTINFO)!;
  assert.deepEqual(mounts.map((m) => `${m.point} ${m.type}`), [
    "/proc proc",
    "/dev devtmpfs",
    "/dev/shm tmpfs",
    "/ ext4",
    "/mnt/sandboxing/model_tools_env/v1/python tmpfs",
    "/mnt/nfs nfs4",
    "/home/me/remote fuse.sshfs",
    "/mnt/nfs/scratch tmpfs",
    "/srv/my disk\\x xfs",
  ]);
});

Deno.test("parseMountInfo refuses a table with a line it cannot read (no path is told local then)", () => {
  assert.equal(parseMountInfo("27 1 254:0 / / rw,relatime ext4 /dev/vda rw\n"), null); // no "-"
  assert.equal(parseMountInfo("27 1 254:0 /\n"), null);
  assert.deepEqual(parseMountInfo(""), []);
});

Deno.test("this machine's own mount table reads", () => {
  let text: string;
  try {
    text = Deno.readTextFileSync("/proc/self/mountinfo");
  } catch {
    return; // no /proc here
  }
  const mounts = parseMountInfo(text);
  assert.ok(mounts && mounts.some((m) => m.point === "/"));
  assert.ok(MountTable.read() !== null);
});

Deno.test("a path is local only when every mount on its way is: nested, stacked and escaped mounts", () => {
  const table = new MountTable(parseMountInfo(MOUNTINFO)!);
  const local = (p: string) => table.isLocal(p);
  assert.equal(local("/"), true);
  assert.equal(local("/work/project/src/a.ts"), true);
  assert.equal(local("/dev/shm/x"), false, "a tmpfs reached through devtmpfs, which is not on the list");
  assert.equal(local("/mnt/nfs"), false);
  assert.equal(local("/mnt/nfs/a/b.ts"), false);
  assert.equal(local("/mnt/nfs/scratch/a.ts"), false, "a tmpfs reached through NFS");
  assert.equal(local("/mnt/nfsx/a.ts"), true, "a sibling whose name starts the same");
  assert.equal(local("/home/me/remote/src/a.ts"), false, "a FUSE mount inside the ext4 tree");
  assert.equal(local("/home/me/project/a.ts"), true);
  assert.equal(local("/proc/self/status"), false, "proc is not on the list");
  assert.equal(local("/srv/my disk\\x/a.ts"), true);
  assert.equal(local("/srv/my\\040disk\\134x/a.ts"), true, "the escaped text is no mount point: / decides");
  // Paths that are not plain are never told local.
  for (const p of ["relative/a.ts", "/work/../mnt/nfs/a", "/work/./a", "/work//a", "/work/", ""]) {
    assert.equal(local(p), false, p);
  }
  // Stacked mounts on one point: local only when all are.
  assert.equal(
    new MountTable([{ point: "/", type: "ext4" }, { point: "/", type: "nfs" }]).isLocal("/a"),
    false,
  );
  assert.equal(new MountTable([{ point: "/x", type: "ext4" }]).isLocal("/x/a"), false, "nothing at /");
  assert.ok(["ext4", "xfs", "btrfs", "tmpfs", "overlay"].every((t) => LOCAL_FS_TYPES.has(t)));
  assert.ok(
    ["nfs", "nfs4", "cifs", "fuse", "fuse.sshfs", "9p", "autofs"].every((t) => !LOCAL_FS_TYPES.has(t)),
  );
});

Deno.test("syncStatable asks each folder once and leaves out paths through a link or a remote mount", () => {
  const table = new MountTable(parseMountInfo(MOUNTINFO)!);
  const asked: string[] = [];
  const isRealDir = (dir: string) => (asked.push(dir), dir !== "/work/link");
  const paths = [
    "/work/a/x.ts",
    "/work/a/y.ts",
    // In the folder just asked about: the name alone decides.
    "/work/a/..",
    "/work/a/.",
    "/work/a/",
    "/work/a/.env",
    "/work/a/b/z.ts",
    "/work/link/x.ts",
    "/work/link/deeper/x.ts",
    "/mnt/nfs/a.ts",
    "/home/me/remote/a.ts",
    "/work/../etc/passwd",
    "/",
  ];
  assert.deepEqual(syncStatable(paths, { table, isRealDir }), [
    true,
    true,
    false,
    false,
    false,
    true,
    true,
    false,
    false,
    false,
    false,
    false,
    false,
  ]);
  // A remote mount is told by the table alone: no lstat under /mnt or /home.
  assert.deepEqual(asked, ["/work", "/work/a", "/work/a/b", "/work/link"]);
});

/** A temporary folder with a file, a folder, a link to the file, a link to the folder and a dangling link. */
async function fixture(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "graver-mounts-" });
  await Deno.mkdir(`${root}/dir`);
  await Deno.writeTextFile(`${root}/dir/file.txt`, "hello\n");
  await Deno.symlink(`${root}/dir/file.txt`, `${root}/to_file`);
  await Deno.symlink(`${root}/dir`, `${root}/to_dir`);
  await Deno.symlink(`${root}/gone`, `${root}/dangling`);
  return root;
}

Deno.test("statMany answers as stat does: a file, a folder, links followed, missing paths null", async () => {
  const root = await fixture();
  try {
    const paths = [
      "dir/file.txt",
      "dir",
      "to_file",
      "to_dir",
      "to_dir/file.txt",
      "dangling",
      "missing",
      "dir/file.txt/x",
    ]
      .map((p) => `${root}/${p}`);
    const got = await createDiskBackend().statMany!(paths);
    for (const [i, path] of paths.entries()) {
      const want = await Deno.stat(path).catch(() => null);
      const st = got[i] as (typeof got)[number] & { mtimeMs?: number; ino?: number };
      if (want === null) {
        assert.equal(st, null, path);
        continue;
      }
      assert.ok(st, path);
      assert.equal(st.isFile(), want.isFile, path);
      assert.equal(st.isDirectory(), want.isDirectory, path);
      assert.equal(st.isSymbolicLink?.() ?? false, false, path);
      assert.equal(Number(st.size), want.size, path);
      assert.equal(Math.trunc(st.mtimeMs!), want.mtime!.getTime(), path);
      assert.equal(st.ino, want.ino, path);
    }
    assert.deepEqual(got.map((s) => s === null), [false, false, false, false, false, true, true, true]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("statMany lets the event loop run between its chunks of synchronous stats", async () => {
  if (MountTable.read() === null) return; // no /proc: every stat is async anyway
  const root = await fixture();
  try {
    const paths = Array.from({ length: 2500 }, () => `${root}/dir/file.txt`);
    let fired = false;
    setTimeout(() => fired = true, 0);
    const due = performance.now() + 5;
    while (performance.now() < due) { /* the timer is due before statMany starts */ }
    const stats = await createDiskBackend().statMany!(paths);
    assert.equal(fired, true, "a due timer fired while statMany ran");
    assert.ok(stats.every((s) => s?.isFile()));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("setImmediate is a turn of the event loop (what statMany yields with)", async () => {
  let fired = false;
  setTimeout(() => fired = true, 0);
  const due = performance.now() + 5;
  while (performance.now() < due) { /* make the timer due */ }
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(fired, true);
});

Deno.test("SyncPaths: one reading of the mount table serves the calls that follow, each folder judged once", async () => {
  const first = SyncPaths.now(() => true);
  if (first === null) return; // no /proc here
  const asked: string[] = [];
  const isRealDir = (dir: string) => (asked.push(dir), true);
  const reading = SyncPaths.now(isRealDir)!;
  assert.notEqual(reading, first, "another test of folders is another reading");
  assert.equal(SyncPaths.now(isRealDir), reading, "within SYNC_TRUST_MS: the same reading");
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "graver-sync-paths-" }));
  try {
    assert.deepEqual(reading.statable([`${root}/a.ts`, `${root}/b.ts`]), [true, true]);
    assert.deepEqual(reading.statable([`${root}/c.ts`, `${root}/sub/d.ts`]), [true, true]);
    assert.equal(asked.filter((d) => d === root).length, 1, "the folder was judged once for both calls");
    await new Promise((r) => setTimeout(r, SYNC_TRUST_MS + 20));
    assert.notEqual(SyncPaths.now(isRealDir), reading, "after SYNC_TRUST_MS: the table is read again");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
