/**
 * edit_safe_text_patch: exact text hunks, hash-guarded, all or nothing. The
 * fallback every structural tool names: it works on every text file, grammar
 * or not.
 *
 * @module
 */
import { splitsCrlf, withRegionEol } from "../fs/text.ts";
import { RecoverableError } from "../errors.ts";
import type { TextEdit } from "../structural/edit/source.ts";
import { sourceEngine } from "./_lazy.ts";
import { shortVersion, versionMatches } from "../fs/version.ts";
import { TextIndex } from "../syntax/text_index.ts";
import { DRY_RUN, EXPECTED_VERSION, objectSchema, PATH } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";
import { FILE_PATH, INTEGER, shape } from "./_result_schema.ts";

/** One hunk: exact current text and its replacement. */
export interface TextHunk {
  /** Text that occurs exactly once in the file. */
  old_text: string;
  /** What replaces it. */
  new_text: string;
}

/** Arguments of edit_safe_text_patch. */
export interface EditSafeTextPatchArgs {
  /** Relative path. */
  path: string;
  /** The hunks, applied all or none. */
  hunks: TextHunk[];
  /** Version (SHA-256) the caller read; refused with stale_base when the file moved on. */
  expected_hash?: string;
  /** Same as expected_hash (the name other tools use). */
  expected_version?: string;
  /** Preview only. */
  dry_run?: boolean;
}

function occurrences(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) out.push(i);
  return out;
}

/** Lines where the first non-blank line of old_text appears once whitespace is ignored. */
function nearLines(text: string, oldText: string): number[] {
  const probe = oldText.split("\n").map((l) => l.trim()).find((l) => l !== "");
  if (!probe) return [];
  const squash = (s: string) => s.replace(/\s+/g, "");
  const p = squash(probe);
  const out: number[] = [];
  text.split("\n").forEach((line, i) => {
    if (out.length < 5 && p !== "" && squash(line).includes(p)) out.push(i + 1);
  });
  return out;
}

/** The edit_safe_text_patch tool. */
export const editSafeTextPatch: ToolDefinition<EditSafeTextPatchArgs> = {
  name: "edit_safe_text_patch",
  description:
    "Replace exact text in any file, grammar or not: each hunk's old_text must occur exactly once (copied exactly from read_file, including indentation); all hunks apply or none. Pass expected_hash (the version from read_file) so a file that changed since is refused with stale_base. For code in a supported language prefer edit_apply_node / edit_insert_at_anchor.",
  inputSchema: objectSchema({
    path: PATH,
    hunks: {
      type: "array",
      minItems: 1,
      maxItems: 200,
      description: "Exact replacements, applied all or none",
      items: objectSchema({
        old_text: {
          type: "string",
          minLength: 1,
          description: "Exact current text; must occur once in the file",
        },
        new_text: { type: "string", description: "Replacement text" },
      }, ["old_text", "new_text"]),
    },
    expected_hash: { ...EXPECTED_VERSION, description: "Version (SHA-256) returned by read_file" },
    expected_version: EXPECTED_VERSION,
    dry_run: DRY_RUN,
  }, ["path", "hunks"]),
  kind: "text_patch",
  mutates: true,
  resultData: shape({
    path: FILE_PATH,
    hunks: { type: "array", items: shape({ hunk: INTEGER, start_line: INTEGER, end_line: INTEGER }) },
  }, ["path", "hunks"]),
  async handler(args, { stage, checkGuardable }) {
    const rel = await stage.resolve(args.path);
    await checkGuardable([rel]);
    const [h, v] = [args.expected_hash?.toLowerCase(), args.expected_version?.toLowerCase()];
    if (h && v && !h.startsWith(v) && !v.startsWith(h)) {
      throw new RecoverableError(
        "invalid_args",
        "Cannot check two different versions: expected_hash and expected_version differ",
        {
          hint: "Pass only expected_hash (the version read_file returned)",
          details: { path: rel },
        },
      );
    }
    const expected = args.expected_hash ?? args.expected_version;
    const file = await stage.readText(rel);
    if (expected !== undefined && !versionMatches(file.version, expected, rel)) {
      throw new RecoverableError(
        "stale_base",
        `Cannot patch "${rel}": expected hash "${shortVersion(expected)}", found "${
          shortVersion(file.version)
        }"`,
        {
          hint:
            `The file changed since you read it; call read_file with {"path": "${rel}"} and redo the hunks against the current text`,
          suggestedCall: { tool: "read_file", args: { path: rel } },
          details: {
            path: rel,
            expected_hash: expected,
            current_hash: file.version,
            current_version: file.version,
          },
        },
      );
    }
    const text = file.text;
    const index = new TextIndex(text);
    const crlf = text.includes("\r\n");
    const edits: (TextEdit & { hunk: number })[] = [];
    const alreadyApplied: number[] = [];
    for (const [i, hunk] of args.hunks.entries()) {
      let oldText = hunk.old_text;
      let newText = hunk.new_text;
      // A match may not split a CRLF pair (old_text "\nfoo" inside "\r\nfoo" would leave a lone "\r").
      let at = occurrences(text, oldText).filter((p) => !splitsCrlf(text, p, oldText.length));
      if (at.length === 0 && crlf && oldText.includes("\n") && !oldText.includes("\r\n")) {
        // Same text with the file's CRLF endings (models write "\n").
        const asCrlf = oldText.replace(/\n/g, "\r\n");
        const found = occurrences(text, asCrlf);
        if (found.length > 0) {
          oldText = asCrlf;
          newText = newText.replace(/\r?\n/g, "\r\n");
          at = found;
        }
      }
      // New lines written with "\n" in a CRLF region (old_text on one line) take the region's endings.
      if (at.length === 1) newText = withRegionEol(text, at[0]! + oldText.length, newText);
      if (at.length === 0) {
        const present = newText !== "" ? occurrences(text, newText) : [];
        if (present.length === 1 && alreadyApplied.length === i) {
          alreadyApplied.push(i);
          continue;
        }
        const near = nearLines(text, oldText);
        throw new RecoverableError("no_match", `Cannot find hunk ${i + 1}'s old_text in "${rel}"`, {
          hint: present.length === 1
            ? `Its new_text is already at line ${
              index.line(present[0]!)
            }; drop this hunk if it was applied before`
            : near.length > 0
            ? `Text like it is at line${near.length > 1 ? "s" : ""} ${
              near.join(", ")
            } but differs (whitespace, indentation or characters); read_file those lines and copy old_text exactly`
            : "Call read_file and copy old_text exactly, including indentation and line breaks",
          suggestedCall: {
            tool: "read_file",
            args: near.length > 0 ? { path: rel, start_line: Math.max(1, near[0]! - 3) } : { path: rel },
          },
          details: { path: rel, hunk: i + 1, near_lines: near },
        });
      }
      if (at.length > 1) {
        const lines = at.slice(0, 20).map((o) => index.line(o));
        throw new RecoverableError(
          "ambiguous",
          `Cannot apply hunk ${i + 1} to "${rel}": its old_text occurs ${at.length} times (lines ${
            lines.join(", ")
          })`,
          {
            hint: "Add surrounding lines to old_text until it occurs exactly once",
            details: { path: rel, hunk: i + 1, lines, occurrences: at.length },
          },
        );
      }
      edits.push({ start: at[0]!, end: at[0]! + oldText.length, text: newText, hunk: i });
    }
    if (alreadyApplied.length > 0 && alreadyApplied.length < args.hunks.length) {
      const i = alreadyApplied[0]!;
      throw new RecoverableError("no_match", `Cannot find hunk ${i + 1}'s old_text in "${rel}"`, {
        hint:
          "Its new_text is already in the file while other hunks are not applied; drop the applied hunks and call again",
        suggestedCall: { tool: "read_file", args: { path: rel } },
        details: { path: rel, hunk: i + 1, already_applied: alreadyApplied.map((k) => k + 1) },
      });
    }
    if (edits.length === 0 && alreadyApplied.length > 0) {
      throw new RecoverableError(
        "already_applied",
        `Cannot patch "${rel}": every hunk's new_text is already there`,
        {
          hint: "Nothing to do; call read_file to confirm the current content",
          details: { path: rel, hunks: alreadyApplied.map((i) => i + 1) },
        },
      );
    }
    const sorted = [...edits].sort((a, b) => a.start - b.start);
    for (let k = 1; k < sorted.length; k++) {
      if (sorted[k]!.start < sorted[k - 1]!.end) {
        throw new RecoverableError(
          "ambiguous",
          `Cannot apply hunks ${sorted[k - 1]!.hunk + 1} and ${
            sorted[k]!.hunk + 1
          } to "${rel}": their old_text overlap`,
          {
            hint: "Merge the two hunks into one",
            details: { path: rel, hunks: [sorted[k - 1]!.hunk + 1, sorted[k]!.hunk + 1] },
          },
        );
      }
    }
    const { applyTextEdits } = await sourceEngine();
    await stage.writeText(rel, { text: applyTextEdits(text, edits), bom: file.bom });
    return {
      data: {
        path: rel,
        hunks: sorted.map((e) => ({
          hunk: e.hunk + 1,
          start_line: index.line(e.start),
          end_line: index.line(Math.max(e.start, e.end - 1)),
        })),
      },
    };
  },
};
