/**
 * `graver sg --stdin`: code from standard input searched and rewritten in a workspace in memory, printed as
 * `STDIN` (a rewrite as the whole new text, ast-grep's `--stdin -U`), through the real CLI entry; refusals;
 * and the rewritten text equal to ast-grep's on a real file where ast-grep is installed.
 */
import assert from "node:assert/strict";
import { stdinFileName } from "../../../src/surfaces/_sg_stdin.ts";
import { inProcess, project } from "./_cli.ts";
import { astGrepPath, runAstGrep } from "../search/_astgrep.ts";

const CODE = "console.log(1);\nfoo();\nconsole.log(2)\n";

Deno.test("stdinFileName: one language's first extension; none or several refused", () => {
  assert.equal(stdinFileName(["js"]), "STDIN.js");
  assert.equal(stdinFileName(["python"]), "STDIN.py");
  assert.match((stdinFileName(["js", "py"]) as { problem: string }).problem, /one -l, not js, py/);
  assert.match(
    (stdinFileName(["klingon"]) as { problem: string }).problem,
    /is not a language graver has a grammar for/,
  );
});

Deno.test("graver sg --stdin searches and rewrites the text it reads, printed as STDIN; nothing on disk", async () => {
  const dir = await project({ "a.js": "fixtures/text/string.js" });
  const before = await Deno.readTextFile(`${dir}/a.js`);
  try {
    const search = await inProcess(["sg", "-p", "console.log($A)", "-l", "js", "--stdin"], {
      cwd: dir,
      stdin: CODE,
    });
    assert.deepEqual([search.code, search.stdout], [
      0,
      "STDIN:1:1:console.log(1)\nSTDIN:3:1:console.log(2)\n",
    ]);
    const rewrite = await inProcess(["sg", "-p", "console.log($A)", "-r", "log($A)", "-l", "js", "--stdin"], {
      cwd: dir,
      stdin: CODE,
    });
    assert.deepEqual([rewrite.code, rewrite.stdout], [0, "log(1);\nfoo();\nlog(2)\n"]);
    const preview = await inProcess(
      ["sg", "-p", "console.log($A)", "-r", "log($A)", "-l", "js", "--stdin", "--dry-run"],
      { cwd: dir, stdin: CODE },
    );
    assert.equal(preview.code, 0);
    assert.match(preview.stdout, /^-console\.log\(1\);\n\+log\(1\);$/m);
    const none = await inProcess(["sg", "-p", "bar($A)", "-r", "x", "-l", "js", "--stdin"], {
      cwd: dir,
      stdin: CODE,
    });
    assert.deepEqual([none.code, none.stdout], [1, ""]);
    // A scan takes the language from its rules.
    const rules = "id: no-log\nlanguage: js\nmessage: a log\nrule: {pattern: console.log($A)}";
    const scan = await inProcess(["sg", "scan", "--inline-rules", rules, "--stdin"], {
      cwd: dir,
      stdin: CODE,
    });
    assert.deepEqual([scan.code, scan.stdout], [
      0,
      "STDIN:1:1: help[no-log]: a log\nSTDIN:3:1: help[no-log]: a log\n",
    ]);
    // ast-grep's JSON and SARIF name the text STDIN, as ast-grep's do.
    const json = await inProcess([
      "sg",
      "-p",
      "console.log($A)",
      "-l",
      "js",
      "--stdin",
      "--format",
      "ast-grep",
    ], {
      cwd: dir,
      stdin: CODE,
    });
    assert.deepEqual((JSON.parse(json.stdout) as { file: string }[]).map((m) => m.file), ["STDIN", "STDIN"]);
    const sarif = await inProcess(["sg", "scan", "--inline-rules", rules, "--stdin", "--format", "sarif"], {
      cwd: dir,
      stdin: CODE,
    });
    assert.match(sarif.stdout, /"uri": "STDIN"/);
    const binary = await inProcess(["sg", "-p", "console.log($A)", "-l", "js", "--stdin"], {
      cwd: dir,
      stdin: "console.log(1);\n\0\n",
    });
    assert.equal(binary.code, 1);
    assert.match(binary.stderr, /holds a NUL byte: it was taken as binary, not searched/);
    assert.equal(await Deno.readTextFile(`${dir}/a.js`), before);
    const refused = [
      [["sg", "-p", "f($A)", "--stdin"], /--stdin needs the code's language/],
      [["sg", "-p", "f($A)", "-l", "js", "--stdin", "a.js"], /give no PATH \(got a\.js\)/],
    ] as const;
    for (const [args, message] of refused) {
      const run = await inProcess([...args], { cwd: dir, stdin: CODE });
      assert.equal(run.code, 2);
      assert.match(run.stderr + run.stdout, message);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const bin = await astGrepPath();

Deno.test({
  name: "graver sg --stdin -r prints the text ast-grep run --stdin -U prints, on a real file",
  ignore: bin === null,
  async fn() {
    const code = await Deno.readTextFile(new URL("../../fixtures/text/string.js", import.meta.url));
    const args = ["-p", "$S.slice($A)", "-r", "$S.substring($A)"];
    const ours = await inProcess(["sg", ...args, "-l", "js", "--stdin"], { stdin: code });
    assert.equal(ours.code, 0, ours.stderr);
    assert.notEqual(ours.stdout, code);
    const theirs =
      (await runAstGrep(bin!, ["run", ...args, "--lang", "js", "--stdin", "-U"], { stdin: code }))
        .stdout;
    assert.equal(ours.stdout.trimEnd(), theirs.trimEnd());
  },
});

/** The real Deno CLI with `input` on its stdin (the adapter streams stdin as bytes). */
async function realCli(
  args: string[],
  input: Uint8Array,
): Promise<{ code: number; stdout: Uint8Array; stderr: string }> {
  const cli = new URL("../../../src/adapters/deno/cli.ts", import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", cli, ...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(input);
  await writer.close();
  const out = await child.output();
  return { code: out.code, stdout: out.stdout, stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test("graver sg --stdin through the real CLI: a BOM and CRLF kept, text that is not UTF-8 refused, not mangled", async () => {
  const args = ["sg", "-p", "console.log($A)", "-r", "log($A)", "-l", "js", "--stdin"];
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("console.log(1)\r\nx;\r\n")]);
  const kept = await realCli(args, bom);
  assert.equal(kept.code, 0, kept.stderr);
  assert.deepEqual(
    kept.stdout,
    new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("log(1)\r\nx;\r\n")]),
  );
  const latin1 = new Uint8Array([
    ...new TextEncoder().encode('console.log("'),
    0xe9,
    ...new TextEncoder().encode('");\n'),
  ]);
  const refused = await realCli(args, latin1);
  assert.equal(refused.code, 2);
  assert.equal(refused.stdout.length, 0, "no text with replacement characters printed");
  assert.match(refused.stderr, /not valid UTF-8/);
});
