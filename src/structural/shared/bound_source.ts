/**
 * A file opened for extract or inline: parsed, its bindings built, its
 * language family's rules found — or the `unsupported_language` refusal for
 * a language neither supports.
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";
import type { Stage } from "../../fs/stage.ts";
import { type FileBindings, fileBindings } from "../../syntax/bindings.ts";
import type { Parsing } from "../../syntax/types.ts";
import { structuralUnsupported } from "../../syntax/unsupported_language.ts";
import { familyOf, type FamilyRules } from "./statement_ranges.ts";
import { loadSource, type SourceFile } from "../edit/source.ts";

/**
 * Open a file with its bindings and its family's rules.
 *
 * @param parsing Grammars and parse cache.
 * @param stage The call's stage.
 * @param path The file.
 * @param options Tool name, expected version, what the tool does (for the refusal: "extracting a function") and
 *   the languages it supports.
 * @returns The file, its bindings and rules; `unsupported_language` outside those languages.
 */
export async function openBound(
  parsing: Parsing,
  stage: Stage,
  { path, ...options }: {
    path: string;
    tool: string;
    expectedVersion?: string | undefined;
    doing: string;
    languages: readonly string[];
  },
): Promise<{ file: SourceFile; fb: FileBindings; rules: FamilyRules }> {
  const file = await loadSource(parsing, stage, {
    path,
    tool: options.tool,
    expectedVersion: options.expectedVersion,
  });
  const rules = options.languages.includes(file.language) ? familyOf(file.language) : null;
  const fb = rules
    ? await fileBindings(parsing, {
      path: file.rel,
      language: file.language,
      version: file.version,
      text: file.text,
    })
    : null;
  if (!rules || !fb) {
    throw structuralUnsupported(file.rel, {
      tool: options.tool,
      version: file.version,
      language: file.language,
      reason: `${options.doing} works in ${listOf(options.languages)} files, not ${file.language}`,
    });
  }
  return { file, fb, rules };
}

/** "A, B and C" from language ids. */
function listOf(languages: readonly string[]): string {
  const names = languages.map((l) => profileOf(l).displayName);
  return names.length < 2
    ? names.join("")
    : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
