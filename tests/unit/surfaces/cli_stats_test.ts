/** `graver stats` through the real CLI entry, on a project of real files. */
import assert from "node:assert/strict";
import { createDiskBackend, createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import type { Backend } from "../../../src/fs/backend.ts";
import { runCli } from "../../../src/surfaces/cli.ts";
import { inProcess, json, project } from "./_cli.ts";

const FILES = {
  "gyp/MSVSUserFile.py": "fixtures/real/MSVSUserFile.py",
  "ios/native_modules.rb": "fixtures/real/native_modules.rb",
  "src/string.js": "fixtures/text/string.js",
  "wasm/json.wasm": "../grammars/wasm/json.wasm",
  "vendor/ignored.js": "fixtures/text/string.js",
};

async function lineCount(from: string): Promise<number> {
  const text = await Deno.readTextFile(new URL(`../../${from}`, import.meta.url));
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

Deno.test("graver stats --json counts files and lines per language, binary files, and respects .gitignore", async () => {
  const dir = await project(FILES, { ".gitignore": "vendor/\n", "notes.txt": "a\nb\n" });
  try {
    const run = await inProcess(["stats", "--json", "--symbols"], { cwd: dir });
    assert.equal(run.code, 0, run.stdout);
    const s = json(run);
    const by = Object.fromEntries(s.languages.map((l: { language: string }) => [l.language, l]));
    assert.equal(by.python.lines, await lineCount("fixtures/real/MSVSUserFile.py"));
    assert.equal(by.ruby.files, 1);
    assert.equal(by.javascript.files, 1, "vendor/ is ignored");
    assert.equal(by.javascript.lines, await lineCount("fixtures/text/string.js"));
    assert.equal(by.python.symbols, 7, "the outline's 7 definitions");
    assert.equal(by["(no grammar)"].files, 2, ".gitignore and notes.txt");
    assert.equal(by["(no grammar)"].symbols, undefined);
    assert.deepEqual(s.binary, ["wasm/json.wasm"]);
    assert.equal(s.files, 6);
    const all = json(await inProcess(["stats", "--json", "--include-ignored"], { cwd: dir }));
    assert.equal(all.files, 7);
    const sub = json(await inProcess(["stats", "--json", "--path", "gyp"], { cwd: dir }));
    assert.deepEqual(sub.languages.map((l: { language: string }) => l.language), ["python"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver stats prints a table, shows progress only on a terminal, and refuses a bad --path", async () => {
  const dir = await project(FILES);
  try {
    const run = await inProcess(["stats"], { cwd: dir });
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^language +files +lines\n/);
    assert.match(run.stdout, /^python +1 +152$/m);
    assert.match(run.stdout, /binary \(whole-file tools only\): wasm\/json.wasm/);
    assert.equal(run.stderr, "");
    const tty = await inProcess(["stats"], { cwd: dir, progress: true });
    assert.match(tty.stderr, /graver stats: reading 1\/\d+ files/);
    assert.ok(tty.stderr.endsWith("\r\x1b[K"));
    assert.equal(tty.stdout, run.stdout, "progress goes to stderr only");
    const missing = await inProcess(["stats", "--path", "nope"], { cwd: dir });
    assert.equal(missing.code, 1);
    assert.match(missing.stdout, /^error not_found/);
    const extra = await inProcess(["stats", "src"], { cwd: dir });
    assert.equal(extra.code, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A project of `dirs` folders of ten one-line Python files each (d000/f0.py …), plus `extra` files. */
async function wideProject(dirs: number, extra: Record<string, string> = {}): Promise<string> {
  const dir = await project({}, extra);
  for (let d = 0; d < dirs; d++) {
    const folder = `${dir}/d${String(d).padStart(3, "0")}`;
    await Deno.mkdir(folder);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => Deno.writeTextFile(`${folder}/f${i}.py`, "x = 1\n")),
    );
  }
  return dir;
}

Deno.test("graver stats caps files only, names what it left out and the --path that narrows the count", async () => {
  // 120 folders of 10 files, .gitignore first in walk order; skip/ (ignored) is not counted, capped or not.
  const dir = await wideProject(120, { ".gitignore": "skip/\n", "skip/a.py": "x = 1\n" });
  try {
    const all = json(await inProcess(["stats", "--json"], { cwd: dir }));
    assert.equal(all.files, 1201, "every file, no cap");
    assert.equal(all.truncated, false);
    assert.equal(all.capped, undefined);
    const run = await inProcess(["stats", "--json", "--max-files", "1000"], { cwd: dir });
    assert.equal(run.code, 0, run.stdout);
    const s = json(run);
    // 1000 files, not 1000 entries: the 99 folders walked before the cut are not counted against the cap.
    assert.equal(s.files, 1000);
    assert.equal(s.lines, 1000, "one line each");
    assert.equal(s.languages.reduce((n: number, l: { files: number }) => n + l.files, 0), 1000);
    assert.equal(s.truncated, true);
    assert.equal(s.capped.max_files, 1000);
    assert.equal(s.capped.first_not_counted, "d099/f9.py", ".gitignore, 99 folders of 10, then 9 of d099");
    assert.deepEqual(s.capped.not_counted.slice(0, 3), ["d099/", "d100/", "d101/"]);
    assert.equal(s.capped.not_counted.length, 20);
    assert.equal(s.capped.more, 21 - 20, "d099 … d119, not the ignored skip/");
    assert.equal(
      s.capped.narrower,
      "graver stats --path d099 --max-files 1000",
      "the same options, narrower",
    );
    assert.equal(s.capped.raise, "graver stats --max-files 2000");
    // From elsewhere, with --root: the narrower command repeats it.
    const human = await inProcess(["stats", "--max-files", "1000", "--root", dir], { cwd: "/" });
    assert.match(
      human.stdout,
      /^only the first 1000 files were counted \(at most 1000; directories are not counted\): "d099\/f9\.py" and the files after it were not$/m,
    );
    assert.match(
      human.stdout,
      /^not counted \(the first in part\): d099\/, d100\/, .*, d118\/ … and 1 more$/m,
    );
    assert.match(
      human.stdout,
      new RegExp(
        `^narrow the count: graver stats --path d099 --max-files 1000 --root ${dir} \\(or raise the cap: graver stats --max-files 2000 --root ${dir}\\)$`,
        "m",
      ),
    );
    const narrowed = json(
      await inProcess(["stats", "--json", "--path", "d099", "--max-files", "1000"], { cwd: dir }),
    );
    assert.equal(narrowed.files, 10, "the narrower count reaches every file of d099");
    assert.equal(narrowed.truncated, false);
    const sub = json(
      await inProcess(["stats", "--json", "--path", "d001", "--max-files", "3"], { cwd: dir }),
    );
    assert.equal(sub.capped.first_not_counted, "d001/f3.py");
    assert.deepEqual(sub.capped.not_counted, [
      "d001/f3.py",
      "d001/f4.py",
      "d001/f5.py",
      "d001/f6.py",
      "d001/f7.py",
      "d001/f8.py",
      "d001/f9.py",
    ]);
    assert.equal(sub.capped.narrower, undefined, "no directory left to narrow to");
    assert.equal(sub.capped.raise, "graver stats --path d001 --max-files 6");
    const bad = await inProcess(["stats", "--max-files", "0"], { cwd: dir });
    assert.equal(bad.code, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver stats follows the walk's link rules and says what they and the ignore rules left out", async () => {
  const outside = await Deno.makeTempDir({ prefix: "graver-cli-outside-" });
  const dir = await project({}, { "a.py": "x = 1\ny = 2\n", "node_modules/m.js": "1\n", "outside.txt": "" });
  try {
    await Deno.writeTextFile(`${outside}/secret.py`, "s = 1\n");
    await Deno.symlink(`${outside}/secret.py`, `${dir}/out.py`);
    await Deno.symlink(outside, `${dir}/outdir`);
    await Deno.symlink("a.py", `${dir}/again.py`); // inside the root: a.py is counted once
    const fifo = new Deno.Command("mkfifo", { args: [`${dir}/pipe`] }).outputSync();
    assert.equal(fifo.code, 0, "mkfifo");
    const s = json(await inProcess(["stats", "--json"], { cwd: dir }));
    assert.equal(s.files, 2, "a.py and outside.txt: no link leading out, no FIFO, no node_modules");
    assert.equal(s.lines, 2);
    assert.equal(s.ignored, 1, "node_modules");
    assert.deepEqual(s.skipped, { outside_root: 2, special_file: 1 });
    const human = await inProcess(["stats"], { cwd: dir });
    assert.match(
      human.stdout,
      /^not counted: 1 ignored by \.gitignore or node_modules \(--include-ignored counts them\); 2 links leading out of the root; 1 special file \(FIFO, socket, device\)$/m,
    );
    const all = json(await inProcess(["stats", "--json", "--include-ignored"], { cwd: dir }));
    assert.equal(all.files, 3);
    assert.equal(all.ignored, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("graver stats redraws its progress line every 250 files, not on every file", async () => {
  const dir = await wideProject(60);
  try {
    const tty = await inProcess(["stats"], { cwd: dir, progress: true });
    assert.equal(tty.code, 0);
    for (
      const shown of ["walking, 1 file found", "walking, 500 files found", "reading 1/600", "reading 250/600"]
    ) {
      assert.ok(
        tty.stderr.includes(`graver stats: ${shown}`),
        `${shown} in ${JSON.stringify(tty.stderr.slice(0, 300))}`,
      );
    }
    assert.ok(tty.stderr.includes("graver stats: reading 600/600 files"), "the last file");
    assert.ok(!tty.stderr.includes("reading 2/600"), "not every file");
    assert.ok(!tty.stderr.includes("walking, 2 files"), "not every file");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** The disk backend, except that the system refuses (EACCES) to list or read the paths in `denied`. */
function denyingBackend(denied: Set<string>): Backend {
  const disk = createDiskBackend();
  const refuse = (path: string) =>
    Object.assign(new Error(`EACCES: permission denied, '${path}'`), { code: "EACCES", path });
  return Object.assign(Object.create(disk), {
    readdir: (path: string) => denied.has(path) ? Promise.reject(refuse(path)) : disk.readdir(path),
    readFile: (path: string) => denied.has(path) ? Promise.reject(refuse(path)) : disk.readFile(path),
  });
}

Deno.test("graver stats names the directories and files the system will not let it read", async () => {
  // As root nothing is denied on disk: the backend says EACCES as the system would for another user.
  const dir = await project({}, { "a.py": "x = 1\n", "locked/b.py": "y = 2\n", "secret.txt": "s\n" });
  try {
    let stdout = "";
    const code = await runCli(["stats", "--json"], {
      stdout: (t) => stdout += t,
      stderr: () => {},
      readStdin: () => Promise.resolve(""),
      readHostFile: (p) => Deno.readTextFile(p),
      cwd: dir,
      backend: denyingBackend(new Set([`${dir}/locked`, `${dir}/secret.txt`])),
      wasm: createWasmLoader(),
      color: false,
      progress: false,
    });
    assert.equal(code, 0, stdout);
    const s = JSON.parse(stdout);
    assert.equal(s.files, 2, "a.py and secret.txt (counted, then unreadable)");
    assert.deepEqual(s.unreadable, [
      { path: "locked/", code: "permission_denied" },
      { path: "secret.txt", code: "permission_denied" },
    ]);
    assert.deepEqual(s.skipped, { unreadable: 1 });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
