/**
 * File-local languages: those graver resolves names for within one file but
 * not across files (Java, C#, C, C++, Kotlin, Ruby, PHP — no module
 * resolution). A symbol that only its file can see (a local, a parameter) is
 * searched and renamed as in any other language. A symbol other files may use
 * (a top-level declaration, a class member) is searched across the project
 * only when no other file of the language contains its name as a word — then
 * none can refer to it; otherwise a project-wide search or rename is refused
 * with `unsupported_language` (the language's cross-file resolution is what
 * is missing), with the file-scoped call in the hint. A file-scoped call goes
 * ahead and lists the other files that contain the name.
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";
import { RecoverableError } from "../../errors.ts";
import type { Stage } from "../../fs/stage.ts";
import { PROJECT_LIMITS } from "../../project/limits.ts";
import { openProject } from "../../project/project_view.ts";
import type { Occurrence } from "../../syntax/bindings.ts";
import { ModuleResolver } from "../../syntax/module_resolution.ts";
import type { Parsing } from "../../syntax/types.ts";

/**
 * Whether graver resolves this language's names within one file only.
 *
 * @param language Language id (one with a binding query).
 * @returns True when it has no module resolution.
 */
export function isFileLocalLanguage(language: string): boolean {
  return ModuleResolver.systemOf(language) === null;
}

/** A symbol's scope in a file-local language, as the refusal check sees it. */
export interface FileLocalTarget {
  /** The file. */
  path: string;
  /** Its language. */
  language: string;
  /** The targeted occurrence. */
  occurrence: Occurrence;
  /** Whether it is a class member. */
  member: boolean;
  /** 1-based line and column of the target. */
  at: { line: number; column: number };
  /** The file's text. */
  text: string;
}

/**
 * The 1-based line of the first `#define` whose body (after its name and parameters, continuation lines
 * included) holds `name` as a word, or 0.
 */
function macroBodyUse(text: string, name: string, word: RegExp): number {
  const define = /^[ \t]*#[ \t]*define[ \t]+[\p{L}_][\p{L}\p{N}_]*(\([^)\n]*\))?((?:\\\r?\n|.)*)/gmu;
  for (const m of text.matchAll(define)) {
    if (m[1] && word.test(m[1])) continue; // the macro's own parameter
    if (m[2]!.includes(name) && word.test(m[2]!)) return text.slice(0, m.index).split("\n").length;
  }
  return 0;
}

/**
 * The other files of the language that contain the target's name as a word,
 * or a refusal: `unsupported_language` when the caller asked for the whole
 * project and another file may refer to the symbol.
 *
 * @param parsing Grammars (for file languages).
 * @param stage The call's stage.
 * @param target The target.
 * @param options The scope asked for, the tool and the new name (for the suggested call).
 * @returns The other files that contain the name (empty for a local symbol).
 */
export async function checkFileLocal(
  parsing: Parsing,
  stage: Stage,
  { target, ...options }: {
    target: FileLocalTarget;
    scope: "file" | "project";
    tool: string;
    newName?: string;
  },
): Promise<string[]> {
  const { occurrence: occ, path, language } = target;
  const word = new RegExp(`(?<![\\p{L}\\p{N}_$])${occ.name.replace(/[$]/g, "\\$")}(?![\\p{L}\\p{N}_$])`, "u");
  const macro = profileOf(language).macroBodiesAreText ? macroBodyUse(target.text, occ.name, word) : 0;
  if (macro > 0) {
    throw new RecoverableError(
      "unresolved",
      `Cannot resolve every use of "${occ.name}" in "${path}": the macro defined on line ${macro} names it in its body, which is not parsed`,
      {
        hint:
          "Edit the macro and its uses by hand (read_file, then edit_safe_text_patch), or rename another symbol",
        details: { path, name: occ.name, line: macro },
      },
    );
  }
  const scope = occ.binding?.scope;
  const local = !target.member && scope !== undefined &&
    (scope.kind === "function" || scope.kind === "block");
  if (local) return [];
  const project = openProject({ stage, parsing, limits: PROJECT_LIMITS.resolve });
  const files = await project.files({
    accept: (e) => e.kind === "file" && e.real !== path && project.languageOf(e.real) === language,
  });
  const others = await project.filesMentioning(occ.name, files);
  if (others.length === 0 || options.scope === "file") return others;
  const args: Record<string, unknown> = { path, target: target.at, scope: "file" };
  if (options.newName !== undefined) args["new_name"] = options.newName;
  throw new RecoverableError(
    "unsupported_language",
    `Cannot follow "${occ.name}" across files: graver resolves ${language} names within one file only, and ${others.length} other file(s) contain "${occ.name}" (${
      others.slice(0, 5).join(", ")
    })`,
    {
      hint: `Call again with scope "file" to ${
        options.newName === undefined ? "search" : "rename"
      } it in "${path}" only, then check the other files with find_symbol or read_file and edit them with edit_apply_node`,
      suggestedCall: { tool: options.tool, args },
      details: { path, language, name: occ.name, files: others.slice(0, 50), scope: "project" },
    },
  );
}
