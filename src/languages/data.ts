/**
 * The data and markup languages (JSON, CSS, HTML, YAML, TOML): grammars for
 * reading, outlines and syntax checks, with no module system, no refactors
 * and nothing a rename or extraction asks.
 *
 * @module
 */
import { defineProfile } from "./_base.ts";
import type { LanguageProfile } from "./types.ts";

/** JSON. */
export const JSON_PROFILE: LanguageProfile = defineProfile({ id: "json", displayName: "JSON" });

/** CSS. */
export const CSS: LanguageProfile = defineProfile({ id: "css", displayName: "CSS" });

/** HTML. */
export const HTML: LanguageProfile = defineProfile({ id: "html", displayName: "HTML" });

/** YAML. */
export const YAML: LanguageProfile = defineProfile({
  id: "yaml",
  displayName: "YAML",
  searchTypeAliases: ["yml"],
});

/** TOML. */
export const TOML: LanguageProfile = defineProfile({ id: "toml", displayName: "TOML" });
