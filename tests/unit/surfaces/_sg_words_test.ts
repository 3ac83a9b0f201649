/**
 * The words of an ast-grep command line `graver sg` reads as ast-grep does: `run`/`scan` before the PATHs, and
 * `--no-ignore FILE_TYPE` (`hidden` as `--hidden`, the others lifting graver's ignore files), each taken as a
 * word only where no file or folder of that name is there; through the real CLI entry on real files.
 */
import assert from "node:assert/strict";
import { noIgnoreRead, withoutRunWord } from "../../../src/surfaces/_sg_words.ts";
import { inProcess, project } from "./_cli.ts";

const none = () => Promise.resolve(false);
const all = () => Promise.resolve(true);

Deno.test("withoutRunWord and noIgnoreRead take ast-grep's words unless a file of that name is there", async () => {
  assert.deepEqual(await withoutRunWord(["scan", "src"], none), { paths: ["src"], scan: true });
  assert.deepEqual(await withoutRunWord(["run", "src"], all), { paths: ["run", "src"], scan: false });
  assert.deepEqual(await noIgnoreRead({ "no-ignore": true }, ["hidden"], none), {
    flags: { hidden: true },
    paths: [],
  });
  assert.deepEqual(await noIgnoreRead({ "no-ignore": true }, ["hidden"], all), {
    flags: { "no-ignore": true },
    paths: ["hidden"],
  });
  const vcs = await noIgnoreRead({ "no-ignore": "vcs", json: true }, [], none);
  assert.ok(!("problem" in vcs));
  assert.deepEqual(vcs.flags, { json: true, "no-ignore": true });
  assert.match(vcs.note!, /lifts every ignore file/);
  assert.match(
    (await noIgnoreRead({ "no-ignore": "all" }, [], none) as { problem: string }).problem,
    /not "all"/,
  );
});

Deno.test("graver sg --no-ignore hidden searches hidden folders, as ast-grep's; bare --no-ignore is graver's", async () => {
  const dir = await project({
    "src/string.js": "fixtures/text/string.js",
    ".cache/string.js": "fixtures/text/string.js",
  });
  try {
    const files = (t: string) => new Set(t.split("\n").filter((l) => l !== "").map((l) => l.split(":")[0]));
    const plain = await inProcess(["sg", "-p", "return $X"], { cwd: dir });
    assert.deepEqual(files(plain.stdout), new Set(["src/string.js"]));
    for (const args of [["--no-ignore", "hidden"], ["--no-ignore=hidden"]]) {
      const hidden = await inProcess(["sg", "-p", "return $X", ...args], { cwd: dir });
      assert.equal(hidden.code, 0, hidden.stderr);
      assert.deepEqual(files(hidden.stdout), new Set(["src/string.js", ".cache/string.js"]), args.join(" "));
    }
    const bare = await inProcess(["sg", "-p", "return $X", "--no-ignore", "src"], { cwd: dir });
    assert.deepEqual(files(bare.stdout), new Set(["src/string.js"]), "src stays a PATH");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
