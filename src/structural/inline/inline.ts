/**
 * Inline: a variable's initialiser in place of its uses (all of them, or the
 * one targeted), or a function's returned expression in place of its calls
 * (all of them, or the one targeted), with its parameters replaced by the
 * arguments — each substitution parenthesised where precedence needs it.
 * The declaration goes once nothing refers to it any more (in any file).
 * Refused when the result could behave differently: the variable is assigned
 * again, a name it reads changes or is shadowed at the use (`unresolved`,
 * `unsupported_call_site`, `name_clash`); an initialiser or argument with an
 * effect (a call, an assignment, a fresh object) would run twice, never, in
 * another order, or under a condition (`unsupported_call_site`); the function
 * has statements besides one `return` (`control_flow_escapes`), recurses, is
 * async, a generator or decorated (`unsupported_call_site`), or is used as a
 * value (`value_reference`).
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import type { Stage } from "../../fs/stage.ts";
import type { Occurrence } from "../../syntax/bindings.ts";
import type { Parsing } from "../../syntax/types.ts";
import { nodeOf } from "../shared/data_flow.ts";
import { accessOf } from "../shared/variable_access.ts";
import { type FamilyRules, lineOf } from "../shared/statement_ranges.ts";
import { INLINE_LANGUAGES } from "../shared/refactor_languages.ts";
import {
  asserted,
  changedThrough,
  conditionalAround,
  effectBefore,
  hasEffect,
  keepsIdentity,
  narrowingTest,
  parenthesised,
  readRoot,
  readsUntil,
  stateChangeBetween,
  stateReads,
} from "./_expr.ts";
import { inlineCalls } from "./_function.ts";
import { checkNames, type InlineContext, inlineRefusal, usesOf } from "./_context.ts";
import { removalEdit } from "../edit/node_edit.ts";
import { findReferences } from "../references/references.ts";
import { TextIndex } from "../../syntax/text_index.ts";
import { type ReferenceTarget, targetOccurrence } from "../references/reference_target.ts";
import { nodeTarget } from "../edit/selectors.ts";
import { applyTextEdits, type TextEdit } from "../edit/source.ts";
import { openBound } from "../shared/bound_source.ts";
import { fitFStringFields } from "../edit/python_fstrings.ts";
import { declaredVersion } from "../edit/target_version.ts";
import { typed } from "../shared/written_types.ts";

export { inlineLanguages } from "../shared/refactor_languages.ts";

/** Options of {@linkcode planInline}. */
export interface InlineOptions {
  /** Tool name for messages. */
  tool: string;
  /** Version of the file the caller holds. */
  expectedVersion?: string | undefined;
}

/** What an inlining does. */
export interface InlinePlan {
  /** Relative path. */
  path: string;
  /** The file's new text. */
  text: string;
  /** What was inlined. */
  kind: "variable" | "function";
  /** Its name. */
  name: string;
  /** 1-based lines of the replaced uses or calls (in the old text). */
  lines: number[];
  /** Whether the declaration was removed (nothing refers to it any more). */
  removed: boolean;
  /** Other files' references to it (imports and uses), left as they are: the declaration stays for them. */
  elsewhere: { path: string; line: number }[];
}

/**
 * Plan an inlining.
 *
 * @param parsing Grammars and parse cache.
 * @param stage The call's stage.
 * @param path The file.
 * @param target The declaration (name path, or {line, column} on its name) for every use, or one use or call.
 * @param options Tool name and expected version.
 * @returns The plan; a RecoverableError when the result cannot be proven to behave the same.
 */
export async function planInline(
  parsing: Parsing,
  stage: Stage,
  { path, target, ...options }: { path: string; target: ReferenceTarget } & InlineOptions,
): Promise<InlinePlan> {
  const { file, fb, rules } = await openBound(parsing, stage, {
    path,
    ...options,
    doing: "inlining",
    languages: INLINE_LANGUAGES,
  });
  const occ = await targetOccurrence(parsing, fb, { target, tool: options.tool });
  const { binding, declaration } = localDeclarationOf(file, fb, occ);
  const ctx: InlineContext = { file, fb, rules, binding, declaration, target: occ, tool: options.tool };
  const all = occ === declaration;
  let inlined: { kind: InlinePlan["kind"]; edits: InlineEdits };
  try {
    inlined = inlineByDeclaration(ctx);
  } catch (err) {
    // Nothing to inline here: say where it is used instead, when other files use it.
    if (!all || !(err instanceof RecoverableError) || err.code !== "no_match") throw err;
    throw await usedOnlyElsewhere(parsing, stage, { ctx, options, err });
  }
  const { kind, edits } = inlined;
  let removed = false;
  const out = await fitToDeclaredVersion(stage, ctx, edits.sites);
  const elsewhere = all ? await usesElsewhere(parsing, stage, ctx, options) : [];
  // A name the module lists as exported (`__all__`) keeps its declaration.
  const listed = ctx.fb.occurrences.some((o) => o.binding === ctx.binding && o.kind === "export_entry");
  if (all && elsewhere.length === 0 && !listed) {
    const statement = edits.statement;
    const single = statement.type !== "lexical_declaration" && statement.type !== "variable_declaration" ||
      statement.namedChildren.filter((c) => c?.type === "variable_declarator").length === 1;
    if (single && statement.parent?.type !== "export_statement") {
      out.push(removalEdit(file, nodeTarget(file, statement)));
      removed = true;
    }
  }
  return {
    path: file.rel,
    text: applyTextEdits(file.text, out),
    kind,
    name: binding.name,
    lines: edits.lines,
    removed,
    elsewhere,
  };
}

/** The edits of an inlining: the replaced sites, their lines, and the declaring statement. */
type InlineEdits = { sites: TextEdit[]; lines: number[]; statement: Node };

/** The binding and declaration of the targeted name, refused when it is not declared in this file. */
function localDeclarationOf(
  file: InlineContext["file"],
  fb: InlineContext["fb"],
  occ: Occurrence,
): { binding: InlineContext["binding"]; declaration: Occurrence } {
  const binding = occ.binding;
  const declaration = binding
    ? fb.occurrences.find((o) => o.binding === binding && o.kind === "definition")
    : undefined;
  if (!binding || !declaration) {
    throw new RecoverableError(
      "unresolved",
      `Cannot inline "${occ.name}" in "${file.rel}" (line ${
        lineOf(file.text, occ.start)
      }): it is not a variable or function declared in this file`,
      {
        hint: "Target a local variable or function: its name path, or the line and column of its name",
        details: { path: file.rel, name: occ.name },
      },
    );
  }
  const imported = fb.imports.find((i) => i.local === binding);
  if (imported) {
    throw new RecoverableError(
      "invalid_args",
      `Cannot inline "${occ.name}" in "${file.rel}" (line ${
        lineOf(file.text, occ.start)
      }): it is imported from "${imported.source}" (line ${
        lineOf(file.text, declaration.start)
      }), and edit_inline works in the file that declares it`,
      {
        hint:
          `Inline it where it is declared: edit_inline with target on its declaration (find_references on this use shows where); uses in other files are not inlined`,
        details: { path: file.rel, name: occ.name, source: imported.source },
        suggestedCall: {
          tool: "find_references",
          args: { path: file.rel, target: new TextIndex(file.text).position(occ.start) },
        },
      },
    );
  }
  return { binding, declaration };
}

/** Inline a function or a variable, by what declares the name. */
function inlineByDeclaration(ctx: InlineContext): { kind: InlinePlan["kind"]; edits: InlineEdits } {
  const declNode = nodeOf(ctx.file, ctx.declaration);
  const holder = declNode.parent;
  if (holder && (holder.type === "function_declaration" || holder.type === "function_definition")) {
    return { kind: "function", edits: inlineCalls(ctx, holder, holder) };
  }
  if (holder?.type === "variable_declarator" && holder.childForFieldName("name")?.id === declNode.id) {
    const value = holder.childForFieldName("value");
    if (value && /^(?:arrow_function|function_expression|function)$/.test(value.type)) {
      return { kind: "function", edits: inlineCalls(ctx, value, holder.parent!) };
    }
    return { kind: "variable", edits: inlineVariable(ctx, value, holder.parent!) };
  }
  if (holder?.type === "assignment" && holder.childForFieldName("left")?.id === declNode.id) {
    return {
      kind: "variable",
      edits: inlineVariable(ctx, holder.childForFieldName("right"), holder.parent!),
    };
  }
  throw inlineRefusal(
    ctx,
    "invalid_args",
    {
      why: "it is not declared by a plain variable declaration or a function",
      hint: "Inline a variable declared with one name and a value, or a function declaration",
      offset: ctx.declaration.start,
    },
  );
}

/** The `no_match` refusal naming the other files that use the name, or `err` itself when none do. */
async function usedOnlyElsewhere(
  parsing: Parsing,
  stage: Stage,
  { ctx, options, err }: { ctx: InlineContext; options: InlineOptions; err: RecoverableError },
): Promise<RecoverableError> {
  const { file, binding, declaration } = ctx;
  const elsewhere = await usesElsewhere(parsing, stage, ctx, options);
  if (elsewhere.length === 0) return err;
  return new RecoverableError(
    "no_match",
    `Cannot inline "${binding.name}" in "${file.rel}": this file does not use it, and edit_inline replaces uses only in the file that declares it (${elsewhere.length} reference(s) in other files: ${
      elsewhere.slice(0, 5).map((s) => `${s.path}:${s.line}`).join(", ")
    }${elsewhere.length > 5 ? ", …" : ""})`,
    {
      hint: "Keep the declaration, or change those files by hand; find_references lists every use",
      details: { path: file.rel, name: binding.name, elsewhere },
      suggestedCall: {
        tool: "find_references",
        args: { path: file.rel, target: new TextIndex(file.text).position(declaration.start) },
      },
    },
  );
}

/**
 * The substitutions fitted to the project's declared language version (a
 * Python f-string field re-quoted so it runs before 3.12), or the refusal.
 */
async function fitToDeclaredVersion(
  stage: Stage,
  ctx: InlineContext,
  sites: TextEdit[],
): Promise<TextEdit[]> {
  const declared = await declaredVersion(stage, ctx.file.rel, ctx.file.language);
  const fitted = fitFStringFields(ctx.file, sites, declared);
  if ("edits" in fitted) return fitted.edits;
  throw inlineRefusal(
    ctx,
    "unsupported_call_site",
    {
      why: `the inlined text lands in an f-string's replacement field, where ${fitted.problem.reason}`,
      hint:
        "Inline at the other sites one by one (target a single call or use), or bind the value to a variable before the f-string first",
      offset: fitted.problem.at,
    },
  );
}

/** The references other files make to a module-level symbol (none for a local one). */
async function usesElsewhere(
  parsing: Parsing,
  stage: Stage,
  ctx: InlineContext,
  options: InlineOptions,
): Promise<{ path: string; line: number }[]> {
  const { fb, binding, declaration } = ctx;
  const exported = fb.exportsAll || fb.exports.some((e) => e.local === binding);
  if (binding.scope.kind !== "module" || !exported) return [];
  const lineStart = fb.text.lastIndexOf("\n", declaration.start - 1) + 1;
  const search = await findReferences(parsing, stage, {
    path: ctx.file.rel,
    target: {
      line: lineOf(fb.text, declaration.start),
      column: declaration.start - lineStart + 1,
    },
    tool: options.tool,
    scope: "project",
  });
  const seen = new Set<string>();
  return search.sites.filter((s) => {
    const key = `${s.path}:${s.line}`;
    if (s.path === ctx.file.rel || seen.has(key)) return false;
    seen.add(key);
    return true;
  }).map((s) => ({ path: s.path, line: s.line }));
}

/** The statement of `container`'s block that holds `node`. */
function statementOf(node: Node, rules: FamilyRules): Node {
  let n = node;
  while (n.parent && !rules.containers.has(n.parent.type)) n = n.parent;
  return n;
}

/** A variable's initialiser in place of its uses. */
function inlineVariable(
  ctx: InlineContext,
  value: Node | null,
  statement: Node,
): { sites: TextEdit[]; lines: number[]; statement: Node } {
  const { file } = ctx;
  const initial = singleValueOf(ctx, value);
  const uses = usesOf(ctx);
  const sites = variableSitesOf(ctx, uses);
  if (hasEffect(initial)) refuseEffectfulValue(ctx, { statement, uses, sites });
  const valueText = file.text.slice(initial.startIndex, initial.endIndex);
  const written = writtenType(ctx);
  const edits: TextEdit[] = [];
  for (const site of sites) {
    checkNarrowingKept(ctx, initial, { site, uses });
    checkNames(ctx, initial, { site, from: initial.endIndex, skip: new Set() });
    checkStateUnchanged(ctx, initial, site, statement);
    if (uses.length > 1) checkIdentityKept(ctx, initial, site);
    const node = nodeOf(file, site);
    const placed = written ? asserted(initial, valueText, written) : parenthesised(initial, valueText, node);
    const text = site.kind === "shorthand" ? `${site.name}: ${placed}` : placed;
    edits.push({ start: site.start, end: site.end, text });
  }
  return { sites: edits, lines: sites.map((s) => lineOf(file.text, s.start)), statement };
}

/** The variable's value, refused when it has none or is assigned again. */
function singleValueOf(ctx: InlineContext, value: Node | null): Node {
  const { file, fb, rules, binding, declaration } = ctx;
  if (!value) {
    throw inlineRefusal(
      ctx,
      "invalid_args",
      { why: "it is declared without a value", hint: "Give it a value first", offset: declaration.start },
    );
  }
  const write = fb.occurrences.find((o) =>
    o.binding === binding && o !== declaration &&
    (o.kind === "definition" || accessOf(o, nodeOf(file, o), rules) !== "read")
  );
  if (write) {
    throw inlineRefusal(
      ctx,
      "unresolved",
      {
        why: `it is assigned again at line ${
          lineOf(file.text, write.start)
        }, so its uses do not all see the initial value`,
        hint: "Inline only variables assigned once",
        offset: write.start,
      },
    );
  }
  return value;
}

/** The uses to replace (every use, or the one targeted), refused when there is none. */
function variableSitesOf(ctx: InlineContext, uses: Occurrence[]): Occurrence[] {
  const { declaration, target } = ctx;
  const sites = target === declaration ? uses : uses.filter((u) => u === target);
  if (sites.length === 0) {
    throw inlineRefusal(
      ctx,
      "no_match",
      {
        why: target === declaration ? "it is never used" : "the position is not a use of it",
        hint: target === declaration
          ? "Remove the declaration with remove_symbol instead"
          : "Target the declaration (every use) or one use",
        offset: target.start,
      },
    );
  }
  return sites;
}

/** Refuse an initialiser with an effect unless its one use is in the next statement, unconditional, first. */
function refuseEffectfulValue(
  ctx: InlineContext,
  { statement, uses, sites }: { statement: Node; uses: Occurrence[]; sites: Occurrence[] },
): void {
  const { file, rules, declaration } = ctx;
  // An initialiser with an effect runs once, where it was: only into its one use, right below it.
  const only = uses.length === 1 && sites.length === 1 ? sites[0]! : null;
  const next = statement.nextNamedSibling;
  const useNode = only ? nodeOf(file, only) : null;
  const useStatement = useNode ? statementOf(useNode, rules) : null;
  const why = !only
    ? `its value has an effect (a call, an assignment or a fresh object) and it is used ${uses.length} times`
    : useStatement?.id !== next?.id
    ? "its value has an effect and its use is not in the statement right after it"
    : conditionalAround(useNode!, useStatement!)
    ? "its value has an effect and its use may run zero or several times"
    : effectBefore(useStatement!, useNode!.startIndex)
    ? "its value has an effect and would run after other effects of the statement that uses it"
    : null;
  if (why) {
    throw inlineRefusal(
      ctx,
      "unsupported_call_site",
      {
        why,
        hint:
          "Keep the variable, or inline a variable whose value is a plain expression of names and literals",
        offset: only?.start ?? declaration.start,
      },
    );
  }
}

/**
 * TypeScript: the type written on the variable (`const ieXHR: any = xhr`), which its uses see and its value
 * alone may not (`xhr.responseText` on an `XMLHttpRequest` narrowed to `never`): each use gets the value as
 * that type. A union type is refused (`types_required`): TypeScript narrows it to the value's type at each
 * use, which neither the bare value nor the assertion reproduces.
 */
function writtenType(ctx: InlineContext): string | null {
  if (!typed(ctx.file.language)) return null;
  const declarator = nodeOf(ctx.file, ctx.declaration)?.parent;
  const type = declarator?.type === "variable_declarator" ? declarator.childForFieldName("type") : null;
  const inner = type?.type === "type_annotation" ? type.namedChildren[0] : null;
  if (!inner) return null;
  if (inner.type === "union_type") {
    throw inlineRefusal(
      ctx,
      "types_required",
      {
        why:
          `its declared type \`${inner.text}\` is a union, which TypeScript narrows at each use to what the value holds; the inlined value would not have that type`,
        hint: "Keep the variable, or declare it without the union (or without a type) first",
        offset: ctx.declaration.start,
      },
    );
  }
  return inner.text;
}

/** Values a narrowing test cannot make more precise than they are written: literals. */
const LITERALS = new Set(["number", "string", "true", "false", "null", "undefined"]);

/**
 * TypeScript narrows a variable tested in a condition (`if (isArray(first))`, `first !== null`) for the
 * code after the test, callbacks included when it is a `const`; the value put in its place (`args[0]`, a
 * call, a parameter's property) is not narrowed the same way, so a use after such a test keeps the variable.
 */
function checkNarrowingKept(
  ctx: InlineContext,
  value: Node,
  { site, uses }: { site: Occurrence; uses: Occurrence[] },
): void {
  if (!typed(ctx.file.language) || LITERALS.has(value.type)) return;
  const { file } = ctx;
  for (const use of uses) {
    if (use.start >= site.start) break;
    const test = narrowingTest(nodeOf(file, use));
    if (!test) continue;
    throw inlineRefusal(
      ctx,
      "types_required",
      {
        why: `line ${lineOf(file.text, use.start)} tests "${use.name}" (${
          firstLine(file.text.slice(test.startIndex, test.endIndex))
        }), which TypeScript narrows it by for the use at line ${lineOf(file.text, site.start)}; the value (${
          firstLine(file.text.slice(value.startIndex, value.endIndex))
        }) would not be narrowed there`,
        hint:
          "Keep the variable, or inline only the uses up to that test (target one use by its line and column)",
        offset: site.start,
      },
    );
  }
}

/**
 * A value that reads an attribute or an item (`self._munge_cte`, `parts[0]`) moves to a use only when no code
 * that may change it runs in between: a call, `del`, or an assignment to an attribute or item (in a loop
 * after the value, the whole loop counts).
 */
function checkStateUnchanged(ctx: InlineContext, value: Node, site: Occurrence, statement: Node): void {
  const { file } = ctx;
  const until = readsUntil(nodeOf(file, site), statement.startIndex);
  for (const read of stateReads(value)) {
    const name = readRoot(read);
    if (name === null) continue;
    const change = stateChangeBetween(file.tree.rootNode, { from: value.endIndex, to: until, name });
    if (!change) continue;
    const readText = file.text.slice(read.startIndex, read.endIndex);
    throw inlineRefusal(
      ctx,
      "unsupported_call_site",
      {
        why: `its value reads "${readText}", and line ${lineOf(file.text, change.startIndex)} (${
          firstLine(file.text.slice(change.startIndex, change.endIndex))
        }) may change it before the use at line ${lineOf(file.text, site.start)}`,
        hint:
          "Keep the variable, or inline only uses before that line (target one use by its line and column)",
        offset: change.startIndex,
      },
    );
  }
}

function firstLine(text: string): string {
  const line = text.split("\n")[0]!;
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

/**
 * A use that changes its object (`x[c] = …`, `x.append(…)`) needs the variable's one object when other uses
 * read it: a value that may make a new one each time (`a[:]`, `a + b`) is not inlined there.
 */
function checkIdentityKept(ctx: InlineContext, value: Node, site: Occurrence): void {
  if (keepsIdentity(value) || !changedThrough(nodeOf(ctx.file, site))) return;
  const { file } = ctx;
  throw inlineRefusal(
    ctx,
    "unsupported_call_site",
    {
      why: `line ${lineOf(file.text, site.start)} changes the object "${site.name}" holds, and its value (${
        firstLine(file.text.slice(value.startIndex, value.endIndex))
      }) may make a new object each time it runs`,
      hint: "Keep the variable",
      offset: site.start,
    },
  );
}
