/**
 * A placed match applied to a document's text: replaced lines keep their own endings one for one, inserted
 * lines take the dominant ending, the final-newline state is kept unless the block says otherwise — as one
 * splice of the text wherever the match ends before the file does.
 *
 * @module
 */
import type { TextSplice } from "../fs/text.ts";
import { bodyOf, endingOf, type TextDoc } from "./_doc.ts";
import type { BlockMatch, EditBlock } from "./types.ts";

/**
 * Apply a match to a document's text: replaced lines keep their own endings
 * one for one, inserted lines take the dominant ending, and the final-newline
 * state is kept unless the block says otherwise (`\ No newline at end of file`).
 *
 * @param doc The file before the block.
 * @param m Where and what.
 * @param block The block (its no-newline flags).
 * @returns The new text.
 */
export function applyMatch(doc: TextDoc, m: BlockMatch, block?: EditBlock): string {
  const splice = matchSplice(doc, m, block);
  if (splice) return spliceText(doc.text, splice);
  return applyAtEnd(doc, m, block);
}

/** A text with one span replaced (a rope until something reads it whole). */
export function spliceText(text: string, s: TextSplice): string {
  return text.slice(0, s.from) + s.insert + text.slice(s.to);
}

/** The replaced lines of a match with their endings (see {@linkcode applyMatch}), and the lines they replace. */
function replacedLines(doc: TextDoc, m: BlockMatch): { old: string[]; mid: string[]; lastEnding: string } {
  const old: string[] = [];
  for (let i = m.start; i < m.end && doc.hasLine(i); i++) old.push(doc.line(i));
  const rep = m.replacement;
  const lastEnding = old.length > 0 ? endingOf(old[old.length - 1]!) : (doc.hasLine(m.start) ? doc.eol : "");
  const mid: string[] = [];
  for (let k = 0; k < rep.length; k++) {
    let ending: string;
    if (k === rep.length - 1) ending = lastEnding;
    else if (k < old.length - 1) ending = endingOf(old[k]!) || doc.eol;
    else ending = doc.eol;
    mid.push(rep[k]! + ending);
  }
  return { old, mid, lastEnding };
}

/**
 * A match as one span of the document's text and what replaces it, as {@linkcode applyMatch} applies it; null
 * for a match that reaches the end of the file (its last line's ending may change), which only
 * {@linkcode applyMatch} applies. Lines are looked up only as far as the match's end.
 *
 * @param doc The file before the block.
 * @param m Where and what.
 * @param block The block (its no-newline flags).
 * @returns The splice, or null.
 */
export function matchSplice(doc: TextDoc, m: BlockMatch, block?: EditBlock): TextSplice | null {
  const span = spanSplice(m, block);
  if (span) return span;
  if (!doc.hasLine(m.end)) return null;
  // Lines before and after the match are the text's own: splice it instead of joining every line.
  return { from: doc.offsetOf(m.start), to: doc.offsetOf(m.end), insert: replacedLines(doc, m).mid.join("") };
}

/** The splice of an exact hit in an LF-only file (its text span): no line of the document is looked at. */
export function spanSplice(m: BlockMatch, block?: EditBlock): TextSplice | null {
  if (!m.textSpan || m.replacement.length === 0 || block?.newNoEol || block?.oldNoEol) return null;
  return { from: m.textSpan.from, to: m.textSpan.to, insert: m.replacement.join("\n") };
}

/** {@linkcode applyMatch} of a match that reaches the end of the file: the lines joined again. */
function applyAtEnd(doc: TextDoc, m: BlockMatch, block?: EditBlock): string {
  const { old, mid, lastEnding } = replacedLines(doc, m);
  const rep = m.replacement;
  const lines = doc.lines;
  const out = lines.slice(0, m.start).concat(mid);
  if (rep.length > 0 && old.length === 0 && m.start >= lines.length && m.start > 0) {
    // Appending after an unterminated last line: terminate it, keep the file unterminated.
    const prev = out[m.start - 1]!;
    if (endingOf(prev) === "") {
      out[m.start - 1] = prev + doc.eol;
      out[out.length - 1] = bodyOf(out[out.length - 1]!);
    } else out[out.length - 1] = bodyOf(out[out.length - 1]!) + doc.eol;
  }
  for (let i = m.end; i < lines.length; i++) out.push(lines[i]!);
  if (rep.length === 0 && lastEnding === "" && out.length > 0) {
    out[out.length - 1] = bodyOf(out[out.length - 1]!);
  }
  if (out.length > 0 && block) {
    const last = out.length - 1;
    if (block.newNoEol) out[last] = bodyOf(out[last]!);
    else if (block.oldNoEol && endingOf(out[last]!) === "") out[last] = out[last]! + doc.eol;
  }
  return out.join("");
}
