/**
 * The outline of a Markdown file: its headings as symbols, nested by level,
 * each spanning its section (from the heading to the last non-blank line
 * before the next heading of the same or a higher level). A small line
 * scanner, not a grammar: no Markdown grammar's wasm is published on npm, and
 * headings are all an outline needs. It follows CommonMark where headings are
 * concerned: ATX headings (`#` to `######`, up to three spaces of indentation,
 * an optional closing run of `#`), setext headings (a paragraph underlined
 * with `=` or `-`), and nothing inside fenced code blocks (backticks or
 * tildes), indented code, HTML comments and blocks, or YAML front matter. A
 * `---` under a list item or a quote is a thematic break, not an underline.
 *
 * @module
 */
import { HEAD_CHARS } from "./grammars.ts";
import { RecoverableError } from "../errors.ts";
import { siblingNamePaths } from "./name_path.ts";
import { outlineOf, unsupportedLanguage } from "./symbols.ts";
import { TextIndex } from "./text_index.ts";
import type { Outline, Parsing, SymbolInfo } from "./types.ts";

/** File extensions read as Markdown. */
const MARKDOWN_EXTENSIONS = /\.(?:md|markdown|mdown|mkd|mkdn|mdx)$/i;

/**
 * Whether a path names a Markdown file (by its extension).
 *
 * @param rel A relative path.
 * @returns True for `.md`, `.markdown`, `.mdx` and the other usual extensions.
 */
export function isMarkdownPath(rel: string): boolean {
  return MARKDOWN_EXTENSIONS.test(rel);
}

/** One heading the scan found. */
export interface MarkdownHeading {
  /** 1 to 6 (setext: 1 for `=`, 2 for `-`). */
  level: number;
  /** The heading's text as a reader sees it: links by their text, no HTML tags, one space between words. */
  name: string;
  /** UTF-16 offset where the heading's first line starts. */
  start: number;
  /** 1-based line of the heading (a setext heading's first text line). */
  line: number;
}

/** One line of the text: its content without the line ending, where it starts and its number. */
interface Line {
  text: string;
  start: number;
  number: number;
}

function* linesOf(text: string): Generator<Line> {
  let start = 0;
  for (let number = 1; start < text.length; number++) {
    const nl = text.indexOf("\n", start);
    const end = nl < 0 ? text.length : nl;
    const content = text.slice(start, end);
    yield { text: content.endsWith("\r") ? content.slice(0, -1) : content, start, number };
    start = end + 1;
  }
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const BLANK = /^[ \t]*$/;
const CONTAINER = /^ {0,3}(?:>|[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$))/;
const INDENTED = /^(?: {4}|\t)/;
/** HTML that runs to its closing marker (CommonMark's HTML blocks 1 to 5). */
const HTML_UNTIL: [RegExp, RegExp][] = [
  [/^ {0,3}<(?:script|pre|style|textarea)(?:[\s>]|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<![A-Za-z]/, />/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
];
/** HTML that runs to a blank line (CommonMark's HTML block 6: block-level tags). */
const HTML_BLOCK =
  /^ {0,3}<\/?(?:address|article|aside|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|nav|ol|p|param|section|summary|table|tbody|td|tfoot|th|thead|title|tr|ul)(?:[\s/>]|$)/i;

/** A run of paragraph lines that a setext underline could turn into a heading. */
interface Paragraph {
  first: Line;
  texts: string[];
  /** False inside a list item or a quote: an underline there is a thematic break. */
  underlinable: boolean;
}

/** The text of an ATX heading: trimmed, without its closing run of `#`. */
function atxText(raw: string | undefined): string {
  const text = (raw ?? "").trim();
  if (/^#+$/.test(text)) return "";
  return text.replace(/[ \t]+#+$/, "").trim();
}

/**
 * A heading's name as a reader sees it: a link or an image by its text, HTML
 * tags left out, runs of spaces as one (emphasis and code spans as written).
 */
function headingName(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<\/?[A-Za-z][^<>]*>/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** The scanner's state between lines. */
interface ScanState {
  /** The closing marker of the fenced block or HTML block being skipped. */
  fence: { char: string; length: number } | null;
  html: RegExp | "blank" | null;
  paragraph: Paragraph | null;
}

/** Skip a line inside a fence or an HTML block; true when it was one. */
function skipBlock(state: ScanState, text: string): boolean {
  if (state.fence) {
    const m = FENCE.exec(text);
    if (m && m[1]![0] === state.fence.char && m[1]!.length >= state.fence.length && BLANK.test(m[2]!)) {
      state.fence = null;
    }
    return true;
  }
  if (state.html === "blank") {
    if (BLANK.test(text)) state.html = null;
    return true;
  }
  if (state.html) {
    if (state.html.test(text)) state.html = null;
    return true;
  }
  return false;
}

/** Open a fence or an HTML block at this line; true when it does. */
function openBlock(state: ScanState, text: string): boolean {
  const fence = FENCE.exec(text);
  if (fence && !(fence[1]![0] === "`" && fence[2]!.includes("`"))) {
    state.fence = { char: fence[1]![0]!, length: fence[1]!.length };
    return true;
  }
  for (const [open, close] of HTML_UNTIL) {
    if (open.test(text)) {
      // The closing marker may be on the opening line itself.
      state.html = close.test(text.replace(open, "")) ? null : close;
      return true;
    }
  }
  if (HTML_BLOCK.test(text)) {
    state.html = "blank";
    return true;
  }
  return false;
}

/** The line after YAML front matter (`---` on the first line, up to the next `---` or `...`), or 0. */
function frontMatterEnd(lines: Line[]): number {
  if (lines.length === 0 || lines[0]!.text.trimEnd() !== "---") return 0;
  for (let i = 1; i < lines.length; i++) {
    if (/^(?:---|\.\.\.)[ \t]*$/.test(lines[i]!.text)) return i + 1;
  }
  return 0;
}

/**
 * The headings of a Markdown text, in document order.
 *
 * @param text The decoded text.
 * @returns Its headings (none inside code blocks, HTML blocks or front matter).
 *
 * @example ATX and setext headings, and a fence that holds neither
 * ```ts
 * import { markdownHeadings } from "@graver/core/syntax";
 * import assert from "node:assert/strict";
 *
 * const md = "Title\n=====\n\n## Use\n\n~~~sh\n# a comment\n~~~\n";
 * assert.deepEqual(markdownHeadings(md).map((h) => [h.level, h.name, h.line]), [[1, "Title", 1], [2, "Use", 4]]);
 * ```
 */
export function markdownHeadings(text: string): MarkdownHeading[] {
  const lines = [...linesOf(text)];
  const out: MarkdownHeading[] = [];
  const state: ScanState = { fence: null, html: null, paragraph: null };
  for (let i = frontMatterEnd(lines); i < lines.length; i++) {
    const line = lines[i]!;
    const t = line.text;
    if (skipBlock(state, t)) continue;
    const p = state.paragraph;
    if (BLANK.test(t)) {
      state.paragraph = null;
      continue;
    }
    if (p && INDENTED.test(t)) {
      p.texts.push(t.trim()); // a paragraph's continuation, not code
      continue;
    }
    if (INDENTED.test(t)) continue; // indented code
    const underline = SETEXT.exec(t);
    if (p && p.underlinable && underline) {
      const name = headingName(p.texts.join(" "));
      const level = underline[1]![0] === "=" ? 1 : 2;
      if (name !== "") out.push({ level, name, start: p.first.start, line: p.first.number });
      state.paragraph = null;
      continue;
    }
    const atx = ATX.exec(t);
    if (atx) {
      const name = headingName(atxText(atx[2]));
      if (name !== "") out.push({ level: atx[1]!.length, name, start: line.start, line: line.number });
      state.paragraph = null;
    } else if (THEMATIC.test(t) || openBlock(state, t)) {
      state.paragraph = null;
    } else if (CONTAINER.test(t)) {
      state.paragraph = { first: line, texts: [], underlinable: false };
    } else if (p) {
      p.texts.push(t.trim());
    } else {
      state.paragraph = { first: line, texts: [t.trim()], underlinable: true };
    }
  }
  return out;
}

/** Where a section that ends before `next` (a UTF-16 offset) really ends: after its last non-blank character. */
function sectionEnd(text: string, from: number, next: number): number {
  let end = Math.min(next, text.length);
  while (end > from && /\s/.test(text[end - 1]!)) end--;
  return end;
}

interface Section {
  heading: MarkdownHeading;
  end: number;
  children: Section[];
}

/** Nest headings by level: a heading holds the deeper ones up to the next of its level or higher. */
function nestSections(text: string, headings: MarkdownHeading[]): Section[] {
  const roots: Section[] = [];
  const stack: Section[] = [];
  const close = (until: number, next: number) => {
    while (stack.length > 0 && stack[stack.length - 1]!.heading.level >= until) {
      const s = stack.pop()!;
      s.end = sectionEnd(text, s.heading.start, next);
    }
  };
  for (const h of headings) {
    close(h.level, h.start);
    const section: Section = { heading: h, end: text.length, children: [] };
    (stack.length > 0 ? stack[stack.length - 1]!.children : roots).push(section);
    stack.push(section);
  }
  close(0, text.length);
  return roots;
}

function toSymbols(sections: Section[], prefix: string, index: TextIndex): SymbolInfo[] {
  const paths = siblingNamePaths(prefix, sections.map((s) => s.heading));
  return sections.map((s, k) => {
    const range = index.range(s.heading.start, s.end);
    return {
      kind: "heading",
      name: s.heading.name,
      name_path: paths[k]!,
      range,
      full_range: range,
      children: toSymbols(s.children, paths[k]!, index),
    };
  });
}

/**
 * The outline of a Markdown text: one `heading` symbol per heading, nested by
 * level, each spanning its section; name paths like other outlines
 * (`Install/From source`, `[i]` for repeated sibling names).
 *
 * @param text The decoded text (BOM excluded).
 * @returns The outline, language "markdown".
 *
 * @example Sections nest by level
 * ```ts
 * import { markdownOutline } from "@graver/core/syntax";
 * import assert from "node:assert/strict";
 *
 * const outline = markdownOutline("# Tool\n\nIntro.\n\n## Install\n\nnpm i tool\n\n# Licence\n");
 * const top = outline.symbols;
 * assert.deepEqual(top.map((s) => [s.name_path, s.full_range.start_line, s.full_range.end_line]), [
 *   ["Tool", 1, 7],
 *   ["Licence", 9, 9],
 * ]);
 * assert.equal(top[0]!.children[0]!.name_path, "Tool/Install");
 * ```
 */
export function markdownOutline(text: string): Outline {
  const sections = nestSections(text, markdownHeadings(text));
  return { language: "markdown", symbols: toSymbols(sections, "", new TextIndex(text)) };
}

/**
 * The outline a tool that reads gives of one file: Markdown without a grammar
 * by its headings ({@linkcode markdownOutline}), any other file through
 * {@linkcode outlineOf}; a file neither covers is refused with
 * `unsupported_language` suggesting `read_file` (a call that runs), not an edit.
 *
 * @param ws The workspace (its grammars and parse cache).
 * @param rel Relative path.
 * @param options The file's decoded `text` and `version`, and the `tool` asking (named in a refusal).
 * @returns The outline.
 *
 * @example A README outlines without any grammar
 * ```ts
 * import { createMemoryBackend, createWorkspace } from "@graver/core";
 * import { readOutline } from "@graver/core/syntax";
 * import assert from "node:assert/strict";
 *
 * const ws = await createWorkspace({ backend: createMemoryBackend({}) });
 * const outline = await readOutline(ws, "README.md", { text: "# Tool\n", version: "v1", tool: "outline" });
 * assert.equal(outline.symbols[0]!.name_path, "Tool");
 * ```
 */
export async function readOutline(
  ws: Parsing,
  rel: string,
  options: { text: string; version: string; tool: string },
): Promise<Outline> {
  const language = ws.grammars?.languageOf(rel, options.text.slice(0, HEAD_CHARS)) ?? null;
  if (language === null && isMarkdownPath(rel)) return markdownOutline(options.text);
  if (!ws.grammars) {
    throw unsupportedLanguage(rel, null, { tool: options.tool, noGrammars: true, read: true });
  }
  try {
    return await outlineOf(ws, rel, { text: options.text, version: options.version });
  } catch (err) {
    if (err instanceof RecoverableError && err.code === "unsupported_language") {
      throw unsupportedLanguage(rel, language, { tool: options.tool, read: true });
    }
    throw err;
  }
}
