/**
 * Language knowledge in one place: one {@linkcode LanguageProfile} per
 * language (module system, identifiers and reserved words, statement and
 * flow families, definition keywords, pattern wrappers, refactor support,
 * target versions), looked up with {@linkcode profileOf}.
 *
 * @module
 */
export { languagesWhere, moduleSystemNamed, profileOf, PROFILES, versionFactsOf } from "./profiles.ts";
export { SYNTAX_SINCE } from "./version_syntax.ts";
export type {
  FlowRules,
  IdentifierRules,
  LanguageProfile,
  ModuleSystem,
  ModuleSystemFacts,
  PatternWrapper,
  RefactorSupport,
  SyntaxFeature,
  SyntaxMatcher,
  TargetVersionFacts,
  VersionConfigField,
  VersionFamily,
} from "./types.ts";
