/**
 * Generated text that lands inside a Python f-string's replacement field:
 * text that opens with `{` at the field's start gets a space (`{{`
 * would be an escaped brace, in every version), and before Python 3.12 (PEP 701) a field may not reuse an enclosing
 * f-string's quote, hold a backslash or a comment. When the project declares
 * an older Python, a string literal in the text that reuses such a quote is
 * re-quoted with one no enclosing f-string uses; when none is left (or the
 * text holds a backslash or a comment) the generator refuses, naming the
 * declared version.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { profileOf } from "../../languages/profiles.ts";
import type { SourceFile, TextEdit } from "./source.ts";
import { allows, type DeclaredVersion, SYNTAX_SINCE, type SyntaxFeature, tooNew } from "./target_version.ts";

/** An f-string's delimiter: its quote character and whether it is tripled. */
interface Delimiter {
  quote: string;
  triple: boolean;
}

/** A string literal found in generated text. */
interface Literal {
  /** Offset of the opening quote (after any prefix letters). */
  open: number;
  /** Offset just past the closing quote. */
  end: number;
  prefix: string;
  quote: string;
  triple: boolean;
}

/** Why an edit cannot be written for the declared version. */
export interface FieldProblem {
  /** The edit's start offset. */
  at: number;
  /** One clause naming the syntax, the version it needs and the declaration. */
  reason: string;
}

/**
 * Fit each edit that lands in an f-string replacement field to the declared
 * Python version: below 3.12, or with nothing declared, re-quote the string
 * literals that would close an enclosing f-string (the result is valid in
 * every version). An edit that cannot be re-quoted (no quote left, a
 * backslash, a comment) is kept when nothing is declared, and is a problem
 * when an older version is. Edits outside replacement fields are kept.
 *
 * @param file The Python file the edits apply to (its tree is the text before them).
 * @param edits The generator's edits.
 * @param declared The project's declared Python version, or null.
 * @returns The fitted edits, or the first problem when one cannot be fitted.
 */
export function fitFStringFields(
  file: Pick<SourceFile, "language" | "tree">,
  edits: TextEdit[],
  declared: DeclaredVersion | null,
): { edits: TextEdit[] } | { problem: FieldProblem } {
  // Only a language whose version decides whether a field may reuse the string's quote has such fields.
  if (profileOf(file.language).targetVersion?.syntax.fstring_quote_reuse === undefined) return { edits };
  // A project on 3.12 or later keeps the text as written; with no declaration it is made portable.
  const modern = declared !== null && allows(declared, SYNTAX_SINCE.python.fstring_quote_reuse);
  const out: TextEdit[] = [];
  for (const given of edits) {
    const node = file.tree.rootNode.descendantForIndex(given.start, given.end);
    const enclosing = enclosingFStrings(node);
    if (enclosing.length === 0) {
      out.push(given);
      continue;
    }
    const edit = braceSafe(given, node);
    if (modern) {
      out.push(edit);
      continue;
    }
    const fitted = fitText(edit.text, enclosing);
    if (typeof fitted === "string") {
      out.push({ ...edit, text: fitted });
      continue;
    }
    if (allows(declared, fitted)) {
      out.push(edit);
      continue;
    }
    return { problem: { at: edit.start, reason: tooNew(declared!, fitted) } };
  }
  return { edits: out };
}

/**
 * Text that is not an expression where it lands, in any version: opening
 * with `{` right after the field's own `{` makes `{{`, an escaped brace (the
 * field would become literal text), so a space goes first; a lambda as the
 * field's whole expression would start a format spec at its `:`, so it is
 * parenthesised.
 */
function braceSafe(edit: TextEdit, node: Node | null): TextEdit {
  let field = node;
  while (field && field.type !== "interpolation") field = field.parent;
  if (!field) return edit;
  const expression = field.childForFieldName("expression");
  const whole = expression !== null && edit.start === expression.startIndex &&
    edit.end === expression.endIndex;
  if (whole && /^lambda\b/.test(edit.text)) return { ...edit, text: `(${edit.text})` };
  if (!edit.text.startsWith("{") || edit.start !== field.startIndex + 1) return edit;
  return { ...edit, text: ` ${edit.text}` };
}

/**
 * The PEP 701 syntax a subtree of a Python file uses: a string in an
 * f-string field that reuses an enclosing f-string's quote, a backslash or a
 * comment in a field.
 *
 * @param node The subtree (its ancestors give the enclosing f-strings).
 * @returns The features found (each once).
 */
export function fstringNeeds(node: Node): SyntaxFeature[] {
  const py = SYNTAX_SINCE.python;
  const found = new Set<SyntaxFeature>();
  const visit = (n: Node, inField: boolean): void => {
    if (n.type === "string" && inField) {
      const own = delimiterOf(n);
      const closes = (d: Delimiter) => own !== null && d.quote === own.quote && (!d.triple || own.triple);
      if (enclosingFStrings(n).some(closes)) found.add(py.fstring_quote_reuse);
    }
    if (n.type === "interpolation" && n.text.includes("\\")) found.add(py.fstring_backslash);
    if (n.type === "comment" && inField) found.add(py.fstring_comment);
    for (const c of n.children) if (c) visit(c, inField || n.type === "interpolation");
  };
  let inField = false;
  for (let a = node.parent; a && !inField; a = a.parent) inField = a.type === "interpolation";
  visit(node, inField);
  return [...found];
}

/** A string node's delimiter (null when its start token is not a quote). */
function delimiterOf(string: Node): Delimiter | null {
  const start = string.children.find((c) => c?.type === "string_start")?.text ?? "";
  const m = /^[A-Za-z]*("""|'''|"|')$/.exec(start);
  return m ? { quote: m[1]![0]!, triple: m[1]!.length === 3 } : null;
}

/** The delimiters of the f-strings whose replacement fields hold `node`, innermost first. */
function enclosingFStrings(node: Node | null): Delimiter[] {
  const out: Delimiter[] = [];
  let inField = false;
  for (let n = node; n; n = n.parent) {
    if (n.type === "interpolation") inField = true;
    if (n.type === "string" && inField) {
      const d = delimiterOf(n);
      if (d) out.push(d);
      inField = false;
    }
  }
  return out;
}

/**
 * The text with its string literals re-quoted so that none closes an
 * enclosing f-string, or the syntax it would need when that cannot be done.
 */
function fitText(text: string, enclosing: Delimiter[]): string | SyntaxFeature {
  const py = SYNTAX_SINCE.python;
  const scan = literalsOf(text);
  if (scan.comment) return py.fstring_comment;
  if (text.includes("\\")) return py.fstring_backslash;
  const closes = (l: Literal) => enclosing.some((d) => d.quote === l.quote && (!d.triple || l.triple));
  const clashing = scan.literals.filter(closes);
  if (clashing.length === 0) return text;
  const taken = new Set(enclosing.filter((d) => !d.triple).map((d) => d.quote));
  let out = text;
  for (const l of [...clashing].reverse()) {
    const body = text.slice(l.open + (l.triple ? 3 : 1), l.end - (l.triple ? 3 : 1));
    const other = ['"', "'"].find((q) => q !== l.quote && !taken.has(q) && !body.includes(q));
    if (other === undefined || l.triple || /f/i.test(l.prefix)) return py.fstring_quote_reuse;
    out = out.slice(0, l.open) + other + body + other + out.slice(l.end);
  }
  return out;
}

/** The string literals of a Python expression's text, and whether it holds a comment. */
function literalsOf(text: string): { literals: Literal[]; comment: boolean } {
  const literals: Literal[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "#") return { literals, comment: true };
    if (c !== '"' && c !== "'") {
      i++;
      continue;
    }
    let p = i;
    while (p > 0 && /[rRbBuUfF]/.test(text[p - 1]!) && i - p < 2) p--;
    const prefix = p > 0 && /[\w]/.test(text[p - 1]!) ? "" : text.slice(p, i);
    const triple = text.startsWith(c.repeat(3), i);
    const close = c.repeat(triple ? 3 : 1);
    let j = i + close.length;
    while (j < text.length && !text.startsWith(close, j)) j += text[j] === "\\" ? 2 : 1;
    const end = Math.min(text.length, j + close.length);
    literals.push({ open: i, end, prefix, quote: c, triple });
    i = end;
  }
  return { literals, comment: false };
}
