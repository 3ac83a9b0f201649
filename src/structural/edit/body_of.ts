/**
 * A definition's body as the edit primitives see it: the node that holds its items (a class's members, a
 * function's statements, an impl's items …), those items, and the offsets just inside its delimiters (`{` and
 * `}`, `do` … `end`), or where the header ends when the body has none (Python, Ruby). Insertion into a body and
 * the anchors `first_child` / `last_child` stand on it.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { symbolRules } from "../../syntax/queries.ts";
import { indentOfLine } from "../../fs/lines.ts";
import type { Target } from "./selectors.ts";
import type { SourceFile } from "./source.ts";

/** The body of a node: its children and the offsets inside its delimiters. */
export interface BodyInfo {
  /** The body node (null for an empty Ruby-style body that has no node). */
  node: Node | null;
  /** The container whose named children are the items. */
  container: Node | null;
  /** Items (named children, comments included), in order. */
  items: Node[];
  /** End of the opening delimiter (`{`), or null when the body has none (Python, Ruby). */
  openerEnd: number | null;
  /** Start of the closing delimiter (`}`, `end`), or null. */
  closerStart: number | null;
  /** Where the header ends when there is no opener (insert after this line). */
  headerEnd: number;
  /** Indentation of the line that opens the body. */
  headerIndent: string;
}

/** Node types that are a definition's body (or a block that holds statements). */
export const BODY_TYPE =
  /(?:^|_)(?:body|block|statement_block|declaration_list|field_declaration_list|enum_variant_list|compound_statement|body_statement|statement_list|object_type|enumerator_list)$/;
const OPENERS = new Set(["{", "(", "[", "do", "begin", "then", ":"]);
const CLOSERS = new Set(["}", ")", "]", "end"]);

function findBodyNode(node: Node): Node | null {
  const body = node.childForFieldName("body");
  if (body && body.type !== "expression" && (body.namedChildCount > 0 || BODY_TYPE.test(body.type))) {
    return body;
  }
  const definition = node.childForFieldName("definition") ?? node.childForFieldName("declaration");
  if (definition) return findBodyNode(definition);
  if (BODY_TYPE.test(node.type)) return node;
  let level: Node[] = [node];
  for (let depth = 0; depth < 4 && level.length > 0; depth++) {
    const next: Node[] = [];
    for (const n of level) {
      for (const c of n.namedChildren) {
        if (c === null || /parameter|argument|type_parameters/.test(c.type)) continue;
        if (BODY_TYPE.test(c.type)) return c;
        next.push(c);
      }
    }
    level = next;
  }
  return null;
}

/** The smallest node inside `node` (not `node` itself) that spans [from, to) and ends with a closing bracket. */
function holderOf(node: Node, from: number, to: number): Node | null {
  for (let n = node.descendantForIndex(from, Math.max(from, to - 1)); n; n = n.parent) {
    if (n.id === node.id || n.startIndex < node.startIndex) return null;
    const last = n.lastChild;
    if (n.startIndex <= from && n.endIndex >= to && last && !last.isNamed && CLOSERS.has(last.type)) return n;
  }
  return null;
}

/**
 * The body of a selected node (a class, function, impl, struct, block …).
 *
 * @param file The source file.
 * @param target The selected node.
 * @returns The body, or null when the node has none.
 */
export function bodyOf(file: SourceFile, target: Target): BodyInfo | null {
  const rules = symbolRules(file.language);
  let bodyNode = findBodyNode(target.node);
  // A symbol's body holds its children: when the first body found does not (a Zig `const S = struct {...}`
  // whose first method's block comes first), take the node inside it that holds them all.
  const kids = target.symbol?.children ?? [];
  if (kids.length > 0) {
    const from = kids[0]!.full_range.start_utf16;
    const to = kids[kids.length - 1]!.range.end_utf16;
    if (!bodyNode || bodyNode.startIndex > from || bodyNode.endIndex < to) {
      bodyNode = holderOf(target.node, from, to) ?? bodyNode;
    }
  }
  const headerIndent = indentOfLine(file.text, target.start);
  if (!bodyNode) {
    // An empty Ruby/Lua-style body: `class C` ... `end` with nothing between.
    const last = target.node.lastChild;
    if (last && !last.isNamed && CLOSERS.has(last.type) && last.previousSibling) {
      return {
        node: null,
        container: null,
        items: [],
        openerEnd: null,
        closerStart: last.startIndex,
        headerEnd: last.previousSibling.endIndex,
        headerIndent,
      };
    }
    return null;
  }
  const first = bodyNode.firstChild;
  const last = bodyNode.lastChild;
  const openerEnd = first && !first.isNamed && OPENERS.has(first.type) ? first.endIndex : null;
  let closerStart = last && !last.isNamed && CLOSERS.has(last.type) ? last.startIndex : null;
  if (closerStart === null) {
    const after = bodyNode.nextSibling;
    if (after && !after.isNamed && CLOSERS.has(after.type)) closerStart = after.startIndex;
  }
  let container: Node = bodyNode;
  const named = bodyNode.namedChildren.filter((c): c is Node => c !== null);
  const nonComment = named.filter((c) => !rules.comments.includes(c.type));
  if (nonComment.length === 1 && /_list$/.test(nonComment[0]!.type) && openerEnd !== null) {
    container = nonComment[0]!;
  }
  const items = container === bodyNode ? named : [
    ...named.filter((c) => c.endIndex <= container.startIndex),
    ...container.namedChildren.filter((c): c is Node => c !== null),
    ...named.filter((c) => c.startIndex >= container.endIndex),
  ];
  return {
    node: bodyNode,
    container,
    items,
    openerEnd,
    closerStart,
    headerEnd: openerEnd ?? bodyNode.startIndex,
    headerIndent: indentOfLine(file.text, openerEnd !== null ? openerEnd - 1 : target.start),
  };
}
