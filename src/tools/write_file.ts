/**
 * write_file: create or replace a whole file. Over an existing text file the
 * content takes the file's line endings and BOM (read_file hands both out as
 * plain LF text), so a one-line change is a one-line diff.
 *
 * @module
 */
import { decodeText, encodeText, eolStyle, textShape } from "../fs/text.ts";
import { keepEolEngine } from "./_lazy.ts";
import { DRY_RUN, EXPECTED_VERSION, objectSchema, PATH } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";
import { BOOLEAN, FILE_PATH, shape, STRING } from "./_result_schema.ts";

/** Arguments of write_file. */
export interface WriteFileArgs {
  /** Relative path. */
  path: string;
  /** The whole new content. */
  content: string;
  /** Line endings: "keep" the file's (default), or make every one "lf" or "crlf". */
  eol?: "keep" | "lf" | "crlf";
  /** Start with a UTF-8 BOM (default: as the file had one; a new file as the content says). */
  bom?: boolean;
  /** Version last read; refused with stale_base if the file moved on. */
  expected_version?: string;
  /** Preview only. */
  dry_run?: boolean;
}

const EOL_NAME = { "\n": "LF", "\r\n": "CRLF" } as const;

/** The write_file tool. */
export const writeFile: ToolDefinition<WriteFileArgs> = {
  name: "write_file",
  description:
    "Create a file or replace its whole content. Replacing keeps the file's line endings (each unchanged line its own) and its BOM unless eol or bom say otherwise. Pass expected_version (from read_file) when replacing, so a concurrent change is refused instead of overwritten. Refused: stale_base when the file changed since that version, syntax_error when the new content adds parse errors (syntax_guard), sandbox_violation outside the root. Prefer edit_file, apply_edits or replace_symbol for partial changes: their diffs are smaller and they never clobber lines you did not mean to touch.",
  inputSchema: objectSchema({
    path: PATH,
    content: { type: "string", description: "The complete new content (UTF-8)" },
    eol: {
      type: "string",
      enum: ["keep", "lf", "crlf"],
      description: "Line endings: keep the file's (default), or convert every one to lf or crlf",
    },
    bom: {
      type: "boolean",
      description: "Write a UTF-8 BOM (default: keep the file's; a new file as the content has it)",
    },
    expected_version: EXPECTED_VERSION,
    dry_run: DRY_RUN,
  }, ["path", "content"]),
  kind: "whole_file",
  mutates: true,
  // the same content again is no_change
  behaviour: { idempotent: true },
  // Claude Code's Write names the file file_path.
  resultData: shape({ path: FILE_PATH, created: BOOLEAN, eol: STRING, bom: BOOLEAN }, ["path", "created"]),
  aliases: { file_path: "path" },
  async handler(args, { stage, checkGuardable }) {
    const rel = await stage.resolve(args.path);
    await stage.checkExpected(rel, args.expected_version);
    await checkGuardable([rel]); // a guarded rewrite of a file over the parse limit: refused before it is built
    const existing = await stage.read(rel);
    // The old text's BOM and endings from its bytes: decoded whole only when its endings are mixed.
    const prev = existing ? textShape(existing.bytes) : null;
    const warnings: string[] = [];
    let text = args.content;
    let bom = text.startsWith("\uFEFF");
    if (bom) text = text.slice(1);
    if (args.bom !== undefined) bom = args.bom;
    else if (prev?.bom) bom = true;
    const eol = args.eol ?? "keep";
    if (eol === "lf") text = text.replace(/\r\n/g, "\n");
    else if (eol === "crlf") text = text.replace(/\r?\n/g, "\r\n");
    else if (prev !== null && !prev.empty) {
      const { keepLineEndings } = await keepEolEngine();
      const kept = keepLineEndings({ ...prev, text: () => decodeText(existing!.bytes, rel).text }, text);
      text = kept.text;
      if (kept.defaulted > 0) {
        warnings.push(
          `"${rel}" mixes CRLF and LF line endings: ${kept.defaulted} added line${
            kept.defaulted === 1 ? "" : "s"
          } took the dominant ${
            EOL_NAME[kept.dominant]
          }; unchanged and replaced lines kept their own. Pass eol "lf" or "crlf" to make them all one`,
        );
      }
    }
    await stage.write(rel, encodeText({ text, bom }));
    const out = { data: { path: rel, created: existing === null, eol: eolStyle(text), bom } };
    return warnings.length > 0 ? { ...out, warnings } : out;
  },
};
