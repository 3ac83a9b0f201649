/**
 * The language version a project declares, and which generated syntax it
 * allows: `requires-python` (pyproject.toml) or `python_requires`
 * (setup.cfg), `compilerOptions.target` (tsconfig.json, jsconfig.json) and
 * `edition` (Cargo.toml), read from the nearest configuration above the
 * edited file through the narrow file-reading interface the engines get (the
 * call's stage), never the Workspace. What each version allows is data: one
 * table per language of the syntax a generator may emit and the version that
 * introduced it, stated by each language's profile (`src/languages/`).
 *
 * @module
 */
import type { SyntaxFeature, VersionConfigField, VersionFamily } from "../../languages/types.ts";
import { profileOf, versionFactsOf } from "../../languages/profiles.ts";
export { SYNTAX_SINCE } from "../../languages/version_syntax.ts";
export type { SyntaxFeature, SyntaxMatcher } from "../../languages/types.ts";

/** How the module reads configuration files (the call's `Stage` satisfies it). */
export interface ConfigReader {
  /** Whether a relative path holds a file. */
  exists(rel: string): Promise<boolean>;
  /** A file's decoded text. */
  readText(rel: string): Promise<{ text: string }>;
}

/** The version a project declares for one language. */
export interface DeclaredVersion {
  /** The language family: "python", "ecmascript" or "rust". */
  family: Family;
  /** The lowest version the declaration admits, as numbers (`[3, 10]`, `[2017]`, `[2021]`). */
  version: number[];
  /** The declaration as written (`>=3.10`, `ES2017`, `2021`). */
  written: string;
  /** The configuration file it comes from (relative path). */
  source: string;
  /** The field in it (`project.requires-python`). */
  field: string;
}

/** A language family whose version a project can declare. */
export type Family = VersionFamily;

/**
 * The family whose declared version governs a language, or null.
 *
 * @param language A language id ("python", "tsx", …).
 * @returns The family.
 */
export function familyOfLanguage(language: string): Family | null {
  return profileOf(language).targetVersion?.family ?? null;
}

/**
 * The version the project declares for a file's language: the first
 * declaration found in the file's folder, then each folder above it up to
 * the root. Null when the language has no such setting or none is declared
 * (a configuration that cannot be read is treated as none).
 *
 * @param reader The call's stage (or any {@linkcode ConfigReader}).
 * @param path The edited file (relative path).
 * @param language The file's language id ("python", "typescript", "rust", …).
 * @returns The declaration, or null.
 *
 * @example A pyproject.toml above the file
 * ```ts
 * import { declaredVersion } from "./target_version.ts";
 * import assert from "node:assert/strict";
 *
 * const files: Record<string, string> = { "pyproject.toml": '[project]\nrequires-python = ">=3.10"\n' };
 * const reader = {
 *   exists: (rel: string) => Promise.resolve(rel in files),
 *   readText: (rel: string) => Promise.resolve({ text: files[rel]! }),
 * };
 * const v = await declaredVersion(reader, "click/utils.py", "python");
 * assert.deepEqual(v?.version, [3, 10]);
 * assert.equal(v?.source, "pyproject.toml");
 * ```
 */
export async function declaredVersion(
  reader: ConfigReader,
  path: string,
  language: string,
): Promise<DeclaredVersion | null> {
  const facts = profileOf(language).targetVersion;
  if (!facts) return null;
  const family = facts.family;
  const parts = path.replace(/\\/g, "/").split("/").filter((p) => p !== "" && p !== ".");
  for (let depth = parts.length - 1; depth >= 0; depth--) {
    const dir = parts.slice(0, depth).join("/");
    for (const config of facts.configs) {
      const rel = dir === "" ? config.file : `${dir}/${config.file}`;
      const written = await readField(reader, rel, config);
      const version = written === null ? null : config.parse(written);
      if (written !== null && version !== null) {
        return { family, version, written, source: rel, field: config.field };
      }
    }
  }
  return null;
}

/**
 * Whether generated code may use a piece of syntax under the declared
 * version (true when nothing is declared: the caller cannot know better).
 *
 * @param declared The project's declaration, or null.
 * @param feature The syntax, from {@linkcode SYNTAX_SINCE}.
 * @returns Whether the declared lowest version accepts it.
 *
 * @example
 * ```ts
 * import { allows, SYNTAX_SINCE } from "./target_version.ts";
 * import assert from "node:assert/strict";
 *
 * const declared = {
 *   family: "python" as const,
 *   version: [3, 10],
 *   written: ">=3.10",
 *   source: "pyproject.toml",
 *   field: "project.requires-python",
 * };
 * assert.equal(allows(declared, SYNTAX_SINCE.python.fstring_quote_reuse), false);
 * assert.equal(allows(declared, SYNTAX_SINCE.python.match_statement), true);
 * ```
 */
export function allows(declared: DeclaredVersion | null, feature: SyntaxFeature): boolean {
  if (declared === null) return true;
  const a = declared.version;
  const b = feature.since;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

/**
 * The reason a refusal gives: what the syntax is, the version it needs and
 * what the project declares (`... needs Python 3.12; pyproject.toml declares
 * requires-python ">=3.10"`).
 *
 * @param declared The project's declaration.
 * @param feature The syntax it does not allow.
 * @returns One clause.
 */
export function tooNew(declared: DeclaredVersion, feature: SyntaxFeature): string {
  const name = versionFactsOf(declared.family).versionLabel;
  const key = declared.field.slice(declared.field.lastIndexOf(".") + 1);
  return `${feature.what} needs ${name}${
    feature.since.join(".")
  }, and ${declared.source} declares ${key} "${declared.written}"`;
}

async function readField(
  reader: ConfigReader,
  rel: string,
  config: VersionConfigField,
): Promise<string | null> {
  try {
    if (!(await reader.exists(rel))) return null;
    return config.read((await reader.readText(rel)).text);
  } catch {
    return null; // unreadable or outside the sandbox: no declaration
  }
}
