import assert from "node:assert/strict";
import { listDir, readdirStated } from "../../../src/adapters/_listing.ts";
import { BackendFs } from "../../../src/fs/backend.ts";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";
import { landingIn } from "../../../src/fs/real_reads.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";

/** A root with `src/deep/{a.ts,b.ts}`, and an outside folder with `deep/{secret_1,secret_2}`. */
async function tree(): Promise<{ root: string; outside: string }> {
  const root = await Deno.makeTempDir({ prefix: "graver-listing-" });
  const outside = await Deno.makeTempDir({ prefix: "graver-listing-outside-" });
  await Deno.mkdir(`${root}/src/deep`, { recursive: true });
  await Deno.writeTextFile(`${root}/src/deep/a.ts`, "a\n");
  await Deno.writeTextFile(`${root}/src/deep/b.ts`, "b\n");
  await Deno.mkdir(`${outside}/deep`);
  await Deno.writeTextFile(`${outside}/deep/secret_1`, "s\n");
  await Deno.writeTextFile(`${outside}/deep/secret_2`, "s\n");
  return { root, outside };
}

/** The names of `readdir` entries. */
function names(entries: unknown[]): string[] {
  return entries.map((e) => (e as { name: string }).name).sort();
}

const onLinux = Deno.build.os === "linux";

Deno.test({
  name:
    "readdirStated lists a folder through its descriptor and says where it was: a folder on its way swapped for a link shows",
  ignore: !onLinux,
  fn: async () => {
    const { root, outside } = await tree();
    try {
      const asked = `${root}/src/deep`;
      const first = await readdirStated(asked);
      assert.equal(first.at, asked);
      assert.deepEqual(names(first.entries), ["a.ts", "b.ts"]);
      assert.deepEqual(names(first.entries), names(await listDir(asked, { withFileTypes: true })));
      // `src` is a link to the outside folder now: the same path lists the outside names, and says so.
      await Deno.rename(`${root}/src`, `${root}/src_real`);
      await Deno.symlink(outside, `${root}/src`);
      for (let i = 0; i < 2; i++) { // the synchronous listing, then (its allowance spent) the asynchronous one
        const swapped = await readdirStated(asked);
        assert.equal(swapped.at, await Deno.realPath(`${outside}/deep`));
        assert.deepEqual(names(swapped.entries), ["secret_1", "secret_2"]);
      }
      // The folder itself a link: listed where the link leads, and said so.
      await Deno.symlink(`${root}/src_real/deep`, `${root}/deep_link`);
      assert.equal((await readdirStated(`${root}/deep_link`)).at, `${root}/src_real/deep`);
      // Absent, or a file: the errors readdir has.
      assert.equal((await readdirStated(`${root}/gone`).catch((e) => e)).code, "ENOENT");
      const notDir = await readdirStated(`${root}/src_real/deep/a.ts`).catch((e) => e);
      assert.equal(notDir.code, "ENOTDIR");
    } finally {
      await Deno.remove(root, { recursive: true });
      await Deno.remove(outside, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "BackendFs.listTyped with a landing refuses a listing made elsewhere (ELOOP), and takes the root reached through a link",
  ignore: !onLinux,
  fn: async () => {
    const { root, outside } = await tree();
    try {
      const fs = BackendFs.wrap(createDiskBackend());
      await Deno.symlink(root, `${outside}/root_link`);
      const viaLink = new Sandbox(`${outside}/root_link`);
      await viaLink.learnRealRoot(fs); // as a workspace does when it opens
      const listed = await fs.listTyped(`${outside}/root_link/src/deep`, landingIn(viaLink));
      assert.deepEqual(listed.map((e) => e.name), ["a.ts", "b.ts"], "the root through a link is the root");
      await Deno.rename(`${root}/src`, `${root}/src_real`);
      await Deno.symlink(outside, `${root}/src`);
      const refused = await fs.listTyped(`${root}/src/deep`, landingIn(new Sandbox(root))).catch((e) => e);
      assert.equal(refused.code, "ELOOP");
      assert.match(refused.message, /a folder on its way is a link now; not listed/);
      // A wrapper that replaces `readdir` (to deny or filter) is listed through its own, not the stated form.
      const disk = createDiskBackend();
      const filtered = BackendFs.wrap({
        ...disk,
        readdir: async (p: string, o?: { withFileTypes?: boolean }) =>
          (await disk.readdir(p, o)).filter((e) => (e as { name: string }).name !== "secret_2"),
      });
      const viaOwn = await filtered.listTyped(`${root}/src/deep`, landingIn(new Sandbox(root)));
      assert.deepEqual(viaOwn.map((e) => e.name), ["secret_1"], "its own readdir, unchecked");
      assert.equal(disk.readdirStated!.of, disk.readdir);
      // Without a landing (not a walk's real path), the listing follows links as readdir does.
      assert.deepEqual((await fs.listTyped(`${root}/src/deep`)).map((e) => e.name), ["secret_1", "secret_2"]);
    } finally {
      await Deno.remove(root, { recursive: true });
      await Deno.remove(outside, { recursive: true });
    }
  },
});
