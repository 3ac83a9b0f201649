/**
 * Occurrence ids: what a search hands back for each match so that the next call can edit exactly that
 * occurrence. An id names the file, the 1-based line and column where the match starts, and the first
 * characters of the file's version (`src/app.ts:12:5@3f2a9c0d1e4b`); an edit that receives it reads the
 * file again and refuses `stale_base` when the version no longer starts with the id's, since then the line
 * and column may point at other text. Paths may hold ":" or "@": an id is read from its end.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { MIN_VERSION_PREFIX } from "../fs/version.ts";

/** What an occurrence id names. */
export interface Occurrence {
  /** File path relative to the root. */
  path: string;
  /** 1-based line where the match starts. */
  line: number;
  /** 1-based column (UTF-16 code units) where it starts. */
  column: number;
  /** The first {@linkcode MIN_VERSION_PREFIX} hex characters of the file's version when it was searched. */
  version: string;
}

/**
 * The id of one occurrence.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatOccurrenceId, parseOccurrenceId } from "./occurrence_id.ts";
 *
 * const id = formatOccurrenceId({ path: "a:b.ts", line: 3, column: 7, version: "ab".repeat(32) });
 * assert.equal(id, "a:b.ts:3:7@abababababab");
 * assert.deepEqual(parseOccurrenceId(id), { path: "a:b.ts", line: 3, column: 7, version: "abababababab" });
 * ```
 *
 * @param occurrence The file, position and the file's version (full, or a prefix of at least 12 characters).
 * @returns The id.
 */
export function formatOccurrenceId(occurrence: Occurrence): string {
  const { path, line, column, version } = occurrence;
  return `${path}:${line}:${column}@${version.slice(0, MIN_VERSION_PREFIX)}`;
}

/**
 * Read an occurrence id back.
 *
 * @param id An id from {@linkcode formatOccurrenceId}.
 * @param search The search that gives ids (its tool and query), suggested in the refusal.
 * @returns What it names.
 * @throws RecoverableError `invalid_args` when it is not an occurrence id.
 */
export function parseOccurrenceId(
  id: string,
  search: { tool: string; args: Record<string, unknown> } = { tool: "search_text", args: {} },
): Occurrence {
  const m = /^(.+):(\d+):(\d+)@([0-9a-f]+)$/.exec(id);
  if (!m || m[4]!.length < MIN_VERSION_PREFIX || Number(m[2]) < 1 || Number(m[3]) < 1) {
    throw new RecoverableError("invalid_args", `Cannot read the occurrence id "${id}"`, {
      hint: `Pass an id exactly as ${search.tool} returned it ("path:line:column@version"); search again ` +
        "to get fresh ids",
      details: { id },
      // A search with no query would be refused: suggested only with one.
      ...(Object.keys(search.args).length > 0 ? { suggestedCall: search } : {}),
    });
  }
  return { path: m[1]!, line: Number(m[2]), column: Number(m[3]), version: m[4]! };
}

/**
 * Whether a file's current version is still the one an occurrence id was taken from.
 *
 * @param occurrence A parsed id.
 * @param current The file's version now.
 * @returns True when the id's position still names the same text.
 */
export function occurrenceIsCurrent(occurrence: Occurrence, current: string): boolean {
  return current.startsWith(occurrence.version);
}
