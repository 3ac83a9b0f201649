/**
 * `graver sg scan` through the real CLI entry on real files: ast-grep's rule configs as YAML (several in one
 * text, or in a rule file), its short report, its scan JSON (compared with ast-grep's own where it is installed)
 * and its lint's exit codes; and the pure parts (`reportLine`, `scanJsonOf`, `scanExit`, `flagsOfOneRule`).
 */
import assert from "node:assert/strict";
import { flagsOfOneRule, reportLine, scanExit, scanJsonOf } from "../../../src/surfaces/_sg_scan.ts";
import type { InlineRule } from "../../../src/surfaces/_sg_inline_rules.ts";
import { inProcess, project, stripAnsi } from "./_cli.ts";
import { astGrepPath } from "../search/_astgrep.ts";

const FILES = {
  "src/string.js": "fixtures/text/string.js",
  "gyp/MSVSUserFile.py": "fixtures/real/MSVSUserFile.py",
};

/** Two rules as ast-grep's docs write them: YAML, separated by ---, one with a fix. */
const RULES = [
  "id: double-quoted-empty",
  "language: JavaScript",
  "severity: warning",
  "message: write the empty string with double quotes",
  "note: the house style",
  "rule:",
  "  pattern: return ''",
  "fix: 'return \"\";'",
  "---",
  "id: for-loop",
  "language: js",
  "rule:",
  "  kind: for_statement",
  "  not:",
  "    has:",
  "      kind: comment",
  "      stopBy: end",
].join("\n");

const plain = { cyan: (s: string) => s, green: (s: string) => s, bold: (s: string) => s } as never;

function rule(extra: Partial<InlineRule>): InlineRule {
  return { rule: {}, globs: [], id: "r", severity: "hint", message: "", note: null, ...extra };
}

Deno.test("reportLine is ast-grep's short report; scanJsonOf adds the rule's keys and primary label", () => {
  const r = rule({ id: "no-log", severity: "error", message: "use the logger", note: "see docs" });
  assert.equal(
    reportLine({ path: "src/a.js", line: 3, column: 5 }, r, plain),
    "src/a.js:3:5: error[no-log]: use the logger",
  );
  const range = { start: { line: 2, column: 4 } };
  assert.deepEqual(scanJsonOf([{ text: "console.log(x)", range, file: "src/a.js" }], r), [{
    text: "console.log(x)",
    range,
    file: "src/a.js",
    ruleId: "no-log",
    severity: "error",
    note: "see docs",
    message: "use the logger",
    labels: [{ text: "console.log(x)", range, style: "primary" }],
  }]);
});

Deno.test("scanExit: a lint's codes; flagsOfOneRule drops the rule file's flags in scan mode only", () => {
  const error = rule({ severity: "error" });
  assert.equal(scanExit([{ codes: [1, 1], rule: error, fixed: false }]), 0, "nothing found is a clean scan");
  assert.equal(scanExit([{ codes: [1, 0], rule: error, fixed: false }]), 1, "an error found");
  assert.equal(scanExit([{ codes: [0], rule: error, fixed: true }]), 0, "an error fixed with -U");
  assert.equal(scanExit([{ codes: [0], rule: rule({ severity: "warning" }), fixed: false }]), 0);
  assert.equal(
    scanExit([{ codes: [0], rule: error, fixed: false }, { codes: [2], rule: rule({}), fixed: false }]),
    2,
  );
  const flags = { rewrite: "rules.yml", rule: "x", "inline-rules": "…", json: true };
  assert.deepEqual(flagsOfOneRule(flags, true), { json: true });
  assert.deepEqual(flagsOfOneRule(flags, false), { rewrite: "rules.yml", rule: "x", json: true });
});

Deno.test("graver sg scan runs each YAML rule of --inline-rules and of a rule file, in ast-grep's short report", async () => {
  const dir = await project(FILES, { "rules/lint.yml": RULES });
  try {
    const inline = await inProcess(["sg", "scan", "--inline-rules", RULES], { cwd: dir });
    assert.equal(inline.code, 0, inline.stderr);
    const lines = stripAnsi(inline.stdout).split("\n").filter((l) => /^\S+:\d+:\d+: /.test(l));
    assert.ok(lines.some((l) => /^src\/string\.js:\d+:\d+: help\[for-loop\]: $/.test(l)), inline.stdout);
    // The fix is previewed (its diff under the rule's report line), nothing written.
    assert.match(
      stripAnsi(inline.stdout),
      /warning\[double-quoted-empty\]: write the empty string with double quotes\n/,
    );
    assert.match(inline.stderr, /previewed, nothing written/);
    // A rule with a fix reports each site too, as a line, before its diff.
    assert.match(
      stripAnsi(inline.stdout),
      /^src\/string\.js:16:9: warning\[double-quoted-empty\]: write the empty string with double quotes\ndiff --git/m,
    );
    // A rule with a fix that matches nothing is a clean rule: no error, nothing printed.
    const clean = await inProcess([
      "sg",
      "scan",
      "--inline-rules",
      "id: none\nlanguage: js\nrule: {pattern: noSuchCall($A)}\nfix: other($A)",
    ], { cwd: dir });
    assert.deepEqual([clean.code, clean.stdout, clean.stderr.includes("no_match")], [0, "", false]);
    // --json: one array, each rule's ToolResult beside its report keys.
    const asJson = await inProcess(["sg", "scan", "--inline-rules", RULES, "--json"], { cwd: dir });
    const results = JSON.parse(asJson.stdout) as {
      rule: { id: string; severity: string };
      result: { tool: string };
    }[];
    assert.deepEqual(results.map((r) => [r.rule.id, r.rule.severity, r.result.tool]), [
      ["double-quoted-empty", "warning", "edit_rewrite_structural"],
      ["for-loop", "hint", "search_structural"],
    ]);
    const fromFile = await inProcess(["sg", "scan", "-r", "rules/lint.yml"], { cwd: dir });
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.equal(stripAnsi(fromFile.stdout), stripAnsi(inline.stdout));
    const longFlag = await inProcess(["sg", "scan", "--rule", "rules/lint.yml", "src"], { cwd: dir });
    assert.equal(stripAnsi(longFlag.stdout), stripAnsi(inline.stdout));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver sg scan exits as ast-grep's scan: 1 for an error-severity match not fixed, else 0; -U fixes", async () => {
  const dir = await project(FILES);
  const errorRule = RULES.split("---")[0]!.replace("severity: warning", "severity: error");
  try {
    const found = await inProcess(["sg", "scan", "--inline-rules", errorRule], { cwd: dir });
    assert.equal(found.code, 1, found.stderr);
    const none = await inProcess([
      "sg",
      "scan",
      "--inline-rules",
      "id: n\nlanguage: js\nrule: {pattern: noSuch($A)}",
    ], {
      cwd: dir,
    });
    assert.equal(none.code, 0, "a scan that finds nothing is clean");
    assert.equal(none.stdout, "");
    const off = await inProcess([
      "sg",
      "scan",
      "--inline-rules",
      errorRule.replace("severity: error", "severity: off"),
    ], {
      cwd: dir,
    });
    assert.deepEqual([off.code, off.stdout], [0, ""], "a rule turned off is not run");
    const before = await Deno.readTextFile(`${dir}/src/string.js`);
    const fixed = await inProcess(["sg", "scan", "--inline-rules", errorRule, "-U"], { cwd: dir });
    assert.equal(fixed.code, 0, fixed.stderr);
    const after = await Deno.readTextFile(`${dir}/src/string.js`);
    assert.notEqual(after, before);
    assert.equal(after, before.replaceAll("return '';", 'return "";'));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graver sg scan refuses what it cannot read, naming the rule and what to run instead", async () => {
  const dir = await project(FILES, { "rules/bad.yml": "id: x\nlanguage: js\nrule:\n  pattern: [a\n" });
  try {
    const cases: [string[], RegExp][] = [
      [["-r", "rules/none.yml"], /cannot read the rule file "rules\/none\.yml".*without the word scan/],
      [
        ["-r", "rules/bad.yml"],
        /the rule file "rules\/bad\.yml" does not read as YAML: .*at line \d+, column \d+/,
      ],
      [["-r", "rules/bad.yml", "--inline-rules", RULES], /not both/],
      [["-r", "rules/bad.yml", "-p", "f($A)"], /takes no -p PATTERN/],
      [
        ["--inline-rules", `${RULES}\n---\nid: z\nrule: {kind: x}\nseverity: fatal`],
        /its rule config 3.*"severity" takes one of/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await inProcess(["sg", "scan", ...args], { cwd: dir });
      assert.equal(run.code, 2, args.join(" "));
      const printed = JSON.parse(run.stdout || run.stderr) as { error: { message: string } };
      assert.match(printed.error.message, message, args.join(" "));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const bin = await astGrepPath();

/** Run ast-grep with `args` in `cwd`, checking its exit code; its stdout. */
async function astGrep(args: string[], cwd: string, code = 0): Promise<string> {
  const out = await new Deno.Command(bin!, { args, cwd, stdout: "piped", stderr: "piped" }).output();
  assert.equal(out.code, code, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

/** What the comparison reads of one match of `ast-grep scan --json`. */
interface ScanMatch {
  file: string;
  range: { start: unknown; end: unknown };
  text: string;
  replacement?: string;
  ruleId: string;
  severity: string;
  message: string;
  note: string | null;
  labels: { text: string; range: { start: unknown }; style: string }[];
}

Deno.test({
  name:
    "graver sg scan --format ast-grep gives ast-grep scan --json's matches and rule keys on the same files",
  ignore: bin === null,
  async fn() {
    const dir = await project(FILES);
    try {
      const ours = await inProcess(["sg", "scan", "--inline-rules", RULES, "--format", "ast-grep"], {
        cwd: dir,
      });
      assert.equal(ours.code, 0, ours.stderr);
      const theirs = await astGrep(["scan", "--inline-rules", RULES, "--json=compact", "."], dir);
      const key = (m: ScanMatch) =>
        JSON.stringify([
          m.file.replace(/^\.\//, ""),
          m.range.start,
          m.range.end,
          m.text,
          m.replacement ?? null,
          m.ruleId,
          m.severity,
          m.message,
          m.note,
          m.labels.map((l) => [l.text, l.range.start, l.style]),
        ]);
      const a = (JSON.parse(ours.stdout) as ScanMatch[]).map(key).sort();
      const b = (JSON.parse(theirs) as ScanMatch[]).map(key).sort();
      assert.ok(a.length >= 3, `${a.length} matches`);
      assert.deepEqual(a, b);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "graver sg scan prints what ast-grep scan --report-style short prints, line for line, for rules without a fix",
  ignore: bin === null,
  async fn() {
    const dir = await project(FILES);
    const rules = [
      RULES.split("---\n")[1]!,
      "id: slices\nlanguage: js\nseverity: info\nmessage: a slice\nrule:\n  pattern: $S.slice($$$A)",
      "id: py-calls\nlanguage: python\nseverity: error\nmessage: 'AddConfig: rename'\nrule: {pattern: self.AddConfig($N)}",
    ].join("\n---\n");
    try {
      const ours = await inProcess(["sg", "scan", "--inline-rules", rules], { cwd: dir });
      assert.equal(ours.code, 1, ours.stderr + ours.stdout);
      const theirs = await astGrep(
        ["scan", "--report-style", "short", "--inline-rules", rules, "--color", "never"],
        dir,
        1,
      );
      const lines = (text: string) => text.split("\n").filter((l) => l !== "").sort();
      const a = lines(stripAnsi(ours.stdout));
      assert.ok(a.length > 10, `${a.length} lines`);
      assert.deepEqual(a, lines(theirs));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "graver sg scan with rewriters gives ast-grep's replacements on the same files",
  ignore: bin === null,
  async fn() {
    const dir = await project(FILES);
    const rules = [
      "id: slice-args",
      "language: js",
      "rule: {pattern: '$S.slice($$$A)'}",
      "rewriters:",
      "- id: neg",
      "  rule: {kind: unary_expression, has: {kind: number}}",
      "  fix: 'fromEnd($$$)'",
      "- id: num",
      "  rule: {kind: number}",
      "  fix: 'N'",
      "- id: member",
      "  rule: {kind: member_expression, has: {field: property, pattern: $P}}",
      "  fix: 'get($P)'",
      "transform:",
      "  ARGS:",
      "    rewrite: {source: $$$A, rewriters: [neg, num, member], joinBy: ' | '}",
      "  SAME:",
      "    rewrite: {source: $$$A, rewriters: [member, num]}",
      "fix: $S.cut($ARGS; $SAME)",
    ].join("\n");
    try {
      const ours = await inProcess(["sg", "scan", "--inline-rules", rules, "--format", "ast-grep"], {
        cwd: dir,
      });
      assert.equal(ours.code, 0, ours.stderr);
      const theirs = await astGrep(["scan", "--inline-rules", rules, "--json=compact", "."], dir);
      const key = (m: ScanMatch) =>
        JSON.stringify([m.file.replace(/^\.\//, ""), m.range.start, m.replacement]);
      const a = (JSON.parse(ours.stdout) as ScanMatch[]).map(key).sort();
      const b = (JSON.parse(theirs) as ScanMatch[]).map(key).sort();
      assert.ok(
        a.length > 5 && a.some((k) => k.includes("get(")) && a.some((k) => k.includes(" | ")),
        a.join("\n"),
      );
      assert.deepEqual(a, b);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "graver sg scan -U with FixConfig expansions leaves the file ast-grep scan -U leaves",
  ignore: bin === null,
  async fn() {
    const text = "const a = [1, 2, 3];\nconst o = { b: 123, c: 4, d: 5 };\nf(x, dropMe, y);\ng(dropMe);\n" +
      "const z = [\n  keep,\n  dropMe,\n  other,\n];\n";
    const fix = (expand: string) => `fix:\n  template: ""\n  ${expand}: {regex: ","}`;
    const rules = [
      `id: drop-2\nlanguage: ts\nrule: {kind: number, regex: "^2$", inside: {kind: array}}\n${
        fix("expandEnd")
      }`,
      `id: drop-pair\nlanguage: ts\nrule: {kind: pair, has: {field: key, regex: "^c$"}}\n${fix("expandEnd")}`,
      `id: drop-arg\nlanguage: ts\nrule: {kind: identifier, regex: "^dropMe$", inside: {kind: arguments}}\n${
        fix("expandStart")
      }`,
      `id: drop-el\nlanguage: ts\nrule: {kind: identifier, regex: "^dropMe$", inside: {kind: array}}\n${
        fix("expandEnd")
      }`,
    ];
    const ours = await project({}, { "a.ts": text });
    const theirs = await project({}, { "a.ts": text });
    try {
      for (const rule of rules) {
        const run = await inProcess(["sg", "scan", "--inline-rules", rule, "-U"], { cwd: ours });
        assert.equal(run.code, 0, run.stderr);
        await astGrep(["scan", "--inline-rules", rule, "-U"], theirs);
      }
      const after = await Deno.readTextFile(`${ours}/a.ts`);
      assert.equal(after, await Deno.readTextFile(`${theirs}/a.ts`));
      assert.match(after, /^const a = \[1, {2}3\];\nconst o = \{ b: 123, {2}d: 5 \};\nf\(x, y\);\ng\(\);/);
    } finally {
      await Deno.remove(ours, { recursive: true });
      await Deno.remove(theirs, { recursive: true });
    }
  },
});
