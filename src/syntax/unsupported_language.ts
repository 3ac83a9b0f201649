/**
 * The `unsupported_language` refusal every grammar-based tool gives for a
 * file without a (loadable) grammar: it names the text fallback that works on
 * every file, `edit_safe_text_patch`, with the call to make.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";

/**
 * The `unsupported_language` refusal of a structural tool, naming the text
 * fallback that works on every file.
 *
 * @param rel Relative path.
 * @param options The tool refusing, the file's version, and the grammar (null: none applies).
 * @returns The error to throw.
 */
export function structuralUnsupported(
  rel: string,
  options: { tool: string; version?: string; language?: string | null; reason?: string },
): RecoverableError {
  const why = options.reason ??
    (options.language
      ? `the ${options.language} grammar is not available here`
      : "no grammar applies to this file type");
  const args: Record<string, unknown> = {
    path: rel,
    hunks: [{ old_text: "<exact current text, unique in the file>", new_text: "<replacement>" }],
  };
  if (options.version) args["expected_hash"] = options.version;
  return new RecoverableError("unsupported_language", `Cannot run ${options.tool} on "${rel}": ${why}`, {
    hint:
      "Edit it as text instead: read_file to see the exact lines, then edit_safe_text_patch with old_text copied exactly (unique in the file) and new_text",
    suggestedCall: { tool: "edit_safe_text_patch", args },
    details: { path: rel, language: options.language ?? null, fallback: "edit_safe_text_patch" },
  });
}
