import assert from "node:assert/strict";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";
import { BackendFs } from "../../../src/fs/backend.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { landedAsAsked, landingIn, readReal, readRealMany } from "../../../src/fs/real_reads.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import { existsSync } from "node:fs";

const dec = new TextDecoder();

Deno.test("readReal and readRealMany read real paths and refuse one that is a link now (ELOOP), on the disk", async () => {
  const root = await Deno.makeTempDir({ prefix: "graver-real-reads-" });
  const outside = await Deno.makeTempDir({ prefix: "graver-real-reads-outside-" });
  try {
    await Deno.writeTextFile(`${root}/a.ts`, "inside\n");
    await Deno.writeTextFile(`${outside}/secret.ts`, "outside\n");
    await Deno.symlink(`${outside}/secret.ts`, `${root}/swapped.ts`);
    const fs = BackendFs.wrap(createDiskBackend());
    const [a, swapped, gone] = await readRealMany(fs, [
      `${root}/a.ts`,
      `${root}/swapped.ts`,
      `${root}/gone.ts`,
    ]);
    assert.equal(dec.decode(a as Uint8Array), "inside\n");
    assert.equal((swapped as { code?: string }).code, "ELOOP");
    assert.equal(gone, null);
    assert.equal(dec.decode((await readReal(fs, `${root}/a.ts`))!), "inside\n");
    await assert.rejects(
      () => readReal(fs, `${root}/swapped.ts`),
      (err: { code?: string }) => err.code === "ELOOP",
    );
    assert.equal(await readReal(fs, `${root}/gone.ts`), null);
    // BackendFs.read, for paths that may be links (a sandbox resolves them), still follows it.
    assert.equal(dec.decode((await fs.read(`${root}/swapped.ts`))!), "outside\n");
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("over a backend without stated reads, they read as read does", async () => {
  const fs = BackendFs.wrap(createMemoryBackend({ "/w/a.ts": "a\n" }));
  assert.equal(fs.readsStated, false);
  assert.deepEqual(
    (await readRealMany(fs, ["/w/a.ts", "/w/b.ts"])).map((b) => b && dec.decode(b as Uint8Array)),
    [
      "a\n",
      null,
    ],
  );
  assert.equal(dec.decode((await readReal(fs, "/w/a.ts"))!), "a\n");
});

Deno.test("landedAsAsked refuses a read the backend opened elsewhere than asked, unless the landing allows it", () => {
  const stat = { isFile: () => true, isDirectory: () => false } as never;
  const bytes = new Uint8Array([1]);
  const asked = "/w/sub/a.ts";
  assert.equal(landedAsAsked(null, asked), null);
  const err = new Error("x");
  assert.equal(landedAsAsked(err, asked), err);
  const untold = { bytes, stat };
  assert.equal(landedAsAsked(untold, asked), untold, "a backend that cannot tell: taken as read");
  const same = { bytes, stat, at: asked };
  assert.equal(landedAsAsked(same, asked), same);
  const refused = landedAsAsked({ bytes, stat, at: "/etc/passwd" }, asked) as Error & { code?: string };
  assert.equal(refused.code, "ELOOP");
  assert.match(
    refused.message,
    /"\/w\/sub\/a\.ts" was opened as "\/etc\/passwd": a folder on its way is a link now/,
  );
  // The root reached through a link: the same file under the root's real path lands where it was asked.
  const sandbox = {
    relOf: (abs: string) =>
      abs.startsWith("/real/") ? abs.slice(6) : abs.startsWith("/w/") ? abs.slice(3) : null,
  };
  const viaReal = { bytes, stat, at: "/real/sub/a.ts" };
  assert.equal(landedAsAsked(viaReal, asked, landingIn(sandbox)), viaReal);
  for (const at of ["/real/other/a.ts", "/elsewhere/sub/a.ts"]) {
    assert.equal(
      (landedAsAsked({ bytes, stat, at }, asked, landingIn(sandbox)) as { code?: string }).code,
      "ELOOP",
    );
  }
});

Deno.test("a real path through a folder that is a link now is refused (ELOOP), not read outside; a root through a link reads", async () => {
  if (!existsSync("/proc/self/fd")) return; // where the kernel cannot name an open file, the backend cannot tell
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "graver-real-reads-dir-" }));
  const outside = await Deno.makeTempDir({ prefix: "graver-real-reads-dir-outside-" });
  const link = `${root}-link`;
  try {
    await Deno.mkdir(`${root}/sub_real`);
    await Deno.writeTextFile(`${root}/sub_real/a.ts`, "inside\n");
    await Deno.writeTextFile(`${outside}/a.ts`, "outside\n");
    // The walk found sub/ a folder; it is a link out of the workspace by the time its file is read.
    await Deno.symlink(outside, `${root}/sub`);
    // And a big file (read the asynchronous way) behind the same link.
    await Deno.writeTextFile(`${outside}/big.ts`, "outside;\n".repeat(300_000));
    const fs = BackendFs.wrap(createDiskBackend());
    const got = await readRealMany(fs, [`${root}/sub/a.ts`, `${root}/sub/big.ts`, `${root}/sub_real/a.ts`]);
    assert.deepEqual(got.slice(0, 2).map((g) => (g as { code?: string }).code), ["ELOOP", "ELOOP"]);
    assert.equal(dec.decode(got[2] as Uint8Array), "inside\n");
    await assert.rejects(
      () => readReal(fs, `${root}/sub/a.ts`),
      (err: { code?: string }) => err.code === "ELOOP",
    );
    // A root reached through a link (the workspace learns its real path): its files read under either name.
    await Deno.symlink(root, link);
    const sandbox = new Sandbox(link);
    await sandbox.learnRealRoot(fs);
    const [viaLink] = await readRealMany(fs, [`${link}/sub_real/a.ts`], landingIn(sandbox));
    assert.equal(dec.decode(viaLink as Uint8Array), "inside\n");
    assert.equal(dec.decode((await readReal(fs, `${link}/sub_real/a.ts`, landingIn(sandbox)))!), "inside\n");
    const [outOfIt] = await readRealMany(fs, [`${link}/sub/a.ts`], landingIn(sandbox));
    assert.equal((outOfIt as { code?: string }).code, "ELOOP");
  } finally {
    await Deno.remove(link).catch(() => {});
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});
