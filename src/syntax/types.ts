/**
 * Shared types of the syntax layer.
 *
 * @module
 */
import type { Grammars } from "./grammars.ts";
import type { TreeCache } from "./trees.ts";
import type { ErrorRegion } from "./error_regions.ts";

/**
 * What the syntax and structural engines need of their host: the grammar
 * registry and the parse cache. A `Workspace` satisfies it; so does any
 * object holding the two, which lets an engine run without a workspace.
 */
export interface Parsing {
  /** Language registry, or null when the host was opened without a wasm loader. */
  readonly grammars: Grammars | null;
  /** Parse cache, or null without grammars. */
  readonly trees: TreeCache | null;
}

/** What the syntax guard does with an edit that adds parse errors. */
export type SyntaxGuardMode = "refuse" | "warn" | "off";

/**
 * A span of a file. Lines are 1-based and inclusive; offsets are 0-based into
 * the decoded text (BOM excluded), in UTF-16 code units and in UTF-8 bytes.
 */
export interface SymbolRange {
  /** First line (1-based). */
  start_line: number;
  /** Last line (1-based, inclusive). */
  end_line: number;
  /** Start offset in UTF-16 code units. */
  start_utf16: number;
  /** End offset (exclusive) in UTF-16 code units. */
  end_utf16: number;
  /** Start offset in UTF-8 bytes. */
  start_byte: number;
  /** End offset (exclusive) in UTF-8 bytes. */
  end_byte: number;
}

/** One definition of a file. */
export interface SymbolInfo {
  /** function, method, class, interface, struct, enum, trait, impl, module, variable, constant, type, field, property, constructor, namespace … */
  kind: string;
  /** The name as written (for a Rust impl block its header, e.g. "impl Display for Point"). */
  name: string;
  /** "Outer/inner"; "name[i]" among same-name siblings when there are several; "/" in names escaped as "\/". */
  name_path: string;
  /** The definition node itself. */
  range: SymbolRange;
  /** The definition with its wrappers (export, decorated_definition), decorations and attached doc comments. */
  full_range: SymbolRange;
  /** The body block (braces or indented suite), when there is one. */
  body_range?: SymbolRange;
  /** The attached doc comment (or docstring), markers stripped. */
  doc?: string;
  /** Other names the symbol answers to in name paths (e.g. the type of a Rust impl block). */
  aliases?: string[];
  /** A qualifier that may prefix the name in a name path (e.g. a Go method's receiver type). */
  qualifier?: string;
  /** Nested definitions. */
  children: SymbolInfo[];
}

/** An outline: the language and the top-level symbols. */
export interface Outline {
  /** Language id. */
  language: string;
  /** Top-level symbols, in document order. */
  symbols: SymbolInfo[];
  /** Lines the grammar could not parse (symbols there may be missing); absent when the parse is clean. */
  error_regions?: ErrorRegion[];
}
