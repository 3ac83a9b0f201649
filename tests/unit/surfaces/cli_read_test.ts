/**
 * `graver read`, `outline` and `find` through the real CLI entry, on copies of
 * real files (node-gyp's MSVSUserFile.py, React Native's native_modules.rb).
 */
import assert from "node:assert/strict";
import { inProcess, json, project, stripAnsi, subprocess } from "./_cli.ts";
import { implRichRust } from "../syntax/_impl_rust.ts";

const FILES = {
  "gyp/MSVSUserFile.py": "fixtures/real/MSVSUserFile.py",
  "ios/native_modules.rb": "fixtures/real/native_modules.rb",
};
const SOURCE = await Deno.readTextFile(new URL("../../fixtures/real/MSVSUserFile.py", import.meta.url));
const ESC = "\x1b[";

Deno.test("graver read prints numbered lines and a footer with the version; --json is read_file's result", async () => {
  const dir = await project(FILES);
  try {
    const run = await subprocess(["read", "gyp/MSVSUserFile.py", "--start", "16", "--end", "17"], {
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const lines = SOURCE.split("\n");
    const call = json(
      await subprocess(["call", "read_file", '{"path":"gyp/MSVSUserFile.py"}'], { cwd: dir }),
    );
    assert.equal(
      run.stdout,
      `16  ${lines[15]}\n17  ${lines[16]}\n` +
        `gyp/MSVSUserFile.py: lines 16-17 of 152, version ${call.data.version.slice(0, 12)}, python, lf\n`,
    );
    assert.ok(!run.stdout.includes(ESC), "plain when piped");
    const asJson = json(await subprocess(["read", "gyp/MSVSUserFile.py", "--json", "--root", dir]));
    assert.deepEqual(asJson, call, "read --json is graver call read_file");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver read: a refusal is text and exit 1, a bad option or missing PATH is JSON and exit 2", async () => {
  const dir = await project(FILES);
  try {
    const missing = await inProcess(["read", "gyp/MSVSUserFlie.py"], { cwd: dir });
    assert.equal(missing.code, 1);
    assert.match(missing.stdout, /^error not_found: Cannot find "gyp\/MSVSUserFlie.py"/);
    assert.match(missing.stdout, /Did you mean "gyp\/MSVSUserFile.py"/);
    const asJson = await inProcess(["read", "nope.py", "--json"], { cwd: dir });
    assert.equal(asJson.code, 1);
    assert.equal(json(asJson).error.code, "not_found");
    const bad = await inProcess(["read", "gyp/MSVSUserFile.py", "--start", "0"], { cwd: dir });
    assert.equal(bad.code, 2);
    assert.match(json(bad).error.message, /"--start" takes a positive whole number, not "0"/);
    const none = await inProcess(["read"], { cwd: dir });
    assert.equal(none.code, 2);
    assert.match(json(none).error.message, /missing PATH/);
    const typo = await inProcess(["read", "x", "--strat", "2"], { cwd: dir });
    assert.equal(typo.code, 2);
    assert.match(json(typo).error.message, /did you mean "--start"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver outline prints the definitions as an indented tree, coloured only on a terminal", async () => {
  const dir = await project(FILES);
  try {
    const plain = await inProcess(["outline", "gyp/MSVSUserFile.py"], { cwd: dir });
    assert.equal(plain.code, 0, plain.stdout);
    assert.equal(
      plain.stdout,
      [
        "gyp/MSVSUserFile.py  python, 7 definitions",
        "function _FindCommandInPath  16-35",
        "function _QuoteWin32CommandLineArgs  38-52",
        "class Writer  55-152",
        "  constructor __init__  58-69",
        "  method AddConfig  71-77",
        "  method AddDebugSettings  79-137",
        "  method WriteIfChanged  139-152",
        "",
      ].join("\n"),
    );
    const top = await inProcess(["outline", "gyp/MSVSUserFile.py", "--depth", "1"], { cwd: dir });
    assert.ok(!top.stdout.includes("AddConfig"));
    const coloured = await inProcess(["outline", "gyp/MSVSUserFile.py"], { cwd: dir, color: true });
    assert.ok(coloured.stdout.includes(`${ESC}36mclass${ESC}39m ${ESC}1mWriter${ESC}22m`), coloured.stdout);
    assert.equal(stripAnsi(coloured.stdout), plain.stdout, "colour adds nothing but escapes");
    const data = json(await inProcess(["outline", "gyp/MSVSUserFile.py", "--json"], { cwd: dir }));
    assert.equal(data.data.symbols[2].name_path, "Writer");
    const refused = await inProcess(["outline", "README.nope"], { cwd: dir });
    assert.equal(refused.code, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver find lists matches as path:lines kind name, with --body the source; a progress line only on a terminal", async () => {
  const dir = await project(FILES);
  try {
    const run = await inProcess(["find", "AddConfig", "--body"], { cwd: dir });
    assert.equal(run.code, 0, run.stdout);
    const lines = run.stdout.split("\n");
    assert.equal(lines[0], "gyp/MSVSUserFile.py:71-77  method  Writer/AddConfig");
    // Every line as in the file, the first one's indentation kept like the rest's.
    const source = SOURCE.split("\n");
    for (let n = 71; n <= 77; n++) assert.equal(lines[n - 70], `${String(n).padStart(6)}  ${source[n - 1]}`);
    assert.equal(lines[1], "    71      def AddConfig(self, name):");
    assert.match(run.stdout, /\n1 match in 2 files searched\n$/);
    assert.equal(run.stderr, "", "no progress when stderr is not a terminal");
    const tty = await inProcess(["find", "use_native_modules!"], { cwd: dir, progress: true });
    assert.equal(tty.code, 0);
    assert.match(tty.stdout, /^ios\/native_modules.rb:15-\d+ {2}\w+ {2}use_native_modules!$/m);
    assert.match(tty.stderr, /graver find: searching for use_native_modules!/);
    assert.ok(tty.stderr.endsWith("\r\x1b[K"), "the progress line is cleared at the end");
    const none = await inProcess(["find", "NoSuchThing", "--json"], { cwd: dir });
    assert.equal(none.code, 1, "no match is a refusal, with the nearest names");
    assert.equal(json(none).error.code, "not_found");
    const bad = await inProcess(["find", "x", "--max", "many"], { cwd: dir });
    assert.equal(bad.code, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("NO_COLOR wins over FORCE_COLOR; piped output is plain; every new command has --help", async () => {
  const dir = await project(FILES);
  try {
    const forced = await subprocess(["outline", "gyp/MSVSUserFile.py"], {
      cwd: dir,
      env: { FORCE_COLOR: "1" },
    });
    assert.ok(forced.stdout.includes(ESC));
    const no = await subprocess(["outline", "gyp/MSVSUserFile.py"], {
      cwd: dir,
      env: { FORCE_COLOR: "1", NO_COLOR: "1" },
    });
    assert.ok(!no.stdout.includes(ESC));
    for (const c of ["read", "outline", "find", "stats", "tools"]) {
      const help = await inProcess([c, "--help"]);
      assert.equal(help.code, 0);
      assert.match(help.stdout, new RegExp(`^usage: graver ${c}`));
      assert.equal(help.stdout, (await inProcess(["help", c])).stdout);
    }
    const top = await inProcess(["--help"]);
    for (const c of ["read", "outline", "find", "stats"]) assert.match(top.stdout, new RegExp(`\\n  ${c} `));
    const typo = await inProcess(["fnid", "x"]);
    assert.deepEqual(json(typo).error.details.did_you_mean, ["find"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver apply colours its diff on a terminal and not otherwise", async () => {
  const dir = await project(FILES);
  try {
    const edit =
      "gyp/MSVSUserFile.py\n<<<<<<< SEARCH\nimport re\n=======\nimport re  # regexps\n>>>>>>> REPLACE\n";
    const coloured = await inProcess(["apply", "--dry-run"], { cwd: dir, stdin: edit, color: true });
    assert.equal(coloured.code, 0, coloured.stdout);
    assert.ok(coloured.stdout.includes(`${ESC}31m-import re${ESC}39m`));
    assert.ok(coloured.stdout.includes(`${ESC}32m+import re  # regexps${ESC}39m`));
    const plain = await inProcess(["apply", "--dry-run"], { cwd: dir, stdin: edit });
    assert.equal(stripAnsi(coloured.stdout), plain.stdout);
    assert.equal(await Deno.readTextFile(`${dir}/gyp/MSVSUserFile.py`), SOURCE);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver outline and find name a Rust impl block once: impl Default for Config, not impl impl", async () => {
  const dir = await project({}, { "src/standard.rs": implRichRust(2) });
  try {
    const outline = await inProcess(["outline", "src/standard.rs"], { cwd: dir });
    assert.equal(outline.code, 0, outline.stdout);
    assert.doesNotMatch(outline.stdout, /impl impl/);
    assert.match(outline.stdout, /^impl Default for Config {2}6-10$/m);
    assert.match(outline.stdout, /^ {2}method default {2}7-9$/m);
    const find = await inProcess(["find", "impl Default for Config"], { cwd: dir });
    assert.equal(find.code, 0, find.stdout);
    assert.match(find.stdout, /^src\/standard\.rs:6-10 {2}impl Default for Config$/m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
