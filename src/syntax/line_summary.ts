/**
 * What a span of lines contains, for a reader who was not shown it: the
 * outermost definitions that start there (kind, name path, line), from the
 * tree-sitter outline. Files with no grammar (or no symbol query) get a
 * clearly labelled regex guess instead. `read_file` puts this in the notice of
 * a capped read: `[Lines 401–680 not shown — contains: function handleAuth()
 * L401, class TokenCache L590]`.
 *
 * @module
 */
import { isRecoverable } from "../errors.ts";
import { forEachLine } from "../fs/lines.ts";
import { splitNamePath, symbolLabel } from "./name_path.ts";
import { outlineOf } from "./symbols.ts";
import type { Parsing, SymbolInfo } from "./types.ts";

/** One definition in a span. */
export interface SpanSymbol {
  /** Kind (function, class, method …; "definition" for a regex guess). */
  kind: string;
  /** Name path (`Class/method`), usable by find_symbol. */
  name_path: string;
  /** Line of the definition itself (1-based). */
  line: number;
  /** Last line of the definition (absent for a regex guess). */
  end_line?: number;
}

/** What a span of lines contains. */
export interface SpanSummary {
  /**
   * "outline" (exact, from the grammar), "regex" (a guess: no grammar for this code file) or "none" (no
   * grammar, and prose or data where a keyword guess would mislead).
   */
  method: "outline" | "regex" | "none";
  /** The outermost definitions starting in the span, in order (at most `max`). */
  symbols: SpanSymbol[];
  /** How many more were left out of `symbols`. */
  more: number;
  /** The definition the span starts inside, when it starts in the middle of one. */
  inside?: SpanSymbol;
  /** Why a file with a grammar was guessed at ("too large to parse"); absent otherwise. */
  unparsed?: string;
}

/**
 * The regex guess over the span's lines, taken from `file.lines` or read from the text one at a time: the
 * first `max` definitions, and how many there are in all.
 */
function guessInSpan(
  file: { text: string; lines?: readonly string[] },
  span: { start: number; end: number },
  max: number,
): { symbols: SpanSymbol[]; count: number } {
  if (file.lines) {
    const all = guessDefinitions(file.lines, span.start, span.end);
    return { symbols: all.slice(0, max), count: all.length };
  }
  const symbols: SpanSymbol[] = [];
  let count = 0;
  forEachLine(file.text, span, (line, n) => {
    const guess = guessLine(line, n);
    if (guess && count++ < max) symbols.push(guess);
  });
  return { symbols, count };
}

/** Most symbols a summary lists. */
export const MAX_SPAN_SYMBOLS = 40;

const CALLABLE = new Set(["function", "method", "constructor"]);

function spanSymbol(s: SymbolInfo): SpanSymbol {
  return { kind: s.kind, name_path: s.name_path, line: s.range.start_line, end_line: s.range.end_line };
}

/** The outermost symbols whose definition line lies in [start, end], and the one the span starts inside. */
function collect(
  symbols: SymbolInfo[],
  start: number,
  end: number,
  out: SpanSymbol[],
  box: { inside?: SpanSymbol },
): void {
  for (const s of symbols) {
    const line = s.range.start_line;
    if (line > end) break;
    if (line >= start) out.push(spanSymbol(s));
    else if (s.full_range.end_line >= start) {
      box.inside = spanSymbol(s);
      collect(s.children, start, end, out, box);
    }
  }
}

/** Files where a keyword guess would read prose or data as code: they get no guess at all. */
const NO_GUESS = /\.(?:md|markdown|mdx|txt|text|rst|adoc|org|log|csv|tsv|xml|svg|lock)$/i;

// A guess for files with no grammar: the seed's keywords, at the start of a line.
const GUESS =
  /^\s*(?:export\s+)?(?:default\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(function|class|interface|type|def|fn|func|struct|enum|trait|module|sub)\s+([A-Za-z_$][\w$]*)/;

/**
 * Guess the definitions of a span with a regex (no grammar). Labelled as a
 * guess wherever it is shown.
 *
 * @param lines The file's lines.
 * @param start First line of the span.
 * @param end Last line.
 * @returns The definitions guessed, in order.
 */
export function guessDefinitions(lines: readonly string[], start: number, end: number): SpanSymbol[] {
  const out: SpanSymbol[] = [];
  for (let n = start; n <= Math.min(end, lines.length); n++) {
    const guess = guessLine(lines[n - 1]!, n);
    if (guess) out.push(guess);
  }
  return out;
}

/** The definition line `n` looks like it starts (the regex guess), or null. */
function guessLine(line: string, n: number): SpanSymbol | null {
  const m = GUESS.exec(line);
  if (!m) return null;
  return {
    kind: m[1] === "def" || m[1] === "fn" || m[1] === "func" ? "function" : m[1]!,
    name_path: m[2]!,
    line: n,
  };
}

/**
 * What lines `start`..`end` of a file contain: the outermost definitions
 * starting there, from the outline when the file has a grammar, else a
 * regex guess (`method: "regex"`).
 *
 * @param ws Grammars and parse cache.
 * @param rel Relative path.
 * @param request The file's text (BOM excluded), version and, when the caller has them, its lines
 *   (`file`); the lines to summarise (`span`, 1-based, inclusive); the most symbols to list (`max`).
 * @returns The summary.
 */
export async function summarizeSpan(
  ws: Parsing,
  rel: string,
  request: {
    file: { text: string; version: string; lines?: readonly string[] };
    span: { start: number; end: number };
    max?: number;
  },
): Promise<SpanSummary> {
  const { file, span, max = MAX_SPAN_SYMBOLS } = request;
  let found: { symbols: SpanSymbol[]; count: number };
  let method: SpanSummary["method"] = "outline";
  let unparsed: string | undefined;
  const box: { inside?: SpanSymbol } = {};
  try {
    const outline = await outlineOf(ws, rel, { text: file.text, version: file.version });
    const all: SpanSymbol[] = [];
    collect(outline.symbols, span.start, span.end, all, box);
    found = { symbols: all.slice(0, max), count: all.length };
  } catch (err) {
    // No grammar, or a file over the parse limit: guess from the lines of the span alone.
    const tooLarge = isRecoverable(err, "limit_exceeded");
    if (!tooLarge && !isRecoverable(err, "unsupported_language")) throw err;
    method = NO_GUESS.test(rel) && !tooLarge ? "none" : "regex";
    found = method === "regex" ? guessInSpan(file, span, max) : { symbols: [], count: 0 };
    if (tooLarge) unparsed = "too large to parse";
  }
  const out: SpanSummary = { method, symbols: found.symbols, more: Math.max(0, found.count - max) };
  if (unparsed) out.unparsed = unparsed;
  if (box.inside) out.inside = box.inside;
  return out;
}

/**
 * One symbol as a notice shows it: `function handleAuth() L401`.
 *
 * @param s The symbol.
 * @returns The text.
 */
export function describeSpanSymbol(s: SpanSymbol): string {
  return `${symbolLabel(s.kind, s.name_path)}${CALLABLE.has(s.kind) ? "()" : ""} L${s.line}`;
}

/** A member as its container's group lists it: `run() L12` for a callable, `field port L9` otherwise. */
function describeMember(s: SpanSymbol, name: string): string {
  return `${CALLABLE.has(s.kind) ? `${name}()` : symbolLabel(s.kind, name)} L${s.line}`;
}

/**
 * The symbols of a span as a notice lists them: top-level ones one by one,
 * members grouped under their container, named once (`impl<…> Sink for W:
 * matched() L700, context() L750`), not repeated before every member.
 *
 * @param symbols The symbols, in order.
 * @returns One text per run of symbols sharing a container (top-level ones too, by comma).
 *
 * @example
 * ```ts
 * import { groupSpanSymbols } from "./line_summary.ts";
 * import assert from "node:assert/strict";
 *
 * const parts = groupSpanSymbols([
 *   { kind: "method", name_path: "impl<W> Sink for S<W>/matched", line: 700 },
 *   { kind: "method", name_path: "impl<W> Sink for S<W>/context", line: 750 },
 *   { kind: "module", name_path: "tests", line: 900 },
 * ]);
 * assert.deepEqual(parts, ["impl<W> Sink for S<W>: matched() L700, context() L750", "module tests L900"]);
 * ```
 */
export function groupSpanSymbols(symbols: readonly SpanSymbol[]): string[] {
  const groups: { parent: string; members: string[] }[] = [];
  for (const s of symbols) {
    const [parent, name] = splitNamePath(s.name_path);
    const text = parent === "" ? describeSpanSymbol(s) : describeMember(s, name);
    const last = groups[groups.length - 1];
    if (last && last.parent === parent) last.members.push(text);
    else groups.push({ parent, members: [text] });
  }
  return groups.map((g) => `${g.parent === "" ? "" : `${g.parent}: `}${g.members.join(", ")}`);
}

/**
 * The notice for lines left out of a read.
 *
 * @param span The lines left out.
 * @param summary What they contain.
 * @returns `[Lines 401–680 not shown — contains: function handleAuth() L401, …]`.
 *
 * @example
 * ```ts
 * import { omittedNotice } from "./line_summary.ts";
 * import assert from "node:assert/strict";
 *
 * const text = omittedNotice({ start: 401, end: 680 }, {
 *   method: "outline",
 *   symbols: [{ kind: "function", name_path: "handleAuth", line: 401 }, { kind: "class", name_path: "TokenCache", line: 590 }],
 *   more: 0,
 * });
 * assert.equal(text, "[Lines 401–680 not shown — contains: function handleAuth() L401, class TokenCache L590]");
 * ```
 */
export function omittedNotice(span: { start: number; end: number }, summary: SpanSummary): string {
  const lines = span.start === span.end ? `Line ${span.start}` : `Lines ${span.start}–${span.end}`;
  const parts = groupSpanSymbols(summary.symbols);
  const more = summary.more > 0 ? `, and ${summary.more} more` : "";
  const inside = summary.inside ? ` (continues ${describeSpanSymbol(summary.inside)})` : "";
  const label = summary.method === "regex"
    ? `contains (regex guess, ${summary.unparsed ?? "no grammar for this file"})`
    : "contains";
  const body = summary.method === "none"
    ? "no grammar for this file: read them to see what they hold"
    : parts.length > 0
    ? `${label}: ${parts.join("; ")}${more}`
    : "no definitions start there";
  return `[${lines} not shown${inside} — ${body}]`;
}
