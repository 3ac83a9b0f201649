/**
 * Re-indentation of inserted and replacement code: strip the code's own
 * common indentation, then indent it for its destination (depth, tabs or
 * spaces, line endings).
 *
 * @module
 */

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
}

const BLANK = /^[ \t]*$/;
/** A line that opens a block or continues onto the next one. */
const OPENS = /(?:[{([:,=+\-*/|&?.]|=>|->|\b(?:do|then|else|begin|in))\s*$/;
/** A line that closes a block. */
const CLOSES = /^(?:[}\])]|end\b|fi\b|done\b|esac\b|endif\b|until\b)/;
/** A line that opens a nested block (the next line one unit deeper), as opposed to continuing an expression. */
const BLOCK_OPENS = /(?:[{([:]|=>|->|\b(?:do|then|else|begin))\s*$/;
/** A line that starts a comment, a decorator or an attribute (it sits at the level of what follows it). */
const ATTACHED = /^(?:\/\*|\/\/|#|--|<!--|@|\[)/;
/** The bracket that closes each opening one. */
const CLOSER: Record<string, string> = { "{": "}", "(": ")", "[": "]" };

function leading(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

function columns(ws: string, tabCols: number): number {
  let n = 0;
  for (const ch of ws) n += ch === "\t" ? tabCols : 1;
  return n;
}

/**
 * The indent unit of a text: `"\t"` when most indented lines start with a tab,
 * otherwise the most frequent indentation step in spaces.
 *
 * @param text Any source text.
 * @param fallback What to return when the text has no indentation (default 4 spaces).
 * @returns `"\t"` or a run of spaces.
 *
 * @example Detect two-space indentation
 * ```ts
 * import { detectIndentUnit } from "@graver/core";
 * import assert from "node:assert/strict";
 *
 * assert.equal(detectIndentUnit("a {\n  b {\n    c\n  }\n}\n"), "  ");
 * assert.equal(detectIndentUnit("a {\n\tb\n}\n"), "\t");
 * ```
 */
export function detectIndentUnit(text: string, fallback = "    "): string {
  return unitOf(text.split(/\r?\n/), fallback, 0);
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
 * The leading whitespace of the line that holds a UTF-16 offset.
 *
 * @param text The text.
 * @param offsetUtf16 Any offset on the line (0-based, UTF-16 code units).
 * @returns The run of spaces and tabs that starts the line.
 *
 * @example
 * ```ts
 * import { indentOfLine } from "@graver/core";
 * import assert from "node:assert/strict";
 *
 * const text = "class A {\n\tfoo() {}\n}\n";
 * assert.equal(indentOfLine(text, text.indexOf("foo")), "\t");
 * ```
 */
export function indentOfLine(text: string, offsetUtf16: number): string {
  const start = offsetUtf16 <= 0 ? 0 : text.lastIndexOf("\n", offsetUtf16 - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start, start + 256))![0];
}

/**
 * Re-indent code for a destination: strip its common leading indentation,
 * indent every non-empty line with `indent` plus its own relative depth
 * (converted from the code's indent unit to the destination `unit`), end every
 * line with `eol`, and leave blank lines empty.
 *
 * Code whose first line has no indentation while later lines do (the usual
 * shape of a snippet copied out of a nested body) is read as if the first line
 * had been indented: one level less than the next lines when it opens a block,
 * the closing line's indentation when the code ends with one, else the same.
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
  const keep = options.keepLines;
  const align = options.alignLines;
  const nonBlank: number[] = [];
  for (let i = 0; i < lines.length; i++) if (!BLANK.test(lines[i]!) && !keep?.has(i)) nonBlank.push(i);
  if (nonBlank.length === 0) return lines.map((l, i) => keep?.has(i) ? l : "").join(options.eol);
  const first = nonBlank[0]!;
  const rest = nonBlank.slice(1);
  const firstIsBare = leading(lines[first]!) === "" && rest.length > 0;
  // What the code's indent unit is: block openers say it best; else every step between lines (without the
  // lines that are alignment); with no step at all, the code is taken to be in the destination's unit.
  const voters = (firstIsBare ? rest : nonBlank).filter((i) => !align?.has(i));
  const srcUnit = blockUnit(lines, voters) ||
    (options.unit !== undefined && voters.length > 0 && blockUnit(lines, nonBlank) === "" &&
        !voters.some((i) => leading(lines[i]!).startsWith("\t") !== options.unit!.startsWith("\t"))
      ? options.unit
      : unitOf(voters.map((i) => lines[i]!), "", firstIsBare ? null : 0));
  const unitCols = srcUnit === "\t" ? 4 : srcUnit.length || 4;
  const tabCols = srcUnit === "\t" ? 4 : Math.max(unitCols, 4);
  const cols = lines.map((l) => columns(leading(l), tabCols));
  let firstCols = cols[first]!;
  const restMin = rest.length > 0 ? Math.min(...rest.map((i) => cols[i]!)) : Infinity;
  if (firstIsBare && restMin > 0) {
    const lastLine = lines[nonBlank[nonBlank.length - 1]!]!.trimStart();
    const firstText = lines[first]!.replace(/\s*(?:\/\/.*|#.*)?$/, "");
    const opener = firstText.slice(-1);
    if (ATTACHED.test(lines[first]!)) {
      // A doc comment or decorator sits at the level of the first line after it that is not a ` * ` line.
      const next = rest.find((i) => !/^\s*\*/.test(lines[i]!) && !align?.has(i));
      firstCols = next === undefined ? restMin : cols[next]!;
    } else if (CLOSES.test(lastLine) && (!(opener in CLOSER) || lastLine.startsWith(CLOSER[opener]!))) {
      firstCols = cols[nonBlank[nonBlank.length - 1]!]!;
    } else if (OPENS.test(firstText)) firstCols = Math.max(0, restMin - unitCols);
    else firstCols = restMin;
  }
  const base = Math.min(firstCols, restMin);
  const unit = options.unit ??
    (options.indent.includes("\t")
      ? "\t"
      : srcUnit === "\t" || srcUnit === ""
      ? (options.indent ? "    " : "\t")
      : srcUnit);
  // Same unit on both sides: move every line by the same columns and keep the rest of its whitespace as written.
  const uniform = srcUnit !== "" && srcUnit === unit;
  // Whitespace-only lines are emptied, unless nothing moves (then the code's lines stay exactly as written).
  const still = uniform && columns(options.indent, tabCols) === base;
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
    const kept = uniform && !(i === first && firstIsBare) ? dropColumns(leading(line), base, tabCols) : null;
    if (kept !== null) {
      out.push(options.indent + kept + body);
      continue;
    }
    const rel = (i === first ? firstCols : cols[i]!) - base;
    const depth = Math.floor(rel / unitCols);
    const pad = unit.repeat(depth) + " ".repeat(rel % unitCols);
    out.push(options.indent + pad + body);
  }
  return out.join(options.eol);
}
