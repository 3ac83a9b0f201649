import assert from "node:assert/strict";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";
import type { Backend } from "../../../src/fs/backend.ts";
import { confineBackend } from "../../../src/fs/beneath.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { enc } from "../../_helpers.ts";

/** A temp dir with `root/src/` and `outside/`. */
async function withTree(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "graver-beneath-" });
  try {
    await Deno.mkdir(`${dir}/root/src`, { recursive: true });
    await Deno.mkdir(`${dir}/outside`);
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Swap `root/src` for a link to `outside` (the attacker's move). */
function swap(dir: string): void {
  Deno.renameSync(`${dir}/root/src`, `${dir}/root/src.aside`);
  Deno.symlinkSync(`${dir}/outside`, `${dir}/root/src`);
}

Deno.test("confineBackend() on disk: a swap after the directory is held cannot send a write or rename outside", async () => {
  await withTree(async (dir) => {
    const disk = createDiskBackend();
    assert.ok(disk.holdDir, "the disk backend holds directories on Linux");
    // The worst moment: the swap lands right after the check, just before the write (here: inside holdDir).
    let armed = true;
    const racing: Backend = {
      ...disk,
      holdDir: async (d, options) => {
        const held = await disk.holdDir!(d, options);
        if (armed && d.endsWith("/src")) {
          armed = false;
          swap(dir);
        }
        return held;
      },
    };
    const fs = confineBackend(racing, `${dir}/root`);
    await fs.writeFile(`${dir}/root/src/a.txt`, enc("a"));
    assert.deepEqual([...Deno.readDirSync(`${dir}/outside`)], []);
    assert.equal(Deno.readTextFileSync(`${dir}/root/src.aside/a.txt`), "a"); // landed in the directory checked
    // With the link in place, a rename into it is refused and nothing moves.
    await Deno.writeTextFile(`${dir}/root/tmp.txt`, "t");
    await assert.rejects(
      fs.rename(`${dir}/root/tmp.txt`, `${dir}/root/src/b.txt`),
      (e: { code?: string; message: string }) => e.code === "sandbox_violation" && /src/.test(e.message),
    );
    assert.deepEqual([...Deno.readDirSync(`${dir}/outside`)], []);
    assert.equal(Deno.readTextFileSync(`${dir}/root/tmp.txt`), "t");
    // A read or removal through the link finds nothing (ENOENT), never the outside file.
    await Deno.writeTextFile(`${dir}/outside/secret.txt`, "s");
    await assert.rejects(
      fs.readFile(`${dir}/root/src/secret.txt`),
      (e: { code?: string }) => e.code === "ENOENT",
    );
    await assert.rejects(
      fs.unlink(`${dir}/root/src/secret.txt`),
      (e: { code?: string }) => e.code === "ENOENT",
    );
    assert.equal(Deno.readTextFileSync(`${dir}/outside/secret.txt`), "s");
  });
});

Deno.test("confineBackend() on disk: a root reached through a link is trusted as given", async () => {
  await withTree(async (dir) => {
    await Deno.symlink(`${dir}/root`, `${dir}/root-link`);
    const fs = confineBackend(createDiskBackend(), `${dir}/root-link`);
    await fs.mkdir(`${dir}/root-link/src/new`);
    await fs.writeFile(`${dir}/root-link/src/new/a.txt`, enc("a"));
    assert.equal(Deno.readTextFileSync(`${dir}/root/src/new/a.txt`), "a");
  });
});

Deno.test("confineBackend() without holdDir (memfs) checks every directory on the way before and after", async () => {
  const raw = createMemoryBackend({ "/w/src/a.txt": "a", "/outside/.keep": "" });
  const links = raw as unknown as { symlink(target: string, path: string): Promise<void> };
  await links.symlink("/outside", "/w/lib");
  const fs = confineBackend(raw, "/w");
  await fs.writeFile("/w/src/b.txt", enc("b"));
  assert.equal(new TextDecoder().decode(await raw.readFile("/w/src/b.txt") as Uint8Array), "b");
  await assert.rejects(
    fs.writeFile("/w/lib/x.txt", enc("x")),
    (e: { code?: string }) => e.code === "sandbox_violation",
  );
  await assert.rejects(
    fs.rename("/w/src/b.txt", "/w/lib/b.txt"),
    (e: { code?: string }) => e.code === "sandbox_violation",
  );
  assert.deepEqual(await raw.readdir("/outside"), [".keep"]);
  assert.equal(confineBackend(raw, "/w"), fs, "one view per backend and root");
});
