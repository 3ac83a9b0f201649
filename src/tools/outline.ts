/**
 * outline: the definitions of a file as a tree of name paths, kinds and
 * lines (or, with detail "full", every range in UTF-16 and UTF-8 offsets).
 *
 * @module
 */
import { unparsedWarning } from "../syntax/error_regions.ts";
import type { SymbolInfo } from "../syntax/symbols.ts";
import { markdownOutlineEngine } from "./_lazy.ts";
import { objectSchema, PATH } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";
import { FILE_PATH, INTEGER, shape, STRING, VERSION } from "./_result_schema.ts";

/** Arguments of outline. */
export interface OutlineArgs {
  /** Relative path. */
  path: string;
  /** How deep to go (1: top level only; default: all). */
  depth?: number;
  /** "compact" (default): name paths, kinds, lines; "full": every range and offset. */
  detail?: "compact" | "full";
  /** Most symbols to return (default {@linkcode MAX_SYMBOLS}); deeper levels are cut first. */
  max_symbols?: number;
}

/** Symbols an outline returns unless asked for more: enough for any ordinary file, not a flood for a model. */
export const MAX_SYMBOLS = 400;

/** How many symbols `depth` levels hold. */
function countTo(symbols: SymbolInfo[], depth: number): number {
  if (depth <= 0) return 0;
  let n = 0;
  for (const s of symbols) n += 1 + countTo(s.children, depth - 1);
  return n;
}

/** The deepest level (up to `depth`) whose symbols fit in `max`, or 0 when the top level alone does not. */
function fittingDepth(symbols: SymbolInfo[], depth: number, max: number): number {
  let d = 0;
  while (d < depth && countTo(symbols, d + 1) <= max) {
    if (countTo(symbols, d + 1) === countTo(symbols, d)) return depth; // no deeper symbols
    d++;
  }
  return d;
}

/** One symbol in the compact form. */
export interface CompactSymbol {
  /** Name path. */
  name_path: string;
  /** Kind. */
  kind: string;
  /** First line, with doc comments and decorators (1-based). */
  start_line: number;
  /** Last line (1-based, inclusive). */
  end_line: number;
  /** First line of the doc comment. */
  doc?: string;
  /** Nested symbols. */
  children?: CompactSymbol[];
}

/**
 * The compact form of symbols, cut at `depth`.
 *
 * @param symbols Symbols.
 * @param depth Levels to keep (Infinity: all).
 * @returns Compact symbols.
 */
export function compactSymbols(symbols: SymbolInfo[], depth = Infinity): CompactSymbol[] {
  return symbols.map((s) => {
    const out: CompactSymbol = {
      name_path: s.name_path,
      kind: s.kind,
      start_line: s.full_range.start_line,
      end_line: s.full_range.end_line,
    };
    if (s.doc) out.doc = s.doc.split("\n")[0]!.slice(0, 160);
    if (s.children.length > 0 && depth > 1) out.children = compactSymbols(s.children, depth - 1);
    return out;
  });
}

function cut(symbols: SymbolInfo[], depth: number): SymbolInfo[] {
  return symbols.map((s) => ({ ...s, children: depth > 1 ? cut(s.children, depth - 1) : [] }));
}

/** The outline tool. */
export const outline: ToolDefinition<OutlineArgs> = {
  name: "outline",
  description:
    "List the definitions of a source file (classes, functions, methods, types, fields…) as a tree with their name paths (e.g. 'Class/method', usable by find_symbol, replace_symbol, remove_symbol, insert_code), kinds and lines. Works for every language graver has a grammar for; JSON/YAML/TOML list keys, CSS rules, HTML elements. Signatures and lines only: read a body with find_symbol (include_body) or read_file. Markdown files list their headings (kind heading, nested by level, each spanning its section): read a section with read_file. A file with no grammar is refused with unsupported_language: read it with read_file.",
  inputSchema: objectSchema({
    path: PATH,
    depth: { type: "integer", minimum: 1, description: "Levels to return (1: top level only; default: all)" },
    detail: {
      type: "string",
      enum: ["compact", "full"],
      description:
        "compact (default): name paths, kinds, lines; full: also UTF-16 and UTF-8 offsets, body ranges, docs",
    },
    max_symbols: {
      type: "integer",
      minimum: 1,
      description:
        `Most symbols to return (default ${MAX_SYMBOLS}); a bigger outline is cut level by level from the deepest`,
    },
  }, ["path"]),
  aliases: { max_results: "max_symbols" },
  kind: "read",
  mutates: false,
  resultData: shape({
    path: FILE_PATH,
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
  async handler(args, { workspace, stage }) {
    const { readOutline } = await markdownOutlineEngine();
    const rel = await stage.resolve(args.path);
    const file = await stage.readText(rel);
    const result = await readOutline(workspace, rel, {
      text: file.text,
      version: file.version,
      tool: "outline",
    });
    const asked = args.depth ?? Infinity;
    const max = args.max_symbols ?? MAX_SYMBOLS;
    const total = countTo(result.symbols, asked);
    let depth = asked;
    let top = result.symbols;
    const data: Record<string, unknown> = { path: rel, version: file.version, language: result.language };
    const warnings: string[] = [];
    if (total > max) {
      // Too many for one answer: keep the levels that fit, or the first top-level symbols when none does.
      depth = fittingDepth(result.symbols, asked, max);
      if (depth === 0) {
        depth = 1;
        top = result.symbols.slice(0, max);
      }
      const shown = countTo(top, depth);
      data["truncated"] = { total, shown, depth };
      warnings.push(
        `Showing ${shown} of ${total} symbols (${depth === 1 ? "top level" : `${depth} levels`}` +
          `${top.length < result.symbols.length ? `, first ${top.length}` : ""}): ask for one part with ` +
          `find_symbol (name_path "${
            top[0]?.name_path ?? "Name"
          }", include_body) or outline with depth, or raise max_symbols`,
      );
    }
    if (result.error_regions) {
      // A grammar that misreads the file loses the definitions there: say where, never list junk.
      data["error_regions"] = result.error_regions;
      warnings.push(unparsedWarning(rel, result.error_regions));
    }
    data["symbols"] = args.detail === "full" ? cut(top, depth) : compactSymbols(top, depth);
    // Signatures only: the ledger notes the outline, and no line counts as read.
    const shown = [{ path: rel, version: file.version, lines: [], outline: true }];
    return warnings.length > 0 ? { data, warnings, shown } : { data, shown };
  },
};
