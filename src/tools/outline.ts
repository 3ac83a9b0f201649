/**
 * outline: the definitions of a file as a tree of name paths, kinds and
 * lines (or, with detail "full", every range in UTF-16 and UTF-8 offsets).
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { unparsedWarning } from "../syntax/error_regions.ts";
import type { SymbolInfo } from "../syntax/symbols.ts";
import { markdownOutlineEngine } from "./_lazy.ts";
import { objectSchema, PATH } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";
import { FILE_PATH, INTEGER, shape, STRING, VERSION } from "./_result_schema.ts";
import { appendAll } from "../arrays.ts";

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
  /** Top-level symbols to skip: the next page of an outline cut to its first top-level symbols. */
  offset?: number;
  /** A name path: outline only what that definition holds (e.g. one class of a large file). */
  within?: string;
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
    "List the definitions of a source file (classes, functions, methods, types, fields…) as a tree with their name paths (e.g. 'Class/method', usable by find_symbol, replace_symbol, remove_symbol, insert_code), kinds and lines. Works for every language graver has a grammar for; JSON/YAML/TOML list keys, CSS rules, HTML elements. Signatures and lines only: read a body with find_symbol (include_body) or read_file. Markdown files list their headings (kind heading, nested by level, each spanning its section): read a section with read_file. A large outline is cut to max_symbols: page it with offset (next_offset), or outline one definition's members with within. A file with no grammar is refused with unsupported_language: read it with read_file.",
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
    offset: {
      type: "integer",
      minimum: 0,
      description: "Top-level symbols to skip (the next_offset of an outline cut to its first symbols)",
    },
    within: {
      type: "string",
      minLength: 1,
      description: 'Outline only inside this name path (e.g. "Router")',
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
    truncated: shape({ total: INTEGER, shown: INTEGER, next_offset: INTEGER }),
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
    const data: Record<string, unknown> = { path: rel, version: file.version, language: result.language };
    const symbols = args.within === undefined
      ? result.symbols
      : symbolsWithin(result.symbols, args.within, rel);
    const page = pageOf(symbols, args);
    const warnings: string[] = [];
    if (page.truncated) {
      data["truncated"] = page.truncated;
      warnings.push(pageWarning(page, symbols.length));
    }
    const { top, depth } = page;
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

/** One page of an outline: the top-level symbols shown, how deep, and what was left out. */
interface OutlinePage {
  top: SymbolInfo[];
  depth: number;
  truncated?: { total: number; shown: number; depth: number; next_offset?: number };
}

/**
 * The page an outline shows: every level asked for when it fits `max_symbols`; else the levels that fit;
 * else the top-level symbols from `offset`, `max_symbols` of them, with the offset of the next page.
 */
function pageOf(symbols: SymbolInfo[], args: OutlineArgs): OutlinePage {
  const asked = args.depth ?? Infinity;
  const max = args.max_symbols ?? MAX_SYMBOLS;
  const offset = args.offset ?? 0;
  const from = symbols.slice(offset);
  const total = countTo(from, asked);
  if (total <= max && offset === 0) return { top: symbols, depth: asked };
  let depth = total <= max ? asked : fittingDepth(from, asked, max);
  let top = from;
  if (depth === 0 || offset > 0) {
    depth = Math.max(1, Math.min(depth || 1, asked));
    top = from.slice(0, max);
  }
  const shown = countTo(top, depth);
  const next = offset + top.length < symbols.length ? offset + top.length : undefined;
  if (shown === total && next === undefined && offset === 0) return { top, depth };
  return {
    top,
    depth,
    truncated: { total, shown, depth, ...(next !== undefined ? { next_offset: next } : {}) },
  };
}

/** The warning of a cut outline: what is shown, and the calls that show the rest. */
function pageWarning(page: OutlinePage, topLevel: number): string {
  const t = page.truncated!;
  const next = t.next_offset !== undefined
    ? `; outline with offset ${t.next_offset} shows the next ${topLevel - t.next_offset} top-level symbols`
    : "";
  return `Showing ${t.shown} of ${t.total} symbols (${t.depth === 1 ? "top level" : `${t.depth} levels`}` +
    `${page.top.length < topLevel ? `, ${page.top.length} top-level` : ""})${next}: ask for one part with ` +
    `outline within "${
      page.top[0]?.name_path ?? "Name"
    }", find_symbol (include_body), depth, or raise max_symbols`;
}

/** The children of the definition `namePath` names, for an outline of one part of a file. */
function symbolsWithin(symbols: SymbolInfo[], namePath: string, rel: string): SymbolInfo[] {
  const stack = [...symbols];
  while (stack.length > 0) {
    const s = stack.pop()!;
    if (s.name_path === namePath) return s.children;
    appendAll(stack, s.children);
  }
  const near = symbols.map((s) => s.name_path).slice(0, 10);
  throw new RecoverableError("not_found", `"${rel}" has no definition "${namePath}" to outline within`, {
    hint: `Pass a name path the outline lists (top level: ${
      near.join(", ")
    }), or call outline without within`,
    details: { path: rel, within: namePath, top_level: near },
  });
}
