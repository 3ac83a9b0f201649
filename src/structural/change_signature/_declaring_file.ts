/**
 * The function whose signature changes, opened on a stage: its declaring
 * file's bindings (in a language graver changes signatures in, else
 * `unsupported_language`) and the function located by name path or position;
 * and the refusal of a decorator that may register it (and call it with
 * arguments graver cannot see).
 *
 * @module
 */
import { RecoverableError } from "../../errors.ts";
import type { Stage } from "../../fs/stage.ts";
import { type FileBindings, fileBindings } from "../../syntax/bindings.ts";
import type { Parsing } from "../../syntax/types.ts";
import { SIGNATURE_LANGUAGES } from "../shared/refactor_languages.ts";
import { registeringDecorator } from "../shared/decorators.ts";
import type { ReferenceTarget } from "../references/references.ts";
import { targetOccurrence } from "../references/reference_target.ts";
import { loadSource } from "../edit/source.ts";
import { type FunctionDecl, locateFunction } from "./_decl.ts";

/** The declaring file's bindings and the function located in it. */
export interface Opened {
  /** The file's bindings (and text). */
  fb: FileBindings;
  /** The function. */
  decl: FunctionDecl;
}

/** Open the declaring file on a stage and locate the function. */
export async function openFunction(
  parsing: Parsing,
  stage: Stage,
  { path, target, ...options }: {
    path: string;
    target: ReferenceTarget;
    tool: string;
    expectedVersion?: string | undefined;
  },
): Promise<Opened> {
  const file = await loadSource(parsing, stage, { path, ...options });
  const fb = SIGNATURE_LANGUAGES.includes(file.language)
    ? await fileBindings(parsing, {
      path: file.rel,
      language: file.language,
      version: file.version,
      text: file.text,
    })
    : null;
  if (!fb) {
    throw new RecoverableError(
      "unsupported_language",
      `Cannot change a signature in "${file.rel}": graver changes signatures in TypeScript, TSX, JavaScript and Python, not ${file.language}`,
      {
        hint:
          "Edit the declaration with replace_symbol and each call site by hand (find_references lists them where supported)",
        suggestedCall: { tool: "edit_capabilities", args: { language: file.language } },
        details: { path: file.rel, language: file.language },
      },
    );
  }
  const occ = await targetOccurrence(parsing, fb, { target, tool: options.tool });
  const tree = (await parsing.trees!.parse(fb.path, fb.language, fb.version, fb.text)).tree;
  return { fb, decl: locateFunction(fb, tree, occ) };
}

/**
 * Refuse (`value_reference`) a function with a decorator that may register it (`@rule def f(h, f)` in CPython's
 * email.mime.image: the registry calls it with positional arguments graver cannot see); decorators known to
 * only wrap or annotate are fine.
 */
export async function checkDecorators(parsing: Parsing, fb: FileBindings, decl: FunctionDecl): Promise<void> {
  const tree = (await parsing.trees!.parse(fb.path, fb.language, fb.version, fb.text)).tree;
  let node = tree.rootNode.descendantForIndex(decl.start, decl.start) ?? tree.rootNode;
  while (node.parent && node.parent.startIndex === decl.start && node.parent.endIndex <= decl.end) {
    node = node.parent;
  }
  let start = node.parent?.type === "decorated_definition" ? node.parent.startIndex : decl.start;
  for (let d = node.previousNamedSibling; d?.type === "decorator"; d = d.previousNamedSibling) {
    start = d.startIndex;
  }
  const found = registeringDecorator(
    { rel: fb.path, text: fb.text, language: fb.language, root: tree.rootNode },
    fb,
    // A decorator imported from anywhere is judged by its qualified name against the harmless list.
    { spans: [{ fullStart: start, fullEnd: decl.start }], inWorkspace: () => false },
  );
  if (found === null || !found.own) return;
  throw new RecoverableError(
    "value_reference",
    `Cannot change the signature of "${decl.name}" ("${fb.path}" line ${decl.line}): its decorator ${found.written} (line ${found.line}) receives the function when the module is imported, and may call it with arguments graver cannot see`,
    {
      hint:
        "Leave the parameters as they are, or check what the decorator does with the function and change it and its callers together by hand",
      details: { path: fb.path, line: decl.line, decorator: found.written, decorator_line: found.line },
    },
  );
}
