/**
 * Diffs as models send them, made from real edits of real files: for every
 * real-file fixture, seeded random line edits (change, insert, delete) are
 * written as a git diff, a plain unified diff, one without `@@` numbers, one
 * with no context, one whose `@@` numbers are off by 7 lines, and a
 * `*** Begin Patch`; applying each must give exactly the edited file (or be
 * refused as ambiguous — never a wrong result).
 */
import assert from "node:assert/strict";
import { createPatch } from "diff";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { createWorkspace } from "../../../src/workspace.ts";

const ROOT = new URL("../../", import.meta.url);

function realFiles(): string[] {
  const out: string[] = [];
  const add = (dir: string) => {
    for (const e of Deno.readDirSync(new URL(`${dir}/`, ROOT))) {
      if (e.isFile && !e.name.endsWith(".json") && e.name !== "README.md") out.push(`${dir}/${e.name}`);
    }
  };
  for (const d of ["fixtures/symbols", "fixtures/structural", "fixtures/real"]) add(d);
  for (const e of Deno.readDirSync(new URL("conformance/samples/", ROOT))) {
    if (e.isDirectory) add(`conformance/samples/${e.name}`);
  }
  return out.sort();
}

/** The same edit, written the ways models write diffs. */
function variants(name: string, before: string, after: string): [string, string][] {
  const patch = createPatch(name, before, after, "", "", { context: 3 });
  const body = patch.split("\n").filter((l) => !/^(Index:|=+$|--- |\+\+\+ )/.test(l));
  return [
    [
      "git",
      `diff --git a/${name} b/${name}\n` +
      patch.replace(/^Index:.*\n=+\n/, "").replace(`--- ${name}`, `--- a/${name}`).replace(
        `+++ ${name}`,
        `+++ b/${name}`,
      ),
    ],
    ["plain", patch],
    ["no @@ numbers", patch.replace(/^@@ .* @@/gm, "@@ @@")],
    ["no context", createPatch(name, before, after, "", "", { context: 0 })],
    ["@@ numbers off by 7", patch.replace(/^@@ -(\d+)/gm, (_m, n) => `@@ -${Number(n) + 7}`)],
    [
      "*** Begin Patch",
      `*** Begin Patch\n*** Update File: ${name}\n${
        body.map((l) => l.startsWith("@@") ? "@@" : l).filter((l) => !l.startsWith("\\")).join("\n").trimEnd()
      }\n*** End Patch\n`,
    ],
  ];
}

for (const path of realFiles()) {
  Deno.test(`diffs of seeded edits apply exactly or are refused, never misplaced: ${path}`, async () => {
    const text = (await Deno.readTextFile(new URL(path, ROOT))).replace(/\r\n/g, "\n");
    let seed = path.length * 7919;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const problems: string[] = [];
    let applied = 0;
    for (let round = 0; round < 3; round++) {
      const lines = text.split("\n");
      for (let k = 0, n = 1 + Math.floor(rnd() * 3); k < n; k++) {
        const i = Math.floor(rnd() * Math.max(1, lines.length - 1));
        const op = rnd();
        if (op < 0.4) lines[i] = `${lines[i]} // changed ${round}`;
        else if (op < 0.7) lines.splice(i, 0, `inserted_${round}_${k}();`);
        else lines.splice(i, 1);
      }
      const want = lines.join("\n");
      if (want === text) continue;
      const name = `f${path.slice(path.lastIndexOf("."))}`;
      for (const [label, patch] of variants(name, text, want)) {
        const ws = await createWorkspace({ backend: createMemoryBackend({ [`/${name}`]: text }) });
        const res = await ws.call("apply_edits", { text: patch, syntax_guard: "warn" });
        const got = new TextDecoder().decode((await ws.fs.read(`/${name}`))!);
        if (res.ok && got !== want) {
          problems.push(`round ${round}, ${label}: applied, but not as the diff says`);
        }
        if (res.ok && got === want) applied++;
        if (!res.ok && res.error.code !== "ambiguous") {
          problems.push(`round ${round}, ${label}: refused ${res.error.code}: ${res.error.message}`);
        }
        if (!res.ok && got !== text) problems.push(`round ${round}, ${label}: refused, yet the file changed`);
      }
    }
    assert.deepEqual(problems, [], problems.slice(0, 5).join("\n"));
    assert.ok(applied >= 6, `only ${applied} diffs applied`);
  });
}
