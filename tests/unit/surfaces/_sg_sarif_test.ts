/**
 * `graver sg scan --format sarif`: one SARIF 2.1.0 log of a scan's findings, built from matches in ast-grep's
 * scan JSON shape; through the real CLI on real files, the same results (levels, locations in lines,
 * character columns and bytes, snippets, fixes) as `ast-grep scan --format sarif` where ast-grep is installed.
 */
import assert from "node:assert/strict";
import { sarifOf, type ScanJsonMatch } from "../../../src/surfaces/_sg_sarif.ts";
import { inProcess, project } from "./_cli.ts";
import { astGrepPath, runAstGrep } from "../search/_astgrep.ts";

const RANGE = {
  byteOffset: { start: 17, end: 32 },
  start: { line: 0, column: 15 },
  end: { line: 0, column: 29 },
};

/** RANGE as SARIF gives it: 1-based lines and columns, its bytes. */
const REGION = { byteOffset: 17, byteLength: 15, startLine: 1, startColumn: 16, endLine: 1, endColumn: 30 };

Deno.test("sarifOf: levels by severity, 1-based lines and columns, bytes, a fix's region and text", () => {
  const m: ScanJsonMatch = {
    file: "src/u.js",
    text: "console.log(é)",
    range: RANGE,
    ruleId: "no-log",
    severity: "hint",
    message: "m",
  };
  const log = sarifOf([m, { ...m, severity: "error", replacement: "log(é)" }], "9.9.9") as {
    version: string;
    runs: { tool: { driver: { name: string } }; results: Record<string, unknown>[] }[];
  };
  assert.equal(log.version, "2.1.0");
  assert.equal(log.runs[0]!.tool.driver.name, "graver");
  const [hint, error] = log.runs[0]!.results;
  assert.equal(hint!["level"], "note");
  assert.equal(error!["level"], "error");
  assert.deepEqual(hint!["locations"], [{
    physicalLocation: {
      artifactLocation: { uri: "src/u.js" },
      region: { ...REGION, snippet: { text: "console.log(é)" } },
    },
  }]);
  assert.equal(hint!["fixes"], undefined);
  const fix = (error!["fixes"] as { artifactChanges: { replacements: unknown[] }[] }[])[0]!;
  assert.deepEqual(fix.artifactChanges[0]!.replacements, [{
    deletedRegion: REGION,
    insertedContent: { text: "log(é)" },
  }]);
  // A fix that replaces more than the match (expandEnd) gives its bytes alone.
  const wider = sarifOf([{ ...m, replacement: "", replacementOffsets: { start: 17, end: 34 } }], "9") as {
    runs: { results: { fixes: { artifactChanges: { replacements: { deletedRegion: unknown }[] }[] }[] }[] }[];
  };
  assert.deepEqual(wider.runs[0]!.results[0]!.fixes[0]!.artifactChanges[0]!.replacements[0]!.deletedRegion, {
    byteOffset: 17,
    byteLength: 17,
  });
});

/** Rules of each severity, one with a fix over a multi-line call, on real files. */
const RULES = [
  "id: slices",
  "language: js",
  "severity: warning",
  "message: 'a slice: 100%'",
  "rule: {pattern: $S.slice($$$A)}",
  "fix: $S.substring($$$A)",
  "---",
  "id: for-loop",
  "language: js",
  "severity: error",
  "message: a for loop",
  "rule: {kind: for_statement}",
  "---",
  "id: self-calls",
  "language: python",
  "severity: info",
  "message: a call on self",
  "rule: {pattern: self.$F($$$A)}",
].join("\n");

const bin = await astGrepPath();

/** A log's results, each as sorted JSON, sorted: their order is the tools' own. */
function results(text: string): string[] {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sorted) : typeof v === "object" && v !== null
      ? Object.fromEntries(
        Object.entries(v).sort(([a], [b]) => a < b ? -1 : 1).map(([k, x]) => [k, sorted(x)]),
      )
      : v;
  const log = JSON.parse(text) as { runs: { results: unknown[] }[] };
  return log.runs[0]!.results.map((r) => JSON.stringify(sorted(r))).sort();
}

Deno.test({
  name: "graver sg scan --format sarif gives ast-grep scan --format sarif's results on real files",
  ignore: bin === null,
  async fn() {
    const dir = await project({
      "src/string.js": "fixtures/text/string.js",
      "gyp/MSVSUserFile.py": "fixtures/real/MSVSUserFile.py",
    });
    try {
      for (const extra of [[], ["--hint"], ["--off=for-loop", "src"]]) {
        const ours = await inProcess(["sg", "scan", "--inline-rules", RULES, "--format", "sarif", ...extra], {
          cwd: dir,
        });
        const theirs = await runAstGrep(bin!, [
          "scan",
          "--inline-rules",
          RULES,
          "--format",
          "sarif",
          ...extra,
        ], {
          cwd: dir,
        });
        const label = extra.join(" ") || "(none)";
        assert.equal(ours.code, theirs.code, `${label}: ${ours.stderr}`);
        assert.equal(ours.stderr, "", label);
        const a = results(ours.stdout);
        assert.ok(a.length >= 5, `${label}: ${a.length} results`);
        assert.deepEqual(a, results(theirs.stdout), label);
      }
      assert.equal(
        await Deno.readTextFile(`${dir}/src/string.js`),
        await Deno.readTextFile(new URL("../../fixtures/text/string.js", import.meta.url)),
        "the fix is not written",
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
