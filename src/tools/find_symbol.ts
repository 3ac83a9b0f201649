/**
 * find_symbol: find definitions by name path across the workspace (or one
 * file or directory), through the stage and the parse cache, so repeated
 * searches only re-parse what changed. A file whose text does not contain the
 * words of the last segment cannot define it and is not parsed (it is
 * outlined only when nothing matches, for did-you-mean names). A directory
 * search does not parse files over {@linkcode MAX_SEARCH_FILE_BYTES}, but
 * names each one that mentions the name, with its size and the call that
 * searches it (a file named by path is searched whatever its size). A search
 * reads at most {@linkcode MAX_SEARCH_FILES} files; past them the result (a
 * match or not_found) says so: what was not searched and the path that goes on.
 *
 * This module is the tool (schema, handler); its parts: where a search looks
 * (`_find_symbol_scope.ts`), the search of each file (`_find_symbol_search.ts`)
 * and the answer (`_find_symbol_answer.ts`).
 *
 * @module
 */
import { HEAD_CHARS } from "../syntax/grammars.ts";
import { markdownOutlineEngine, symbolsEngine } from "./_lazy.ts";
import { objectSchema } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";
import { BOOLEAN, FILE_PATH, INTEGER, shape, SKIPPED, STRING, UNREADABLE } from "./_result_schema.ts";
import { directoryScope, type Scope } from "./_find_symbol_scope.ts";
import { type FindSymbolArgs, searchFiles } from "./_find_symbol_search.ts";
import { foundResult, notFound } from "./_find_symbol_answer.ts";

export {
  MAX_SEARCH_FILE_BYTES,
  MAX_SEARCH_FILES,
  type NotSearched,
  sourceFiles,
} from "./_find_symbol_scope.ts";
export { type FindSymbolArgs, type LargeFile, prefilterWords } from "./_find_symbol_search.ts";
export { MAX_BODY_LINES, MAX_BODY_LINES_TOTAL } from "./_find_symbol_answer.ts";

/** The find_symbol tool. */
export const findSymbol: ToolDefinition<FindSymbolArgs> = {
  name: "find_symbol",
  description:
    "Find definitions by name path across the workspace (or under path): 'name' at any depth, 'Outer/inner', '/Top/level', 'f[1]' for the second overload, '\\/' for a slash in a name; substring lets the last segment match part of a name. Returns each match's path, name path, kind and lines, and its source with include_body. What .gitignore ignores and node_modules are searched only with include_ignored. A directory search does not parse files over 2 MiB; those that mention the name are listed in skipped_large, and naming one as path searches it. One search reads at most 5000 files; past that, capped says what was not searched and which path goes on. To list one file's definitions, call outline instead; to change a match, pass its path and name_path to replace_symbol, remove_symbol or insert_code.",
  inputSchema: objectSchema({
    name_path: {
      type: "string",
      minLength: 1,
      description: 'Name path, e.g. "Class/method", "/Top", "f[1]"',
    },
    path: { type: "string", description: "A file or directory to search (default: the whole workspace)" },
    include_body: { type: "boolean", description: "Include each match's source text (default false)" },
    substring: { type: "boolean", description: "Let the last segment match part of a name (default false)" },
    max_results: {
      type: "integer",
      minimum: 1,
      maximum: 1000,
      description: "Most matches returned (default 50)",
    },
    include_ignored: {
      type: "boolean",
      description: "Also search what .gitignore ignores and node_modules (default false)",
    },
  }, ["name_path"]),
  kind: "read",
  mutates: false,
  resultData: shape({
    matches: {
      type: "array",
      items: shape({
        path: FILE_PATH,
        name_path: STRING,
        kind: STRING,
        start_line: INTEGER,
        end_line: INTEGER,
        body: STRING,
      }, ["path", "name_path", "kind", "start_line", "end_line"]),
    },
    count: INTEGER,
    files_searched: INTEGER,
    truncated: BOOLEAN,
    skipped_large: {
      type: "array",
      description: "Files over 2 MiB a directory search did not parse though they mention the name",
      items: shape({ path: FILE_PATH, bytes: INTEGER }, ["path", "bytes"]),
    },
    capped: shape({
      limit: INTEGER,
      first: { ...FILE_PATH, description: "The first file the search did not reach" },
      paths: { type: "array", items: STRING, description: "What was not searched (directories end with /)" },
      more: INTEGER,
      top: { type: "array", items: STRING },
      narrower: { ...FILE_PATH, description: "The directory to pass as path to go on" },
    }, ["limit", "first", "paths", "more", "top"]),
    skipped: SKIPPED,
    unreadable: UNREADABLE,
  }, ["matches", "count"]),
  async handler(args, { workspace, stage }) {
    const { unsupportedLanguage } = await symbolsEngine();
    const base = (await stage.sandbox.resolve(stage.fs, args.path ?? "", { allowRoot: true })).rel;
    const kind = base === "" ? "dir" : await stage.fs.kind(stage.sandbox.abs(base));
    if (kind === null) throw await stage.notFound(base);
    const { isMarkdownPath } = await markdownOutlineEngine();
    if (!workspace.grammars) {
      throw unsupportedLanguage(base, null, {
        tool: "find_symbol",
        noGrammars: true,
        read: kind === "dir" ? "directory" : true,
      });
    }
    let scope: Scope;
    if (kind === "dir") {
      scope = await directoryScope(workspace, stage, { base, includeIgnored: args.include_ignored === true });
    } else {
      if (!workspace.grammars.languageOf(base) && !isMarkdownPath(base)) {
        const head = (await stage.readText(base)).text.slice(0, HEAD_CHARS);
        if (!workspace.grammars.languageOf(base, head)) {
          throw unsupportedLanguage(base, null, { tool: "find_symbol", read: true });
        }
      }
      scope = { base, files: [base], ignored: 0 };
    }
    // A file named by path is searched whatever its size: the caller asked for it.
    const search = await searchFiles(workspace, stage, { args, files: scope.files, capSize: kind === "dir" });
    if (search.matches.length === 0) throw await notFound(workspace, search, scope);
    return foundResult(search, scope);
  },
};
