/**
 * The names models are trained on for a text search's arguments, mapped to graver's own: Claude Code's Grep,
 * ripgrep's flag letters and Serena's `search_for_pattern`. Data only (no imports), so the tool definition can
 * declare them without loading the search engine, and the engine folds the same table.
 *
 * @module
 */

/** Alias -> graver's name. */
export const SEARCH_TEXT_ALIASES: Readonly<Record<string, string>> = {
  substring_pattern: "pattern",
  regex: "pattern",
  "-F": "literal",
  fixed_strings: "literal",
  "-i": "ignore_case",
  case_insensitive: "ignore_case",
  "-S": "smart_case",
  "-w": "word",
  word_regexp: "word",
  "-U": "multiline",
  relative_path: "path",
  "-g": "glob",
  "-t": "type",
  "-A": "context_after",
  context_lines_after: "context_after",
  "-B": "context_before",
  context_lines_before: "context_before",
  "-C": "context",
  head_limit: "max_results",
  max_answer_chars: "max_chars",
  "--hidden": "hidden",
  "--no-ignore": "no_ignore",
};
