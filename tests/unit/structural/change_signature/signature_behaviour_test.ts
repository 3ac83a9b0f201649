/**
 * Change signature on real Python (the standard library's fnmatch, nntplib,
 * textwrap and shutil, from /usr/lib/python3*) and real JavaScript (diff's
 * ESM build from node_modules): exact bytes where checked by hand, every
 * call site rewritten, and the same output from a small program run with
 * python3 / node before and after the change.
 *
 * @module
 */
import assert from "node:assert/strict";
import { RecoverableError } from "../../../../src/errors.ts";
import type { ParamEntry, SignaturePlan } from "../../../../src/structural/change_signature/signature.ts";
import { plan } from "./_signature_fixtures.ts";
import { assertReparses, workspaceOf } from "../../tools/_bindings_fixtures.ts";

const PY_LIB = [...Deno.readDirSync("/usr/lib")].map((e) => e.name).filter((n) => /^python3\.\d+$/.test(n))
  .sort().map((n) => `/usr/lib/${n}`)[0]!;

function stdlib(name: string): string {
  return Deno.readTextFileSync(`${PY_LIB}/${name}`);
}

function readTree(dir: string, prefix: string, out: Record<string, string>): Record<string, string> {
  for (const e of Deno.readDirSync(dir)) {
    if (e.isDirectory) readTree(`${dir}/${e.name}`, `${prefix}${e.name}/`, out);
    else if (/\.js$|^package\.json$/.test(e.name)) {
      out[`/${prefix}${e.name}`] = Deno.readTextFileSync(`${dir}/${e.name}`);
    }
  }
  return out;
}

/** diff@8's ESM build (node_modules/diff/libesm), as `lib/`. */
const DIFF = readTree(new URL("../../../../node_modules/diff/libesm", import.meta.url).pathname, "lib/", {});

/** Write `files` to a fresh temporary directory, run `cmd` there, return its stdout (the directory is removed). */
async function run(files: Record<string, string>, cmd: string[]): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "graver_signature_" });
  try {
    for (const [path, text] of Object.entries(files)) {
      const abs = `${dir}/${path.replace(/^\//, "")}`;
      await Deno.mkdir(abs.slice(0, abs.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(abs, text);
    }
    const out = await new Deno.Command(cmd[0]!, {
      args: cmd.slice(1),
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    })
      .output();
    const stdout = new TextDecoder().decode(out.stdout);
    assert.ok(out.success, `${cmd.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
    return stdout;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The workspace's files after a plan (every file, changed or not). */
async function filesAfter(p: SignaturePlan, files: Record<string, string>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of Object.keys(files)) out[path] = (await p.stage.readText(path.slice(1))).text;
  return out;
}

const FNMATCH_MAIN = [
  "from mylib import fnmatch",
  "from mylib.fnmatch import fnmatchcase as fmc",
  "",
  'names = ["a.py", "B.PY", "notes.txt", "[x].py"]',
  "for n in names:",
  '    print(n, fnmatch.fnmatchcase(n, "*.py"), fmc(n, "*.[pP][yY]"), fnmatch.fnmatch(n, "*.py"))',
  'print(fnmatch.fnmatchcase(name="x.txt", pat="*.txt"))',
  'print(fnmatch.filter(names, "*.py"))',
  "",
].join("\n");

Deno.test("planChangeSignature() swaps, renames and extends Python's fnmatchcase; keyword arguments and aliases follow; same output", async () => {
  // In a package: the interpreter has already imported the standard library's own fnmatch at start-up.
  const files = {
    "/mylib/__init__.py": "",
    "/mylib/fnmatch.py": stdlib("fnmatch.py"),
    "/main.py": FNMATCH_MAIN,
  };
  const ws = await workspaceOf(files);
  const p = await plan(ws, "mylib/fnmatch.py", "fnmatchcase", [
    { name: "pat", rename: "pattern" },
    { name: "name", rename: "filename" },
    { name: "strict", default: "False" },
  ]);
  assert.equal(p.before, "(name, pat)");
  assert.equal(p.after, "(pattern, filename, strict=False)");
  const lib = (await p.stage.readText("mylib/fnmatch.py")).text;
  assert.equal(
    lib,
    files["/mylib/fnmatch.py"]
      .replace("    return fnmatchcase(name, pat)\n", "    return fnmatchcase(pat, name)\n")
      .replace(
        'def fnmatchcase(name, pat):\n    """Test whether FILENAME matches PATTERN, including case.\n\n    This is a version of fnmatch() which doesn\'t case-normalize\n    its arguments.\n    """\n    match = _compile_pattern(pat)\n    return match(name) is not None\n',
        'def fnmatchcase(pattern, filename, strict=False):\n    """Test whether FILENAME matches PATTERN, including case.\n\n    This is a version of fnmatch() which doesn\'t case-normalize\n    its arguments.\n    """\n    match = _compile_pattern(pattern)\n    return match(filename) is not None\n',
      ),
  );
  assert.equal(
    (await p.stage.readText("main.py")).text,
    FNMATCH_MAIN
      .replace(
        'fnmatch.fnmatchcase(n, "*.py"), fmc(n, "*.[pP][yY]")',
        'fnmatch.fnmatchcase("*.py", n), fmc("*.[pP][yY]", n)',
      )
      .replace('fnmatchcase(name="x.txt", pat="*.txt")', 'fnmatchcase(filename="x.txt", pattern="*.txt")'),
  );
  assert.equal(p.callSites.length, 4);
  assert.ok(p.callSites.every((c) => c.updated));
  const before = await run(files, ["python3", "main.py"]);
  assert.match(before, /^a\.py True True True$/m);
  assert.equal(await run(await filesAfter(p, files), ["python3", "main.py"]), before);
});

const NNTP_MAIN = [
  "import nntplib",
  "",
  'fmt = nntplib._DEFAULT_OVERVIEW_FMT + ["xref"]',
  'lines = ["1\\tHello\\tme@example.org\\tMon, 1 Jan 2024\\t<a@b>\\t\\t10\\t2\\tXref: host 1"]',
  "print(nntplib._parse_overview(lines, fmt))",
  "print(nntplib._parse_overview(lines, fmt, data_process_func=None))",
  "",
].join("\n");

Deno.test("planChangeSignature() removes nntplib's unused data_process_func; a keyword argument for it goes too; same output", async () => {
  const files = { "/nntplib.py": stdlib("nntplib.py"), "/main.py": NNTP_MAIN };
  const ws = await workspaceOf(files);
  const p = await plan(ws, "nntplib.py", "_parse_overview", ["lines", "fmt"]);
  assert.deepEqual(p.mapping.map((m) => m.change), ["unchanged", "unchanged", "removed"]);
  assert.equal(
    (await p.stage.readText("nntplib.py")).text,
    files["/nntplib.py"].replace(
      "def _parse_overview(lines, fmt, data_process_func=None):",
      "def _parse_overview(lines, fmt):",
    ),
  );
  assert.equal(
    (await p.stage.readText("main.py")).text,
    NNTP_MAIN.replace("_parse_overview(lines, fmt, data_process_func=None)", "_parse_overview(lines, fmt)"),
  );
  assert.equal(p.callSites.length, 4, "two in nntplib.py, two in main.py");
  assert.deepEqual(p.callSites.map((c) => c.updated), [false, true, false, false]);
  const before = await run(files, ["python3", "-W", "ignore", "main.py"]);
  assert.match(before, /'subject': 'Hello'/);
  assert.equal(await run(await filesAfter(p, files), ["python3", "-W", "ignore", "main.py"]), before);
});

const TEXTWRAP_MAIN = [
  "import textwrap",
  "",
  'text = "a" * 37 + " short words " + "b" * 25 + " end"',
  "print(textwrap.wrap(text, width=12))",
  "print(textwrap.fill(text, width=9, break_long_words=True))",
  "",
].join("\n");

Deno.test("planChangeSignature() reorders a Python method's parameters at its self.m() call; same output", async () => {
  const files = { "/textwrap.py": stdlib("textwrap.py"), "/main.py": TEXTWRAP_MAIN };
  const ws = await workspaceOf(files);
  const p = await plan(ws, "textwrap.py", "TextWrapper/_handle_long_word", [
    "width",
    "cur_len",
    "cur_line",
    "reversed_chunks",
  ]);
  assert.equal(p.before, "(self, reversed_chunks, cur_line, cur_len, width)");
  assert.equal(p.after, "(self, width, cur_len, cur_line, reversed_chunks)");
  assert.equal(
    (await p.stage.readText("textwrap.py")).text,
    files["/textwrap.py"]
      .replace(
        "def _handle_long_word(self, reversed_chunks, cur_line, cur_len, width):",
        "def _handle_long_word(self, width, cur_len, cur_line, reversed_chunks):",
      )
      .replace(
        "self._handle_long_word(chunks, cur_line, cur_len, width)",
        "self._handle_long_word(width, cur_len, cur_line, chunks)",
      ),
  );
  const before = await run(files, ["python3", "main.py"]);
  assert.match(before, /'aaaaaaaaaaaa'/);
  assert.equal(await run(await filesAfter(p, files), ["python3", "main.py"]), before);
});

Deno.test("planChangeSignature() refuses Python calls with **kwargs, functions stored as values, and removing a used parameter", async () => {
  const ws = await workspaceOf({
    "/textwrap.py": stdlib("textwrap.py"),
    "/shutil.py": stdlib("shutil.py"),
    "/fnmatch.py": stdlib("fnmatch.py"),
  });
  const code = async (path: string, target: string, params: (ParamEntry | string)[]) => {
    try {
      await plan(ws, path, target, params);
    } catch (e) {
      assert.ok(e instanceof RecoverableError);
      return `${e.code}: ${e.message}`;
    }
    return "ok";
  };
  const kwargs = await code("textwrap.py", "TextWrapper/__init__", [
    ..."width initial_indent subsequent_indent expand_tabs replace_whitespace fix_sentence_endings".split(
      " ",
    ),
    ..."break_long_words drop_whitespace break_on_hyphens tabsize * max_lines placeholder".split(" "),
    { name: "x", default: "1" },
  ]);
  assert.match(
    kwargs,
    /^unsupported_call_site: .*"textwrap\.py" line 383 column 9 \(it is called with \*\*kwargs/,
  );
  const value = await code("shutil.py", "_make_zipfile", [
    "base_name",
    "base_dir",
    "verbose",
    "dry_run",
    "logger",
    "root_dir",
  ]);
  assert.match(value, /^value_reference: .*"shutil\.py" line 1039/);
  const used = await code("fnmatch.py", "fnmatchcase", ["pat"]);
  assert.match(
    used,
    /^parameter_in_use: Cannot remove parameter "name" of "fnmatchcase" in "fnmatch\.py": .*line 71/,
  );
  const order = await code("fnmatch.py", "fnmatch", ["name", { name: "flag", default: "0" }, "pat"]);
  assert.match(order, /^invalid_args: .*"pat" has no default but follows "flag"/);
});

const DIFF_MAIN = [
  'import { diffWords, diffWordsWithSpace } from "./lib/index.js";',
  "",
  "const pairs = [",
  '  ["foo  bar baz", "foo bar  qux"],',
  '  ["  leading and trailing  ", "leading  and trailing"],',
  '  ["one two three four", "one  2 three  4 five"],',
  "];",
  "for (const [a, b] of pairs) {",
  "  console.log(JSON.stringify(diffWords(a, b)));",
  "  console.log(JSON.stringify(diffWordsWithSpace(a, b)));",
  "}",
  "",
].join("\n");

Deno.test("planChangeSignature() reorders and renames diff's removePrefix in nested calls, pads replacePrefix with undefined; node prints the same", async () => {
  const files: Record<string, string> = { ...DIFF, "/main.mjs": DIFF_MAIN };
  const ws = await workspaceOf(files);
  const p = await plan(ws, "lib/util/string.js", "removePrefix", ["oldPrefix", {
    name: "string",
    rename: "text",
  }]);
  assert.equal(p.before, "(string, oldPrefix)");
  assert.equal(p.after, "(oldPrefix, text)");
  assert.ok(
    (await p.stage.readText("lib/util/string.js")).text.includes(
      "export function removePrefix(oldPrefix, text) {\n    return replacePrefix(text, oldPrefix, '');\n}",
    ),
  );
  const word = (await p.stage.readText("lib/diff/word.js")).text;
  assert.equal(
    word,
    files["/lib/diff/word.js"]!
      .replaceAll(
        "removePrefix(deletion.value, commonWsPrefix)",
        "removePrefix(commonWsPrefix, deletion.value)",
      )
      .replaceAll(
        "removePrefix(insertion.value, commonWsPrefix)",
        "removePrefix(commonWsPrefix, insertion.value)",
      )
      .replace("removePrefix(deletion.value, newWsStart)", "removePrefix(newWsStart, deletion.value)")
      .replace(
        "longestCommonSuffix(removePrefix(newWsFull, newWsStart), delWsEnd)",
        "longestCommonSuffix(removePrefix(newWsStart, newWsFull), delWsEnd)",
      )
      .replace("removePrefix(deletion.value, overlap)", "removePrefix(overlap, deletion.value)"),
  );
  assert.equal(p.callSites.length, 5);
  await assertReparses("javascript", files["/lib/diff/word.js"]!, word, "lib/diff/word.js");
  const before = await run(files, ["node", "main.mjs"]);
  assert.match(before, /"removed":true/);
  const afterFiles = await filesAfter(p, files);
  assert.equal(await run(afterFiles, ["node", "main.mjs"]), before);

  // A new parameter with only a default, inserted before passed ones: calls pass undefined there.
  const ws2 = await workspaceOf(afterFiles);
  const q = await plan(ws2, "lib/util/string.js", "replacePrefix", [
    "string",
    { name: "count", default: "1" },
    "oldPrefix",
    "newPrefix",
  ]);
  const word2 = (await q.stage.readText("lib/diff/word.js")).text;
  assert.ok(
    word2.includes("endKeep.value = replacePrefix(endKeep.value, undefined, newWsSuffix, commonWsSuffix);"),
  );
  assert.ok(
    (await q.stage.readText("lib/util/string.js")).text.includes(
      "export function replacePrefix(string, count = 1, oldPrefix, newPrefix) {",
    ),
  );
  assert.ok(q.callSites.length >= 3 && q.callSites.every((c) => c.updated));
  assert.equal(await run(await filesAfter(q, afterFiles), ["node", "main.mjs"]), before);
});
