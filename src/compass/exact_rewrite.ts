/**
 * The one substitution the router can prove: a str_replace call whose
 * old text occurs exactly once in the file it read lands the same bytes as
 * edit_safe_text_patch with that one hunk. Both take the exact match first,
 * both read a model's "\n" as "\r\n" in a CRLF file, both give new lines
 * the line endings of the region they land in; they differ only where
 * there are several matches, none (the str_replace ladder), or a no-op.
 *
 * @module
 */
import { splitsCrlf } from "../fs/text.ts";
import { MIN_VERSION_PREFIX } from "../fs/version.ts";

/** Every start of `needle` in `text`, overlapping ones included (at most `limit`). */
function starts(text: string, needle: string, limit: number): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i !== -1 && out.length < limit; i = text.indexOf(needle, i + 1)) {
    out.push(i);
  }
  return out;
}

/** Whether `needle` occurs exactly once in `text`, and not across a CRLF pair. */
function once(text: string, needle: string): boolean {
  const at = starts(text, needle, 2);
  return at.length === 1 && !splitsCrlf(text, at[0]!, needle.length);
}

/**
 * Whether replacing `oldText` by `newText` in `text` is provably the same as
 * an edit_safe_text_patch hunk: one spelling of the old text (as written,
 * or with CRLF breaks in a CRLF file) occurs exactly once and the other not
 * at all, and the replacement changes something.
 *
 * @param text The file's decoded text, as read.
 * @param oldText The call's old text.
 * @param newText The call's new text.
 * @returns True when the substitution lands the same bytes.
 *
 * @example
 * ```ts
 * import { provablySameReplace } from "./exact_rewrite.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(provablySameReplace("let a = 1;\n", "a = 1", "a = 2"));
 * assert.ok(!provablySameReplace("f(a); f(a);\n", "f(a)", "g(a)"), "two matches: the ladder decides");
 * assert.ok(!provablySameReplace("let a = 1;\n", "b = 1", "b = 2"), "no match: the ladder decides");
 * ```
 */
export function provablySameReplace(text: string, oldText: string, newText: string): boolean {
  if (oldText === "" || oldText === newText) return false;
  const asCrlf = text.includes("\r\n") && oldText.includes("\n") && !oldText.includes("\r\n")
    ? oldText.replace(/\n/g, "\r\n")
    : null;
  if (asCrlf === null) return once(text, oldText);
  const raw = starts(text, oldText, 1).length;
  const crlf = starts(text, asCrlf, 1).length;
  return (raw === 0 && once(text, asCrlf)) || (crlf === 0 && once(text, oldText));
}

/**
 * Whether a version the caller passed names the version the router read
 * (the full SHA-256 or a hex prefix of at least 12 characters).
 *
 * @param read The version read.
 * @param given The caller's `expected_version`.
 * @returns True when they agree.
 */
export function sameVersion(read: string, given: string): boolean {
  const want = given.toLowerCase();
  return want.length >= MIN_VERSION_PREFIX && /^[0-9a-f]+$/.test(want) && read.startsWith(want);
}
