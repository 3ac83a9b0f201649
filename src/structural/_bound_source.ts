/**
 * A file opened for extract or inline: parsed, its bindings built, its
 * language family's rules found — or the `unsupported_language` refusal for
 * a language neither supports.
 *
 * @module
 */
import type { Stage } from "../fs/stage.ts";
import { type FileBindings, fileBindings } from "../syntax/bindings.ts";
import type { Parsing } from "../syntax/types.ts";
import { structuralUnsupported } from "../syntax/unsupported_language.ts";
import { familyOf, type FamilyRules } from "./_extract_range.ts";
import { loadSource, type SourceFile } from "./source.ts";

/**
 * Open a file with its bindings and its family's rules.
 *
 * @param parsing Grammars and parse cache.
 * @param stage The call's stage.
 * @param path The file.
 * @param options Tool name, expected version, and what the tool does (for the refusal: "extracting a function").
 * @returns The file, its bindings and rules; `unsupported_language` outside TypeScript, TSX, JavaScript, Python.
 */
export async function openBound(
  parsing: Parsing,
  stage: Stage,
  path: string,
  options: { tool: string; expectedVersion?: string | undefined; doing: string },
): Promise<{ file: SourceFile; fb: FileBindings; rules: FamilyRules }> {
  const file = await loadSource(parsing, stage, path, {
    tool: options.tool,
    expectedVersion: options.expectedVersion,
  });
  const rules = familyOf(file.language);
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
      reason: `${options.doing} works in TypeScript, TSX, JavaScript and Python files, not ${file.language}`,
    });
  }
  return { file, fb, rules };
}
