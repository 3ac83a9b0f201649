/**
 * Re-indentation of inserted and replacement code: strip the code's own
 * common indentation, then indent it for its destination (depth, tabs or
 * spaces, line endings).
 *
 * @module
 */
import { columnsOf } from "../../fs/lines.ts";
import { minOf } from "../../arrays.ts";

/** The leading whitespace of the line holding an offset; the one definition lives with the other line helpers. */
export { indentOfLine } from "../../fs/lines.ts";

/** Options of {@linkcode reindent}. */
export interface ReindentOptions {
  /** Indentation of the destination's depth-0 line (e.g. the line the new code sits on). */
  indent: string;
  /** Line ending of every output line. */
  eol: "\n" | "\r\n";
  /** The destination's indent unit ("\t" or N spaces); default: a tab when `indent` has one, else the code's own unit. */
  unit?: string;
  /** Whether to put `indent` before the first line (default true; false when the code continues a line). */
  indentFirstLine?: boolean;
  /** 0-based lines to keep byte for byte (continuation lines of multi-line strings: their spaces are data). */
  keepLines?: ReadonlySet<number>;
  /**
   * 0-based lines that move with the code but do not say what its indent unit
   * is (continuation lines of docstrings, whose indentation is alignment).
   */
  alignLines?: ReadonlySet<number>;
  /**
   * The column a first line written without indentation stands for, when the
   * caller knows it (the code replaces text whose later lines sit where the
   * code's do: it was copied from there).
   */
  firstColumn?: number;
  /** The code's indent unit when the caller knows it (text bound from the same file): not read from the code. */
  codeUnit?: string;
}

const BLANK = /^[ \t]*$/;
/** A line that opens a block or continues onto the next one. */
const OPENS = /(?:[{([:,=+\-*/|&?.]|=>|->|\b(?:do|then|else|begin|in))\s*$/;
const CLOSES = /^(?:[}\])]|end\b|fi\b|done\b|esac\b|endif\b|until\b)/;

/**
 * Whether a line (its indentation stripped) closes the enclosing block: a
 * closing bracket, or `end`, `fi`, `done`, `esac`, `endif`, `until`.
 *
 * @param line A line without its leading whitespace.
 * @returns True when the line starts with a block closer.
 */
export function closesBlock(line: string): boolean {
  return CLOSES.test(line);
}
/** A line that opens a nested block (the next line one unit deeper), as opposed to continuing an expression. */
const BLOCK_OPENS = /(?:[{:]|\b(?:do|then|else|begin))\s*$/;
/** A line that starts a comment, a decorator or an attribute (it sits at the level of what follows it). */
const ATTACHED = /^(?:\/\*|\/\/|#|--|<!--|@|\[)/;
/** The bracket that closes each opening one. */
const CLOSER: Record<string, string> = { "{": "}", "(": ")", "[": "]" };

function leading(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

/** The characters of a text its indent unit is read from: thousands of lines, past which more say nothing new. */
const INDENT_SAMPLE_CHARS = 256 * 1024;

/** The start of a long text up to a line end within {@linkcode INDENT_SAMPLE_CHARS} (a short text whole). */
function sampleOf(text: string): string {
  if (text.length <= INDENT_SAMPLE_CHARS) return text;
  const end = text.lastIndexOf("\n", INDENT_SAMPLE_CHARS);
  return text.slice(0, end > 0 ? end : INDENT_SAMPLE_CHARS);
}

/**
 * The indent unit of a text (of its first 256 KiB, for a longer one): `"\t"` when most indented lines start with a tab,
 * otherwise the most frequent indentation step in spaces.
 *
 * @param text Any source text.
 * @param fallback What to return when the text has no indentation (default 4 spaces).
 * @returns `"\t"` or a run of spaces.
 *
 * @example Detect two-space indentation
 * ```ts
 * import { detectIndentUnit } from "@graver/core/structural";
 * import assert from "node:assert/strict";
 *
 * assert.equal(detectIndentUnit("a {\n  b {\n    c\n  }\n}\n"), "  ");
 * assert.equal(detectIndentUnit("a {\n\tb\n}\n"), "\t");
 * ```
 */
export function detectIndentUnit(text: string, fallback = "    "): string {
  const lines = sampleOf(text).split(/\r?\n/);
  const indices: number[] = [];
  for (let i = 0; i < lines.length; i++) if (!BLANK.test(lines[i]!)) indices.push(i);
  return blockUnit(lines, indices) || unitOf(lines, fallback, 0);
}

function unitOf(lines: string[], fallback: string, start: number | null): string {
  let tabs = 0;
  let spaces = 0;
  const steps = new Map<number, number>();
  let prev = start;
  let minIndent = Infinity;
  for (const line of lines) {
    if (BLANK.test(line)) continue;
    const ws = leading(line);
    if (ws.startsWith("\t")) tabs++;
    else if (ws.length > 0) {
      // ` * doc` lines of block comments are alignment, not indentation.
      if (ws.length % 2 === 1 && line[ws.length] === "*") continue;
      spaces++;
    }
    if (ws.startsWith("\t")) continue;
    const cols = ws.length;
    if (prev !== null && cols !== prev) {
      const step = Math.abs(cols - prev);
      steps.set(step, (steps.get(step) ?? 0) + 1);
    }
    if (cols > 0) minIndent = Math.min(minIndent, cols);
    prev = cols;
  }
  if (tabs > spaces) return "\t";
  if (spaces === 0) return tabs > 0 ? "\t" : fallback;
  let best = 0;
  let bestCount = 0;
  for (const [step, count] of steps) {
    if (step === 1 && steps.size > 1) continue;
    if (count > bestCount || (count === bestCount && step < best)) {
      best = step;
      bestCount = count;
    }
  }
  if (best === 0) best = Number.isFinite(minIndent) ? minIndent : fallback.length;
  return " ".repeat(Math.min(best, 8));
}

/**
 * The indent unit shown by block openers: the step from a line that opens a
 * block to the deeper line after it (continuation lines aligned under an
 * opening parenthesis or after a `\` say nothing). "" when no line shows it.
 */
function blockUnit(lines: string[], indices: number[]): string {
  const steps = new Map<number, number>();
  let tabs = 0;
  for (let k = 0; k + 1 < indices.length; k++) {
    const line = lines[indices[k]!]!;
    const next = lines[indices[k + 1]!]!;
    if (!BLOCK_OPENS.test(line.replace(/\s*(?:\/\/.*|#.*)?$/, ""))) continue;
    const a = leading(line);
    const b = leading(next);
    if (b.length <= a.length || !b.startsWith(a)) continue;
    const step = b.slice(a.length);
    if (/^\t+$/.test(step)) tabs++;
    else if (/^ +$/.test(step)) steps.set(step.length, (steps.get(step.length) ?? 0) + 1);
  }
  let best = 0;
  let bestCount = 0;
  for (const [step, count] of steps) {
    if (count > bestCount || (count === bestCount && step < best)) {
      best = step;
      bestCount = count;
    }
  }
  if (tabs > bestCount) return "\t";
  return best === 0 ? "" : " ".repeat(Math.min(best, 8));
}

/** `ws` without its first `cols` columns, or null when no character boundary falls there. */
function dropColumns(ws: string, cols: number, tabCols: number): string | null {
  let n = 0;
  let k = 0;
  while (n < cols && k < ws.length) n += ws[k++] === "\t" ? tabCols : 1;
  return n === cols ? ws.slice(k) : null;
}

/**
 * The smallest indentation (in columns, a tab counting 4) of the non-blank
 * lines after the first one of a text; null when there are none.
 *
 * @param text Any text.
 * @returns Columns, or null.
 */
export function laterLinesIndent(text: string): number | null {
  const lines = text.split(/\r?\n/).filter((l) => !BLANK.test(l)).slice(1);
  return lines.length === 0 ? null : minOf(lines.map((l) => columnsOf(leading(l), 4)));
}

/**
 * Whether code reads as copied from a text: its later lines sit as far in as
 * the text's later lines ({@linkcode laterLinesIndent}), and each of its lines
 * that the text also has (same content) starts with whitespace the text gives
 * that line — so the same code in another indent unit does not count.
 *
 * @param code Code to place.
 * @param text The text it replaces.
 * @returns True when the code keeps the text's indentation.
 */
export function copiedFrom(code: string, text: string): boolean {
  const later = laterLinesIndent(code);
  if (later === null || later !== laterLinesIndent(text)) return false;
  const leads = new Map<string, Set<string>>();
  for (const l of text.split(/\r?\n/)) {
    const key = l.trim();
    if (key === "") continue;
    let set = leads.get(key);
    if (!set) leads.set(key, set = new Set());
    set.add(leading(l));
  }
  let agree = 0;
  for (const l of code.split(/\r?\n/).slice(1)) {
    const known = leads.get(l.trim());
    if (l.trim() === "" || !known) continue;
    if (!known.has(leading(l))) return false;
    if (leading(l) !== "") agree++; // a line at column 0 says nothing about the indentation
  }
  return agree > 0;
}

/**
 * Re-indent code for a destination: strip its common leading indentation,
 * indent every non-empty line with `indent` plus its own relative depth, end
 * every line with `eol`, and leave blank lines empty.
 *
 * The code's indent unit is read from its block openers (`{`, `:`, `do` …),
 * not from alignment or comment/docstring text (`alignLines`); with none, it
 * is taken to be the destination's. When it is the destination's `unit`, every
 * line moves by the same columns and keeps the rest of its whitespace byte for
 * byte; only code in another unit is converted level by level. Lines inside
 * multi-line strings (`keepLines`) are never touched.
 *
 * Code whose first line has no indentation while later lines do (the usual
 * shape of a snippet copied out of a nested body) is read as if the first line
 * had been indented: at `firstColumn` when the caller knows it (the code was
 * copied from where it goes: then nothing changes at all), at the level of the
 * definition below a leading doc comment or decorator, at the closing line's
 * level when the code ends with the closer of its block, one level less than
 * the next lines when it opens a block, else at their level.
 *
 * @param code The code to place.
 * @param options Destination indentation, line ending, unit.
 * @returns The re-indented code (a final newline is kept if the code had one).
 *
 * @example Move a two-space snippet into a tab-indented method body
 * ```ts
 * import { reindent } from "@graver/core";
 * import assert from "node:assert/strict";
 *
 * const out = reindent("if (x) {\n  y();\n}\n", { indent: "\t\t", eol: "\n", unit: "\t" });
 * assert.equal(out, "\t\tif (x) {\n\t\t\ty();\n\t\t}\n");
 * ```
 */
export function reindent(code: string, options: ReindentOptions): string {
  const lines = code.split(/\r?\n/);
  const copied = copiedInPlace(lines, options);
  if (copied !== null) return copied;
  const keep = options.keepLines;
  const nonBlank: number[] = [];
  for (let i = 0; i < lines.length; i++) if (!BLANK.test(lines[i]!) && !keep?.has(i)) nonBlank.push(i);
  if (nonBlank.length === 0) return lines.map((l, i) => keep?.has(i) ? l : "").join(options.eol);
  const shape = codeShape(lines, nonBlank, options);
  const start = firstLineStart(shape, options);
  const srcUnit = sourceUnit(shape, { ...start, options });
  const layout = layoutOf(shape, { srcUnit, firstKnown: start.firstKnown, options });
  return placeLines(shape, layout, options);
}

/**
 * Code copied from where it goes (its first line at the column it stands for): nothing moves, nothing
 * is converted, whatever mix of tabs and spaces it holds. Null when the code is not such a copy.
 */
function copiedInPlace(lines: string[], options: ReindentOptions): string | null {
  if (
    options.firstColumn !== undefined && columnsOf(options.indent, 4) === options.firstColumn &&
    lines.length > 1 && leading(lines[0]!) === ""
  ) {
    return lines.map((l, i) => i === 0 && options.indentFirstLine !== false ? options.indent + l : l).join(
      options.eol,
    );
  }
  return null;
}

/** The code's lines and which of them say where it is indented. */
interface CodeShape {
  lines: string[];
  /** Non-blank lines not kept byte for byte. */
  nonBlank: number[];
  /** The first of them. */
  first: number;
  /** The others. */
  rest: number[];
  /** Lines of code after the first (not comment or string text). */
  codeLines: number[];
  /** The first line is written without indentation, with lines after it. */
  firstIsBare: boolean;
  /** A line's indentation in columns (tabs as 4). */
  width: (i: number) => number;
  /** The least indentation of the lines after the first. */
  restMin: number;
}

/** Read the shape of the code's non-blank lines. */
function codeShape(lines: string[], nonBlank: number[], options: ReindentOptions): CodeShape {
  const align = options.alignLines;
  const first = nonBlank[0]!;
  const rest = nonBlank.slice(1);
  const codeLines = rest.filter((i) => !align?.has(i));
  const firstIsBare = leading(lines[first]!) === "" && rest.length > 0;
  const width = (i: number) => columnsOf(leading(lines[i]!), 4);
  const restMin = minOf(rest.map(width));
  return { lines, nonBlank, first, rest, codeLines, firstIsBare, width, restMin };
}

/**
 * Where a bare first line really starts, when that does not depend on the unit (null when it does),
 * and whether the last line closes the block the first line opens.
 */
function firstLineStart(
  { lines, nonBlank, first, codeLines, firstIsBare, width, restMin }: CodeShape,
  options: ReindentOptions,
): { firstKnown: number | null; closedAtEnd: boolean } {
  let firstKnown: number | null = firstIsBare ? null : width(first);
  let opensBlock = false;
  let closedAtEnd = false; // the last line closes the block the first line opens
  if (firstIsBare) {
    const lastLine = lines[nonBlank[nonBlank.length - 1]!]!.trimStart();
    const firstText = lines[first]!.replace(/\s*(?:\/\/.*|#.*)?$/, "");
    const closer = lastLine[0] ?? "";
    opensBlock = OPENS.test(firstText);
    closedAtEnd = closesBlock(lastLine) &&
      (!"})]".includes(closer) || CLOSER[firstText.slice(-1)] === closer);
    if (options.firstColumn !== undefined) firstKnown = options.firstColumn;
    else if (restMin === 0) firstKnown = 0;
    else if (ATTACHED.test(lines[first]!)) {
      // A doc comment or decorator sits at the level of the first line after it that is not a ` * ` line.
      const next = codeLines.find((i) => !/^\s*\*/.test(lines[i]!));
      firstKnown = next === undefined ? restMin : width(next);
    } else if (closedAtEnd) firstKnown = width(nonBlank[nonBlank.length - 1]!); // the line closing its block
    else if (!opensBlock) firstKnown = restMin;
  }
  return { firstKnown, closedAtEnd };
}

/** The code's indent unit: block openers say it best; with none, the destination's unit when it fits. */
function sourceUnit(
  { lines, first, codeLines, firstIsBare, width, restMin }: CodeShape,
  { firstKnown, closedAtEnd, options }: {
    firstKnown: number | null;
    closedAtEnd: boolean;
    options: ReindentOptions;
  },
): string {
  let srcUnit = options.codeUnit ?? blockUnit(lines, firstIsBare ? codeLines : [first, ...codeLines]);
  const firstOpens = BLOCK_OPENS.test(lines[first]!) || closedAtEnd;
  if (srcUnit === "" && firstIsBare && firstKnown !== null && codeLines.length > 0 && firstOpens) {
    // The shallowest line inside the block (its closing line aside) is one unit in.
    const inside = closedAtEnd && codeLines.length > 1 ? codeLines.slice(0, -1) : codeLines;
    // (Lines no deeper than the first — C preprocessor lines, labels — say nothing.)
    const deeper = inside.map(width).filter((w) => w > firstKnown);
    const step = deeper.length > 0 ? minOf(deeper) - firstKnown : 0;
    if (step > 0) {
      srcUnit = leading(lines[inside[0]!]!).startsWith("\t") ? "\t" : " ".repeat(Math.min(step, 8));
    }
  }
  if (srcUnit === "" && options.unit !== undefined) {
    const tabbed = options.unit.startsWith("\t");
    const consistent = codeLines.every((i) =>
      leading(lines[i]!) === "" || leading(lines[i]!).startsWith("\t") === tabbed
    );
    // A bare first line opening a block over lines less indented than one destination unit: the code's own unit.
    const fits = firstKnown !== null || restMin >= columnsOf(options.unit, 4);
    if (consistent && fits) srcUnit = options.unit;
  }
  if (srcUnit === "") srcUnit = unitOf(codeLines.map((i) => lines[i]!), "", firstIsBare ? null : 0);
  return srcUnit;
}

/** How the code's columns map to the destination's. */
interface Layout {
  /** Columns of one source unit. */
  unitCols: number;
  /** Columns a tab counts for. */
  tabCols: number;
  /** Each line's indentation in columns. */
  cols: number[];
  /** The first line's column. */
  firstCols: number;
  /** The column that lands at the destination indent. */
  base: number;
  /** The destination unit. */
  unit: string;
  /** Same unit on both sides: every line moves by the same columns, its other whitespace kept. */
  uniform: boolean;
  /** Nothing moves: whitespace-only lines stay as written. */
  still: boolean;
}

/** The columns of each line, the base column and the destination unit. */
function layoutOf(
  { lines, first, rest, firstIsBare, restMin }: CodeShape,
  { srcUnit, firstKnown, options }: { srcUnit: string; firstKnown: number | null; options: ReindentOptions },
): Layout {
  const unitCols = srcUnit === "\t" ? 4 : srcUnit.length || 4;
  const tabCols = srcUnit === "\t" ? 4 : Math.max(unitCols, 4);
  const cols = lines.map((l) => columnsOf(leading(l), tabCols));
  const firstCols = firstKnown !== null
    ? (firstIsBare || tabCols === 4 ? firstKnown : cols[first]!)
    : Math.max(0, restMin - unitCols);
  const base = Math.min(firstCols, minOf(rest.map((i) => cols[i]!)));
  const unit = options.unit ??
    (options.indent.includes("\t")
      ? "\t"
      : srcUnit === "\t" || srcUnit === ""
      ? (options.indent ? "    " : "\t")
      : srcUnit);
  // Same unit on both sides: move every line by the same columns and keep the rest of its whitespace as written.
  const uniform = srcUnit === unit;
  // Whitespace-only lines are emptied, unless nothing moves (then the code's lines stay exactly as written).
  const still = uniform && columnsOf(options.indent, tabCols) === base;
  return { unitCols, tabCols, cols, firstCols, base, unit, uniform, still };
}

/** Write each line at its new indentation. */
function placeLines(
  { lines, first, firstIsBare }: CodeShape,
  { unitCols, tabCols, cols, firstCols, base, unit, uniform, still }: Layout,
  options: ReindentOptions,
): string {
  const keep = options.keepLines;
  const align = options.alignLines;
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (keep?.has(i)) {
      out.push(line);
      continue;
    }
    if (BLANK.test(line)) {
      out.push(still ? line : "");
      continue;
    }
    const body = line.slice(leading(line).length);
    if (i === first && options.indentFirstLine === false) {
      out.push(body);
      continue;
    }
    // Comment and docstring text moves with the code, its own spacing untouched.
    const moved = (uniform || align?.has(i)) && !(i === first && firstIsBare)
      ? dropColumns(leading(line), base, tabCols)
      : null;
    if (moved !== null) {
      out.push(options.indent + moved + body);
      continue;
    }
    const rel = (i === first ? firstCols : cols[i]!) - base;
    const depth = Math.floor(rel / unitCols);
    const pad = unit.repeat(depth) + " ".repeat(rel % unitCols);
    out.push(options.indent + pad + body);
  }
  return out.join(options.eol);
}
