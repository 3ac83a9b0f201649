/**
 * The class-hierarchy check of a signature change: a method or constructor
 * whose signature changes goes through the override rule of
 * `references/overrides.ts`, with change_signature's words.
 *
 * @module
 */
import type { Stage } from "../../fs/stage.ts";
import type { FileBindings } from "../../syntax/bindings.ts";
import type { Parsing } from "../../syntax/types.ts";
import { checkMemberOverrides } from "../references/overrides.ts";
import type { FunctionDecl } from "./_decl.ts";

/**
 * Refuse with `overrides_present` when a function's signature would change
 * while it takes part in overriding, or while a subclass inherits the constructor.
 *
 * @param parsing Grammars and parse cache.
 * @param stage The call's stage.
 * @param fb The declaring file's bindings.
 * @param decl The function.
 * @param tool Tool name for messages.
 */
export async function checkOverrides(
  parsing: Parsing,
  stage: Stage,
  { fb, decl, tool }: { fb: FileBindings; decl: FunctionDecl; tool: string },
): Promise<void> {
  if (decl.kind === "function" || !decl.classScope) return;
  await checkMemberOverrides(parsing, stage, {
    fb,
    subject: {
      name: decl.name,
      line: decl.line,
      kind: decl.kind === "constructor" ? "constructor" : "member",
      classScope: decl.classScope,
      override: decl.override,
    },
    tool,
    action: "change the signature of",
    hint:
      "Change every method of the hierarchy together by hand (replace_symbol on each, then the calls), or add a new method with the new signature and move callers to it",
  });
}
