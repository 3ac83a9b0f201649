import assert from "node:assert/strict";
import { memfs } from "memfs";
import { BackendFs, isRecoverable } from "../../../src/mod.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import { Stage } from "../../../src/fs/stage.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { createWorkspace } from "../../../src/workspace.ts";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";
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

Deno.test("Sandbox.protectsEntry answers protectedBy for each entry of a folder that is not protected", () => {
  for (const protectedPaths of [undefined, ["secrets", "config/prod", "a/b/c"]]) {
    const sb = new Sandbox("/p", protectedPaths ? { protectedPaths } : {});
    for (const dir of ["", "a", "a/b", "config", "other/config", "src/deep/er"]) {
      assert.equal(sb.protectedBy(dir), null, dir);
      for (const name of [".git", "secrets", "prod", "c", "b", "config", "x.ts", ".gitignore"]) {
        const path = dir === "" ? name : `${dir}/${name}`;
        assert.equal(sb.protectsEntry(dir, name), sb.protectedBy(path) !== null, path);
      }
    }
  }
});

Deno.test("a listing of a protected folder is empty, as each of its entries is protected", async () => {
  const fs = BackendFs.wrap(
    createMemoryBackend({ "/p/.git/config": "[core]\n", "/p/src/.git/HEAD": "x", "/p/a.ts": "" }),
  );
  const stage = new Stage(fs, new Sandbox("/p"));
  assert.deepEqual(await stage.list(".git"), []);
  assert.deepEqual(await stage.list("src/.git"), []);
  assert.deepEqual((await stage.list("")).map((e) => e.name), ["a.ts", "src"]);
  assert.deepEqual(await stage.list("src"), []);
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

Deno.test("a root reached through a symlink accepts absolute paths under the link and under its real path", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graver-rootlink-" });
  try {
    await Deno.mkdir(`${dir}/real`);
    await Deno.writeTextFile(`${dir}/real/a.ts`, "export const a = 1;\n");
    await Deno.symlink(`${dir}/real`, `${dir}/link`);
    await Deno.symlink(`${dir}/real/a.ts`, `${dir}/real/abs-link.ts`); // an absolute link inside, by the real path
    const ws = await createWorkspace({ backend: createDiskBackend(), root: `${dir}/link` });
    for (const path of [`${dir}/real/a.ts`, `${dir}/link/a.ts`, "a.ts", "abs-link.ts"]) {
      const r = await ws.call("read_file", { path });
      assert.ok(r.ok, `${path}: ${JSON.stringify(r)}`);
      assert.match(r.data["content"] as string, /export const a = 1;/);
    }
    const w = await ws.call("write_file", { path: `${dir}/real/b.ts`, content: "export const b = 2;\n" });
    assert.ok(w.ok && w.changes[0]!.path === "b.ts", JSON.stringify(w));
    const outside = await ws.call("read_file", { path: `${dir}/elsewhere.ts` });
    assert.ok(!outside.ok && outside.error.code === "sandbox_violation");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the disk adapters' cwd() keeps the symbolic link the shell went through ($PWD), as the CLI's root", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graver-cwd-" });
  try {
    await Deno.mkdir(`${dir}/real`);
    await Deno.symlink(`${dir}/real`, `${dir}/link`);
    const mod = new URL("../../../src/adapters/deno/mod.ts", import.meta.url).href;
    const run = async (pwd: string) =>
      new TextDecoder().decode(
        (await new Deno.Command(Deno.execPath(), {
          args: ["eval", `import { cwd } from "${mod}"; console.log(cwd());`],
          cwd: `${dir}/link`,
          env: { PWD: pwd },
        }).output()).stdout,
      ).trim();
    assert.equal(await run(`${dir}/link`), `${dir}/link`);
    assert.equal(await run("/somewhere/else"), `${dir}/real`); // a stale $PWD is not believed
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
