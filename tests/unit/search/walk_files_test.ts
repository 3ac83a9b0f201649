import assert from "node:assert/strict";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";
import { BackendFs, Sandbox, Stage } from "../../../src/fs/mod.ts";
import type { FileScope } from "../../../src/search/types.ts";
import { isHiddenPath, walkSearchFiles } from "../../../src/search/walk_files.ts";
import { RACY_MS, ReadCache } from "../../../src/project/read_cache.ts";

async function tree(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "graver-walk-files-" });
  const files: Record<string, string> = {
    ".gitignore": "out/\n",
    "a.ts": "a\n",
    "src/b.ts": "b\n",
    "src/.env": "secret\n",
    ".config/c.ts": "c\n",
    "out/d.js": "d\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    await Deno.mkdir(`${root}/${rel}`.replace(/\/[^/]+$/, ""), { recursive: true });
    await Deno.writeTextFile(`${root}/${rel}`, text);
  }
  return root;
}

async function listed(
  root: string,
  scope: Partial<FileScope> = {},
): Promise<{ paths: string[]; ignored: number }> {
  const files = walkSearchFiles(new Stage(BackendFs.wrap(createDiskBackend()), new Sandbox(root)));
  const paths: string[] = [];
  for await (const f of files.files({ path: "", hidden: false, noIgnore: false, ...scope })) {
    paths.push(f.path);
  }
  return { paths, ignored: files.skipped!().ignored };
}

Deno.test("walk_files: hidden files and ignored folders are left out unless asked for", async () => {
  const root = await tree();
  try {
    assert.deepEqual(await listed(root), { paths: ["a.ts", "src/b.ts"], ignored: 4 });
    const all = await listed(root, { hidden: true, noIgnore: true });
    assert.deepEqual(all.paths.sort(), [
      ".config/c.ts",
      ".gitignore",
      "a.ts",
      "out/d.js",
      "src/.env",
      "src/b.ts",
    ]);
    assert.deepEqual((await listed(root, { path: "src/b.ts" })).paths, ["src/b.ts"]);
    assert.deepEqual((await listed(root, { path: "src" })).paths, ["src/b.ts"]);
    await assert.rejects(listed(root, { path: "nope" }), { code: "not_found", message: /"nope"/ });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("walk_files: a hidden part anywhere in the path makes it hidden", () => {
  assert.ok(isHiddenPath(".github/x.yml") && isHiddenPath("a/.b/c"));
  assert.ok(!isHiddenPath("a/b.c/d") && !isHiddenPath("a."));
});

Deno.test("walk_files: list is what files yields; with a warm cache, readHeld is the bytes read gave", async () => {
  const root = await tree();
  try {
    const fs = BackendFs.wrap(createDiskBackend());
    const cache = new ReadCache(fs, { now: () => Date.now() + 10 * RACY_MS }); // every file old enough to keep
    const scope: FileScope = { path: "", hidden: false, noIgnore: false };
    const files = walkSearchFiles(new Stage(fs, new Sandbox(root)), { cache });
    const yielded: string[] = [];
    for await (const f of files.files(scope)) yielded.push(f.path);
    assert.deepEqual(yielded, ["a.ts", "src/b.ts"]);
    assert.equal(files.readHeld!("a.ts"), undefined, "nothing read yet");
    const bytes = await files.read("a.ts");
    const again = walkSearchFiles(new Stage(fs, new Sandbox(root)), { cache });
    assert.deepEqual((await again.list!(scope)).map((f) => f.path), yielded);
    assert.equal(again.readHeld!("a.ts"), bytes, "the very array the read gave");
    assert.equal(again.readHeld!("src/b.ts"), undefined, "never read");
    // A remembered walk is taken as it was: the same list, no name or path built again.
    const third = walkSearchFiles(new Stage(fs, new Sandbox(root)), { cache });
    assert.equal(await third.list!(scope), await again.list!(scope));
    // A file written on the stage is read through it, never held.
    const staged = new Stage(fs, new Sandbox(root));
    await staged.write("a.ts", new TextEncoder().encode("staged\n"));
    const withWrite = walkSearchFiles(staged, { cache });
    await withWrite.list!(scope);
    assert.equal(withWrite.readHeld!("a.ts"), undefined);
    assert.equal(new TextDecoder().decode(await withWrite.read("a.ts")), "staged\n");
    // Without a cache, nothing is held.
    const cold = walkSearchFiles(new Stage(fs, new Sandbox(root)));
    await cold.list!(scope);
    assert.equal(cold.readHeld!("a.ts"), undefined);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
