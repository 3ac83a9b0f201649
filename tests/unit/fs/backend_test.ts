import assert from "node:assert/strict";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";
import { type Backend, BackendFs, errnoCode } from "../../../src/fs/backend.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { enc } from "../../_helpers.ts";

/** A wrapped backend with an empty directory `root` to work in. */
interface Fixture {
  fs: BackendFs;
  root: string;
  symlink(target: string, path: string): Promise<void>;
  cleanup(): Promise<void>;
}

const FIXTURES: { name: string; open(): Promise<Fixture> }[] = [
  {
    name: "memfs",
    open() {
      const raw = createMemoryBackend({ "/t/.keep": "" });
      const links = raw as unknown as {
        symlink(target: string, path: string): Promise<void>;
        unlink(p: string): Promise<void>;
      };
      return links.unlink("/t/.keep").then(() => ({
        fs: BackendFs.wrap(raw),
        root: "/t",
        symlink: (target, path) => links.symlink(target, path),
        cleanup: () => Promise.resolve(),
      }));
    },
  },
  {
    name: "disk",
    async open() {
      const root = await Deno.makeTempDir({ prefix: "graver-backend-" });
      return {
        fs: BackendFs.wrap(createDiskBackend()),
        root,
        symlink: (target, path) => Deno.symlink(target, path),
        cleanup: () => Deno.remove(root, { recursive: true }),
      };
    },
  },
];

const text = (b: Uint8Array | null) => b === null ? null : new TextDecoder().decode(b);

for (const fx of FIXTURES) {
  const test = (name: string, fn: (f: Fixture) => Promise<void>) =>
    Deno.test(`${name} (${fx.name})`, async () => {
      const f = await fx.open();
      try {
        await fn(f);
      } finally {
        await f.cleanup();
      }
    });

  test("BackendFs.read() returns plain Uint8Array bytes, null when absent or under a file", async ({ fs, root }) => {
    await fs.write(`${root}/a.txt`, enc("héllo"));
    const bytes = await fs.read(`${root}/a.txt`);
    assert.ok(bytes);
    assert.equal(bytes.constructor, Uint8Array);
    assert.equal(text(bytes), "héllo");
    assert.equal(await fs.read(`${root}/missing.txt`), null);
    assert.equal(await fs.read(`${root}/a.txt/below`), null);
  });

  test("BackendFs.write() makes parent directories unless told they exist", async ({ fs, root }) => {
    await fs.write(`${root}/x/y/z.txt`, enc("deep"));
    assert.equal(text(await fs.read(`${root}/x/y/z.txt`)), "deep");
    await assert.rejects(
      () => fs.write(`${root}/nope/z.txt`, enc("x"), { parentExists: true }),
      (e) => errnoCode(e) === "ENOENT",
    );
  });

  test("BackendFs.mkdirp() creates nested directories and accepts existing ones", async ({ fs, root }) => {
    await fs.mkdirp(`${root}/a/b/c`);
    await fs.mkdirp(`${root}/a/b/c`);
    await fs.mkdirp(`${root}/a`);
    assert.equal(await fs.kind(`${root}/a/b/c`), "dir");
    assert.deepEqual(await fs.list(`${root}/a`), ["b"]);
  });

  test("BackendFs.writeExclusive() creates once, then answers false and keeps the content", async ({ fs, root }) => {
    assert.equal(await fs.writeExclusive(`${root}/d/lock`, enc("first")), true);
    assert.equal(await fs.writeExclusive(`${root}/d/lock`, enc("second")), false);
    assert.equal(text(await fs.read(`${root}/d/lock`)), "first");
  });

  test("BackendFs.list() returns names sorted, empty for an absent directory or a file", async ({ fs, root }) => {
    for (const n of ["b.ts", "a.ts", "C.ts", "_x"]) await fs.write(`${root}/dir/${n}`, enc(n));
    await fs.mkdirp(`${root}/dir/sub`);
    assert.deepEqual(await fs.list(`${root}/dir`), ["C.ts", "_x", "a.ts", "b.ts", "sub"]);
    assert.deepEqual(await fs.list(`${root}/absent`), []);
    assert.deepEqual(await fs.list(`${root}/dir/a.ts`), []);
  });

  test("BackendFs.kind() tells file, dir, symlink and absent apart without following links", async (f) => {
    const { fs, root } = f;
    await fs.write(`${root}/f.txt`, enc("f"));
    await fs.mkdirp(`${root}/d`);
    await f.symlink(`${root}/f.txt`, `${root}/link`);
    await f.symlink(`${root}/gone`, `${root}/dangling`);
    assert.equal(await fs.kind(`${root}/f.txt`), "file");
    assert.equal(await fs.kind(`${root}/d`), "dir");
    assert.equal(await fs.kind(`${root}/link`), "symlink");
    assert.equal(await fs.kind(`${root}/dangling`), "symlink");
    assert.equal(await fs.kind(`${root}/none`), null);
    assert.equal(await fs.kind(`${root}/f.txt/x`), null);
    assert.equal(await fs.readlink(`${root}/link`), `${root}/f.txt`);
  });

  test("BackendFs.remove() deletes a file and accepts an absent one", async ({ fs, root }) => {
    await fs.write(`${root}/r.txt`, enc("r"));
    await fs.remove(`${root}/r.txt`);
    assert.equal(await fs.kind(`${root}/r.txt`), null);
    await fs.remove(`${root}/r.txt`);
  });

  test("BackendFs.removeDir() removes an empty directory and leaves a full one", async ({ fs, root }) => {
    await fs.mkdirp(`${root}/empty`);
    await fs.write(`${root}/full/k.txt`, enc("k"));
    await fs.removeDir(`${root}/empty`);
    await fs.removeDir(`${root}/full`);
    assert.equal(await fs.kind(`${root}/empty`), null);
    assert.equal(await fs.kind(`${root}/full/k.txt`), "file");
  });

  test("BackendFs.rename() moves a file into a new directory", async ({ fs, root }) => {
    await fs.write(`${root}/from.txt`, enc("moved"));
    await fs.rename(`${root}/from.txt`, `${root}/to/dir/to.txt`);
    assert.equal(await fs.read(`${root}/from.txt`), null);
    assert.equal(text(await fs.read(`${root}/to/dir/to.txt`)), "moved");
  });
}

Deno.test("BackendFs.wrap() is idempotent and keeps the raw backend", () => {
  const raw = createMemoryBackend({});
  const fs = BackendFs.wrap(raw);
  assert.equal(fs.raw, raw);
  assert.equal(BackendFs.wrap(fs), fs);
});

Deno.test("BackendFs.wrap() throws a TypeError for something that is not a backend", () => {
  for (const bad of [null, undefined, {}, { readFile: 1 }, "/tmp"]) {
    assert.throws(() => BackendFs.wrap(bad as unknown as Backend), TypeError, String(bad));
  }
});

Deno.test("BackendFs.read() accepts a backend that returns strings", async () => {
  const raw = createMemoryBackend({ "/s.txt": "text" });
  const stringy: Backend = { ...raw, readFile: () => Promise.resolve("from a string") };
  assert.equal(text(await BackendFs.wrap(stringy).read("/s.txt")), "from a string");
});

Deno.test("BackendFs.read() rethrows errors other than ENOENT/ENOTDIR", async () => {
  const raw = createMemoryBackend({});
  const denied = Object.assign(new Error("denied"), { code: "EACCES" });
  const broken: Backend = { ...raw, readFile: () => Promise.reject(denied) };
  await assert.rejects(() => BackendFs.wrap(broken).read("/x"), (e) => e === denied);
});

Deno.test("errnoCode() reads node codes and maps Deno error names", () => {
  assert.equal(errnoCode(Object.assign(new Error("x"), { code: "EEXIST" })), "EEXIST");
  assert.equal(errnoCode(new Deno.errors.NotFound("x")), "ENOENT");
  assert.equal(errnoCode(new Deno.errors.AlreadyExists("x")), "EEXIST");
  assert.equal(errnoCode(new Error("plain")), undefined);
  assert.equal(errnoCode("ENOENT"), undefined);
});

/** A backend that counts its `lstat` calls, optionally answering `readdir` with names only (as lightning-fs). */
function countingLstat(raw: Backend, namesOnly: boolean): { backend: Backend; lstats: () => number } {
  let lstats = 0;
  const backend: Backend = {
    ...raw,
    readdir: (path, options) => namesOnly ? raw.readdir(path) : raw.readdir(path, options),
    lstat: (path) => {
      lstats++;
      return raw.lstat(path);
    },
  };
  return { backend, lstats: () => lstats };
}

Deno.test("listTyped() takes entry types from readdir: no lstat per entry where the backend gives them", async () => {
  const raw = createMemoryBackend({ "/w/b.ts": "", "/w/a/x.ts": "", "/w/c.txt": "" });
  await (raw as unknown as { symlink(t: string, p: string): Promise<void> }).symlink("b.ts", "/w/link.ts");
  const typed = countingLstat(raw, false);
  const listed = await BackendFs.wrap(typed.backend).listTyped("/w");
  assert.deepEqual(listed, [
    { name: "a", kind: "dir" },
    { name: "b.ts", kind: "file" },
    { name: "c.txt", kind: "file" },
    { name: "link.ts", kind: "symlink" },
  ]);
  assert.equal(typed.lstats(), 0);
  // Names only (lightning-fs): the same answer, through one lstat per entry.
  const names = countingLstat(raw, true);
  assert.deepEqual(await BackendFs.wrap(names.backend).listTyped("/w"), listed);
  assert.equal(names.lstats(), 4);
  assert.deepEqual(await BackendFs.wrap(raw).listTyped("/absent"), []);
});

Deno.test("listTyped() on the disk says what a FIFO is without opening it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.ts`, "");
    const mk = await new Deno.Command("mkfifo", { args: [`${dir}/pipe`] }).output();
    assert.equal(mk.code, 0);
    assert.deepEqual(await BackendFs.wrap(createDiskBackend()).listTyped(dir), [
      { name: "a.ts", kind: "file" },
      { name: "pipe", kind: "other" },
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
