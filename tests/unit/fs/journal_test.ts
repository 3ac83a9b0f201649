/**
 * The commit journal found in the tree is untrusted: recovery acts only on a
 * journal graver wrote for this root, confined to it, with backups that match.
 * Real files in a temp dir, opened through the Deno disk adapter.
 */
import assert from "node:assert/strict";
import { createWorkspace } from "../../../src/mod.ts";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";
import { BackendFs } from "../../../src/fs/backend.ts";
import { JOURNAL_FORMAT, readJournal, sealJournal, type UnsealedJournal } from "../../../src/fs/journal.ts";
import { Sandbox } from "../../../src/fs/sandbox.ts";
import { versionOf } from "../../../src/fs/version.ts";

const ATTACK = new TextEncoder().encode("#!/bin/sh\necho owned\n");

/** A temp dir holding `root/` (a project with a.txt) and `outside/` (with delete_me.txt). */
async function withTree(fn: (root: string, outside: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "graver-journal-" });
  try {
    await Deno.mkdir(`${dir}/root/.graver/tx/x`, { recursive: true });
    await Deno.mkdir(`${dir}/outside`);
    await Deno.writeTextFile(`${dir}/root/a.txt`, "mine\n");
    await Deno.writeTextFile(`${dir}/outside/delete_me.txt`, "keep\n");
    await fn(`${dir}/root`, `${dir}/outside`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Every file under `dir` as path -> text (`.graver/` included). */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string) => {
    for await (const e of Deno.readDir(d)) {
      const p = `${d}/${e.name}`;
      if (e.isDirectory) await walk(p);
      else out[p.slice(dir.length + 1)] = await Deno.readTextFile(p).catch(() => "<link>");
    }
  };
  await walk(dir);
  return out;
}

/** Open the root through the disk adapter, read a.txt, try a write; return what the calls said. */
async function openReadWrite(root: string) {
  const ws = await createWorkspace({ backend: createDiskBackend(), root });
  const read = await ws.call("read_file", { path: "a.txt" });
  const write = await ws.call("write_file", { path: "a.txt", content: "new\n" });
  return { ws, read, write };
}

function assertRefusedClearly(out: Awaited<ReturnType<typeof openReadWrite>>, why: RegExp): void {
  assert.equal(out.ws.recovered, "refused");
  assert.ok(out.read.ok, JSON.stringify(out.read));
  const warning = out.read.warnings.join("\n");
  assert.match(warning, /Cannot recover the commit journal ".*\.graver\/journal\.json"/);
  assert.match(warning, why);
  assert.match(
    warning,
    /remove ".*\.graver\/journal\.json" .*if you did not run graver here|did not run graver here/,
  );
  assert.ok(!out.write.ok && out.write.error.code === "sandbox_violation", JSON.stringify(out.write));
  assert.match(out.write.error.message, /journal\.json/);
}

Deno.test("a planted journal of the old shape naming ../outside is refused: nothing outside changes", async () => {
  await withTree(async (root, outside) => {
    await Deno.writeFile(`${root}/.graver/tx/x/originals.pack`, ATTACK);
    const journal = {
      txid: "x",
      state: "prepared",
      pack: `${root}/.graver/tx/x/originals.pack`,
      entries: [
        {
          path: "../outside/made/run.sh",
          existed: true,
          tmp: null,
          offset: 0,
          length: ATTACK.length,
          mode: 0o755,
        },
        { path: "../outside/delete_me.txt", existed: false, tmp: null, offset: 0, length: 0 },
      ],
    };
    await Deno.writeTextFile(`${root}/.graver/journal.json`, JSON.stringify(journal));
    const before = { inside: await tree(root), outside: await tree(outside) };
    const out = await openReadWrite(root);
    assertRefusedClearly(out, /not in the format this graver writes/);
    assert.deepEqual(await tree(outside), before.outside);
    assert.deepEqual(await tree(root), before.inside, "the journal, its pack and a.txt stay as they were");
  });
});

/** A journal sealed exactly as graver seals one (a forger can compute the hash too). */
async function plantSealed(root: string, edit: (j: UnsealedJournal) => void, pack = ATTACK): Promise<void> {
  const j: UnsealedJournal = {
    graver_journal: JOURNAL_FORMAT,
    txid: "abc-def",
    root,
    state: "prepared",
    pack: true,
    entries: [{
      path: "a.txt",
      existed: true,
      tmp: true,
      offset: 0,
      length: pack.length,
      before: await versionOf(pack),
      after: await versionOf(new TextEncoder().encode("mine\n")),
      mode: 0o755,
    }],
  };
  edit(j);
  await Deno.mkdir(`${root}/.graver/tx/abc-def`, { recursive: true });
  await Deno.writeFile(`${root}/.graver/tx/abc-def/originals.pack`, pack);
  await Deno.writeTextFile(`${root}/.graver/journal.json`, JSON.stringify(await sealJournal(j)));
}

const FORGED: { name: string; edit: (j: UnsealedJournal, root: string) => void; why: RegExp }[] = [
  {
    name: "an entry naming ../outside",
    edit: (j) => j.entries[0]!.path = "../outside/x",
    why: /"\.\.\/outside\/x"/,
  },
  { name: "an absolute entry", edit: (j) => j.entries[0]!.path = "/etc/passwd", why: /"\/etc\/passwd"/ },
  {
    name: "an entry in .git/hooks",
    edit: (j) => j.entries[0]!.path = ".git/hooks/pre-commit",
    why: /protected version-control metadata/,
  },
  { name: "an entry in .graver/", edit: (j) => j.entries[0]!.path = ".graver/lock", why: /"\.graver\/lock"/ },
  { name: "another root", edit: (j) => j.root = "/elsewhere", why: /written for another root/ },
  { name: "a transaction id naming a path", edit: (j) => j.txid = "../../outside", why: /transaction id/ },
];

for (const c of FORGED) {
  Deno.test(`a sealed journal with ${c.name} is refused before any byte is restored`, async () => {
    await withTree(async (root, outside) => {
      await plantSealed(root, (j) => c.edit(j, root));
      const before = { inside: await tree(root), outside: await tree(outside) };
      const out = await openReadWrite(root);
      assertRefusedClearly(out, c.why);
      assert.deepEqual(await tree(outside), before.outside);
      assert.deepEqual(await tree(root), before.inside);
    });
  });
}

Deno.test("a journal whose content no longer matches its seal is refused as damaged", async () => {
  await withTree(async (root) => {
    await plantSealed(root, () => {});
    const text = await Deno.readTextFile(`${root}/.graver/journal.json`);
    await Deno.writeTextFile(`${root}/.graver/journal.json`, text.replace('"mode":493', '"mode":511'));
    const before = await tree(root);
    assertRefusedClearly(await openReadWrite(root), /integrity hash does not match/);
    assert.deepEqual(await tree(root), before);
  });
});

Deno.test("a journal whose backup pack does not hash to the recorded original is refused", async () => {
  await withTree(async (root) => {
    await plantSealed(root, () => {});
    await Deno.writeFile(`${root}/.graver/tx/abc-def/originals.pack`, ATTACK.map((b) => b ^ 1));
    const before = await tree(root);
    assertRefusedClearly(await openReadWrite(root), /backup of "a\.txt" does not match/);
    assert.deepEqual(await tree(root), before);
  });
});

Deno.test("a .graver/ that is a link out of the root is never read, swept or written through", async () => {
  await withTree(async (root, outside) => {
    await Deno.remove(`${root}/.graver`, { recursive: true });
    await Deno.mkdir(`${outside}/tx/abc-def`, { recursive: true });
    await Deno.writeTextFile(`${outside}/tx/abc-def/0.new`, "precious\n");
    await Deno.writeTextFile(`${outside}/journal.json`, "{}");
    await Deno.symlink(outside, `${root}/.graver`);
    const before = await tree(outside);
    const out = await openReadWrite(root);
    assert.equal(out.ws.recovered, "refused");
    assert.ok(!out.write.ok, JSON.stringify(out.write));
    assert.deepEqual(await tree(outside), before);
  });
});

Deno.test("readJournal() accepts the journal graver seals for this root", async () => {
  await withTree(async (root) => {
    await plantSealed(root, () => {});
    const journal = await readJournal(BackendFs.wrap(createDiskBackend()), new Sandbox(root));
    assert.equal(journal?.txid, "abc-def");
  });
});

Deno.test("recovery never undoes a file another writer changed after the crash", async () => {
  await withTree(async (root) => {
    // A genuine crashed commit wrote "mine\n" over the pack's original; then someone else wrote a.txt.
    await plantSealed(root, () => {});
    await Deno.writeTextFile(`${root}/a.txt`, "someone else's\n");
    const ws = await createWorkspace({ backend: createDiskBackend(), root });
    assert.equal(ws.recovered, "rolled_back");
    assert.equal(await Deno.readTextFile(`${root}/a.txt`), "someone else's\n");
    await assert.rejects(() => Deno.stat(`${root}/.graver`), Deno.errors.NotFound);
  });
});

Deno.test("a .graver/tx that is a link out of the root refuses the commit before a temp file or backup is written", async () => {
  await withTree(async (root, outside) => {
    await Deno.remove(`${root}/.graver/tx`, { recursive: true });
    await Deno.symlink(outside, `${root}/.graver/tx`);
    const before = await tree(outside);
    const ws = await createWorkspace({ backend: createDiskBackend(), root });
    const write = await ws.call("write_file", { path: "a.txt", content: "new\n" });
    assert.ok(!write.ok && write.error.code === "sandbox_violation", JSON.stringify(write));
    assert.match(write.error.message, /\.graver\/tx" is a symlink, not graver's own folder/);
    assert.deepEqual(await tree(outside), before);
    assert.equal(await Deno.readTextFile(`${root}/a.txt`), "mine\n");
  });
});
