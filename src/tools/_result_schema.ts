/**
 * The building blocks of result schemas (JSON Schema 2020-12): the value
 * types, `shape`, and the pieces several tools' results share (a block
 * report, what a walk skipped, a binding-resolved symbol, references). A tool
 * definition builds its `resultData` from them.
 *
 * @module
 */
import type { JsonSchema } from "./types.ts";

/** A string. */
export const STRING = { type: "string" } as const;
/** An integer. */
export const INTEGER = { type: "integer" } as const;
/** A boolean. */
export const BOOLEAN = { type: "boolean" } as const;
/** A path relative to the workspace root. */
export const FILE_PATH = { type: "string", description: "Path relative to the workspace root" } as const;
/** A file version (SHA-256 hex). */
export const VERSION = { type: "string", description: "SHA-256 of the file's bytes (hex)" } as const;
/** A 1-based, inclusive line range. */
export const LINES = {
  type: "object",
  properties: { start_line: INTEGER, end_line: INTEGER },
  required: ["start_line", "end_line"],
} as const;

/** An object with these properties, these required, others allowed (a result may grow fields). */
export function shape(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: "object", properties, required };
}

/** One block of an edit text: where it landed or why it failed. */
export const BLOCK = shape({
  block: INTEGER,
  path: FILE_PATH,
  status: { enum: ["applied", "failed"] },
  tier: { ...STRING, description: "The matching-ladder tier that placed it (exact, whitespace, …, fuzzy)" },
  confidence: STRING,
  lines: shape({ start: INTEGER, end: INTEGER }),
  error: shape({ code: STRING, message: STRING }),
}, ["block", "path", "status"]);

/** What a project walk left out as unsafe to follow or open (only the non-zero counts). */
export const SKIPPED = shape({
  outside_root: {
    ...INTEGER,
    description: "Symbolic links whose target leaves the workspace root: never read",
  },
  special_file: { ...INTEGER, description: "FIFOs, sockets and devices: never opened" },
  unreadable: { ...INTEGER, description: "Directories graver may not read (permission denied): left out" },
});
/** Directories a walk left out as unreadable. */
export const UNREADABLE = {
  type: "array",
  items: FILE_PATH,
  description: "Directories left out as unreadable (first 20)",
};

/** A definition a structural edit selected. */
export const TARGET = shape({ name_path: STRING, kind: STRING, start_line: INTEGER, end_line: INTEGER });

/** A binding-resolved symbol: its name, what it is, where it is declared. */
export const SYMBOL = shape({
  name: STRING,
  kind: { enum: ["binding", "member", "export"] },
  path: FILE_PATH,
  line: INTEGER,
  column: INTEGER,
}, ["name", "kind", "path", "line", "column"]);

/** References grouped by file, each with its line's text. */
export const REFERENCES = {
  type: "array",
  items: shape({
    path: FILE_PATH,
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
