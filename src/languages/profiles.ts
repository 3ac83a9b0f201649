/**
 * The one lookup of language knowledge: {@linkcode profileOf} answers for a
 * language id with its {@linkcode LanguageProfile}, and
 * {@linkcode languagesWhere} lists the languages a fact holds for. Every
 * grammar of the manifest has a profile here; a language id without one (a
 * grammar an embedder adds) gets the defaults.
 *
 * `src/languages/` sits between `fs/` and `syntax/` in the layering (rank
 * 1.5): the profiles are facts (node-type names, words, small text
 * functions) and import nothing of graver's, so that `syntax/` itself can ask
 * them (module resolution, the binding rules, a `.h` header's language) and
 * every area above reads them too. A fact that needs a parser belongs in
 * `syntax/`, asking the profile for the node types.
 *
 * @module
 */
import { defineProfile } from "./_base.ts";
import { CSS, HTML, JSON_PROFILE, TOML, YAML } from "./data.ts";
import { JAVASCRIPT, TSX, TYPESCRIPT } from "./ecmascript.ts";
import { BASH, C, C_SHARP, CPP, JAVA, KOTLIN, LUA, PHP, RUBY, SCALA, ZIG } from "./file_local.ts";
import { GO } from "./go.ts";
import { PYTHON } from "./python.ts";
import { RUST } from "./rust.ts";
import type {
  LanguageProfile,
  ModuleSystem,
  ModuleSystemFacts,
  TargetVersionFacts,
  VersionFamily,
} from "./types.ts";

/** Every profile, in the grammar manifest's order. */
export const PROFILES: readonly LanguageProfile[] = Object.freeze([
  TYPESCRIPT,
  TSX,
  JAVASCRIPT,
  PYTHON,
  GO,
  RUST,
  JAVA,
  C,
  CPP,
  C_SHARP,
  RUBY,
  PHP,
  BASH,
  JSON_PROFILE,
  KOTLIN,
  CSS,
  HTML,
  YAML,
  TOML,
  LUA,
  SCALA,
  ZIG,
]);

const BY_ID = new Map(PROFILES.map((p) => [p.id, p]));
const DEFAULTS = new Map<string, LanguageProfile>();

/**
 * What graver knows about a language.
 *
 * @param language A language id ("typescript", "c_sharp").
 * @returns Its profile; for an id without one, a profile of defaults under that id.
 *
 * @example
 * ```ts
 * import { profileOf } from "./profiles.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(profileOf("tsx").moduleSystem?.name, "ecmascript");
 * assert.equal(profileOf("go").moduleSystem?.moduleIsDirectory, true);
 * assert.equal(profileOf("lua").moduleSystem, null);
 * ```
 */
export function profileOf(language: string): LanguageProfile {
  const known = BY_ID.get(language);
  if (known) return known;
  let made = DEFAULTS.get(language);
  if (!made) {
    made = defineProfile({ id: language, displayName: language });
    DEFAULTS.set(language, made);
  }
  return made;
}

/**
 * The languages whose profile states a fact, in manifest order.
 *
 * @param fact The question asked of each profile.
 * @returns Their ids.
 *
 * @example
 * ```ts
 * import { languagesWhere } from "./profiles.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(languagesWhere((p) => p.refactors.changeSignature), ["typescript", "tsx", "javascript", "python"]);
 * ```
 */
export function languagesWhere(fact: (profile: LanguageProfile) => boolean): string[] {
  return PROFILES.filter(fact).map((p) => p.id);
}

/**
 * The target-version facts of a version family (shared by its languages: TypeScript, TSX and JavaScript are
 * "ecmascript").
 *
 * @param family The family.
 * @returns Its facts.
 */
export function versionFactsOf(family: VersionFamily): TargetVersionFacts {
  return PROFILES.find((p) => p.targetVersion?.family === family)!.targetVersion!;
}

/**
 * The facts of a module system by its name (shared by the languages of its family).
 *
 * @param name The system's name.
 * @returns Its facts.
 */
export function moduleSystemNamed(name: ModuleSystem): ModuleSystemFacts {
  return PROFILES.find((p) => p.moduleSystem?.name === name)!.moduleSystem!;
}
