/**
 * What the operating system refuses reaches the agent as a refusal with a code from the vocabulary, the path
 * and what to do, never as `internal` ("a bug in graver"): a name too long (real disk), a path below a file
 * (real disk), permission denied (a disk backend that answers EACCES the way node:fs does, since these tests
 * run as root, which no permission bit stops).
 */
import assert from "node:assert/strict";
import { createDiskBackend, createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { type Backend, BackendFs } from "../../../src/fs/backend.ts";
import { createWorkspace } from "../../../src/mod.ts";

async function withRoot(fn: (root: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "graver-errno-" });
  try {
    await Deno.writeTextFile(`${root}/a.txt`, "a\n");
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("a name too long for the file system is limit_exceeded naming the path, not internal", async () => {
  await withRoot(async (root) => {
    const ws = await createWorkspace({ backend: createDiskBackend(), root, wasm: createWasmLoader() });
    const long = `${"x".repeat(300)}.txt`;
    for (
      const [tool, args] of [
        ["read_file", { path: long }],
        ["write_file", { path: long, content: "x\n" }],
        ["list_files", { path: long }],
      ] as const
    ) {
      const r = await ws.call(tool, args);
      assert.equal(r.ok, false, tool);
      if (r.ok) continue;
      assert.equal(r.error.code, "limit_exceeded", `${tool}: ${r.error.message}`);
      assert.match(r.error.message, /^Cannot use "x{300}\.txt": its name is too long/);
      assert.equal(r.error.details?.["errno"], "ENAMETOOLONG");
    }
    assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name).sort(), ["a.txt"]);
  });
});

Deno.test("a path that goes on below a file is refused naming the file, before the commit", async () => {
  await withRoot(async (root) => {
    const ws = await createWorkspace({ backend: createDiskBackend(), root, wasm: createWasmLoader() });
    const r = await ws.call("write_file", { path: "a.txt/b.txt", content: "x\n" });
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.error.code, "not_found");
      assert.equal(r.error.message, 'Cannot use path "a.txt/b.txt": "a.txt" is a file, not a directory');
    }
  });
});

/** The disk, except that `secret/` answers EACCES as node:fs does for a directory without read permission. */
function deniedUnder(dir: string): Backend {
  const disk = createDiskBackend();
  const deny = (syscall: string, path: string) =>
    Object.assign(new Error(`EACCES: permission denied, ${syscall} '${path}'`), {
      code: "EACCES",
      errno: -13,
      syscall,
      path,
    });
  const guarded =
    <A extends unknown[], R>(syscall: string, f: (path: string, ...rest: A) => Promise<R>) =>
    (path: string, ...rest: A): Promise<R> =>
      path.startsWith(`${dir}/`) ? Promise.reject(deny(syscall, path)) : f(path, ...rest);
  return {
    ...disk,
    readFile: guarded("open", (p) => disk.readFile(p)),
    readdir: (path) => path === dir ? Promise.reject(deny("scandir", path)) : disk.readdir(path),
    writeFile: guarded("open", (p, data: Uint8Array) => disk.writeFile(p, data)),
  };
}

Deno.test("permission denied is permission_denied naming the path, not internal", async () => {
  await withRoot(async (root) => {
    await Deno.mkdir(`${root}/secret`);
    await Deno.writeTextFile(`${root}/secret/s.txt`, "s\n");
    const ws = await createWorkspace({
      backend: deniedUnder(`${root}/secret`),
      root,
      wasm: createWasmLoader(),
    });
    const r = await ws.call("read_file", { path: "secret/s.txt" });
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.error.code, "permission_denied", r.error.message);
      assert.match(r.error.message, /^Cannot use "secret\/s\.txt": permission denied \(EACCES\)/);
    }
  });
});

Deno.test("an unreadable directory is skipped and reported by list_files and find_symbol, not fatal", async () => {
  await withRoot(async (root) => {
    await Deno.mkdir(`${root}/secret`);
    await Deno.writeTextFile(`${root}/secret/s.ts`, "export function hidden() {}\n");
    await Deno.writeTextFile(`${root}/b.ts`, "export function shown() {}\n");
    const ws = await createWorkspace({
      backend: deniedUnder(`${root}/secret`),
      root,
      wasm: createWasmLoader(),
    });
    const listed = await ws.call("list_files", { recursive: true });
    assert.ok(listed.ok, JSON.stringify(listed));
    assert.deepEqual(listed.data["entries"], ["a.txt", "b.ts", "secret/"]);
    assert.deepEqual(listed.data["skipped"], { unreadable: 1 });
    assert.deepEqual(listed.data["unreadable"], ["secret"]);
    const found = await ws.call("find_symbol", { name_path: "shown" });
    assert.ok(found.ok, JSON.stringify(found));
    assert.deepEqual(found.data["unreadable"], ["secret"]);
    const missing = await ws.call("find_symbol", { name_path: "hidden" });
    assert.equal(missing.ok, false);
    if (!missing.ok) {
      assert.equal(missing.error.code, "not_found");
      assert.deepEqual(missing.error.details?.["unreadable"], ["secret"]);
    }
  });
});

Deno.test("a backend wrapper that denies readFile is not read past by a search's batched reads (the disk's readMany stands for its own readFile)", async () => {
  await withRoot(async (root) => {
    await Deno.writeTextFile(`${root}/secret.txt`, "password=hunter2\n");
    await Deno.writeTextFile(`${root}/b.txt`, "password=ok\n");
    const disk = createDiskBackend();
    const denying: Backend = {
      ...disk,
      readFile: (path) =>
        path.endsWith("/secret.txt")
          ? Promise.reject(
            Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: "EACCES" }),
          )
          : disk.readFile(path),
    };
    assert.equal(
      BackendFs.wrap(denying).readsMany,
      false,
      "the disk's readMany stands for the disk's readFile",
    );
    assert.equal(BackendFs.wrap(disk).readsMany, true);
    const ws = await createWorkspace({ backend: denying, root, wasm: createWasmLoader() });
    try {
      for (const literal of [true, false]) {
        const found = await ws.call("search_text", { pattern: "password", literal });
        assert.ok(found.ok, JSON.stringify(found));
        const matches = found.data["matches"] as { path: string; text: string }[];
        assert.deepEqual(matches.map((m) => m.path), ["b.txt"], JSON.stringify(matches));
        assert.equal((found.data["summary"] as { skipped: { unreadable: number } }).skipped.unreadable, 1);
      }
    } finally {
      await ws.close();
    }
  });
});

Deno.test("a backend wrapper that denies writes under a folder is not written past by a commit's held paths", async () => {
  await withRoot(async (root) => {
    await Deno.mkdir(`${root}/locked`);
    await Deno.writeTextFile(`${root}/locked/a.txt`, "orig\n");
    const disk = createDiskBackend();
    const judged: string[] = [];
    const denyUnder = (path: string): Error | null =>
      path.startsWith(`${root}/locked/`)
        ? Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: "EACCES", path })
        : null;
    const denying: Backend = {
      ...disk,
      writeFile: (path, data, options) => {
        judged.push(path);
        const denied = denyUnder(path);
        return denied ? Promise.reject(denied) : disk.writeFile(path, data, options);
      },
      rename: (from, to) => {
        judged.push(to);
        const denied = denyUnder(to);
        return denied ? Promise.reject(denied) : disk.rename(from, to);
      },
    };
    const ws = await createWorkspace({ backend: denying, root, wasm: createWasmLoader() });
    try {
      const refused = await ws.call("write_file", { path: "locked/a.txt", content: "pwned\n" });
      assert.ok(!refused.ok);
      assert.equal(refused.error.code, "permission_denied");
      assert.equal(await Deno.readTextFile(`${root}/locked/a.txt`), "orig\n");
      const written = await ws.call("write_file", { path: "free.txt", content: "ok\n" });
      assert.ok(written.ok, JSON.stringify(written));
      assert.equal(await Deno.readTextFile(`${root}/free.txt`), "ok\n");
      assert.ok(
        judged.every((p) => !p.startsWith("/proc/")),
        `the wrapper saw held paths: ${judged.join(", ")}`,
      );
    } finally {
      await ws.close();
    }
  });
});
