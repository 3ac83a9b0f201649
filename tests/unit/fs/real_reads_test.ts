import assert from "node:assert/strict";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";
import { BackendFs } from "../../../src/fs/backend.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { readReal, readRealMany } from "../../../src/fs/real_reads.ts";

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
