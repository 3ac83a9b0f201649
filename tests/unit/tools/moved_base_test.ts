/**
 * An edit whose file another writer changed while the call ran: when the caller pinned no version, the edit
 * is placed again on the new content and lands if it still matches (nothing of the other writer's change
 * lost); with `expected_version` it is refused `stale_base`, as before. In-process with a writer that comes
 * in between the call's reads and its commit, and across processes: two `graver` processes editing
 * distinct lines of one file at once.
 */
import assert from "node:assert/strict";
import { createWorkspace, type PipelineStep } from "../../../src/mod.ts";
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";

const LINES = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

/** A review step that, the first `times` calls, changes `line` of a.txt on disk as another process would. */
function interloper(root: string, line: number, times = 1): PipelineStep {
  let left = times;
  return {
    name: "interloper",
    stage: "review",
    async run() {
      if (left-- <= 0) return;
      const text = await Deno.readTextFile(`${root}/a.txt`);
      await Deno.writeTextFile(`${root}/a.txt`, text.replace(`line ${line}\n`, `LINE ${line} (other)\n`));
    },
  };
}

async function open(steps: PipelineStep[] = [], root?: string) {
  const dir = root ?? await Deno.makeTempDir({ prefix: "graver-moved-" });
  if (!root) await Deno.writeTextFile(`${dir}/a.txt`, LINES);
  return { dir, ws: await createWorkspace({ backend: createDiskBackend(), root: dir, steps }) };
}

Deno.test("an unpinned edit is placed again on the other writer's bytes and lands, keeping both changes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graver-moved-" });
  await Deno.writeTextFile(`${dir}/a.txt`, LINES);
  const { ws } = await open([interloper(dir, 30)], dir);
  const r = await ws.call("edit_file", { path: "a.txt", old_string: "line 5\n", new_string: "line five\n" });
  assert.ok(r.ok && r.status === "applied", JSON.stringify(r));
  assert.match(
    r.warnings.join("\n"),
    /Another writer changed "a\.txt" while this call ran; the edit was placed again/,
  );
  const text = await Deno.readTextFile(`${dir}/a.txt`);
  assert.ok(text.includes("line five\n") && text.includes("LINE 30 (other)\n"), text);
});

Deno.test("with expected_version, a moved base is refused stale_base and the other writer's change stands", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graver-moved-" });
  await Deno.writeTextFile(`${dir}/a.txt`, LINES);
  const { ws } = await open([interloper(dir, 30)], dir);
  const read = await ws.call("read_file", { path: "a.txt" });
  assert.ok(read.ok);
  const r = await ws.call("edit_file", {
    path: "a.txt",
    old_string: "line 5\n",
    new_string: "line five\n",
    expected_version: read.data["version"],
  });
  assert.ok(!r.ok && r.error.code === "stale_base", JSON.stringify(r));
  const text = await Deno.readTextFile(`${dir}/a.txt`);
  assert.ok(!text.includes("line five") && text.includes("LINE 30 (other)\n"), text);
});

Deno.test("an unpinned edit of the very line the other writer changed is refused, nothing lost", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graver-moved-" });
  await Deno.writeTextFile(`${dir}/a.txt`, LINES);
  const { ws } = await open([interloper(dir, 5)], dir);
  const r = await ws.call("edit_file", { path: "a.txt", old_string: "line 5\n", new_string: "line five\n" });
  assert.ok(!r.ok && r.error.code === "no_match", JSON.stringify(r));
  assert.ok((await Deno.readTextFile(`${dir}/a.txt`)).includes("LINE 5 (other)\n"));
});

const CLI = new URL("../../../src/adapters/deno/cli.ts", import.meta.url).pathname;

async function graverCall(cwd: string, tool: string, args: Record<string, unknown>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "call", tool, JSON.stringify(args)],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

Deno.test("two graver processes editing distinct lines of one file at once: every edit lands, none lost", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graver-moved-" });
  await Deno.writeTextFile(`${dir}/a.txt`, LINES);
  const writer = async (lines: number[]) => {
    const results = [];
    for (const n of lines) {
      results.push(
        await graverCall(dir, "edit_file", {
          path: "a.txt",
          old_string: `line ${n}\n`,
          new_string: `edited ${n}\n`,
        }),
      );
    }
    return results;
  };
  const odd = Array.from({ length: 8 }, (_, i) => 2 * i + 1);
  const even = Array.from({ length: 8 }, (_, i) => 2 * i + 2);
  const all = (await Promise.all([writer(odd), writer(even)])).flat();
  const refused = all.filter((r) => !r.ok);
  assert.deepEqual(refused, [], "no edit refused");
  const text = await Deno.readTextFile(`${dir}/a.txt`);
  for (const n of [...odd, ...even]) assert.ok(text.includes(`edited ${n}\n`), `line ${n} kept its edit`);
  assert.equal(text.split("\n").length, LINES.split("\n").length, "no line lost or doubled");
  await Deno.remove(dir, { recursive: true });
});
