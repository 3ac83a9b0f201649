/** `graver stats` through the real CLI entry, on a project of real files. */
import assert from "node:assert/strict";
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
