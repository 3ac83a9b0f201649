/**
 * The `unsupported_language` refusal every grammar-based tool gives for a
 * file without a (loadable) grammar. A tool that edits names the text
 * fallback that works on every file, `edit_safe_text_patch`, with the call to
 * make; a tool that reads (outline, find_symbol) names `read_file`, a call
 * that runs as suggested.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";

/** Why a grammar-based tool cannot run on a file: the reason given, else the missing grammar. */
function unsupportedReason(options: { language?: string | null; reason?: string }): string {
  return options.reason ??
    (options.language
      ? `the ${options.language} grammar is not available here`
      : "no grammar applies to this file type");
}

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
  const args: Record<string, unknown> = {
    path: rel,
    hunks: [{ old_text: "<exact current text, unique in the file>", new_text: "<replacement>" }],
  };
  if (options.version) args["expected_hash"] = options.version;
  return new RecoverableError(
    "unsupported_language",
    `Cannot run ${options.tool} on "${rel}": ${unsupportedReason(options)}`,
    {
      hint:
        "Edit it as text instead: read_file to see the exact lines, then edit_safe_text_patch with old_text copied exactly (unique in the file) and new_text",
      suggestedCall: { tool: "edit_safe_text_patch", args },
      details: { path: rel, language: options.language ?? null, fallback: "edit_safe_text_patch" },
    },
  );
}

/**
 * The `unsupported_language` refusal of a tool that reads (outline,
 * find_symbol on one file): it suggests `read_file` on the file, a call that
 * runs as given. A directory gets no suggested call (no read shows it).
 *
 * @param rel Relative path.
 * @param options The tool refusing, the grammar (null: none applies), a reason, and whether `rel` is a directory.
 * @returns The error to throw.
 */
export function readUnsupported(
  rel: string,
  options: { tool: string; language?: string | null; reason?: string; directory?: boolean },
): RecoverableError {
  const message = `Cannot run ${options.tool} on "${rel}": ${unsupportedReason(options)}`;
  const details = { path: rel, language: options.language ?? null, fallback: "read_file" };
  if (options.directory) {
    return new RecoverableError("unsupported_language", message, {
      hint: "Search the text with grep, or list the files with list_files",
      details: { ...details, fallback: "list_files" },
    });
  }
  return new RecoverableError("unsupported_language", message, {
    hint:
      `Read it as text instead: read_file {"path": "${rel}"} gives its numbered lines (start_line and end_line for a part)`,
    suggestedCall: { tool: "read_file", args: { path: rel } },
    details,
  });
}
