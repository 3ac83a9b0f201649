/** Helpers shared by the edit parsers (private). @module */
import { RecoverableError } from "../errors.ts";
import type { EditFormat } from "./types.ts";

/** Split edit input into lines (any line ending; a final newline adds no empty line). */
export function inputLines(text: string): string[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Where and how edit input is malformed: the 1-based input line, what is wrong, what to send instead. */
export interface Malformation {
  line: number;
  what: string;
  hint: string;
}

/** An `invalid_args` error for malformed edit input, naming the input line. */
export function malformed(format: EditFormat, at: Malformation): RecoverableError {
  return new RecoverableError(
    "invalid_args",
    `Cannot parse ${formatLabel(format)} edits: ${at.what} (input line ${at.line})`,
    {
      hint: at.hint,
      details: { format, input_line: at.line },
    },
  );
}

/** The human name of a format. */
export function formatLabel(format: EditFormat): string {
  return format === "search-replace"
    ? "SEARCH/REPLACE"
    : format === "udiff"
    ? "unified diff"
    : "*** Begin Patch";
}

/** Names without an extension that are still file names. */
const BARE_FILE_NAMES = new Set([
  "Makefile",
  "Dockerfile",
  "LICENSE",
  "Gemfile",
  "Rakefile",
  "Procfile",
  "Justfile",
  "Containerfile",
  "Vagrantfile",
  "CODEOWNERS",
]);

/**
 * Clean a line that may name a file (markdown decoration stripped); null
 * when it does not look like a path.
 */
export function fileNameOf(line: string): string | null {
  let s = line.trim();
  s = s.replace(/^(?:[#*>`\s-]|\d+\.\s)+/, "");
  s = s.replace(/^(?:file(?:name)?|path)\s*:\s*/i, "");
  s = s.replace(/[\s`*:]+$/, "");
  s = s.replace(/^["'`]+|["'`]+$/g, "");
  if (s.startsWith("<<<") || s.startsWith("===")) return null;
  if (s !== "" && !/\s/.test(s) && looksLikePath(s)) return s;
  // Prose such as "Change `src/a.ts` like this:": the last backticked path.
  const quoted = [...line.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!).filter(looksLikePath);
  return quoted.length > 0 ? quoted[quoted.length - 1]! : null;
}

function looksLikePath(s: string): boolean {
  return s.includes("/") || /\.[A-Za-z0-9_+-]+$/.test(s) || BARE_FILE_NAMES.has(s);
}

/** Strip git's `a/` / `b/` prefix and any timestamp from a diff header path; null for /dev/null. */
export function diffPath(raw: string, prefix: "a/" | "b/"): string | null {
  let s = raw.split("\t")[0]!.trim();
  if (s.startsWith('"') && s.endsWith('"')) s = s.slice(1, -1);
  if (s === "/dev/null") return null;
  if (s.startsWith(prefix)) s = s.slice(2);
  return s;
}
