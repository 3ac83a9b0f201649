/**
 * `graver sg scan` of a project through the real CLI entry: its `sgconfig.yml` found here or above (or named with
 * `-c`), rule files at any depth of its `ruleDirs`, global utilities from its `utilDirs`, and what it refuses —
 * compared line for line with `ast-grep scan --report-style short` where ast-grep is installed.
 */
import assert from "node:assert/strict";
import { inProcess, project, stripAnsi } from "./_cli.ts";
import { astGrepPath } from "../search/_astgrep.ts";

const CONFIG = "ruleDirs:\n  - rules\nutilDirs:\n  - utils\ntestConfigs:\n  - testDir: rule-tests\n";

const PROJECT: Record<string, string> = {
  "sgconfig.yml": CONFIG,
  "rules/no-log.yml": [
    "id: no-log",
    "language: JavaScript",
    "severity: warning",
    "message: use the logger",
    "rule:",
    "  pattern: console.log($$$A)",
    "  not:",
    "    inside: {matches: in-test, stopBy: end}",
  ].join("\n"),
  "rules/style/more.yaml": [
    "id: no-var",
    "language: js",
    "severity: error",
    "message: use let or const",
    "rule: {kind: variable_declaration}",
    "---",
    "id: slices",
    "language: js",
    "rule: {pattern: $S.slice($$$A)}",
  ].join("\n"),
  "rules/README.md": "not a rule\n",
  "utils/in-test.yml":
    "id: in-test\nlanguage: js\nrule:\n  kind: call_expression\n  has: {field: function, regex: ^(it|test)$}\n",
};

/** A project of the rules above and real code (string.js) plus calls inside and outside a test. */
async function scanProject(extra: Record<string, string> = {}): Promise<string> {
  const dir = await project({ "src/string.js": "fixtures/text/string.js" }, { ...PROJECT, ...extra });
  await Deno.writeTextFile(
    `${dir}/src/app.js`,
    'var a = 1;\nconsole.log(a);\ntest("x", () => { console.log(2); });\n',
  );
  return dir;
}

Deno.test("graver sg scan runs the rules of the sgconfig.yml here or above, with its global utilities", async () => {
  const dir = await scanProject();
  try {
    const run = await inProcess(["sg", "scan"], { cwd: dir });
    assert.equal(run.code, 1, run.stderr + run.stdout); // no-var is an error
    const lines = stripAnsi(run.stdout).split("\n").filter((l) => l !== "");
    assert.ok(lines.includes("src/app.js:2:1: warning[no-log]: use the logger"), run.stdout);
    assert.ok(!lines.some((l) => l.startsWith("src/app.js:3:")), "the call inside test() is left: in-test");
    assert.ok(lines.includes("src/app.js:1:1: error[no-var]: use let or const"));
    assert.ok(lines.filter((l) => l.includes("help[slices]")).length > 3, "the second rule of a .yaml file");
    // From a folder below, the same project; -c names a config; PATHs narrow it.
    const below = await inProcess(["sg", "scan"], { cwd: `${dir}/src` });
    assert.equal(below.code, 1);
    assert.equal(stripAnsi(below.stdout).split("\n").filter((l) => l !== "").length, lines.length);
    // --filter picks rules by id, as ast-grep's does (RE2).
    const picked = await inProcess(["sg", "scan", "--filter", "^no-"], { cwd: dir });
    const ids = new Set(
      stripAnsi(picked.stdout).split("\n").filter((l) => l !== "").map((l) => /\[(.+?)\]/.exec(l)![1]),
    );
    assert.deepEqual([...ids].sort(), ["no-log", "no-var"]);
    const named = await inProcess(["sg", "scan", "-c", "sgconfig.yml", "src/string.js"], { cwd: dir });
    assert.equal(named.code, 0, "string.js has no var");
    assert.ok(stripAnsi(named.stdout).split("\n").every((l) => l === "" || l.startsWith("src/string.js:")));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver sg scan refuses what it cannot scan as ast-grep would, and loops of links in rule folders end", async () => {
  const dir = await scanProject({
    "alt.yml": "ruleDirs: [rules]\nlanguageGlobs:\n  js: ['*.mjs']\n",
    "bad.yml": "ruleDirs: rules\n",
    "huge.yml": "ruleDirs: [big]\n",
  });
  try {
    await Deno.symlink(`${dir}/rules`, `${dir}/rules/style/loop`);
    await Deno.mkdir(`${dir}/big`);
    for (let i = 0; i <= 20_000; i++) Deno.writeFileSync(`${dir}/big/f${i}.txt`, new Uint8Array());
    const looped = await inProcess(["sg", "scan"], { cwd: dir });
    assert.equal(looped.code, 1, looped.stderr);
    const cases: [string[], string, RegExp][] = [
      [["-c", "alt.yml"], dir, /has "languageGlobs", which graver does not build/],
      [["-c", "bad.yml"], dir, /"ruleDirs" takes a list of folders/],
      [["-c", "none.yml"], dir, /cannot read the project config/],
      [
        [],
        "/",
        /scan runs rules: give --inline-rules CONFIGS, a rule file \(-r FILE\), or run it in a project/,
      ],
      [
        ["-c", "sgconfig.yml", "--inline-rules", "rule: {kind: x}"],
        dir,
        /--config and --filter pick a project's rules/,
      ],
      [["--filter", "^zz"], dir, /--filter "\^zz" matches no rule's id \(no-log, no-var, slices\)/],
      [["--filter", "(?=x)"], dir, /look-ahead/],
      // A config that names a huge folder ends at a bound, not after walking it all.
      [
        ["-c", "huge.yml"],
        dir,
        /cannot list the rule folder ".*\/big" \(its folders hold more than 20000 entries\)/,
      ],
    ];
    for (const [args, cwd, message] of cases) {
      const run = await inProcess(["sg", "scan", ...args], { cwd });
      assert.equal(run.code, 2, args.join(" "));
      const printed = JSON.parse(run.stdout || run.stderr) as { error: { message: string } };
      assert.match(printed.error.message, message, args.join(" "));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const bin = await astGrepPath();

Deno.test({
  name: "graver sg scan of a project prints what ast-grep scan --report-style short prints, line for line",
  ignore: bin === null,
  async fn() {
    const dir = await scanProject();
    try {
      const ours = await inProcess(["sg", "scan"], { cwd: dir });
      const theirs = await new Deno.Command(bin!, {
        args: ["scan", "--report-style", "short", "--color", "never"],
        cwd: dir,
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(ours.code, theirs.code, new TextDecoder().decode(theirs.stderr));
      const lines = (text: string) => text.split("\n").filter((l) => l !== "").sort();
      assert.deepEqual(lines(stripAnsi(ours.stdout)), lines(new TextDecoder().decode(theirs.stdout)));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
