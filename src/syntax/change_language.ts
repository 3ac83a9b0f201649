/**
 * The language a pending change is parsed in, if any: what decides whether
 * the syntax guard looks at a change — and so whether dispatch loads the
 * guard at all.
 *
 * @module
 */
import { decodedSide } from "../fs/change_facts.ts";
import type { PendingChange } from "../fs/stage.ts";
import { HEAD_CHARS } from "./grammars.ts";
import type { Parsing } from "./types.ts";

/**
 * The grammar language of a change's after-state, with its text.
 *
 * @param ws Anything with grammars.
 * @param change A staged change.
 * @returns The language id and the decoded after-text; null for a deletion, a binary or non-UTF-8 file, a
 *   workspace without grammars, or a file of no known language (by name, else by its first characters).
 */
export function changeLanguage(
  ws: Parsing,
  change: PendingChange,
): { language: string; text: string } | null {
  if (!ws.grammars || change.after === null) return null;
  let text: string;
  try {
    text = decodedSide(change, "after").text;
  } catch {
    return null; // binary/non-UTF-8 content is not parsed
  }
  const language = ws.grammars.languageOf(change.path, text.slice(0, HEAD_CHARS));
  return language ? { language, text } : null;
}
