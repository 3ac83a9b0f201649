/**
 * `graver sg scan --format sarif`: a scan's findings as one SARIF 2.1.0 log, as ast-grep's scan prints it, for
 * code-scanning tools (GitHub's among them) that read SARIF. Each finding is a `result` with the rule's id,
 * its level (`error`, `warning`, `note` for `info` and `hint`), its message and its location (1-based lines and
 * character columns, byte offset and length, the matched text as a snippet); a rule's fix becomes the result's
 * `fixes` (the replaced region and the new text), never written. Built from the matches in ast-grep's scan
 * JSON shape (`scanJsonOf`), which carry the offsets SARIF asks for.
 *
 * @module
 */

/** A position in ast-grep's JSON: 0-based line and character column. */
interface Position {
  line: number;
  column: number;
}

/** What the log reads of one match in ast-grep's scan JSON shape. */
export interface ScanJsonMatch {
  file: string;
  text: string;
  range: { byteOffset: { start: number; end: number }; start: Position; end: Position };
  ruleId: string;
  severity: string;
  message: string;
  replacement?: string;
  replacementOffsets?: { start: number; end: number };
}

/** The SARIF level of each severity. */
const LEVEL: Readonly<Record<string, string>> = {
  error: "error",
  warning: "warning",
  info: "note",
  hint: "note",
};

/** A SARIF region of a byte span, with its lines and columns when they are known. */
function region(bytes: { start: number; end: number }, span?: { start: Position; end: Position }) {
  return {
    byteOffset: bytes.start,
    byteLength: bytes.end - bytes.start,
    ...(span
      ? {
        startLine: span.start.line + 1,
        startColumn: span.start.column + 1,
        endLine: span.end.line + 1,
        endColumn: span.end.column + 1,
      }
      : {}),
  };
}

/** The result's `fixes`: the replaced region (its lines and columns where it is the match's own) and the new text. */
function fixesOf(m: ScanJsonMatch): Record<string, unknown> {
  if (m.replacement === undefined) return {};
  const offsets = m.replacementOffsets ?? m.range.byteOffset;
  const same = offsets.start === m.range.byteOffset.start && offsets.end === m.range.byteOffset.end;
  return {
    fixes: [{
      description: { text: "Apply suggested fix" },
      artifactChanges: [{
        artifactLocation: { uri: m.file },
        replacements: [{
          deletedRegion: region(offsets, same ? m.range : undefined),
          insertedContent: { text: m.replacement },
        }],
      }],
    }],
  };
}

/**
 * One SARIF 2.1.0 log of a scan's matches.
 *
 * @example
 * ```ts
 * import { sarifOf } from "./_sg_sarif.ts";
 * import assert from "node:assert/strict";
 *
 * const range = { byteOffset: { start: 0, end: 14 }, start: { line: 0, column: 0 }, end: { line: 0, column: 14 } };
 * const m = { file: "a.js", text: "console.log(1)", range, ruleId: "no-log", severity: "info", message: "m" };
 * const log = sarifOf([m], "1.0.0") as { runs: { results: { level: string }[] }[] };
 * assert.equal(log.runs[0]!.results[0]!.level, "note");
 * ```
 *
 * @param matches The matches, in ast-grep's scan JSON shape.
 * @param version graver's version, for the log's tool.
 * @returns The log.
 */
export function sarifOf(matches: readonly ScanJsonMatch[], version: string): Record<string, unknown> {
  const results = matches.map((m) => ({
    ruleId: m.ruleId,
    level: LEVEL[m.severity] ?? "note",
    message: { text: m.message },
    locations: [{
      physicalLocation: {
        artifactLocation: { uri: m.file },
        region: { ...region(m.range.byteOffset, m.range), snippet: { text: m.text } },
      },
    }],
    ...fixesOf(m),
  }));
  return {
    version: "2.1.0",
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    runs: [{ tool: { driver: { name: "graver", version } }, results }],
  };
}
