/**
 * `graver sg scan --format github`: GitHub Actions annotations of a scan's findings (levels, escaping, a
 * multi-line finding's end line), the refusals, and through the real CLI the same lines and exit codes as
 * `ast-grep scan --format github` on real files where ast-grep is installed.
 */
import assert from "node:assert/strict";
import { githubLine, githubText, reportedOnly } from "../../../src/surfaces/_sg_github.ts";
import { reportFormatProblem } from "../../../src/surfaces/_sg_scan.ts";
import type { InlineRule } from "../../../src/surfaces/_sg_inline_rules.ts";
import { inProcess, project } from "./_cli.ts";
import { astGrepPath, runAstGrep } from "../search/_astgrep.ts";

function rule(extra: Partial<InlineRule>): InlineRule {
  return { rule: {}, globs: [], id: "r", severity: "hint", message: "m", note: null, ...extra };
}

Deno.test("githubLine: the level by severity, the values escaped, a hint silent", () => {
  const at = { path: "src/a.js", line: 2, end_line: 4 };
  assert.equal(
    githubLine(at, rule({ severity: "error" })),
    "::error file=src/a.js,line=2,endLine=4,title=r::m",
  );
  assert.equal(githubLine(at, rule({ severity: "warning" }))?.slice(0, 10), "::warning ");
  assert.equal(githubLine(at, rule({ severity: "info" }))?.slice(0, 9), "::notice ");
  assert.equal(githubLine(at, rule({ severity: "hint" })), null);
  assert.equal(
    githubLine(
      { path: "we,ird:dir/a 1.js", line: 1 },
      rule({ id: "a:b", severity: "error", message: "50%,\r\nx: y" }),
    ),
    "::error file=we%2Cird%3Adir/a 1.js,line=1,endLine=1,title=a%3Ab::50%25,%0D%0Ax: y",
  );
  assert.equal(githubText([at, at], rule({ severity: "hint" })), "");
  const fixed = rule({ rewrite: "log($A)", transform: {}, expandEnd: {} });
  assert.deepEqual(reportedOnly([fixed]), [rule({})]);
  for (const format of ["github", "sarif"]) {
    assert.equal(reportFormatProblem({ format }, true), undefined);
    assert.match(reportFormatProblem({ format }, false)!, /goes with "graver sg scan"/);
    assert.match(reportFormatProblem({ format, "update-all": true }, true)!, /-U writes the fixes/);
    assert.match(reportFormatProblem({ format, json: true }, true)!, /give one/);
  }
  assert.equal(reportFormatProblem({ format: "ast-grep", "update-all": true }, false), undefined);
});

/** Rules of each severity; one with a fix over a multi-line call; a message that needs escaping. */
const RULES = [
  "id: returns-empty",
  "language: js",
  "severity: error",
  "message: 'empty: 100%, really'",
  "rule: {pattern: return ''}",
  "fix: 'return \"\"'",
  "---",
  "id: for-loop",
  "language: js",
  "severity: warning",
  "message: a for loop",
  "rule: {kind: for_statement}",
  "---",
  "id: slices",
  "language: js",
  "severity: info",
  "message: a slice",
  "rule: {pattern: $S.slice($$$A)}",
  "---",
  "id: calls",
  "language: js",
  "message: a call",
  "rule: {kind: call_expression}",
].join("\n");

const bin = await astGrepPath();

Deno.test({
  name:
    "graver sg scan --format github prints what ast-grep scan --format github prints, and exits as it does",
  ignore: bin === null,
  async fn() {
    const dir = await project({
      "src/string.js": "fixtures/text/string.js",
      "we,ird:dir/a 1.js": "fixtures/text/string.js",
    });
    const sorted = (t: string) => t.split("\n").filter((l) => l !== "").sort();
    try {
      for (const extra of [[], ["--error=for-loop"], ["--off=returns-empty"], ["src"]]) {
        const ours = await inProcess(
          ["sg", "scan", "--inline-rules", RULES, "--format", "github", ...extra],
          {
            cwd: dir,
          },
        );
        const theirs = await runAstGrep(bin!, [
          "scan",
          "--inline-rules",
          RULES,
          "--format",
          "github",
          ...extra,
        ], {
          cwd: dir,
        });
        const label = extra.join(" ") || "(none)";
        assert.equal(ours.code, theirs.code, `${label}: ${ours.stderr}`);
        const a = sorted(ours.stdout);
        assert.ok(a.length >= 4 && a.every((l) => l.startsWith("::")), `${label}: ${ours.stdout}`);
        assert.deepEqual(a, sorted(theirs.stdout), label);
      }
      // The fix is neither written nor shown.
      assert.equal(
        await Deno.readTextFile(`${dir}/src/string.js`),
        await Deno.readTextFile(new URL("../../fixtures/text/string.js", import.meta.url)),
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("graver sg --format github is refused outside scan, with -U and with --json", async () => {
  const dir = await project({ "src/string.js": "fixtures/text/string.js" });
  try {
    for (
      const [args, message] of [
        [["sg", "-p", "return $X", "--format", "github"], /goes with \W+graver sg scan/],
        [["sg", "scan", "--inline-rules", RULES, "--format", "github", "-U"], /-U writes the fixes/],
        [["sg", "scan", "--inline-rules", RULES, "--format", "github", "--json"], /give one/],
        [
          ["sg", "scan", "--inline-rules", RULES, "--format", "csv"],
          /--format takes \W+ast-grep\W+ \W+github\W+ or \W+sarif/,
        ],
      ] as const
    ) {
      const run = await inProcess([...args], { cwd: dir });
      assert.equal(run.code, 2, args.join(" "));
      assert.match(run.stderr + run.stdout, message);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
