/**
 * Structural search across a project: the code-pattern engine driven file by file for
 * `search_structural` and `edit_rewrite_structural` (the loop over files is `search/`'s).
 *
 * @module
 */
export { MAX_MATCHES_PER_FILE, patternMatcherOf, requiredTexts, siteReplacement } from "./pattern_matcher.ts";
export type { LanguageProgram, PatternMatcher, PatternSite, SiteBinding } from "./pattern_matcher.ts";
