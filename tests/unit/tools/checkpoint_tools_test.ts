/**
 * The checkpoint tools through a real workspace: each applied commit recorded,
 * undo and restore committed through dispatch (the syntax guard applies), the
 * text editor's undo_edit mapped to checkpoint_undo, on memfs and on disk next
 * to a real `.git`.
 */
import assert from "node:assert/strict";
import * as nodeFs from "node:fs/promises";
import { createMemoryBackend, createWorkspace, type ToolResult } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";

const SOURCE = await Deno.readTextFile(new URL("../../fixtures/real/MSVSUserFile.py", import.meta.url));
const PY = "gyp/MSVSUserFile.py";

function ok(r: ToolResult): Extract<ToolResult, { ok: true }> {
  assert.ok(r.ok, JSON.stringify(r));
  return r;
}

function refused(r: ToolResult, code: string): Extract<ToolResult, { ok: false }> {
  assert.ok(!r.ok, JSON.stringify(r));
  assert.equal(r.error.code, code, JSON.stringify(r.error));
  return r;
}

type Ws = Awaited<ReturnType<typeof createWorkspace>>;

async function scenario(ws: Ws, read: (rel: string) => Promise<string | null>) {
  ok(
    await ws.call("edit_file", { path: PY, old_string: "import re\n", new_string: "import re  # regexps\n" }),
  );
  ok(await ws.call("create_file", { path: "notes.txt", content: "n\n" }));
  ok(await ws.call("write_file", { path: "notes.txt", content: "n2\n", dry_run: true })); // a dry run records nothing
  const list = ok(await ws.call("checkpoint_list", {}));
  const cps = list.data["checkpoints"] as { id: string; tool: string; session: string; paths: string[] }[];
  assert.deepEqual(cps.map((c) => [c.tool, c.paths]), [["create_file", ["notes.txt"]], ["edit_file", [PY]]]);
  assert.equal(cps[0]!.session, "default");

  // undo the newest (create_file): the file is deleted again
  const u = ok(await ws.call("checkpoint_undo", {}));
  assert.equal(u.data["undid"], cps[0]!.id);
  assert.equal(await read("notes.txt"), null);
  // the undo is a checkpoint of its own; the next undo walks back to the edit
  const after = ok(await ws.call("checkpoint_list", {})).data["checkpoints"] as {
    tool: string;
    undoes?: string;
  }[];
  assert.equal(after[0]!.tool, "checkpoint_undo");
  assert.equal(after[0]!.undoes, cps[0]!.id);

  // the Anthropic alias undo_edit undoes the newest checkpoint of that file
  const alias = ok(await ws.call("str_replace_based_edit_tool", { command: "undo_edit", path: PY }));
  assert.equal(alias.tool, "checkpoint_undo");
  assert.equal(await read(PY), SOURCE);
  refused(await ws.call("checkpoint_undo", {}), "not_found");

  // hash guard: a file changed outside graver since its checkpoint is not reverted
  ok(await ws.call("edit_file", { path: PY, old_string: "import re\n", new_string: "import re as regex\n" }));
  await ws.fs.write(ws.sandbox.abs(PY), new TextEncoder().encode(SOURCE + "# by hand\n"));
  const stale = refused(await ws.call("checkpoint_undo", {}), "stale_base");
  assert.match(stale.error.message, /MSVSUserFile\.py/);
  assert.equal(await read(PY), SOURCE + "# by hand\n", "nothing lost");

  // restore: back to the state right after the first checkpoint
  await ws.fs.write(
    ws.sandbox.abs(PY),
    new TextEncoder().encode(SOURCE.replace("import re\n", "import re as regex\n")),
  );
  const restored = ok(await ws.call("checkpoint_restore", { id: cps[1]!.id.slice(0, 10) }));
  assert.deepEqual(restored.data["paths"], [PY]);
  assert.match((await read(PY))!, /^import re {2}# regexps$/m);
  assert.equal(await read("notes.txt"), null, "created after that checkpoint");
  refused(await ws.call("checkpoint_restore", { id: "0000000" }), "not_found");
}

Deno.test("checkpoint tools on memfs: record, list, undo (walks back), undo_edit, stale_base, restore", async () => {
  const ws = await createWorkspace({
    backend: createMemoryBackend({ [`/w/${PY}`]: SOURCE }),
    root: "/w",
    wasm: createWasmLoader(),
    checkpoints: true,
  });
  await scenario(ws, async (rel) => {
    const b = await ws.fs.read(ws.sandbox.abs(rel));
    return b ? new TextDecoder().decode(b) : null;
  });
  // graver's own store stays out of the tools' reach
  refused(await ws.call("read_file", { path: ".graver/checkpoints/HEAD" }), "sandbox_violation");
});

Deno.test("checkpoint tools on disk in a git repository: the user's .git is byte-identical after", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const git = await import("isomorphic-git");
    await nodeFs.mkdir(`${dir}/gyp`);
    await nodeFs.writeFile(`${dir}/${PY}`, SOURCE);
    await git.init({ fs: nodeFs, dir });
    await git.add({ fs: nodeFs, dir, filepath: PY });
    await git.commit({ fs: nodeFs, dir, message: "user commit", author: { name: "u", email: "u@x" } });
    const snapshot = async () => {
      const out: Record<string, string> = {};
      for (const e of await nodeFs.readdir(`${dir}/.git`, { recursive: true, withFileTypes: true })) {
        if (e.isFile()) {
          out[`${e.parentPath}/${e.name}`] = (await nodeFs.readFile(`${e.parentPath}/${e.name}`)).toString(
            "base64",
          );
        }
      }
      return out;
    };
    const before = await snapshot();
    const ws = await createWorkspace({
      backend: nodeFs,
      root: dir,
      wasm: createWasmLoader(),
      checkpoints: true,
    });
    await scenario(ws, async (rel) => {
      try {
        return await nodeFs.readFile(`${dir}/${rel}`, "utf8");
      } catch {
        return null;
      }
    });
    assert.deepEqual(await snapshot(), before);
    assert.deepEqual((await git.log({ fs: nodeFs, dir })).map((c) => c.commit.message.trim()), [
      "user commit",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkpoint tools refuse with a hint when the workspace records none; undo_edit stays refused", async () => {
  const ws = await createWorkspace({ backend: createMemoryBackend({ [`/w/${PY}`]: SOURCE }), root: "/w" });
  for (
    const [tool, args] of [["checkpoint_list", {}], ["checkpoint_undo", {}], ["checkpoint_restore", {
      id: "abcd",
    }]] as const
  ) {
    const r = refused(await ws.call(tool, args), "invalid_args");
    assert.match(r.error.hint, /checkpoints: true/);
  }
  refused(await ws.call("str_replace_editor", { command: "undo_edit", path: PY }), "invalid_args");
});

Deno.test("a workspace opened without recording still lists, undoes and restores the checkpoints an earlier one recorded", async () => {
  const { createDiskBackend } = await import("../../../src/adapters/deno/mod.ts");
  const root = await Deno.makeTempDir({ prefix: "graver-cp-read-" });
  await Deno.writeTextFile(`${root}/a.txt`, "one\n");
  const recording = await createWorkspace({ backend: createDiskBackend(), root, checkpoints: true });
  for (const [from, to] of [["one", "two"], ["two", "three"]]) {
    const r = await recording.call("edit_file", { path: "a.txt", old_string: from, new_string: to });
    assert.ok(r.ok && r.status === "applied", JSON.stringify(r));
  }
  // A later process (e.g. the CLI without --checkpoints) on the same tree.
  const later = await createWorkspace({ backend: createDiskBackend(), root });
  const listed = await later.call("checkpoint_list", {});
  assert.ok(listed.ok, JSON.stringify(listed));
  assert.equal((listed.data["checkpoints"] as unknown[]).length, 2);
  const undone = await later.call("checkpoint_undo", {});
  assert.ok(undone.ok && undone.status === "applied", JSON.stringify(undone));
  assert.equal(await Deno.readTextFile(`${root}/a.txt`), "two\n");
  // A tree with no checkpoints at all is still refused, naming the option.
  const bare = await createWorkspace({ backend: createMemoryBackend({ "/b.txt": "b\n" }) });
  const refused = await bare.call("checkpoint_list", {});
  assert.ok(!refused.ok && /records no checkpoints/.test(refused.error.message), JSON.stringify(refused));
  await Deno.remove(root, { recursive: true });
});
