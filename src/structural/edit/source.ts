/**
 * A source file opened for a structural edit: resolved, version-checked,
 * decoded and parsed through the workspace's parse cache, with the facts
 * edits need (line ending, indent unit).
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";
import { HEAD_CHARS } from "../../syntax/grammars.ts";
import type { Tree } from "web-tree-sitter";
import { isRecoverable, RecoverableError } from "../../errors.ts";
import type { Stage } from "../../fs/stage.ts";
import { dominantEol } from "../../fs/text.ts";
import type { Version } from "../../fs/version.ts";
import { syntaxProblems } from "../../syntax/trees.ts";
import { structuralUnsupported } from "../../syntax/unsupported_language.ts";
import type { Parsing } from "../../syntax/types.ts";
import { detectIndentUnit } from "./reindent.ts";

/** A parsed file ready for structural edits. */
export interface SourceFile {
  /** Relative path. */
  rel: string;
  /** Language id. */
  language: string;
  /** Decoded text (BOM excluded). */
  text: string;
  /** Whether the bytes start with a BOM. */
  bom: boolean;
  /** Version of the bytes. */
  version: Version;
  /** The file's dominant line ending. */
  eol: "\n" | "\r\n";
  /** The file's indent unit ("\t" or N spaces; "" when the file has no indentation yet). */
  unit: string;
  /** The parse (owned by the workspace cache: valid until the path is parsed at another version). */
  tree: Tree;
  /** Parse errors already present before the edit. */
  problems: number;
}

/**
 * Open a file for a structural edit through the stage: resolve the path,
 * check `expected_version`, decode, find the grammar and parse.
 *
 * @param ws The workspace (grammars and parse cache).
 * @param stage The call's stage (the overlay the edit lands in).
 * @param path The tool path.
 * @param options The tool name (for messages) and the version the caller holds.
 * @returns The parsed file; `unsupported_language` when no grammar applies.
 */
export async function loadSource(
  ws: Parsing,
  stage: Stage,
  { path, ...options }: { path: string; tool: string; expectedVersion?: string | undefined },
): Promise<SourceFile> {
  const rel = await stage.resolve(path);
  await stage.checkExpected(rel, options.expectedVersion);
  const file = await stage.readText(rel);
  const language = ws.grammars?.languageOf(rel, file.text.slice(0, HEAD_CHARS)) ?? null;
  if (!ws.grammars || !ws.trees || language === null) {
    throw structuralUnsupported(rel, {
      tool: options.tool,
      version: file.version,
      language,
      ...(ws.grammars ? {} : { reason: "this workspace was opened without grammars (no wasm loader)" }),
    });
  }
  let tree: Tree;
  try {
    tree = (await ws.trees.parse(rel, language, file.version, file.text)).tree;
  } catch (cause) {
    // A file over the parse limit, or a parse the runtime trapped in, says so (and what works instead).
    if (isRecoverable(cause)) throw cause;
    const err = structuralUnsupported(rel, { tool: options.tool, version: file.version, language });
    throw new RecoverableError(err.code, err.message, {
      hint: err.hint,
      ...(err.suggestedCall ? { suggestedCall: err.suggestedCall } : {}),
      details: err.details ?? {},
      cause,
    });
  }
  return {
    rel,
    language,
    text: file.text,
    bom: file.bom,
    version: file.version,
    eol: dominantEol(file.text),
    unit: detectIndentUnit(file.text, ""),
    tree,
    problems: tree.rootNode.hasError ? syntaxProblems(tree.rootNode, 20).length : 0,
  };
}

/**
 * The file with a known indent unit for placing `code`: the file's own, or,
 * when the file has no indentation yet, the code's (else the language's habit).
 *
 * @param file The source file.
 * @param code The code to place.
 * @returns The file, with `unit` set.
 */
export function withIndentUnit(file: SourceFile, code: string): SourceFile {
  if (file.unit !== "") return file;
  const fallback = profileOf(file.language).indentUnit ?? "    ";
  return { ...file, unit: detectIndentUnit(code, fallback) };
}

/** One replacement of a span of text (UTF-16 offsets into the decoded text). */
export interface TextEdit {
  /** Start offset (UTF-16). */
  start: number;
  /** End offset, exclusive (UTF-16). */
  end: number;
  /** The new text. */
  text: string;
}

/**
 * Apply non-overlapping edits to a text.
 *
 * @param text The original text.
 * @param edits Edits at offsets of the original text, in any order.
 * @returns The edited text; a `TypeError` when two edits overlap.
 *
 * @example
 * ```ts
 * import { applyTextEdits } from "./source.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(applyTextEdits("a b c", [{ start: 4, end: 5, text: "C" }, { start: 0, end: 1, text: "A" }]), "A b C");
 * ```
 */
export function applyTextEdits(text: string, edits: TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = "";
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) throw new TypeError(`Cannot apply overlapping edits at offset ${e.start}`);
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

/**
 * Join removals that overlap into one: two removals may both claim the blank
 * line between them (the last import and a declaration right after it), which
 * is one removal, not a conflict. Edits that insert text are left as they are.
 *
 * @param edits Edits at offsets of one text, in any order.
 * @returns The same edits with overlapping removals joined, sorted by offset.
 *
 * @example
 * ```ts
 * import { applyTextEdits, joinOverlappingRemovals } from "./source.ts";
 * import assert from "node:assert/strict";
 *
 * const edits = [{ start: 4, end: 9, text: "" }, { start: 0, end: 5, text: "" }];
 * assert.deepEqual(joinOverlappingRemovals(edits), [{ start: 0, end: 9, text: "" }]);
 * assert.equal(applyTextEdits("abc\n\ndef\nrest", joinOverlappingRemovals(edits)), "rest");
 * ```
 */
export function joinOverlappingRemovals(edits: TextEdit[]): TextEdit[] {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: TextEdit[] = [];
  for (const e of sorted) {
    const prev = out[out.length - 1];
    if (prev && prev.text === "" && e.text === "" && e.start < prev.end) {
      out[out.length - 1] = { start: prev.start, end: Math.max(prev.end, e.end), text: "" };
    } else out.push(e);
  }
  return out;
}

/** Lines of code-to-place by role (0-based), for {@linkcode reindent}'s `keepLines` and `alignLines`. */
export interface TextLines {
  /** Lines of code to keep byte for byte: they continue a multi-line string (its spaces are data). */
  keepLines: (code: string) => ReadonlySet<number>;
  /** Lines that move with the code but keep their own spacing: docstring and block-comment text. */
  alignLines: (code: string) => ReadonlySet<number>;
  /** The code's indent unit when known (code built from text bound in the same file), else read from it. */
  codeUnit?: string;
  /** The column the code's first line stands for, in the code's own columns (0: its later lines are relative to it). */
  firstColumn?: number;
}

/** Finds the lines of code-to-place that continue a multi-line string or comment. */
export interface StringLineFinder extends TextLines {
  /** Same as `keepLines`. */
  find(code: string): ReadonlySet<number>;
  /** Free the parser. */
  dispose(): void;
}

const STRING_TYPE = /string|heredoc|text_block/;
const COMMENT_TYPE = /comment/;

/**
 * A finder of the lines of code (in one language) that continue a multi-line
 * string or comment, so that re-indentation leaves template literals, raw
 * strings and heredocs alone, and moves docstrings and block comments with
 * the code without reading their spacing as indentation.
 *
 * @param ws The workspace (its grammars).
 * @param language Language id.
 * @returns The finder; call `dispose()` when done.
 */
export async function stringLineFinder(ws: Parsing, language: string): Promise<StringLineFinder> {
  const parser = ws.grammars ? await ws.grammars.parser(language) : null;
  const none: ReadonlySet<number> = new Set();
  let last: { code: string; keep: ReadonlySet<number>; align: ReadonlySet<number> } | null = null;
  const roles = (code: string) => {
    if (last?.code === code) return last;
    const keep = new Set<number>();
    const align = new Set<number>();
    last = { code, keep, align };
    if (!parser || !code.includes("\n")) return last;
    const tree = parser.parse(code);
    if (!tree) return last;
    const cursor = tree.walk();
    try {
      for (;;) {
        const multi = cursor.startPosition.row < cursor.endPosition.row;
        const type = cursor.nodeType;
        // Adjacent literals on several lines ("a" "b", Python's implicit concatenation) are code, not one string.
        const isString = multi && STRING_TYPE.test(type) && !type.includes("concatenated");
        const isComment = multi && !isString && COMMENT_TYPE.test(type);
        if (isString || isComment) {
          const node = cursor.currentNode;
          const docstring = isComment ||
            (profileOf(language).functions.docstrings && node.parent?.type === "expression_statement");
          for (let r = node.startPosition.row + 1; r <= node.endPosition.row; r++) {
            (docstring ? align : keep).add(r);
          }
        }
        if (multi && !isString && !isComment && cursor.gotoFirstChild()) continue;
        while (!cursor.gotoNextSibling()) {
          if (!cursor.gotoParent()) return last;
        }
      }
    } finally {
      cursor.delete();
      tree.delete();
    }
  };
  return {
    find: (code) => parser ? roles(code).keep : none,
    keepLines: (code) => parser ? roles(code).keep : none,
    alignLines: (code) => parser ? roles(code).align : none,
    dispose() {
      parser?.delete();
    },
  };
}

/**
 * The roles of the lines of one piece of code (see {@linkcode stringLineFinder}),
 * ready for {@linkcode reindent}.
 *
 * @param ws The workspace (its grammars).
 * @param language Language id.
 * @param code The code to place.
 * @returns `keepLines` (multi-line string text) and `alignLines` (docstring and comment text).
 */
export async function codeLineRoles(
  ws: Parsing,
  language: string,
  code: string,
): Promise<{ keepLines: ReadonlySet<number>; alignLines: ReadonlySet<number> }> {
  const finder = await stringLineFinder(ws, language);
  try {
    return { keepLines: finder.keepLines(code), alignLines: finder.alignLines(code) };
  } finally {
    finder.dispose();
  }
}
