/**
 * Where an import or re-export sits in a file, for the move refactors: the
 * statement, its module specifier, and the edits that take one of its names
 * out; and where new import lines go (after the file's last import, else
 * after its preamble: comments, docstring, `"use strict"`).
 *
 * @module
 */
import type { Node, Tree } from "web-tree-sitter";
import { lineStart, startsLine } from "../../fs/lines.ts";
import { blockRemoval, linesAfter, listItemRemovals, statementRemoval } from "../shared/import_edits.ts";
import { moduleReferences } from "../shared/module_imports.ts";
import type { TextEdit } from "../edit/source.ts";
import { type FamilyStrategy, strategyFor } from "../shared/family_strategies.ts";

/** One name of an import (or re-export) statement, and how to take it out. */
export interface ImportSite {
  /** The statement's span. */
  statement: { start: number; end: number };
  /** The module specifier as written, and its span (ECMAScript: inside the quotes). */
  source: { text: string; start: number; end: number };
  /** The name is the statement's only one: rewrite the specifier (or drop the statement). */
  only: boolean;
  /** The edits that take the name out when it is not the only one. */
  removal: TextEdit[];
  /** The comma-separated list the name is an item of (`{ a, b }`, `import a, b`), and its index there. */
  list?: { items: { start: number; end: number }[]; index: number };
  /** How many names the statement binds. */
  count: number;
}

/** The top-level statement holding an offset. */
export function topStatement(tree: Tree, offset: number): Node | null {
  let n: Node | null = tree.rootNode.descendantForIndex(offset, offset + 1);
  while (n && n.parent && n.parent.parent) n = n.parent;
  return n && n.parent ? n : null;
}

function climb(node: Node | null, types: string[]): Node | null {
  let n = node;
  while (n && !types.includes(n.type)) n = n.parent;
  return n;
}

/**
 * The import or re-export name at `offset` (its local or exported identifier).
 *
 * @param tree The file's parse.
 * @param text The file's text.
 * @param system "ecmascript" or "python".
 * @param offset Start of the name.
 * @returns The site, or null when no import statement holds it.
 */
export function importSiteAt(
  tree: Tree,
  text: string,
  { system, offset }: { system: "ecmascript" | "python"; offset: number },
): ImportSite | null {
  return strategyFor(SITE_READERS, system).siteAt(tree, text, offset);
}

/** One module system's reading of the import site at an offset. */
interface SiteReader extends FamilyStrategy {
  siteAt(tree: Tree, text: string, offset: number): ImportSite | null;
}

/** Python: `import a.b` (one name) or a name of `from m import a, b`. */
function pythonSiteAt(tree: Tree, text: string, offset: number): ImportSite | null {
  const ref = moduleReferences(tree, text, "python").find((r) =>
    r.statement.start <= offset && offset < r.statement.end
  );
  if (!ref) return null;
  const source = { text: ref.source, start: ref.start, end: ref.end };
  const names = ref.names ?? [];
  const i = names.findIndex((n) => n.start <= offset && offset < n.end);
  if (ref.kind === "module" || i < 0) {
    return { statement: ref.statement, source, only: true, removal: [], count: 1 };
  }
  return {
    statement: ref.statement,
    source,
    only: names.length === 1,
    removal: names.length === 1 ? [] : listItemRemovals(names, new Set([i])),
    list: { items: names, index: i },
    count: names.length,
  };
}

/** ECMAScript: a default, namespace or named import, or a re-exported name. */
function ecmaSiteAt(tree: Tree, _text: string, offset: number): ImportSite | null {
  const hit = tree.rootNode.descendantForIndex(offset, offset + 1);
  const statement = climb(hit, ["import_statement", "export_statement"]);
  const str = statement?.childForFieldName("source");
  if (!statement || !str) return null;
  const source = { text: str.text.slice(1, -1), start: str.startIndex + 1, end: str.endIndex - 1 };
  const span = { start: statement.startIndex, end: statement.endIndex };
  const clause = statement.namedChildren.find((c) =>
    c?.type === "import_clause" || c?.type === "export_clause"
  );
  if (!clause) return { statement: span, source, only: true, removal: [], count: 1 };
  const list = clause.type === "export_clause"
    ? clause
    : clause.namedChildren.find((c) => c?.type === "named_imports");
  const specifiers = (list?.namedChildren ?? []).filter((c): c is Node =>
    c !== null && (c.type === "import_specifier" || c.type === "export_specifier")
  );
  const parts = clause.type === "export_clause"
    ? [clause]
    : clause.namedChildren.filter((c): c is Node => c !== null);
  const count = parts.filter((p) => p.type !== "named_imports" && p.type !== "export_clause").length +
    specifiers.length;
  if (count <= 1) return { statement: span, source, only: true, removal: [], count };
  const item = specifiers.findIndex((s) => s.startIndex <= offset && offset < s.endIndex);
  if (item >= 0 && specifiers.length > 1) {
    const items = specifiers.map((s) => ({ start: s.startIndex, end: s.endIndex }));
    return {
      statement: span,
      source,
      only: false,
      removal: listItemRemovals(items, new Set([item])),
      list: { items, index: item },
      count,
    };
  }
  // `import d, { a }`: one of the two parts goes, with the comma between them.
  const [first, second] = parts;
  if (!first || !second) return null;
  const inFirst = first.startIndex <= offset && offset < first.endIndex;
  const removal = inFirst
    ? { start: first.startIndex, end: second.startIndex, text: "" }
    : { start: first.endIndex, end: second.endIndex, text: "" };
  return { statement: span, source, only: false, removal: [removal], count };
}

/** Each module system's reader, by the system's name. */
const SITE_READERS: readonly SiteReader[] = [
  { family: "ecmascript", siteAt: ecmaSiteAt },
  { family: "python", siteAt: pythonSiteAt },
];

/**
 * The edits that take several names out of their import statements: a
 * statement losing every name goes whole, a list losing some items loses
 * them together; a statement losing a default and some named imports at once
 * is left alone (an unused import, not a broken one).
 *
 * @param text The file's text.
 * @param sites The names' sites.
 * @returns The edits.
 */
export function importRemovals(text: string, sites: ImportSite[]): TextEdit[] {
  const byStatement = new Map<number, ImportSite[]>();
  for (const s of sites) {
    byStatement.set(s.statement.start, [...(byStatement.get(s.statement.start) ?? []), s]);
  }
  const out: TextEdit[] = [];
  for (const group of byStatement.values()) {
    const first = group[0]!;
    if (group.length >= first.count || first.only) out.push(statementRemoval(text, first.statement));
    else if (group.length === 1) out.push(...first.removal);
    else if (group.every((g) => g.list) && group.length < first.list!.items.length) {
      out.push(...listItemRemovals(first.list!.items, new Set(group.map((g) => g.list!.index))));
    }
  }
  // Whole-line removals that touch make one block (its blank lines below go when it stood alone).
  const merged: TextEdit[] = [];
  for (const e of out.sort((a, b) => a.start - b.start)) {
    const prev = merged[merged.length - 1];
    const lines = e.text === "" && startsLine(text, e.start) &&
      (e.end === text.length || text[e.end - 1] === "\n");
    if (prev && lines && prev.text === "" && prev.end >= e.start) {
      merged[merged.length - 1] = blockRemoval(text, prev.start, Math.max(prev.end, e.end));
    } else merged.push(e);
  }
  return merged;
}

const IMPORT_TYPES = ["import_statement", "import_from_statement", "future_import_statement"];

/** The file's top-level statements (comments excluded). */
function statements(tree: Tree): Node[] {
  return tree.rootNode.namedChildren.filter((c): c is Node => c !== null && !c.type.includes("comment"));
}

/**
 * The file's last top-level import statement (ECMAScript `import`, Python `import`/`from`), if any.
 *
 * @param tree The file's parse.
 * @returns The statement.
 */
export function lastImport(tree: Tree): Node | null {
  return statements(tree).filter((s) => IMPORT_TYPES.includes(s.type)).at(-1) ?? null;
}

/** A guard that holds only while type-checking: Python's `TYPE_CHECKING`, `typing.TYPE_CHECKING`, `t.TYPE_CHECKING`. */
const TYPE_CHECKING_GUARD = /^(?:[A-Za-z_][A-Za-z0-9_]*\.)?TYPE_CHECKING$/;

/**
 * The file's top-level `if TYPE_CHECKING:` statements (Python): their names are seen by type checkers only.
 *
 * @param tree The file's parse.
 * @returns Each statement and the block it guards (its `else` excluded).
 */
export function typeCheckingBlocks(tree: Tree): { statement: Node; body: Node; guard: string }[] {
  const out: { statement: Node; body: Node; guard: string }[] = [];
  for (const s of statements(tree)) {
    if (s.type !== "if_statement") continue;
    const guard = s.childForFieldName("condition")?.text ?? "";
    const body = s.childForFieldName("consequence");
    if (body && TYPE_CHECKING_GUARD.test(guard)) out.push({ statement: s, body, guard });
  }
  return out;
}

/**
 * The features a Python file takes from `__future__` (`annotations` for `from __future__ import annotations`).
 *
 * @param tree The file's parse.
 * @returns The feature names, in order.
 */
export function futureFeatures(tree: Tree): string[] {
  return statements(tree).filter((s) => s.type === "future_import_statement").flatMap((s) =>
    s.childrenForFieldName("name").filter((n): n is Node => n !== null).map((n) =>
      (n.type === "aliased_import" ? n.childForFieldName("name") : n)?.text ?? ""
    )
  ).filter((f) => f !== "");
}

/** A docstring or a directive (`"use strict"`): a statement that is one string. */
function isPreamble(node: Node): boolean {
  return node.type === "expression_statement" && node.namedChildCount === 1 &&
    node.namedChild(0)?.type === "string";
}

/**
 * The first top-level statement after the file's preamble (leading comments, docstring, directives), if any.
 *
 * @param tree The file's parse.
 * @returns The statement.
 */
export function firstStatement(tree: Tree): Node | null {
  const all = statements(tree);
  let i = 0;
  while (i < all.length && isPreamble(all[i]!)) i++;
  return all[i] ?? null;
}

/**
 * The edit that adds import lines: after the last import, else before the
 * first statement after the preamble (one blank line after them), else at the end.
 *
 * @param tree The file's parse.
 * @param text The file's text.
 * @param lines The import statements (no line endings).
 * @param eol The file's line ending.
 * @returns The edit.
 */
export function importLinesEdit(
  tree: Tree,
  text: string,
  { lines, eol }: { lines: string[]; eol: string },
): TextEdit {
  const last = lastImport(tree);
  if (last) return linesAfter(text, { start: last.startIndex, end: last.endIndex }, { lines, eol });
  const first = firstStatement(tree);
  const body = lines.join(eol);
  if (first) {
    const at = lineStart(text, first.startIndex);
    return { start: at, end: at, text: body + eol + eol };
  }
  if (text.trim() === "") return { start: 0, end: text.length, text: body + eol };
  return { start: text.length, end: text.length, text: (text.endsWith("\n") ? eol : eol + eol) + body + eol };
}
