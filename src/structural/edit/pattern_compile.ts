/**
 * A code pattern compiled for one language (matching it is `pattern.ts`'s): its metavariables encoded as
 * identifiers the grammar reads, parsed in the first context that reads it whole (an expression, a statement,
 * a member, a body), and turned into the pattern tree (`pattern_tree.ts`); a pattern the grammar reads only as
 * an ERROR is kept as one (`anyKind`), as ast-grep keeps it, and one no context reads is refused with what the
 * grammar saw.
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";
import type { Node, Parser } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import { bracketsBalance } from "../../syntax/brackets.ts";
import {
  bindingNames,
  type EncodedPattern,
  encodedPatterns,
  errorsAreMetavariables,
  type MetaVariable,
} from "./pattern_encodings.ts";
import { convert, type PatternNode } from "./pattern_tree.ts";

/** A pattern parsed for one language. */
export interface CompiledPattern {
  /** The pattern as written. */
  source: string;
  /** Language id. */
  language: string;
  /** The node the pattern stands for. */
  root: PatternNode;
  /** Names of the binding metavariables, in order of appearance. */
  metavariables: string[];
  /**
   * ast-grep's "smart" strictness: an unnamed token of the code that the pattern does not have (a `;`, an
   * `async`) is skipped, so `return $X` matches `return x;`. Off by default (a node edit matches exactly).
   */
  smart?: boolean;
}

interface Context {
  prefix: string;
  suffix: string;
  /** Indent every pattern line with this (Python bodies). */
  indent?: string;
}

function deepestExact(root: Node, start: number, end: number): Node | null {
  let best: Node | null = root.startIndex === start && root.endIndex === end ? root : null;
  let node = root;
  for (;;) {
    const next = node.children.find((c) => c !== null && c.startIndex <= start && c.endIndex >= end);
    if (!next) return best;
    node = next;
    if (node.startIndex === start && node.endIndex === end) best = node;
  }
}

/**
 * Parse a pattern with a language's grammar. The pattern is tried as written,
 * then inside the usual contexts of that language (a function body, a class
 * body, a statement ending in `;`), with metavariables spelled `$X`, `µX`,
 * `graver_mv_X`, or typed (`Object p` or `p: Any` in a parameter list, `p();` in a block) —
 * whichever the grammar parses without errors.
 *
 * @param parser A parser set to the language.
 * @param language Language id.
 * @param source The pattern, e.g. `console.log($$$ARGS)`.
 * @returns The compiled pattern; `invalid_query` when no context parses it as one node.
 */
export function compilePattern(parser: Parser, language: string, source: string): CompiledPattern {
  const src = source.trim();
  if (src === "") {
    throw new RecoverableError("invalid_query", "Cannot use an empty pattern", {
      hint: 'Write the code to find, e.g. "console.log($$$ARGS)" or "def $NAME($$$P): $$$B"',
      details: { pattern: source },
    });
  }
  const names = bindingNames(src);
  const encodings = encodedPatterns(src);
  const root = firstParse(parser, { encodings, contexts: profileOf(language).patternWrappers }) ??
    errorRootParse(parser, encodings);
  if (root?.meta) throw onlyAMetavariable(src);
  if (root) return { source: src, language, root, metavariables: names };
  throw new RecoverableError("invalid_query", `Cannot parse the pattern "${src}" as one ${language} node`, {
    hint:
      `Write one complete ${language} construct (an expression, a statement or a definition) with $X / $$$ARGS for the parts that vary; or use a tree-sitter query selector`,
    details: { pattern: src, language },
  });
}

/**
 * The refusal of a search by a pattern that is one metavariable alone (it would list every node; inside a rule
 * such a pattern binds what it stands on: {@linkcode loneMetavariable}).
 *
 * @param src The pattern.
 * @returns The refusal.
 */
export function onlyAMetavariable(src: string): RecoverableError {
  return new RecoverableError("invalid_query", `Cannot use the pattern "${src}": it is only a metavariable`, {
    hint: 'Write the surrounding code too, e.g. "foo($X)" rather than "$X"; in a rule, "has": {"field": ' +
      '"name", "pattern": "$X"} binds what a field holds',
    details: { pattern: src },
  });
}

/** A pattern parsed as written, in no context. */
const AS_IS: Context = { prefix: "", suffix: "" };

/**
 * The pattern's node in the first spelling and context the grammar parses it in without an error — or, before
 * the contexts of a spelling, as written where its only errors are metavariables the grammar takes no name
 * for (`$$$C` in `switch ($X) { $$$C }`, read as ast-grep reads it rather than as a method named `switch`).
 */
function firstParse(
  parser: Parser,
  tries: { encodings: readonly EncodedPattern[]; contexts: readonly Context[] },
): PatternNode | null {
  // Only where the language reads a pattern as written first (C# and Go try a class or a body first).
  const first = tries.contexts[0];
  const asWrittenFirst = first?.prefix === "" && first.suffix === "" && !first.indent;
  const inContexts = (e: EncodedPattern, loose: boolean) =>
    tries.contexts.reduce<PatternNode | null>((found, ctx) => found ?? parsedIn(parser, e, ctx, loose), null);
  for (const e of tries.encodings) {
    const root = (asWrittenFirst ? parsedIn(parser, e, AS_IS, true) : null) ?? inContexts(e, false);
    if (root) return root;
  }
  // Last, in any context: Go's `switch $X { $$$C }` reads only inside a function body, its `$$$C` an ERROR.
  for (const e of tries.encodings) {
    const root = inContexts(e, true);
    if (root) return root;
  }
  return null;
}

/**
 * The pattern's node parsed in one context, or null when no node spans it or the grammar sees an error — or,
 * with `metavariableErrors`, unless every error it sees is a metavariable alone (and it sees one).
 */
function parsedIn(
  parser: Parser,
  e: EncodedPattern,
  ctx: Context,
  metavariableErrors = false,
): PatternNode | null {
  const indent = ctx.indent ?? "";
  const body = indent ? e.encoded.replace(/\n/g, `\n${indent}`) : e.encoded;
  const full = ctx.prefix + indent + body + ctx.suffix;
  const tree = parser.parse(full);
  if (!tree) return null;
  try {
    const errors = tree.rootNode.hasError;
    if (metavariableErrors ? !errors || !errorsAreMetavariables(tree.rootNode, e.metas) : errors) return null;
    const start = ctx.prefix.length + indent.length;
    const node = deepestExact(tree.rootNode, start, start + body.length);
    return node ? patternNodeOf(node, e, full) : null;
  } finally {
    tree.delete();
  }
}

/**
 * The pattern read as ast-grep reads one its grammar cannot take whole (`import {$$$A} from $B`: `from` wants
 * a string; `$A ? $B`): as written, one ERROR node spanning it all, which matches a node of any kind whose
 * children match its own (`anyKind`); or a whole node inside that ERROR (`@$D`: a decorator, alone). Only
 * where every bracket the pattern opens it closes, and nothing inside that node is in error.
 */
function errorRootParse(parser: Parser, encodings: readonly EncodedPattern[]): PatternNode | null {
  if (!bracketsBalance(encodings[0]!.encoded)) return null; // a pattern cut short (`f($A`): refused as it is
  for (const e of encodings) {
    const tree = parser.parse(e.encoded);
    if (!tree) continue;
    try {
      const node = deepestExact(tree.rootNode, 0, e.encoded.length);
      if (node === null) continue;
      if (node.type !== "ERROR") {
        // A whole node the grammar objects to only around it (a decorator with no definition after it).
        const whole = node.hasError ? null : patternNodeOf(node, e, e.encoded);
        if (whole) return whole;
        continue;
      }
      if (node.children.some((c) => c === null || c.hasError || c.isMissing)) continue;
      const root = patternNodeOf(node, e, e.encoded);
      if (root && root.children.length > 0) return { ...root, anyKind: true };
    } finally {
      tree.delete();
    }
  }
  return null;
}

/** `node` as a pattern node; null when a metavariable did not parse as one node (Rust macros: `$X` is two). */
function patternNodeOf(node: Node, e: EncodedPattern, source: string): PatternNode | null {
  const seen = new Map<string, number>();
  const root = convert(node, { metas: e.metas, seen, source, at: node.startIndex });
  return [...e.uses].some(([token, n]) => seen.get(token) !== n) ? null : root;
}

/** ast-grep's pattern object: the code to parse whole, and the kind of the node in it that is the pattern. */
export interface PatternInContext {
  /** Code the grammar reads whole (a class around a field, a function around a statement). */
  context: string;
  /** The node type of the pattern's node: the first node of that type in the context, in document order. */
  selector: string;
}

/** The first node of `type` under `root`, in document order (pre-order), or null. */
function firstOfType(root: Node, type: string): Node | null {
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === type) return node;
    for (let i = node.childCount - 1; i >= 0; i--) {
      const child = node.child(i);
      if (child) stack.push(child);
    }
  }
  return null;
}

/** How many times each spelling of `e` occurs in `text` (the part of the context the selector picked). */
function usesIn(e: EncodedPattern, text: string): Map<string, number> {
  const out = new Map<string, number>();
  // Longest spellings first, so that `µµµX` is not counted as `µX` too.
  const tokens = [...e.metas.keys()].sort((a, b) => b.length - a.length);
  let rest = text;
  for (const token of tokens) {
    const n = rest.split(token).length - 1;
    if (n > 0) out.set(token, n);
    rest = rest.replaceAll(token, " ");
  }
  return out;
}

/**
 * Compile ast-grep's pattern object, `{context, selector}`: the context is parsed whole (its metavariables
 * spelled as a pattern's), and the first node of the selector's type in it is the pattern — so a part the
 * grammar cannot read alone (a class field `$F = $I`, a Go call `fmt.Sprintf($$$A)` that alone reads as a type
 * conversion) is read where it stands.
 *
 * @param parser A parser set to the language.
 * @param language Language id.
 * @param object The context and the selector.
 * @returns The compiled pattern (its metavariables those inside the selected node).
 * @throws RecoverableError `invalid_query` when no spelling of the context parses without an error, or no node
 *   of the selector's type is in it.
 */
export function compilePatternIn(
  parser: Parser,
  language: string,
  object: PatternInContext,
): CompiledPattern {
  const src = object.context.trim();
  let parsedWhole = false;
  for (const e of encodedPatterns(src)) {
    const tree = parser.parse(e.encoded);
    if (!tree) continue;
    try {
      if (tree.rootNode.hasError && !errorsAreMetavariables(tree.rootNode, e.metas)) continue;
      const node = firstOfType(tree.rootNode, object.selector);
      parsedWhole = true;
      if (node === null) continue;
      const seen = new Map<string, number>();
      const root = convert(node, { metas: e.metas, seen, source: e.encoded, at: node.startIndex });
      const uses = usesIn(e, e.encoded.slice(node.startIndex, node.endIndex));
      if ([...uses].some(([token, n]) => seen.get(token) !== n)) continue;
      const names = bindingNames(src).filter((name) =>
        [...uses.keys()].some((t) => e.metas.get(t)?.name === name)
      );
      return { source: `${src} (selector: ${object.selector})`, language, root, metavariables: names };
    } finally {
      tree.delete();
    }
  }
  const hint = parsedWhole
    ? `The context has no ${object.selector} node: pass the type of the node to match, as tree-sitter names it`
    : `Write a context the ${language} grammar reads whole (a complete class, function or statement)`;
  throw new RecoverableError(
    "invalid_query",
    `Cannot use the pattern's context "${src}" with the selector ${object.selector} in ${language}`,
    { hint, details: { context: src, selector: object.selector, language } },
  );
}

/**
 * A pattern that is one metavariable alone (`$KEY`, `$_`), as a rule's patterns may be (`has: {field: name,
 * pattern: $KEY}` binds what a field holds): it matches any named node and binds it. Null for any other text. A
 * search by such a pattern alone is refused (`compilePattern`): it would list every node.
 *
 * @param source The pattern as written.
 * @param language Language id.
 * @returns The compiled pattern, or null.
 */
export function loneMetavariable(source: string, language: string): CompiledPattern | null {
  const m = /^\$(\$?)([A-Z_][A-Z0-9_]*)$/.exec(source.trim());
  if (m === null) return null;
  const name = m[2]!;
  const meta: MetaVariable = { name, multi: false };
  if (m[1] === "$") meta.unnamed = true; // `$$OP`: an unnamed node too (an operator in a field)
  const root: PatternNode = { type: "", named: true, text: "", children: [], meta, anyKind: true };
  return { source: source.trim(), language, root, metavariables: name.startsWith("_") ? [] : [name] };
}
