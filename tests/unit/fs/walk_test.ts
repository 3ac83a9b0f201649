import assert from "node:assert/strict";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";
import { BackendFs } from "../../../src/fs/backend.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import { Stage } from "../../../src/fs/stage.ts";
import { walkProject } from "../../../src/fs/walk.ts";

/** A project with VCS folders, graver's folder, node_modules, build output and nested .gitignore files. */
const TREE: Record<string, string> = {
  ".git/HEAD": "ref: refs/heads/main\n",
  ".git/objects/ab/cdef": "x",
  ".hg/store": "x",
  ".jj/repo": "x",
  ".graver/journal.json": "{}",
  ".gitignore": "dist/\n*.log\n!keep.log\n/root-only.txt\nsecret/**\n",
  "a.ts": "",
  "keep.log": "",
  "x.log": "",
  "root-only.txt": "",
  "dist/index.js": "",
  "node_modules/pkg/index.ts": "",
  "secret/s.ts": "",
  "src/root-only.txt": "",
  "src/b.ts": "",
  "src/.gitignore": "gen/\n!important.log\n",
  "src/important.log": "",
  "src/gen/g.ts": "",
  "src/deep/dist/d.ts": "",
  "src/deep/c.ts": "",
};

async function stageOver(files: Record<string, string>, root: string, disk: boolean): Promise<Stage> {
  const backend = disk ? createDiskBackend() : createMemoryBackend(
    Object.fromEntries(Object.entries(files).map(([k, v]) => [`${root}/${k}`, v])),
  );
  if (disk) {
    for (const [k, v] of Object.entries(files)) {
      const p = `${root}/${k}`;
      await Deno.mkdir(p.slice(0, p.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(p, v);
    }
  }
  return new Stage(BackendFs.wrap(backend), new Sandbox(root));
}

for (const disk of [false, true]) {
  const where = disk ? "on disk" : "in memory";

  Deno.test(`walkProject() skips VCS folders, .graver, node_modules and .gitignored entries (${where})`, async () => {
    const root = disk ? await Deno.makeTempDir() : "/w";
    try {
      const stage = await stageOver(TREE, root, disk);
      const { entries, truncated, ignored } = await walkProject(stage, "");
      assert.deepEqual(entries.map((e) => e.kind === "dir" ? `${e.rel}/` : e.rel), [
        ".gitignore",
        "a.ts",
        "keep.log",
        "secret/",
        "src/",
        "src/.gitignore",
        "src/b.ts",
        "src/deep/",
        "src/deep/c.ts",
        "src/important.log",
        "src/root-only.txt",
      ]);
      assert.equal(truncated, false);
      // dist/, node_modules/, x.log, root-only.txt, secret/s.ts, src/gen/, src/deep/dist/
      assert.equal(ignored, 7);
    } finally {
      if (disk) await Deno.remove(root, { recursive: true });
    }
  });

  Deno.test(`walkProject() with includeIgnored lists ignored files and node_modules but never VCS folders (${where})`, async () => {
    const root = disk ? await Deno.makeTempDir() : "/w";
    try {
      const stage = await stageOver(TREE, root, disk);
      const { entries } = await walkProject(stage, "", { includeIgnored: true });
      const rels = entries.map((e) => e.rel);
      for (const r of ["dist/index.js", "node_modules/pkg/index.ts", "x.log", "src/gen/g.ts"]) {
        assert.ok(rels.includes(r), r);
      }
      assert.ok(!rels.some((r) => /^\.(git|hg|jj|graver)(\/|$)/.test(r)), rels.join());
    } finally {
      if (disk) await Deno.remove(root, { recursive: true });
    }
  });
}

Deno.test("walkProject() from a subdirectory applies its parents' .gitignore rules", async () => {
  const stage = await stageOver(TREE, "/w", false);
  const { entries } = await walkProject(stage, "src");
  assert.deepEqual(entries.map((e) => e.rel), [
    "src/.gitignore",
    "src/b.ts",
    "src/deep",
    "src/deep/c.ts",
    "src/important.log",
    "src/root-only.txt",
  ]);
});

Deno.test("walkProject() counts only accepted entries against the limit, and sees staged files", async () => {
  const stage = await stageOver(TREE, "/w", false);
  await stage.write("src/new.ts", new TextEncoder().encode("export {};\n"));
  const ts = await walkProject(stage, "", { accept: (e) => e.rel.endsWith(".ts") });
  assert.deepEqual(ts.entries.map((e) => e.rel), ["a.ts", "src/b.ts", "src/deep/c.ts", "src/new.ts"]);
  const cut = await walkProject(stage, "", { accept: (e) => e.rel.endsWith(".ts"), limit: 2 });
  assert.deepEqual(cut.entries.map((e) => e.rel), ["a.ts", "src/b.ts"]);
  assert.equal(cut.truncated, true);
  const flat = await walkProject(stage, "", { recursive: false });
  assert.deepEqual(flat.entries.map((e) => e.rel), [".gitignore", "a.ts", "keep.log", "secret", "src"]);
});

Deno.test("walkProject() skips links that leave the root, follows one inside it once, at its real path", async () => {
  const backend = createMemoryBackend({
    "/w/src/a.ts": "a",
    "/w/lib/b.ts": "b",
    "/w/lib/c.ts": "c",
    "/outside/secret.ts": "secret",
  });
  const links = backend as unknown as { symlink(target: string, path: string): Promise<void> };
  await links.symlink("/outside/secret.ts", "/w/src/out.ts");
  await links.symlink("../../outside", "/w/src/outdir");
  await links.symlink("../lib/b.ts", "/w/src/b-link.ts"); // lib/b.ts is walked by its own path too
  await links.symlink("../lib", "/w/src/lib-link"); // the same directory again
  await links.symlink("..", "/w/src/up"); // a cycle
  const stage = new Stage(BackendFs.wrap(backend), new Sandbox("/w"));
  const walked = await walkProject(stage, "");
  assert.deepEqual(walked.entries.map((e) => `${e.rel}=${e.real}`), [
    "lib=lib",
    "lib/b.ts=lib/b.ts",
    "lib/c.ts=lib/c.ts",
    "src=src",
    "src/a.ts=src/a.ts",
  ]);
  assert.deepEqual(walked.skipped, { outside_root: 2, special_file: 0, unreadable: 0 });
  // From src/ alone, lib/ is reached only through the links: followed once, named by the link.
  const fromSrc = await walkProject(stage, "src");
  assert.deepEqual(fromSrc.entries.map((e) => `${e.rel}=${e.real}`), [
    "src/a.ts=src/a.ts",
    "src/b-link.ts=lib/b.ts",
    "src/lib-link=lib",
    "src/lib-link/c.ts=lib/c.ts",
    "src/up=", // the root, entered once: all it holds was seen already
  ]);
});

Deno.test("walkProject() skips a link it may not follow (/proc/1/cwd) as unreadable, and walks on", async () => {
  const source = {
    list: (dir: string) =>
      Promise.resolve(
        dir === ""
          ? [{ name: "a.ts", kind: "file" as const }, { name: "cwd", kind: "symlink" as const }, {
            name: "z.ts",
            kind: "file" as const,
          }]
          : [],
      ),
    read: () => Promise.resolve(null),
    follow: (rel: string) =>
      rel === "cwd"
        ? Promise.reject(
          Object.assign(new Error(`Cannot use "${rel}": permission denied`), { code: "EACCES" }),
        )
        : Promise.resolve(null),
  };
  const walked = await walkProject(source, "");
  assert.deepEqual(walked.entries.map((e) => e.rel), ["a.ts", "z.ts"]);
  assert.deepEqual(walked.skipped, { outside_root: 0, special_file: 0, unreadable: 1 });
  // Any other failure still ends the walk: it is not the system's refusal.
  const broken = { ...source, follow: () => Promise.reject(new Error("the backend is gone")) };
  await assert.rejects(() => walkProject(broken, ""), /the backend is gone/);
});

Deno.test("walkProject() skips a FIFO and a link to one on disk without opening them", async () => {
  const root = await Deno.makeTempDir({ prefix: "graver-walk-fifo-" });
  try {
    await Deno.writeTextFile(`${root}/a.ts`, "a");
    const made = await new Deno.Command("mkfifo", { args: [`${root}/pipe.ts`] }).output();
    assert.ok(made.success, "mkfifo failed");
    await Deno.symlink("pipe.ts", `${root}/to-pipe.ts`);
    const stage = new Stage(BackendFs.wrap(createDiskBackend()), new Sandbox(root));
    const walked = await walkProject(stage, "");
    assert.deepEqual(walked.entries.map((e) => e.rel), ["a.ts"]);
    assert.deepEqual(walked.skipped, { outside_root: 0, special_file: 2, unreadable: 0 });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("walkProject() with skipHidden leaves out dot-named files and folders, counted as ignored", async () => {
  const stage = await stageOver(TREE, "/w", false);
  const all = await walkProject(stage, "");
  const visible = await walkProject(stage, "", { skipHidden: true });
  // .gitignore at the root and in src/ (the VCS folders and .graver are never walked either way).
  assert.deepEqual(
    all.entries.map((e) => e.rel).filter((r) => !visible.entries.some((v) => v.rel === r)),
    [".gitignore", "src/.gitignore"],
  );
  assert.equal(visible.ignored, all.ignored + 2);
  // The rules of a hidden .gitignore still apply: it is read, not listed.
  assert.ok(!visible.entries.some((e) => e.rel.startsWith("dist")));
});

Deno.test("walkProject() reads .ignore files only when asked, after .gitignore, so their rules win", async () => {
  const files = {
    ".gitignore": "*.gen.ts\n",
    ".ignore": "!keep.gen.ts\nfixtures/\n",
    "a.ts": "",
    "drop.gen.ts": "",
    "keep.gen.ts": "",
    "fixtures/f.ts": "",
    "src/.ignore": "local.ts\n",
    "src/local.ts": "",
    "src/b.ts": "",
  };
  const stage = await stageOver(files, "/w", false);
  const names = (r: { entries: { rel: string; kind: string }[] }) =>
    r.entries.filter((e) => e.kind === "file").map((e) => e.rel);
  // By default only .gitignore counts (what list_files and find_symbol have always done).
  assert.deepEqual(names(await walkProject(stage, "")), [
    ".gitignore",
    ".ignore",
    "a.ts",
    "fixtures/f.ts",
    "src/.ignore",
    "src/b.ts",
    "src/local.ts",
  ]);
  const both = await walkProject(stage, "", { ignoreFiles: [".gitignore", ".ignore"] });
  assert.deepEqual(names(both), [".gitignore", ".ignore", "a.ts", "keep.gen.ts", "src/.ignore", "src/b.ts"]);
  // From src/ alone, the root's rules still apply (its parents' ignore files are read too).
  const fromSrc = await walkProject(stage, "src", { ignoreFiles: [".gitignore", ".ignore"] });
  assert.deepEqual(names(fromSrc), ["src/.ignore", "src/b.ts"]);
});

Deno.test("walkProject() reads only the ignore files a folder holds", async () => {
  const stage = await stageOver(TREE, "/w", false);
  const reads: string[] = [];
  const source = {
    list: (dir: string) => stage.list(dir),
    read: (rel: string) => {
      reads.push(rel);
      return stage.read(rel);
    },
  };
  const walked = await walkProject(source, "", { ignoreFiles: [".gitignore", ".ignore"] });
  assert.deepEqual(reads.sort(), [".gitignore", "src/.gitignore"]);
  assert.ok(walked.entries.some((e) => e.rel === "src/deep/c.ts"));
  assert.ok(!walked.entries.some((e) => e.rel === "src/gen/g.ts"));
});

Deno.test("walkProject() tells progress its entries before each folder, and ends where stopped says", async () => {
  const stage = await stageOver(TREE, "/w", false);
  const whole = await walkProject(stage, "");
  const seen: number[] = [];
  let told: readonly unknown[] | undefined;
  const walked = await walkProject(stage, "", {
    progress: (entries) => {
      told = entries;
      seen.push(entries.length);
    },
  });
  assert.deepEqual(walked.entries, whole.entries);
  assert.equal(told, walked.entries, "the walk's own array, which only grows");
  assert.ok(seen.length >= 4 && seen.every((n, i) => i === 0 || n >= seen[i - 1]!), seen.join());
  assert.equal(seen[0], 0, "told before the first folder is listed");
  assert.equal(walked.stopped, undefined);
  // Stopped at the second folder: what came before it, no more, and the result says so.
  let folders = 0;
  const stopped = await walkProject(stage, "", { stopped: () => folders++ >= 1 });
  assert.equal(stopped.stopped, true);
  assert.equal(stopped.truncated, true);
  assert.deepEqual(stopped.entries.map((e) => e.rel), [".gitignore", "a.ts", "keep.log", "secret"]);
});
