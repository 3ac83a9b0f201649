/**
 * ripgrep's file types for files graver reads as text only (no grammar of its own): what a text search's
 * `type` filter takes beside the grammar languages (`type: "md"`, as `rg -t md`), with the extensions and
 * file names `rg --type-list` gives for them (ripgrep 13). Where ripgrep matches a type by a wider glob
 * (`*Dockerfile*`, the `license` family), the type is left out rather than half matched.
 *
 * @module
 */

/** The files of one text type: extensions (with the dot) and whole file names. */
export interface TextFileType {
  /** Extensions, with the dot (`.md`). */
  extensions: readonly string[];
  /** Whole file names (`Makefile`). */
  filenames?: readonly string[];
}

const MARKDOWN: TextFileType = { extensions: [".markdown", ".md", ".mdown", ".mkdn"] };

/**
 * Text file types by ripgrep's name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TEXT_FILE_TYPES } from "./text_types.ts";
 *
 * assert.ok(TEXT_FILE_TYPES["md"]!.extensions.includes(".md"));
 * assert.ok(TEXT_FILE_TYPES["make"]!.filenames!.includes("Makefile"));
 * ```
 */
export const TEXT_FILE_TYPES: Readonly<Record<string, TextFileType>> = {
  config: { extensions: [".cfg", ".conf", ".config", ".ini"] },
  csv: { extensions: [".csv"] },
  jsonl: { extensions: [".jsonl"] },
  less: { extensions: [".less"] },
  make: {
    extensions: [".mak", ".mk"],
    filenames: [
      "Makefile",
      "makefile",
      "GNUmakefile",
      "gnumakefile",
      "Makefile.am",
      "makefile.am",
      "Makefile.in",
      "makefile.in",
      "GNUmakefile.am",
      "GNUmakefile.in",
    ],
  },
  markdown: MARKDOWN,
  md: MARKDOWN,
  protobuf: { extensions: [".proto"] },
  sass: { extensions: [".sass", ".scss"] },
  sql: { extensions: [".psql", ".sql"] },
  svg: { extensions: [".svg"] },
  tf: { extensions: [".tf"] },
  txt: { extensions: [".txt"] },
  xml: { extensions: [".dtd", ".rng", ".sch", ".xhtml", ".xjb", ".xml", ".xsd", ".xsl", ".xslt"] },
};
