/** `graver grep` through the real CLI entry, on a project of real files, against ripgrep's own output shape. */
import assert from "node:assert/strict";
import { assertRefusedAs, inProcess, json, project, stripAnsi } from "./_cli.ts";
import { ripgrepPath } from "../search/_rg.ts";

const FILES = {
  "gyp/MSVSUserFile.py": "fixtures/real/MSVSUserFile.py",
  "src/string.js": "fixtures/text/string.js",
  "vendor/ignored.js": "fixtures/text/string.js",
};

Deno.test("graver grep prints path:line:column:text, context as path-line-text, and exits 0 when found", async () => {
  const dir = await project(FILES, { ".gitignore": "vendor/\n" });
  try {
    const run = await inProcess(["grep", "def Add\\w+", "-C", "1"], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trimEnd().split("\n");
    const matched = lines.filter((l) => /^[^:]+:\d+:\d+:/.test(l));
    assert.ok(matched.length >= 2, run.stdout);
    assert.ok(matched.every((l) => l.startsWith("gyp/MSVSUserFile.py:")), "vendor/ is ignored");
    const [, line, column, text] = /^[^:]+:(\d+):(\d+):(.*)$/.exec(matched[0]!)!;
    assert.equal(text!.slice(Number(column) - 1, Number(column) - 1 + 7), "def Add");
    assert.ok(
      lines.some((l) => l.startsWith(`gyp/MSVSUserFile.py-${Number(line) - 1}-`)),
      "a context line before",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver grep takes ripgrep's short flags: grouped -iw, repeated -g, -t, -l and -c", async () => {
  const dir = await project(FILES, { ".gitignore": "vendor/\n" });
  try {
    const files = await inProcess(["grep", "-iwl", "WRITER", "-t", "py", "-g", "gyp/**", "-g", "!src/**"], {
      cwd: dir,
    });
    assert.equal(files.code, 0, files.stderr);
    assert.equal(files.stdout, "gyp/MSVSUserFile.py\n");
    const counts = await inProcess(["grep", "-c", "function", "--no-ignore"], { cwd: dir });
    assert.deepEqual(counts.stdout.trimEnd().split("\n").map((l) => l.replace(/:\d+$/, "")).sort(), [
      "gyp/MSVSUserFile.py",
      "src/string.js",
      "vendor/ignored.js",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver grep exits 1 when nothing matches and 2 on a refused pattern, saying why", async () => {
  const dir = await project(FILES);
  try {
    const none = await inProcess(["grep", "no such text anywhere", "-F"], { cwd: dir });
    assert.equal(none.code, 1);
    assert.equal(none.stdout, "");
    const bad = await inProcess(["grep", "(a)\\1"], { cwd: dir });
    assert.equal(bad.code, 2);
    assert.match(stripAnsi(bad.stderr), /invalid_args.*backreference/s);
    const usage = await inProcess(["grep"], { cwd: dir });
    assert.equal(usage.code, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver grep --json prints the search_text result, versions and occurrence ids included", async () => {
  const dir = await project(FILES);
  try {
    const run = await inProcess(["grep", "--json", "-F", "class Writer"], { cwd: dir });
    assert.equal(run.code, 0);
    const result = json(run);
    assert.equal(result.tool, "search_text");
    const [m] = result.data.matches;
    assert.equal(m.path, "gyp/MSVSUserFile.py");
    assert.match(m.submatches[0].id, /^gyp\/MSVSUserFile\.py:\d+:1@[0-9a-f]{12}$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver grep prints a matched line whole, however long (no result budget cuts it)", async () => {
  // A minified bundle's one line: longer than the 100,000 characters a tool result holds by default.
  const line = `var a=${"x".repeat(150_000)};function needle(){}`;
  const dir = await project({}, { "dist/app.min.js": `${line}\n` });
  try {
    const run = await inProcess(["grep", "-F", "needle"], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(stripAnsi(run.stdout), `dist/app.min.js:1:${line.indexOf("needle") + 1}:${line}\n`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver grep over a line of 200,000 matches prints it once; -o lists 100 and says how many more", async () => {
  // Its answer failed "Maximum call stack size exceeded" (a spread of every match's line), and 150 such lines
  // ran the process out of memory.
  const line = "a".repeat(200_000);
  const dir = await project({}, { "long.txt": `${line}\nb\n` });
  try {
    const run = await inProcess(["grep", "a"], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(stripAnsi(run.stdout), `long.txt:1:1:${line}\n`);
    const only = await inProcess(["grep", "-o", "a"], { cwd: dir });
    assert.equal(only.code, 0, only.stderr);
    assert.equal(stripAnsi(only.stdout).split("\n").filter((l) => l !== "").length, 100);
    assert.match(
      only.stderr,
      /-o lists at most 100 matches a line; 1 line\(s\) hold more \(long\.txt:1: 199900 more\)/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver grep takes PATH as rg does: ./ and .. and absolute paths, inside the root or out, printed as written", async () => {
  const dir = await project(FILES, { ".gitignore": "vendor/\n" });
  const elsewhere = await project({ "lib/string.js": "fixtures/text/string.js" });
  try {
    const grep = async (path: string, extra: string[] = []) =>
      await inProcess(["grep", "-l", "longestCommonPrefix", path, ...extra], { cwd: `${dir}/gyp` });
    // From gyp/, the root is gyp/ itself: ../src is outside it, and searched as a project of its own.
    for (const path of ["../src", `${dir}/src/`, "../src/string.js"]) {
      const run = await grep(path);
      assert.equal(run.code, 0, `${path}: ${run.stderr}`);
      const shown = path.endsWith(".js") ? path : `${path.replace(/\/$/, "")}/string.js`;
      assert.equal(stripAnsi(run.stdout), `${shown}\n`, path);
    }
    // Inside the root, written with ./ or as an absolute path: searched there, printed as written.
    const inside = await inProcess(["grep", "-l", "longestCommonPrefix", "./src"], { cwd: dir });
    assert.equal(stripAnsi(inside.stdout), "./src/string.js\n");
    const absolute = await inProcess(["grep", "-c", "longestCommonPrefix", elsewhere], { cwd: dir });
    assert.match(stripAnsi(absolute.stdout), new RegExp(`^${elsewhere}/lib/string\\.js:\\d+\\n$`));
    // The same through --root: outside it is a usage error naming both; an absent PATH says so.
    const outside = await grep(elsewhere, ["--root", "."]);
    assert.equal(outside.code, 2);
    assert.match(stripAnsi(outside.stdout + outside.stderr), /is outside the workspace root .*--root/);
    const absent = await grep(`${elsewhere}/nothing-here`);
    assert.equal(absent.code, 2);
    assert.match(stripAnsi(absent.stdout + absent.stderr), /no such file or folder/);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(elsewhere, { recursive: true });
  }
});

Deno.test("graver grep takes several PATHs as rg does: each searched in turn, an absent one reported and passed", async () => {
  const dir = await project(FILES, { ".gitignore": "vendor/\n" });
  const elsewhere = await project({ "lib/string.js": "fixtures/text/string.js" });
  try {
    const grep = (...args: string[]) =>
      inProcess(["grep", "-c", "def Add|longestCommonPrefix", ...args], { cwd: dir });
    const both = await grep("./src", "gyp/MSVSUserFile.py", `${elsewhere}/lib`);
    assert.equal(both.code, 0, both.stderr);
    const lines = stripAnsi(both.stdout).trimEnd().split("\n");
    assert.deepEqual(lines.map((l) => l.replace(/:\d+$/, "")), [
      "./src/string.js",
      "gyp/MSVSUserFile.py",
      `${elsewhere}/lib/string.js`,
    ]);
    // An explicit PATH is searched even where .gitignore would skip it, as rg searches one.
    assert.match(
      stripAnsi((await grep("vendor/ignored.js", "src")).stdout),
      /^vendor\/ignored\.js:\d+\nsrc\/string\.js:/,
    );
    // An absent PATH: reported, the others still searched, exit 2 (rg's way).
    const absent = await grep("nothing-here", "src");
    assert.equal(absent.code, 2);
    assert.match(stripAnsi(absent.stdout), /^src\/string\.js:\d+\n$/);
    assert.match(stripAnsi(absent.stderr), /not_found.*nothing-here/);
    // A refused pattern fails once, not once per PATH.
    const bad = await inProcess(["grep", "(a)\\1", "src", "gyp"], { cwd: dir });
    assert.equal(bad.code, 2);
    assert.equal(stripAnsi(bad.stderr).match(/backreference \\1 at/g)?.length, 1);
    // Nothing in any: 1.
    assert.equal((await inProcess(["grep", "no such text", "src", "gyp"], { cwd: dir })).code, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(elsewhere, { recursive: true });
  }
});

Deno.test("graver grep takes rg's -m, -q and --sort path; rg's options it does not take say what to do instead", async () => {
  const dir = await project(FILES);
  try {
    const run = (args: string[]) => inProcess(["grep", ...args], { cwd: dir });
    const all = stripAnsi((await run(["def Add", "gyp"])).stdout).trimEnd().split("\n");
    assert.ok(all.length > 1);
    const first = await run(["-m", "1", "def Add", "gyp", "src"]);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(stripAnsi(first.stdout).trimEnd().split("\n"), [all[0]], "one line per file");
    assert.equal(
      stripAnsi((await run(["-c", "--max-count=2", "def Add", "gyp"])).stdout),
      "gyp/MSVSUserFile.py:2\n",
    );
    const quiet = await run(["-q", "def Add"]);
    assert.deepEqual([quiet.code, quiet.stdout], [0, ""]);
    assert.equal((await run(["-q", "no such text anywhere"])).code, 1);
    assert.equal((await run(["--sort", "path", "-c", "def Add", "gyp"])).code, 0);
    const sorted = await run(["--sort=modified", "x"]);
    assert.match(
      (JSON.parse(sorted.stdout) as { error: { message: string } }).error.message,
      /--sort takes "path"/,
    );
    await assertRefusedAs(run, [
      [["-v", "x"], /"-v" is not taken here: graver grep prints the lines that match/],
      [["-iv", "x"], /"-v" is not taken here/],
      [["--files"], /"--files" is not taken here: .*list_files/],
      [["-P", "(?=x)"], /"-P" is not taken here: .*RE2/],
      [["-L", "x"], /"-L" is not taken here: .*sandbox/],
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver grep takes rg's -e (repeated), -o, -u/-uu, and its no-op -n -H --column --no-heading", async () => {
  const dir = await project(FILES, { ".gitignore": "vendor/\n", ".hidden/h.js": "longestCommonPrefix\n" });
  try {
    const run = (args: string[]) => inProcess(["grep", ...args], { cwd: dir });
    // Several -e: any of them; with -F each a fixed string (the "(" and "." are not syntax).
    const either = await run(["-c", "-F", "-e", "longestCommonPrefix(", "-e", "self.AddConfig(", "-n", "-H"]);
    assert.equal(either.code, 0, either.stderr);
    assert.deepEqual(
      stripAnsi(either.stdout).trimEnd().split("\n").map((l) => l.replace(/:\d+$/, "")).sort(),
      [
        "gyp/MSVSUserFile.py",
        "src/string.js",
      ],
    );
    const onePath = await run(["-l", "-e", "AddConfig", "gyp", "--column", "--no-heading"]);
    assert.equal(stripAnsi(onePath.stdout), "gyp/MSVSUserFile.py\n");
    const paths = await run(["-c", "-e", "def Add", "-e", "longestCommonPrefix", "gyp", "src"]);
    assert.equal(paths.code, 0, "with -e, the arguments are all PATHs");
    assert.deepEqual(stripAnsi(paths.stdout).trimEnd().split("\n").map((l) => l.replace(/:\d+$/, "")), [
      "gyp/MSVSUserFile.py",
      "src/string.js",
    ]);
    // -o: each match alone at its column.
    const only = await run(["-o", "AddConfig\\w*", "gyp"]);
    const lines = stripAnsi(only.stdout).trimEnd().split("\n");
    assert.ok(
      lines.length > 0 && lines.every((l) => /^gyp\/MSVSUserFile\.py:\d+:\d+:AddConfig\w*$/.test(l)),
      only.stdout,
    );
    // -u lifts .gitignore (vendor/), -uu hidden files too.
    const files = async (flags: string[]) =>
      stripAnsi((await run(["-l", ...flags, "longestCommonPrefix"])).stdout).trimEnd().split("\n").sort();
    assert.deepEqual(await files([]), ["src/string.js"]);
    assert.deepEqual(await files(["-u"]), ["src/string.js", "vendor/ignored.js"]);
    assert.deepEqual(await files(["-uu"]), [".hidden/h.js", "src/string.js", "vendor/ignored.js"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver grep says why a file it lists cannot be read, a name that is not UTF-8 among the causes", async () => {
  const dir = await project(FILES);
  try {
    // A file name of bytes that are not UTF-8: listed (lossily), never readable by a path a string spells.
    const { success } = await new Deno.Command("sh", {
      args: ["-c", `printf 'longestCommonPrefix\\n' > "${dir}/src/bad$(printf '\\377').js"`],
    }).output();
    assert.ok(success);
    const run = await inProcess(["grep", "-l", "longestCommonPrefix", "src"], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(stripAnsi(run.stdout), "src/string.js\n");
    assert.match(stripAnsi(run.stderr), /1 file was not searched: could not be read .*not valid UTF-8/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver grep prints context as ripgrep does: each line once, `--` between groups and files", async () => {
  const dir = await project(FILES, { ".gitignore": "vendor/\n" });
  const small = { "t.txt": "a\nx1\nb\nx2\nx3\nc\nd\ne\nf\nx4\ng\n", "u.txt": "x5\nh\n" };
  for (const [name, text] of Object.entries(small)) await Deno.writeTextFile(`${dir}/${name}`, text);
  try {
    // Matches two lines apart share a context line; adjacent ones print none between them.
    const run = await inProcess(["grep", "-C", "1", "x\\d", "t.txt", "u.txt"], { cwd: dir });
    assert.equal(
      run.stdout,
      "t.txt-1-a\nt.txt:2:1:x1\nt.txt-3-b\nt.txt:4:1:x2\nt.txt:5:1:x3\nt.txt-6-c\n--\n" +
        "t.txt-9-f\nt.txt:10:1:x4\nt.txt-11-g\n--\nu.txt:1:1:x5\nu.txt-2-h\n",
    );
    const rg = await ripgrepPath();
    if (rg === null) return; // `deno task test` installs it as root (CI); the shape above is rg 13's
    // And the order of -A, -B and -C as rg 13 reads it: a -C after -A/-B drops them, an -A/-B after -C drops it.
    for (
      const flags of [
        ["-C", "2"],
        ["-A", "3"],
        ["-B", "2"],
        ["-A", "1", "-B", "4"],
        ["-B", "2", "-C", "0"],
        ["-C", "0", "-B", "2"],
        ["-C", "1", "-A", "0"],
        ["-A", "0", "-C", "1"],
        ["-A", "1", "-C", "2", "-B", "0"],
        ["-C1", "-A2"],
      ]
    ) {
      const args = [...flags, "self\\.\\w+ = "];
      const ours = await inProcess(["grep", ...args], { cwd: dir });
      const theirs = await new Deno.Command(rg, {
        args: ["--no-heading", "-n", "--column", "--sort", "path", "--color", "never", ...args],
        cwd: dir,
        stdout: "piped",
      }).output();
      assert.equal(ours.stdout, new TextDecoder().decode(theirs.stdout), flags.join(" "));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
