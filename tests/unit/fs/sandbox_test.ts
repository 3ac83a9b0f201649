import assert from "node:assert/strict";
import { memfs } from "memfs";
import { BackendFs, isRecoverable } from "../../../src/mod.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import type { Backend } from "../../../src/mod.ts";

const refused = (e: unknown) => isRecoverable(e, "sandbox_violation");

Deno.test("Sandbox.lexical() maps relative and inside-absolute paths", () => {
  const sb = new Sandbox("/work/proj");
  assert.deepEqual(sb.lexical("src/a.ts"), { rel: "src/a.ts", abs: "/work/proj/src/a.ts" });
  assert.deepEqual(sb.lexical("./src//b/../a.ts"), { rel: "src/a.ts", abs: "/work/proj/src/a.ts" });
  assert.deepEqual(sb.lexical("/work/proj/x.ts"), { rel: "x.ts", abs: "/work/proj/x.ts" });
  assert.deepEqual(sb.lexical("src\\win\\a.ts").rel, "src/win/a.ts");
  assert.deepEqual(sb.lexical(".", { allowRoot: true }).rel, "");
});

Deno.test("Sandbox.lexical() refuses escapes, NUL, drive letters and internals", () => {
  const sb = new Sandbox("/work/proj");
  for (
    const bad of [
      "../x",
      "a/../../x",
      "/etc/passwd",
      "/work/projx/a",
      "a\0b",
      "C:\\x",
      "c:/x",
      "\\\\server\\share",
      ".graver/journal.json",
      "./.graver/x",
      "",
    ]
  ) {
    assert.throws(() => sb.lexical(bad), refused, bad);
  }
});

Deno.test("Sandbox.lexical() names the path in the error", () => {
  assert.throws(() => new Sandbox("/r").lexical("../../etc/shadow"), (e) => {
    return refused(e) && e.message.includes('"../../etc/shadow"') && e.hint.length > 0;
  });
});

Deno.test("Sandbox.resolve() follows links inside the root and refuses links out", async () => {
  const { vol } = memfs({ "/root/real/a.txt": "a", "/outside/secret.txt": "s" });
  vol.symlinkSync("/root/real", "/root/inlink");
  vol.symlinkSync("/outside", "/root/outlink");
  vol.symlinkSync("../outside/secret.txt", "/root/relout");
  const fs = BackendFs.wrap(vol.promises as unknown as Backend);
  const sb = new Sandbox("/root");
  assert.equal((await sb.resolve(fs, "inlink/a.txt")).rel, "real/a.txt");
  await assert.rejects(() => sb.resolve(fs, "outlink/secret.txt"), refused);
  await assert.rejects(() => sb.resolve(fs, "relout"), refused);
  assert.equal((await sb.resolve(fs, "real/new.txt")).rel, "real/new.txt");
});

Deno.test("Sandbox.resolve() refuses a symlink escape on the real disk", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/root`);
    await Deno.writeTextFile(`${dir}/secret.txt`, "s");
    await Deno.symlink(`${dir}/secret.txt`, `${dir}/root/link.txt`);
    const { createDiskBackend } = await import("../../../src/adapters/deno/mod.ts");
    const fs = BackendFs.wrap(createDiskBackend());
    await assert.rejects(() => new Sandbox(`${dir}/root`).resolve(fs, "link.txt"), refused);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Sandbox.lexical() refuses version-control metadata at any depth, with a hint", () => {
  const sb = new Sandbox("/work/proj");
  for (
    const bad of [
      ".git",
      ".git/config",
      ".git/hooks/pre-commit",
      "./.git/hooks/../config",
      "vendor/lib/.git/config",
      "sub/.git",
      ".hg/hgrc",
      ".svn/entries",
      ".jj/repo/store",
      ".bzr/branch/branch.conf",
      "/work/proj/.git/HEAD",
      ".git\\hooks\\post-checkout",
    ]
  ) {
    assert.throws(
      () => sb.lexical(bad),
      (e: unknown) =>
        refused(e) && /protected version-control metadata/.test((e as Error).message) &&
        /git itself|version-control tool/.test((e as { hint: string }).hint),
      bad,
    );
  }
  for (
    const ok of [".gitignore", ".github/workflows/ci.yml", "src/.gitkeep", "docs/git/intro.md", ".gitmodules"]
  ) {
    assert.equal(sb.lexical(ok).rel, ok);
  }
});

Deno.test("Sandbox protectedPaths: names match at any depth, paths from the root, [] protects only .graver", () => {
  const sb = new Sandbox("/p", { protectedPaths: ["secrets", "config/prod"] });
  assert.throws(() => sb.lexical("a/secrets/key"), refused);
  assert.throws(() => sb.lexical("config/prod/db.yml"), refused);
  assert.equal(sb.lexical("other/config/prod/db.yml").rel, "other/config/prod/db.yml");
  assert.equal(sb.lexical(".git/config").rel, ".git/config");
  assert.equal(sb.protectedBy("config/prod"), "config/prod");
  assert.equal(sb.protectedBy("config/production"), null);
  const open = new Sandbox("/p", { protectedPaths: [] });
  assert.equal(open.lexical(".git/config").rel, ".git/config");
  assert.throws(() => open.lexical(".graver/journal.json"), refused);
  assert.deepEqual(new Sandbox("/p").protectedPaths, [".git", ".hg", ".svn", ".jj", ".bzr"]);
});

Deno.test("Sandbox.resolve() refuses a symlink that leads into .git", async () => {
  const { vol } = memfs({ "/p/.git/config": "[core]\n" });
  vol.symlinkSync("/p/.git", "/p/g");
  const fs = BackendFs.wrap(vol.promises as unknown as Backend);
  await assert.rejects(() => new Sandbox("/p").resolve(fs, "g/config"), refused);
});

Deno.test("Sandbox.resolve() looks again when a link vanishes between its lstat and its readlink", async () => {
  // The race of a swapper putting a directory back: lstat saw a link, readlink finds none (ENOENT).
  const { vol } = memfs({ "/p/src/a.ts": "a" });
  const raw = vol.promises as unknown as Backend;
  let first = true;
  const racing: Backend = {
    ...raw,
    readFile: (p) => raw.readFile(p),
    lstat: async (p) => {
      const st = await raw.lstat(p);
      if (p === "/p/src" && first) {
        return {
          ...st,
          isFile: () => false,
          isDirectory: () => false,
          isSymbolicLink: () => true,
        };
      }
      return st;
    },
    readlink: (p) => {
      if (p === "/p/src" && first) {
        first = false;
        return Promise.reject(
          Object.assign(new Error("ENOENT: no such file or directory"), { code: "ENOENT" }),
        );
      }
      return raw.readlink!(p);
    },
  };
  const resolved = await new Sandbox("/p").resolve(BackendFs.wrap(racing), "src/a.ts");
  assert.equal(resolved.rel, "src/a.ts");
});
