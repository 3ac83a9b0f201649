/**
 * `graver sg scan`'s `--error`, `--warning`, `--info`, `--hint` and `--off`: how they combine (`withSeverities`),
 * and through the real CLI on real files, the same report lines and exit code as `ast-grep scan` for each set of
 * options (where ast-grep is installed).
 */
import assert from "node:assert/strict";
import { severityFlagGiven, withSeverities } from "../../../src/surfaces/_sg_severity.ts";
import type { InlineRule } from "../../../src/surfaces/_sg_inline_rules.ts";
import { inProcess, project, stripAnsi } from "./_cli.ts";
import { astGrepPath, runAstGrep } from "../search/_astgrep.ts";

function rule(id: string, severity: InlineRule["severity"] = "hint"): InlineRule {
  return { rule: {}, globs: [], id, severity, message: "", note: null };
}

const severities = (rules: InlineRule[]) => rules.map((r) => `${r.id}:${r.severity}`);

Deno.test("withSeverities: a rule named by id over every rule; the later of error, warning, info, hint, off wins", () => {
  const rules = [rule("a"), rule("b", "warning"), rule("c", "error")];
  assert.deepEqual(severities(withSeverities(rules, {}).rules), ["a:hint", "b:warning", "c:error"]);
  assert.deepEqual(severities(withSeverities(rules, { error: [""] }).rules), [
    "a:error",
    "b:error",
    "c:error",
  ]);
  assert.deepEqual(
    severities(withSeverities(rules, { error: [""], off: ["b"] }).rules),
    ["a:error", "b:off", "c:error"],
  );
  assert.deepEqual(
    severities(withSeverities(rules, { off: [""], error: ["a"] }).rules),
    ["a:error", "b:off", "c:off"],
    "--off --error=a runs only a",
  );
  // Written in either order, --warning wins over --error (ast-grep's fixed order), bare or by id.
  assert.deepEqual(severities(withSeverities(rules, { warning: [""], error: [""] }).rules)[0], "a:warning");
  assert.deepEqual(severities(withSeverities(rules, { warning: ["a"], error: ["a"] }).rules)[0], "a:warning");
  const { notes } = withSeverities(rules, { error: ["a", "nosuch"] });
  assert.equal(notes.length, 1);
  assert.match(notes[0]!, /--error=nosuch names no rule \(the rules: a, b, c\)/);
  assert.equal(severityFlagGiven({ lang: ["js"] }), undefined);
  assert.equal(severityFlagGiven({ hint: [""] }), "--hint");
});

const FILES = { "src/string.js": "fixtures/text/string.js" };

/** Two rules of other severities, on a real file (`fixtures/text/string.js`). */
const RULES = [
  "id: returns-empty",
  "language: js",
  "message: an empty string returned",
  "rule: {pattern: return ''}",
  "---",
  "id: for-loop",
  "language: js",
  "severity: warning",
  "message: a for loop",
  "rule: {kind: for_statement}",
].join("\n");

/** Sets of options, each with the exit code both tools give. */
const CASES: [string[], number][] = [
  [[], 0],
  [["--error"], 1],
  [["--error=for-loop"], 1],
  [["--error", "--off=for-loop"], 1],
  [["--off", "--error=returns-empty"], 1],
  [["--warning", "--error"], 0],
  [["--off"], 0],
  [["--error=for-loop", "--info=for-loop"], 0],
  [["--hint=for-loop", "--info"], 0],
];

Deno.test("graver sg scan --error/--warning/--info/--hint/--off: report lines and exit codes", async () => {
  const dir = await project(FILES);
  try {
    const all = await inProcess(["sg", "scan", "--inline-rules", RULES, "--error"], { cwd: dir });
    assert.equal(all.code, 1, all.stderr);
    const lines = stripAnsi(all.stdout).split("\n").filter((l) => l !== "");
    assert.ok(
      lines.length >= 4 && lines.every((l) => / error\[(returns-empty|for-loop)\]: /.test(l)),
      all.stdout,
    );
    const off = await inProcess(["sg", "scan", "--inline-rules", RULES, "--off", "--error=nosuch"], {
      cwd: dir,
    });
    assert.deepEqual([off.code, off.stdout], [0, ""]);
    assert.match(off.stderr, /--error=nosuch names no rule \(the rules: returns-empty, for-loop\)/);
    const run = await inProcess(["sg", "-p", "return ''", "--warning", "-l", "js"], { cwd: dir });
    assert.equal(run.code, 2);
    assert.match(run.stderr + run.stdout, /--warning sets the severity of a scan's rules/);
    // Bare, the option takes no value from the next argument: "src" stays a PATH.
    const path = await inProcess(["sg", "scan", "--inline-rules", RULES, "--hint", "src"], { cwd: dir });
    assert.equal(path.code, 0, path.stderr);
    assert.match(stripAnsi(path.stdout), /^src\/string\.js:\d+:\d+: help\[for-loop\]/m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const bin = await astGrepPath();

Deno.test({
  name: "graver sg scan's severity options print what ast-grep scan prints, and exit as it does",
  ignore: bin === null,
  async fn() {
    const dir = await project(FILES);
    const sorted = (text: string) => stripAnsi(text).split("\n").filter((l) => l !== "").sort();
    try {
      for (const [options, code] of CASES) {
        const ours = await inProcess(["sg", "scan", "--inline-rules", RULES, ...options], { cwd: dir });
        const theirs = await runAstGrep(
          bin!,
          ["scan", "--report-style", "short", "--color", "never", "--inline-rules", RULES, ...options],
          { cwd: dir },
        );
        const label = options.join(" ") || "(none)";
        assert.deepEqual([ours.code, theirs.code], [code, code], `${label}: ${ours.stderr}`);
        const a = sorted(ours.stdout);
        assert.deepEqual(a, sorted(theirs.stdout), label);
        if (!options.includes("--off")) assert.ok(a.length >= 1, `${label}: ${a.length} lines`);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
