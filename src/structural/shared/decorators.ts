/**
 * Decorators that pin a declaration to its module: a decorator runs when
 * the module is imported and receives the function or class, so one that
 * registers it (`@rule` appending to a list, `@app.route`, a TypeScript
 * class decorator) would no longer run there once the declaration moves to a
 * module that nothing imports. edit_move_decl refuses such a move with
 * `value_reference`; only decorators known to wrap or annotate
 * (the profile's `functions.harmlessDecorators`) let it move.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import { profileOf } from "../../languages/profiles.ts";
import { type FileBindings, occurrenceAt } from "../../syntax/bindings.ts";
import { TextIndex } from "../../syntax/text_index.ts";

/** Python: a property's own accessor decorators (`@name.setter` under `def name` with `@property`). */
const PROPERTY_ACCESSOR = /^([\p{L}_][\p{L}\p{N}_]*)\.(?:setter|getter|deleter)$/u;

/** Node types of functions: decorators in their bodies run when they are called, not at import. */
const FUNCTION_TYPES = new Set([
  "function_definition",
  "lambda",
  "function_declaration",
  "function_expression",
  "arrow_function",
  "method_definition",
  "generator_function_declaration",
]);

/** What the refusal needs of the file the declaration leaves. */
export interface DecoratedSource {
  /** Its relative path. */
  rel: string;
  /** Its text. */
  text: string;
  /** Its language id. */
  language: string;
  /** Its parse's root. */
  root: Node;
}

/** A decorator that runs when its module is imported and is not known to only wrap or annotate. */
export interface RegisteringDecorator {
  /** The decorator as written, on one line (`@rule`). */
  written: string;
  /** Its 1-based line. */
  line: number;
  /** Whether it decorates the declaration itself (false: a member of a class body). */
  own: boolean;
}

/**
 * The first decorator in the spans that runs when the module is imported (the declaration's own, or a class
 * member's) and is not known to be harmless: a decorator of the workspace, an unknown one, a call to a
 * harmless one whose arguments call something. Such a decorator may register what it decorates, so moving it
 * or changing its signature changes what the registry holds or how it is called.
 *
 * @param source The source file.
 * @param fb Its bindings.
 * @param options The declaration's spans (with their decorations), and whether a decorator's module is a
 *   workspace file.
 * @returns The decorator, or null.
 */
export function registeringDecorator(
  source: DecoratedSource,
  fb: FileBindings,
  options: { spans: { fullStart: number; fullEnd: number }[]; inWorkspace: (module: string) => boolean },
): RegisteringDecorator | null {
  const harmless = profileOf(source.language).functions.harmlessDecorators;
  for (const span of options.spans) {
    for (const decorator of decoratorsIn(source.root, span.fullStart, span.fullEnd)) {
      const qualified = qualifiedName(fb, decorator, options.inWorkspace);
      if (qualified !== null && harmless.has(qualified)) continue;
      if (propertyAccessor(decorator)) continue;
      return {
        written: decorator.text.replace(/\s+/g, " "),
        line: new TextIndex(source.text).position(decorator.startIndex).line,
        own: isOwnDecorator(decorator),
      };
    }
  }
  return null;
}

/**
 * Refuse (`value_reference`) a move whose declaration carries a decorator that may register it
 * ({@linkcode registeringDecorator}).
 *
 * @param source The source file.
 * @param fb Its bindings.
 * @param options The declaration's name, its spans (with their decorations), and whether a decorator's module
 *   is a workspace file.
 */
export function refuseRegisteringDecorators(
  source: DecoratedSource,
  fb: FileBindings,
  options: {
    name: string;
    spans: { fullStart: number; fullEnd: number }[];
    inWorkspace: (module: string) => boolean;
  },
): void {
  const found = registeringDecorator(source, fb, options);
  if (found === null) return;
  const { written, line } = found;
  throw new RecoverableError(
    "value_reference",
    `Cannot move "${options.name}" from "${source.rel}": its decorator ${written} (line ${line}) receives ${
      found.own ? "the declaration" : "a member of it"
    } when the module is imported; moved, it would no longer run there (nothing imports the new module for it)`,
    {
      hint:
        `Leave "${options.name}" in "${source.rel}", or move it without that decorator and apply the decorator in "${source.rel}" by hand`,
      details: { path: source.rel, name: options.name, decorator: written, line },
    },
  );
}

/** Whether a decorator decorates the declaration itself rather than a member of a class body. */
function isOwnDecorator(decorator: Node): boolean {
  for (let n = decorator.parent; n; n = n.parent) {
    if (n.type === "block" || n.type === "class_body") return false;
  }
  return true;
}

/** Every decorator in a span that runs at import time (none inside a function body). */
function decoratorsIn(root: Node, start: number, end: number): Node[] {
  const out: Node[] = [];
  const walk = (n: Node) => {
    if (n.endIndex <= start || n.startIndex >= end) return;
    if (n.type === "decorator") out.push(n);
    const body = FUNCTION_TYPES.has(n.type) ? n.childForFieldName("body") : null;
    for (const c of n.namedChildren) if (c && c.id !== body?.id) walk(c);
  };
  walk(root);
  return out;
}

/**
 * A Python decorator's qualified name (`functools.wraps` for `@functools.wraps(f)` or `@wraps(f)` after
 * `from functools import wraps`; a builtin's own name), or null when it is no plain dotted name, names a
 * binding of the file other than an import, comes from a workspace module, or is a call whose arguments call.
 */
function qualifiedName(
  fb: FileBindings,
  decorator: Node,
  inWorkspace: (module: string) => boolean,
): string | null {
  let expr = decorator.namedChildren.find((c) => c?.type !== "comment") ?? null;
  if (expr?.type === "call") {
    const args = expr.childForFieldName("arguments");
    if (args && hasCall(args)) return null;
    expr = expr.childForFieldName("function");
  }
  const parts: string[] = [];
  while (expr?.type === "attribute") {
    parts.unshift(expr.childForFieldName("attribute")?.text ?? "");
    expr = expr.childForFieldName("object");
  }
  if (expr?.type !== "identifier") return null;
  const occ = occurrenceAt(fb, expr.startIndex);
  const b = occ?.binding ?? null;
  if (b === null) return [expr.text, ...parts].join(".");
  const imp = b.import;
  if (!imp || imp.kind === "default" || inWorkspace(imp.source)) return null;
  const head = imp.kind === "named" ? `${imp.source}.${imp.imported}` : imp.source;
  return [head, ...parts].join(".");
}

/** Whether a node holds a call (an effect that runs with the decorator). */
function hasCall(n: Node): boolean {
  if (n.type === "call" || n.type === "call_expression") return true;
  return n.namedChildren.some((c) => c !== null && hasCall(c));
}

/** `@name.setter` (getter, deleter) in a class body that declares `name` before it. */
function propertyAccessor(decorator: Node): boolean {
  const m = PROPERTY_ACCESSOR.exec(decorator.text.replace(/^@|\s+/g, ""));
  const block = decorator.parent?.parent;
  if (!m || block?.type !== "block" || block.parent?.type !== "class_definition") return false;
  return block.namedChildren.some((s) => {
    const def = s?.type === "decorated_definition" ? s.childForFieldName("definition") : s;
    return def?.type === "function_definition" && def.childForFieldName("name")?.text === m[1] &&
      s!.startIndex < decorator.startIndex;
  });
}
