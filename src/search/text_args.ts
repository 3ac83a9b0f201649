/**
 * The arguments of a text search, as a model writes them, folded into one query: graver's own names, the
 * names of Claude Code's Grep tool (`-i`, `-n`, `-A`, `-B`, `-C`, `head_limit`, `offset`, `output_mode`,
 * `glob`, `type`, `multiline`), ripgrep's flag letters, and Serena's `search_for_pattern`
 * (`substring_pattern`, `relative_path`, `paths_include_glob`, `paths_exclude_glob`,
 * `context_lines_before`/`context_lines_after`, `max_answer_chars`). Defaults are applied here, and a
 * `cursor` from an earlier page is read back into its offset. The tool definition stays thin: it passes its
 * arguments through {@linkcode normalizeSearchTextArgs}.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import type { OutputMode, SearchTextQuery } from "./types.ts";
import { SEARCH_TEXT_ALIASES } from "./text_aliases.ts";

export { SEARCH_TEXT_ALIASES };

/** Default of `max_results`. */
export const DEFAULT_MAX_RESULTS = 100;

/**
 * `max_results: 0` (Claude Code's `head_limit: 0`, "no limit"): as many entries as `max_chars` holds, at most
 * this many in one page — the budget's shortening, not a count, bounds what comes back.
 */
export const MAX_RESULTS_UNLIMITED = 10_000;

/** The page size asked for: the default when not given; 0 is "no limit" ({@linkcode MAX_RESULTS_UNLIMITED}). */
function maxResultsOf(asked: number | undefined): number {
  if (asked === undefined) return DEFAULT_MAX_RESULTS;
  return asked === 0 ? MAX_RESULTS_UNLIMITED : asked;
}
/** Default of `max_chars`: the characters of entries one result holds before it is shortened. */
export const DEFAULT_MAX_CHARS = 30_000;
/** Default of `max_file_bytes`: larger files are skipped (`too_large`). */
export const DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024;

/** Arguments that only say what graver does anyway (`-n`: line numbers are always given). */
const ACCEPTED_AND_IGNORED = new Set(["-n", "line_numbers"]);

type Kind = "string" | "boolean" | "count" | "globs" | "mode";

/** graver's argument names and what each holds. */
const ARGS: Readonly<Record<string, Kind>> = {
  pattern: "string",
  literal: "boolean",
  ignore_case: "boolean",
  smart_case: "boolean",
  word: "boolean",
  multiline: "boolean",
  path: "string",
  glob: "globs",
  paths_include_glob: "globs",
  paths_exclude_glob: "globs",
  type: "globs",
  output_mode: "mode",
  context_before: "count",
  context_after: "count",
  context: "count",
  max_results: "count",
  offset: "count",
  cursor: "string",
  max_chars: "count",
  max_file_bytes: "count",
  hidden: "boolean",
  no_ignore: "boolean",
  symbols: "boolean",
};

const MODES: readonly OutputMode[] = ["content", "files_with_matches", "count"];
const MODE_ALIASES: Readonly<Record<string, OutputMode>> = { "-l": "files_with_matches", "-c": "count" };

/** A refusal of one argument. */
function badArg(name: string, message: string, hint: string): RecoverableError {
  return new RecoverableError("invalid_args", `Cannot search: ${message}`, {
    hint,
    details: { argument: name },
  });
}

/** Check one value against its kind; returns it in its normalized form. */
function checked(name: string, kind: Kind, value: unknown): unknown {
  if (kind === "string" && typeof value === "string") return value;
  if (kind === "boolean" && typeof value === "boolean") return value;
  if (kind === "count" && typeof value === "number" && Number.isInteger(value) && value >= 0) return value;
  if (kind === "globs") {
    if (typeof value === "string") return [value];
    if (Array.isArray(value) && value.every((g) => typeof g === "string")) return value;
  }
  if (kind === "mode" && typeof value === "string" && (MODES as string[]).includes(value)) return value;
  const want = kind === "count"
    ? "a whole number ≥ 0"
    : kind === "globs"
    ? "a string or a list of strings"
    : kind === "mode"
    ? `one of ${MODES.join(", ")}`
    : `a ${kind}`;
  return badArg(name, `"${name}" must be ${want}, got ${JSON.stringify(value)}`, `Pass "${name}" as ${want}`);
}

/** Fold aliases and `-l`/`-c` into graver's names; refuses unknown names and conflicting duplicates. */
function canonical(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const set = (name: string, value: unknown, given: string) => {
    if (name in out && JSON.stringify(out[name]) !== JSON.stringify(value)) {
      throw badArg(given, `"${given}" and "${name}" say different things`, `Pass only "${name}"`);
    }
    out[name] = value;
  };
  for (const [given, value] of Object.entries(raw)) {
    if (value === undefined || ACCEPTED_AND_IGNORED.has(given)) continue;
    if (given in MODE_ALIASES) {
      if (value === true) set("output_mode", MODE_ALIASES[given], given);
      continue;
    }
    const name = SEARCH_TEXT_ALIASES[given] ?? given;
    const kind = ARGS[name];
    if (kind === undefined) {
      throw badArg(given, `unknown argument "${given}"`, `Use: ${Object.keys(ARGS).join(", ")}`);
    }
    const v = checked(given, kind, value);
    if (v instanceof RecoverableError) throw v;
    set(name, v, given);
  }
  return out;
}

/** What a paged query holds besides what decides its results. */
type PagedQuery = { offset: number; maxResults: number; maxChars: number };

/** A short hash of what decides a search's results, so that a cursor is refused on another query. */
function queryHash(q: unknown): string {
  let h = 0x811c9dc5;
  for (const c of JSON.stringify(q)) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return h.toString(36);
}

/**
 * The cursor of the page that starts at `offset` of this query.
 *
 * @param query The normalized query (a text or a structural search's).
 * @param offset Entries before the page.
 * @returns An opaque cursor.
 */
export function cursorFor(query: PagedQuery, offset: number): string {
  const { offset: _o, maxResults: _m, maxChars: _c, ...rest } = query;
  return `${offset}.${queryHash(rest)}`;
}

/**
 * The offset a cursor names, checked against the query it was made for.
 *
 * @param cursor The `next_cursor` of an earlier page.
 * @param query The normalized query of this call.
 * @returns The offset of the page the cursor starts.
 * @throws RecoverableError `invalid_args` when the cursor belongs to another search.
 */
export function offsetOfCursor(cursor: string, query: PagedQuery): number {
  const m = /^(\d+)\.([0-9a-z]+)$/.exec(cursor);
  if (!m || cursorFor(query, Number(m[1])) !== cursor) {
    throw badArg(
      "cursor",
      `the cursor "${cursor}" does not belong to this search`,
      "Pass the next_cursor of the previous page with the same pattern and filters, or leave cursor out to start again",
    );
  }
  return Number(m[1]);
}

/** The globs of `glob`, `paths_include_glob` and `paths_exclude_glob` (excludes last, so they win). */
function globsOf(args: Record<string, unknown>): string[] {
  const include = [
    ...(args.glob as string[] | undefined ?? []),
    ...(args.paths_include_glob as string[] ?? []),
  ];
  const exclude = (args.paths_exclude_glob as string[] | undefined ?? []).map((g) =>
    g.startsWith("!") ? g : `!${g}`
  );
  return [...include, ...exclude];
}

/** A `path` argument as the walk takes it: relative, no "./" in front, no "/" behind ("" for the root). */
function scopePath(path: string): string {
  const trimmed = path.replace(/^(\.\/)+/, "").replace(/\/+$/, "");
  return trimmed === "." ? "" : trimmed;
}

/**
 * Normalize a text search's arguments.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeSearchTextArgs } from "./text_args.ts";
 *
 * const q = normalizeSearchTextArgs({ substring_pattern: "TODO", "-i": true, "-C": 2, head_limit: 5 });
 * assert.equal(q.pattern, "TODO");
 * assert.equal(q.ignoreCase, true);
 * assert.equal(q.contextBefore, 2);
 * assert.equal(q.maxResults, 5);
 * ```
 *
 * @param raw The arguments as given.
 * @returns The query with defaults.
 * @throws RecoverableError `invalid_args` for a missing pattern, an unknown argument, a value of the wrong
 *   kind, a cursor of another search, or a line end in a pattern without `multiline`.
 */
export function normalizeSearchTextArgs(raw: Record<string, unknown>): SearchTextQuery {
  const a = canonical(raw);
  if (typeof a.pattern !== "string") {
    throw badArg(
      "pattern",
      `"pattern" is required`,
      'Pass the text or regular expression to find: {"pattern": "…"}',
    );
  }
  const context = a.context as number | undefined;
  const query: SearchTextQuery = {
    pattern: a.pattern,
    literal: a.literal === true,
    ignoreCase: a.ignore_case === true,
    smartCase: a.smart_case === true,
    word: a.word === true,
    multiline: a.multiline === true,
    scope: {
      path: scopePath((a.path as string | undefined) ?? ""),
      hidden: a.hidden === true,
      noIgnore: a.no_ignore === true,
    },
    globs: globsOf(a),
    types: (a.type as string[] | undefined) ?? [],
    outputMode: (a.output_mode as OutputMode | undefined) ?? "content",
    contextBefore: (a.context_before as number | undefined) ?? context ?? 0,
    contextAfter: (a.context_after as number | undefined) ?? context ?? 0,
    maxResults: maxResultsOf(a.max_results as number | undefined),
    offset: (a.offset as number | undefined) ?? 0,
    maxChars: (a.max_chars as number | undefined) ?? DEFAULT_MAX_CHARS,
    maxFileBytes: (a.max_file_bytes as number | undefined) ?? DEFAULT_MAX_FILE_BYTES,
  };
  if (a.symbols === false) query.symbols = false;
  if (!query.multiline && query.pattern.includes("\n")) {
    throw badArg(
      "pattern",
      "the pattern holds a line end, and lines are searched one by one",
      'Pass "multiline": true',
    );
  }
  if (typeof a.cursor === "string") query.offset = offsetOfCursor(a.cursor, query);
  return query;
}
