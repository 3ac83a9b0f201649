/**
 * What every tool returns, as JSON Schema (draft 2020-12): the one result
 * envelope (`ok`, `status`, `changes`, `data`, … or `ok: false` with the
 * error) and, per tool, the main fields of its `data`. Data, not code: the
 * catalogue exports (`graver tools --format`) and the MCP `outputSchema` are
 * built from it, and a test runs each tool and checks its real result here.
 *
 * @module
 */
import type { JsonSchema } from "./types.ts";

const STRING = { type: "string" } as const;
const INTEGER = { type: "integer" } as const;
const BOOLEAN = { type: "boolean" } as const;
const PATH = { type: "string", description: "Path relative to the workspace root" } as const;
const VERSION = { type: "string", description: "SHA-256 of the file's bytes (hex)" } as const;
const LINES = {
  type: "object",
  properties: { start_line: INTEGER, end_line: INTEGER },
  required: ["start_line", "end_line"],
} as const;

/** An object with these properties, these required, others allowed (a result may grow fields). */
function shape(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: "object", properties, required };
}

const BLOCK = shape({
  block: INTEGER,
  path: PATH,
  status: { enum: ["applied", "failed"] },
  tier: { ...STRING, description: "The matching-ladder tier that placed it (exact, whitespace, …, fuzzy)" },
  confidence: STRING,
  lines: shape({ start: INTEGER, end: INTEGER }),
  error: shape({ code: STRING, message: STRING }),
}, ["block", "path", "status"]);

/** What a project walk left out as unsafe to follow or open (only the non-zero counts). */
const SKIPPED = shape({
  outside_root: {
    ...INTEGER,
    description: "Symbolic links whose target leaves the workspace root: never read",
  },
  special_file: { ...INTEGER, description: "FIFOs, sockets and devices: never opened" },
  unreadable: { ...INTEGER, description: "Directories graver may not read (permission denied): left out" },
});
const UNREADABLE = {
  type: "array",
  items: PATH,
  description: "Directories left out as unreadable (first 20)",
};

const TARGET = shape({ name_path: STRING, kind: STRING, start_line: INTEGER, end_line: INTEGER });

/** A binding-resolved symbol: its name, what it is, where it is declared. */
const SYMBOL = shape({
  name: STRING,
  kind: { enum: ["binding", "member", "export"] },
  path: PATH,
  line: INTEGER,
  column: INTEGER,
}, ["name", "kind", "path", "line", "column"]);

/** References grouped by file, each with its line's text. */
const REFERENCES = {
  type: "array",
  items: shape({
    path: PATH,
    references: {
      type: "array",
      items: shape({ line: INTEGER, column: INTEGER, kind: STRING, text: STRING }, [
        "line",
        "column",
        "kind",
      ]),
    },
  }, ["path", "references"]),
} as const;

/** The `data` of each tool's successful result, by tool name (the main fields; others may follow). */
export const RESULT_DATA: Readonly<Record<string, JsonSchema>> = {
  read_file: shape({
    path: PATH,
    version: VERSION,
    content: { ...STRING, description: "The lines, each as 'N<TAB>text' unless numbered is false" },
    start_line: INTEGER,
    end_line: INTEGER,
    total_lines: INTEGER,
    language: { type: ["string", "null"] },
    eol: { enum: ["lf", "crlf", "mixed"] },
    bom: BOOLEAN,
    truncated: BOOLEAN,
    next_call: shape({ tool: STRING, args: { type: "object" } }),
  }, ["path", "version", "content", "start_line", "end_line", "total_lines"]),
  list_files: shape({
    path: PATH,
    entries: { type: "array", items: STRING, description: "Paths from the root; directories end with '/'" },
    count: INTEGER,
    truncated: BOOLEAN,
    ignored: INTEGER,
    skipped: SKIPPED,
    unreadable: UNREADABLE,
  }, ["path", "entries", "count"]),
  write_file: shape({ path: PATH, created: BOOLEAN, eol: STRING, bom: BOOLEAN }, ["path", "created"]),
  create_file: shape({ path: PATH }, ["path"]),
  delete_file: shape({ path: PATH }, ["path"]),
  move_file: shape({
    from: PATH,
    to: PATH,
    imports: shape({
      updated: {
        type: "array",
        items: shape({ path: PATH, line: INTEGER, before: STRING, after: STRING }, [
          "path",
          "line",
          "before",
          "after",
        ]),
      },
      files: { type: "array", items: PATH },
      unresolved: {
        type: "array",
        items: shape({ path: PATH, line: INTEGER, specifier: STRING, reason: STRING }, ["path", "specifier"]),
      },
    }, ["updated", "files", "unresolved"]),
  }, ["from", "to"]),
  apply_edits: shape({
    format: { enum: ["search-replace", "udiff", "apply-patch"] },
    applied: INTEGER,
    failed: INTEGER,
    blocks: { type: "array", items: BLOCK },
    files: {
      type: "array",
      items: shape({ path: PATH, action: { ...STRING, description: "edited, created, deleted or moved" } }, [
        "path",
      ]),
    },
  }, ["format", "applied", "failed", "blocks"]),
  edit_file: shape({
    path: PATH,
    replaced: INTEGER,
    created: BOOLEAN,
    block: BLOCK,
    blocks: { type: "array", items: BLOCK, description: "One per item of edits" },
  }, ["path", "replaced", "created"]),
  outline: shape({
    path: PATH,
    version: VERSION,
    language: STRING,
    symbols: {
      type: "array",
      items: shape({
        name_path: STRING,
        kind: STRING,
        start_line: INTEGER,
        end_line: INTEGER,
        children: { type: "array" },
      }, ["name_path", "kind"]),
    },
    truncated: shape({ total: INTEGER, shown: INTEGER }),
  }, ["path", "language", "symbols"]),
  find_symbol: shape({
    matches: {
      type: "array",
      items: shape({
        path: PATH,
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
      items: shape({ path: PATH, bytes: INTEGER }, ["path", "bytes"]),
    },
    capped: shape({
      limit: INTEGER,
      first: { ...PATH, description: "The first file the search did not reach" },
      paths: { type: "array", items: STRING, description: "What was not searched (directories end with /)" },
      more: INTEGER,
      top: { type: "array", items: STRING },
      narrower: { ...PATH, description: "The directory to pass as path to go on" },
    }, ["limit", "first", "paths", "more", "top"]),
    skipped: SKIPPED,
    unreadable: UNREADABLE,
  }, ["matches", "count"]),
  find_references: shape(
    { target: SYMBOL, total: INTEGER, files: REFERENCES, unresolved: REFERENCES, skipped: SKIPPED },
    ["target", "total", "files", "unresolved"],
  ),
  edit_rename_symbol: shape({
    target: SYMBOL,
    new_name: STRING,
    renamed: INTEGER,
    files: REFERENCES,
    unresolved: REFERENCES,
    text_occurrences: { type: "array", description: "The old name in comments and strings (not changed)" },
    skipped: SKIPPED,
  }, ["target", "new_name", "renamed", "files"]),
  edit_change_signature: shape({
    target: shape({
      name: STRING,
      kind: { enum: ["function", "method", "constructor"] },
      path: PATH,
      line: INTEGER,
    }, ["name", "kind", "path", "line"]),
    before: { ...STRING, description: "The parameter list as it was written" },
    after: { ...STRING, description: "The new parameter list" },
    mapping: {
      type: "array",
      items: shape({
        old_name: { type: ["string", "null"] },
        new_name: { type: ["string", "null"] },
        old_index: { type: ["integer", "null"] },
        new_index: { type: ["integer", "null"] },
        change: { enum: ["unchanged", "renamed", "moved", "renamed_and_moved", "added", "removed"] },
      }, ["old_name", "new_name", "change"]),
    },
    calls: INTEGER,
    updated: INTEGER,
    call_sites: {
      type: "array",
      items: shape({
        path: PATH,
        calls: {
          type: "array",
          items: shape({ line: INTEGER, column: INTEGER, updated: BOOLEAN, candidate: BOOLEAN }, [
            "line",
            "column",
            "updated",
          ]),
        },
      }, ["path", "calls"]),
    },
    unresolved: { type: "array", description: "obj.m candidates left alone (not calls)" },
  }, ["target", "before", "after", "mapping", "calls", "updated", "call_sites"]),
  edit_move_decl: shape({
    moved: shape({
      name: STRING,
      kind: STRING,
      from: PATH,
      to: PATH,
      start_line: INTEGER,
      end_line: INTEGER,
    }, ["name", "from", "to"]),
    destination_created: BOOLEAN,
    exported: BOOLEAN,
    source_exported: {
      type: "array",
      items: STRING,
      description: "Private declarations of the source now exported because the moved code imports them",
    },
    referrers: {
      type: "array",
      items: PATH,
      description: "Files whose imports now take the name from the destination",
    },
    unresolved: {
      type: "array",
      items: shape({ path: PATH, line: INTEGER, reason: STRING }, ["path", "reason"]),
    },
    namespaces: {
      type: "array",
      items: shape({ path: PATH, name: STRING }, ["path", "name"]),
      description:
        "Files passing the source on as a namespace (export * as name), which no longer holds the moved name",
    },
  }, ["moved", "destination_created", "referrers"]),
  edit_extract_function: shape({
    name: STRING,
    kind: { enum: ["function", "method"] },
    line: { ...INTEGER, description: "1-based line of the new function's first line" },
    parameters: { type: "array", items: STRING },
    returns: { type: "array", items: STRING, description: "Names returned to the caller" },
    async: BOOLEAN,
    generator: BOOLEAN,
    call: { ...STRING, description: "The statement that replaced the extracted ones" },
  }, ["name", "kind", "line", "parameters", "returns", "call"]),
  edit_inline: shape({
    kind: { enum: ["variable", "function"] },
    name: STRING,
    inlined: { ...INTEGER, description: "How many uses or calls were replaced" },
    lines: {
      type: "array",
      items: INTEGER,
      description: "1-based lines of the replaced uses or calls (before the edit)",
    },
    removed: {
      ...BOOLEAN,
      description: "Whether the declaration was removed (nothing refers to it any more)",
    },
    kept_for: {
      type: "array",
      items: shape({ path: PATH, line: INTEGER }, ["path", "line"]),
      description: "References in other files that keep the declaration (left unchanged)",
    },
  }, ["kind", "name", "inlined", "lines", "removed"]),
  replace_symbol: shape(
    {
      path: PATH,
      name_path: STRING,
      kind: STRING,
      start_line: INTEGER,
      end_line: INTEGER,
      unchanged: BOOLEAN,
    },
    ["path", "name_path"],
  ),
  remove_symbol: shape({ path: PATH, removed: TARGET }, ["path", "removed"]),
  insert_code: shape(
    { path: PATH, anchor: STRING, position: STRING, start_line: INTEGER, end_line: INTEGER },
    ["path", "anchor", "position"],
  ),
  edit_apply_node: shape({
    path: PATH,
    language: STRING,
    selector: STRING,
    total_matches: INTEGER,
    replaced: { type: "array", items: TARGET },
    edited: { type: "array", items: LINES },
    removed: BOOLEAN,
  }, ["path", "replaced", "edited"]),
  edit_insert_at_anchor: shape({
    path: PATH,
    language: STRING,
    selector: STRING,
    position: STRING,
    total_matches: INTEGER,
    anchors: { type: "array", items: TARGET },
    inserted: { type: "array", items: LINES },
  }, ["path", "anchors", "inserted"]),
  edit_safe_text_patch: shape({
    path: PATH,
    hunks: { type: "array", items: shape({ hunk: INTEGER, start_line: INTEGER, end_line: INTEGER }) },
  }, ["path", "hunks"]),
  edit_dry_run: shape({
    status: { enum: ["ok", "partial", "no_ops_applied"] },
    applied: INTEGER,
    failed: INTEGER,
    ops: {
      type: "array",
      items: shape({ index: INTEGER, tool: STRING, ok: BOOLEAN, data: { type: "object" } }, [
        "index",
        "tool",
        "ok",
      ]),
    },
  }, ["status", "applied", "failed", "ops"]),
  edit_capabilities: shape({
    languages: { type: "array", items: shape({ language: STRING }, ["language"]) },
    other_files: { type: "object" },
  }, ["languages"]),
  checkpoint_list: shape({
    checkpoints: {
      type: "array",
      items: shape({
        id: STRING,
        message: STRING,
        tool: STRING,
        session: STRING,
        paths: { type: "array", items: PATH },
        timestamp: INTEGER,
        undoes: STRING,
        undone: BOOLEAN,
      }, ["id", "tool", "session", "paths", "undone"]),
    },
    total: INTEGER,
  }, ["checkpoints", "total"]),
  checkpoint_undo: shape({ undid: STRING, paths: { type: "array", items: PATH } }, ["undid", "paths"]),
  checkpoint_restore: shape({ restored: STRING, paths: { type: "array", items: PATH } }, [
    "restored",
    "paths",
  ]),
};

const ERROR = shape({
  code: {
    ...STRING,
    description: "One wire code: invalid_args, not_found, stale_base, no_match, ambiguous, …",
  },
  message: { ...STRING, description: "What happened and where (path, lines)" },
  hint: { ...STRING, description: "What to call next" },
  suggested_call: shape({ tool: STRING, args: { type: "object" } }, ["tool", "args"]),
  details: { type: "object" },
}, ["code", "message", "hint"]);

const REMINDERS = {
  type: "array",
  items: shape({ provider: STRING, text: STRING, preserve_on_compact: BOOLEAN }, ["provider", "text"]),
};

/**
 * The result envelope of a tool as JSON Schema 2020-12: a success whose
 * `data` has the tool's shape ({@linkcode RESULT_DATA}), or a refusal.
 *
 * @param tool A tool name (an alias gets the envelope only: its result is the real tool's).
 * @returns The schema.
 *
 * @example The envelope of read_file
 * ```ts
 * import { resultSchema } from "./result_shapes.ts";
 * import assert from "node:assert/strict";
 *
 * const schema = resultSchema("read_file") as { oneOf: { properties: { data: { required: string[] } } }[] };
 * assert.ok(schema.oneOf[0]!.properties.data.required.includes("version"));
 * ```
 */
export function resultSchema(tool: string): JsonSchema {
  const success = shape({
    ok: { const: true },
    tool: { ...STRING, description: "The tool that ran (for an alias, the tool it forwarded to)" },
    status: { enum: ["applied", "dry_run", "no_change", "read"] },
    changes: {
      type: "array",
      items: shape({
        path: PATH,
        before_version: { type: ["string", "null"] },
        after_version: { type: ["string", "null"] },
        diff: { ...STRING, description: "git-style unified diff" },
      }, ["path", "before_version", "after_version", "diff"]),
    },
    data: RESULT_DATA[tool] ?? { type: "object" },
    warnings: { type: "array", items: STRING },
    reminders: REMINDERS,
  }, ["ok", "tool", "status", "changes", "data", "warnings", "reminders"]);
  const failure = shape(
    { ok: { const: false }, tool: STRING, error: ERROR, reminders: REMINDERS },
    ["ok", "tool", "error"],
  );
  return { type: "object", oneOf: [success, failure] };
}
