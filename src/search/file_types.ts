/**
 * File types for a search's `type` filter (ripgrep's `-t`), from the grammar manifest: every language id
 * (`typescript`, `python` …) is a type of its extensions and file names, and ripgrep's short names map onto
 * them (`ts` is TypeScript and TSX, `py` Python, `rust` Rust …), so a model's `type: "ts"` works as in rg;
 * plus ripgrep's types for text graver has no grammar for (`md`, `txt`, `xml`, `make` …:
 * `languages/text_types.ts`).
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { PROFILES } from "../languages/profiles.ts";
import { TEXT_FILE_TYPES } from "../languages/text_types.ts";
import { GRAMMARS } from "../syntax/grammars.ts";

/** ripgrep's type names that differ from a manifest language id (each profile's `searchTypeAliases`), and the languages they cover. */
const RG_NAMES: ReadonlyMap<string, string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const p of PROFILES) {
    for (const alias of p.searchTypeAliases) out.set(alias, [...out.get(alias) ?? [], p.id]);
  }
  return out;
})();

/** A type's file-name test: the extensions (with the dot) and whole file names it covers. */
interface TypeRule {
  extensions: Set<string>;
  filenames: Set<string>;
}

/**
 * The grammar languages a type name covers: ripgrep's short names (`ts` is TypeScript and TSX) or a manifest
 * language id.
 *
 * @param type A type name (lower case).
 * @returns The language ids, or null for an unknown name.
 */
export function languagesOfType(type: string): string[] | null {
  const named = RG_NAMES.get(type);
  if (named) return named;
  return GRAMMARS[type] ? [type] : null;
}

/** Every type name a search accepts, sorted (for a refusal's hint): grammar languages and text types. */
export function fileTypeNames(): string[] {
  return [...new Set([...RG_NAMES.keys(), ...Object.keys(GRAMMARS), ...Object.keys(TEXT_FILE_TYPES)])].sort();
}

/** The files a type name covers: its grammar languages' (and ripgrep's names for them), or a text type's. */
function filesOfType(
  type: string,
): { extensions: readonly string[]; filenames?: readonly string[] }[] | null {
  const languages = languagesOfType(type);
  if (languages !== null) return languages.map((id) => GRAMMARS[id]!);
  const text = TEXT_FILE_TYPES[type];
  return text ? [text] : null;
}

/**
 * A test of file paths against one or more type names.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileTypeTest } from "./file_types.ts";
 *
 * const ts = fileTypeTest(["ts"]);
 * assert.ok(ts("src/a.tsx") && ts("lib/b.mts"));
 * assert.ok(!ts("src/a.js"));
 * ```
 *
 * @param types Type names (ripgrep's short names or manifest language ids).
 * @returns Whether a path's file name is of one of the types.
 * @throws RecoverableError `invalid_args` for an unknown type name, listing the known ones.
 */
export function fileTypeTest(types: string[]): (path: string) => boolean {
  const rule: TypeRule = { extensions: new Set(), filenames: new Set() };
  for (const type of types) {
    const covered = filesOfType(type.toLowerCase());
    if (covered === null) {
      throw new RecoverableError("invalid_args", `Cannot filter by type "${type}": no such file type`, {
        hint: `Use one of: ${fileTypeNames().join(", ")}; or a glob such as {"glob": "*.ext"}`,
        details: { type, known: fileTypeNames() },
      });
    }
    for (const files of covered) {
      for (const ext of files.extensions) rule.extensions.add(ext);
      for (const name of files.filenames ?? []) rule.filenames.add(name);
    }
  }
  return (path) => {
    const name = path.slice(path.lastIndexOf("/") + 1);
    if (rule.filenames.has(name)) return true;
    const dot = name.lastIndexOf(".");
    return dot > 0 && rule.extensions.has(name.slice(dot));
  };
}
