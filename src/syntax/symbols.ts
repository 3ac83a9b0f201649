/**
 * Symbols: the definitions of a file (kind, name, name path, ranges, doc,
 * decorations, children), found by the language's tags query
 * (`grammars/<lang>/queries/tags.scm`, standard `@definition.<kind>` and
 * `@name` captures) and the per-language rules in `grammars/<lang>/symbols.json`.
 * No per-language TypeScript decides what a definition is.
 *
 * @module
 */
import { HEAD_CHARS } from "./grammars.ts";
import type { Node, Query, QueryMatch, Tree } from "web-tree-sitter";
import { RecoverableError } from "../errors.ts";
import { readUnsupported, structuralUnsupported } from "./unsupported_language.ts";
import type { Parsing } from "./types.ts";
import { loadQuery, LOCAL_KINDS, SCOPE_KINDS, type SymbolRules, symbolRules } from "./queries.ts";
import { attachedBefore, contentEnd, type ExtentContext } from "./_symbol_extent.ts";
import { TextIndex } from "./text_index.ts";
import type { ParsedFile } from "./trees.ts";
import { errorRegions } from "./error_regions.ts";
import { siblingNamePaths } from "./name_path.ts";

export { stripCommentMarkers } from "./_symbol_extent.ts";
export { TextIndex } from "./text_index.ts";

export type { Outline, SymbolInfo, SymbolRange } from "./types.ts";
import type { Outline, SymbolInfo } from "./types.ts";

interface RawSymbol {
  pattern: number;
  kind: string;
  def: Node;
  start: number;
  end: number;
  nameNode: Node | null;
  bodyNode: Node | null;
  docNode: Node | null;
  aliasNodes: Node[] | null;
  qualifierNode: Node | null;
  children: RawSymbol[];
  // filled by complete() for the symbols that are kept
  name: string;
  outerEnd: number;
  fullStart: number;
  body: Node | null;
  bodyEnd: number;
  doc: string | undefined;
  aliases: string[];
  qualifier: string | undefined;
}

function stripDocstring(raw: string): string {
  return raw.replace(/^[rRuUbBfF]*("""|'''|"|')/, "").replace(/("""|'''|"|')$/, "").trim();
}

/**
 * Whether `parent` wraps just `node`: `node` is its only named child of its
 * type. `type` is `node`'s type when already known (asked for only when the
 * parent has several named children); `named` says `node` is a named node.
 */
function wrapsOnly(parent: Node, node: Node, type: string | null, named: boolean): boolean {
  if (named && parent.namedChildCount === 1) return true; // the one named child is `node`
  const t = type ?? node.type;
  let same = 0;
  for (const c of parent.namedChildren) if (c && c.type === t) same++;
  return same === 1;
}

/**
 * The definition node and its exclusive wrappers, innermost first: e.g. a
 * `variable_declarator`, its `lexical_declaration`, its `export_statement`.
 *
 * @param def The definition node.
 * @param rules The language's symbol rules.
 * @returns [def, ...wrappers].
 */
export function definitionLevels(def: Node, rules: SymbolRules): Node[] {
  const out = [def];
  if (rules.wrappers.length === 0) return out;
  let cur = def;
  let named = def.isNamed;
  for (let p = def.parent; p; p = p.parent) {
    if (!rules.wrappers.includes(p.type) || !wrapsOnly(p, cur, null, named)) break;
    out.push(p);
    cur = p;
    named = true; // wrappers are named nodes
  }
  return out;
}

/**
 * The outermost of {@linkcode definitionLevels} for a definition captured by a
 * tags query (always a named node), asking the tree as little as possible.
 */
function outermostLevel(def: Node, rules: SymbolRules, shape: Shape | null, type: string): Node {
  if (rules.wrappers.length === 0 || (shape && !shape.wrappable.has(type))) return def;
  let cur = def;
  let curType: string | null = null; // asked for only when a wrapper holds several named children
  for (let p = def.parent; p; p = p.parent) {
    const type = p.type;
    if (!rules.wrappers.includes(type) || !wrapsOnly(p, cur, curType, true)) break;
    cur = p;
    curType = type;
  }
  return cur;
}

/** {@linkcode SymbolRules.shape} as sets. */
interface Shape {
  wrappable: Set<string>;
  body: Set<string>;
  value: Set<string>;
}

const SHAPES = new WeakMap<SymbolRules, Shape | null>();

function shapeOf(rules: SymbolRules): Shape | null {
  let shape = SHAPES.get(rules);
  if (shape === undefined) {
    shape = rules.shape
      ? {
        wrappable: new Set(rules.shape.wrappable),
        body: new Set(rules.shape.body),
        value: new Set(rules.shape.value),
      }
      : null;
    SHAPES.set(rules, shape);
  }
  return shape;
}

/** Field ids of one language (looking a field up by name is a linear search). */
interface Fields {
  body: number;
  value: number;
}

function bodyOf(
  def: Node,
  rules: SymbolRules,
  fields: Fields,
  shape: Shape | null,
  type: string,
): Node | null {
  const body = fields.body > 0 && (!shape || shape.body.has(type)) ? def.childForFieldId(fields.body) : null;
  if (body) return body;
  if (rules.bodies) {
    for (const c of def.namedChildren) if (c && rules.bodies.includes(c.type)) return c;
  }
  if (fields.value <= 0 || (shape && !shape.value.has(type))) return null;
  const value = def.childForFieldId(fields.value);
  return value && fields.body > 0 ? value.childForFieldId(fields.body) : null;
}

function headerName(def: Node, body: Node | null): string {
  const end = body ? body.startIndex - def.startIndex : def.text.indexOf("\n");
  const head = def.text.slice(0, end < 0 ? undefined : end);
  return head.replace(/\s+/g, " ").replace(/[\s{:]+$/, "").trim();
}

const NO_ALIASES: string[] = [];

/**
 * The definitions of the matches (cheap: nodes and offsets only; the rest waits for `complete`), per
 * definition node the earliest pattern's, locals left out.
 *
 * @param matches The tags query's matches.
 * @returns The definitions, with their definition and name nodes.
 */
export function collect(matches: QueryMatch[]): RawSymbol[] {
  const byId = new Map<number, RawSymbol>();
  for (const m of matches) {
    let def: Node | null = null;
    let kind = "";
    let nameNode: Node | null = null;
    let bodyNode: Node | null = null;
    let docNode: Node | null = null;
    let qualifierNode: Node | null = null;
    let aliasNodes: Node[] | null = null;
    for (const c of m.captures) {
      const n = c.name;
      if (n === "name") nameNode ??= c.node;
      else if (n.startsWith("definition.")) {
        def = c.node;
        kind = n.slice(11);
      } else if (n === "body") bodyNode ??= c.node;
      else if (n === "doc") docNode ??= c.node;
      else if (n === "alias") (aliasNodes ??= []).push(c.node);
      else if (n === "qualifier") qualifierNode = c.node;
    }
    if (!def) continue;
    const prior = byId.get(def.id);
    if (prior && prior.pattern <= m.patternIndex) continue;
    byId.set(def.id, {
      pattern: m.patternIndex,
      kind,
      def,
      start: def.startIndex,
      end: prior ? prior.end : def.endIndex,
      nameNode,
      bodyNode,
      docNode,
      aliasNodes,
      qualifierNode,
      children: [],
      name: "",
      outerEnd: 0,
      fullStart: 0,
      body: null,
      bodyEnd: 0,
      doc: undefined,
      aliases: NO_ALIASES,
      qualifier: undefined,
    });
  }
  // A "local" capture wins over the later patterns for its node, and is then dropped (a loop's variables).
  return [...byId.values()].filter((r) => r.kind !== "local");
}

interface Context extends ExtentContext {
  shape: Shape | null;
  fields: Fields;
}

/** Fill in names, wrappers, attached docs and bodies of the kept symbols; drop nameless ones. */
function complete(list: RawSymbol[], cx: Context): RawSymbol[] {
  const out: RawSymbol[] = [];
  const text = cx.text;
  for (const r of list) {
    const type = cx.shape ? r.def.type : "";
    const body = r.bodyNode ?? bodyOf(r.def, cx.rules, cx.fields, cx.shape, type);
    const name = r.nameNode
      ? text.slice(r.nameNode.startIndex, r.nameNode.endIndex)
      : headerName(r.def, body);
    if (name === "") continue;
    r.end = contentEnd(r.def, cx, { start: r.start, end: r.end });
    const outer = outermostLevel(r.def, cx.rules, cx.shape, type);
    const attached = attachedBefore(outer, cx);
    r.name = name;
    r.body = body;
    if (body) r.bodyEnd = Math.min(body.endIndex, r.end);
    r.outerEnd = outer === r.def ? r.end : Math.max(outer.endIndex, r.end);
    r.fullStart = attached.start;
    r.doc = r.docNode ? stripDocstring(r.docNode.text) : attached.doc;
    if (r.aliasNodes) r.aliases = r.aliasNodes.map((n) => n.text).filter((a) => a !== name);
    r.qualifier = r.qualifierNode?.text;
    if (r.children.length > 0) r.children = complete(r.children, cx);
    out.push(r);
  }
  return out;
}

function nest(flat: RawSymbol[]): RawSymbol[] {
  flat.sort((a, b) => a.start - b.start || b.end - a.end);
  const roots: RawSymbol[] = [];
  const stack: RawSymbol[] = [];
  for (const s of flat) {
    while (stack.length > 0 && stack[stack.length - 1]!.end < s.end) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent && parent.end >= s.end && parent.start <= s.start) {
      parent.children.push(s);
    } else roots.push(s);
    stack.push(s);
  }
  return roots;
}

const TYPE_BODIES = ["struct", "union", "enum", "class"];

/**
 * A definition that names what it holds (C's `typedef struct X {...} X;`) is
 * one symbol: the inner one's children move up, so fields read `X/field`, as
 * they do for `typedef struct {...} X;`.
 */
function foldSameName(list: RawSymbol[]): RawSymbol[] {
  for (const s of list) {
    if (s.children.length === 0) continue;
    const inner = s.kind === "type"
      ? s.children.find((c) => TYPE_BODIES.includes(c.kind) && sameText(c, s))
      : undefined;
    if (inner) {
      s.children = [...s.children.filter((c) => c !== inner), ...inner.children].sort((a, b) =>
        a.start - b.start
      );
    }
    s.children = foldSameName(s.children);
  }
  return list;
}

/** Whether two symbols have the same name (names are filled in later, so compare the name nodes' text). */
function sameText(a: RawSymbol, b: RawSymbol): boolean {
  if (!a.nameNode || !b.nameNode) return false;
  return a.nameNode.text === b.nameNode.text;
}

/** An ERROR node of a parse: its span and (asked for once) its children's ids. */
interface ErrorNode {
  node: Node;
  start: number;
  end: number;
  children: Set<number> | null;
}

/** Every ERROR node of a tree (walking only subtrees that hold errors). */
function errorNodes(root: Node): ErrorNode[] {
  const out: ErrorNode[] = [];
  const visit = (n: Node): void => {
    if (n.isError) out.push({ node: n, start: n.startIndex, end: n.endIndex, children: null });
    for (const c of n.children) if (c && (c.hasError || c.isError)) visit(c);
  };
  visit(root);
  return out;
}

/** The innermost ERROR node holding `node`, or undefined. */
function innermostError(node: Node, errors: ErrorNode[]): ErrorNode | undefined {
  const s = node.startIndex;
  const e = node.endIndex;
  let best: ErrorNode | undefined;
  for (const err of errors) {
    if (err.start <= s && e <= err.end && err.node.id !== node.id) {
      if (!best || err.end - err.start < best.end - best.start) best = err;
    }
  }
  return best;
}

/** Kinds that only exist inside a container (a class, an object type, an enum). */
const MEMBER_KINDS = new Set(["method", "property", "field", "enum_member", "constructor"]);

/**
 * Drop what a misparse made look like definitions. A definition inside an
 * ERROR node is kept only when it (with its wrappers) is a whole piece the
 * parser recovered — a direct child of that ERROR node, and not a member,
 * which cannot stand outside its container — or when it sits inside such a
 * kept definition with no ERROR node in between. Tokens from
 * inside an ERROR node (a mapped type read as an index signature, a type name
 * read as a property) are never listed.
 */
function dropInErrors(
  list: RawSymbol[],
  parent: RawSymbol | null,
  errors: ErrorNode[],
  rules: SymbolRules,
  shape: Shape | null,
): RawSymbol[] {
  const out: RawSymbol[] = [];
  for (const s of list) {
    const err = innermostError(s.def, errors);
    if (err) {
      const inKeptParent = parent !== null && err.start <= parent.def.startIndex &&
        parent.def.endIndex <= err.end;
      if (!inKeptParent) {
        // A member outside its container is a misread (a call `const<T>(…)` read as a method signature).
        if (MEMBER_KINDS.has(s.kind)) continue;
        const outer = outermostLevel(s.def, rules, shape, s.def.type);
        err.children ??= new Set(err.node.children.filter((c) => c !== null).map((c) => c!.id));
        if (!err.children.has(outer.id)) continue;
      }
    }
    if (s.children.length > 0) s.children = dropInErrors(s.children, s, errors, rules, shape);
    out.push(s);
  }
  return out;
}

/** Drop locals: symbols of a local kind directly inside a function-like symbol (and what they hold). */
function dropLocals(list: RawSymbol[], parentKind: string | null, rules: SymbolRules): RawSymbol[] {
  const locals = rules.local_kinds ?? LOCAL_KINDS;
  const scopes = rules.scope_kinds ?? SCOPE_KINDS;
  const inScope = parentKind !== null && scopes.includes(parentKind);
  const out: RawSymbol[] = [];
  for (const s of list) {
    if (inScope && locals.includes(s.kind)) continue;
    if (s.children.length > 0) s.children = dropLocals(s.children, s.kind, rules);
    out.push(s);
  }
  return out;
}

function finish(raws: RawSymbol[], prefix: string, index: TextIndex): SymbolInfo[] {
  const paths = siblingNamePaths(prefix, raws);
  const out: SymbolInfo[] = new Array(raws.length);
  for (let k = 0; k < raws.length; k++) {
    const r = raws[k]!;
    const namePath = paths[k]!;
    const info: SymbolInfo = {
      kind: r.kind,
      name: r.name,
      name_path: namePath,
      range: index.range(r.start, r.end),
      full_range: index.range(r.fullStart, r.outerEnd),
      children: NO_CHILDREN,
    };
    if (r.body) info.body_range = index.range(r.body.startIndex, r.bodyEnd);
    if (r.doc !== undefined && r.doc !== "") info.doc = r.doc;
    if (r.aliases.length > 0) info.aliases = r.aliases;
    if (r.qualifier !== undefined) info.qualifier = r.qualifier;
    NODES.set(info, r.def);
    info.children = r.children.length > 0 ? finish(r.children, namePath, index) : [];
    out[k] = info;
  }
  return out;
}

const NO_CHILDREN: SymbolInfo[] = [];
const FIELDS = new WeakMap<object, Fields>();

function fieldsOf(tree: Tree): Fields {
  const lang = tree.language;
  let fields = FIELDS.get(lang);
  if (!fields) {
    fields = { body: lang.fieldIdForName("body") ?? -1, value: lang.fieldIdForName("value") ?? -1 };
    FIELDS.set(lang, fields);
  }
  return fields;
}

const OUTLINES = new WeakMap<ParsedFile, Outline>();

/**
 * Whether the whole outline of a parse is cached already (then a lookup by name reads it instead).
 *
 * @param parsed A parse from the workspace's cache.
 * @returns True when {@linkcode outlineOf} has outlined it.
 */
export function hasOutline(parsed: ParsedFile): boolean {
  return OUTLINES.has(parsed);
}
const NODES = new WeakMap<SymbolInfo, Node>();

/**
 * The definition node behind a symbol of an outline (valid while that parse is
 * the cached one for its path, i.e. within the call that produced the outline).
 *
 * @param symbol A symbol from {@linkcode outlineOf} or {@linkcode symbolsOfTree}.
 * @returns The node, or undefined for a symbol built elsewhere.
 */
export function symbolNode(symbol: SymbolInfo): Node | undefined {
  return NODES.get(symbol);
}

/**
 * The symbols of a parsed tree (no caching).
 *
 * @param ws The workspace (for its grammars).
 * @param parsed The language id, the parsed tree of `text`, and the decoded text.
 * @returns The outline.
 */
export async function symbolsOfTree(
  ws: Parsing,
  parsed: { language: string; tree: Tree; text: string },
): Promise<Outline> {
  const query = await tagsQuery(ws, parsed.language);
  return symbolsOfMatches(parsed, query.matches(parsed.tree.rootNode));
}

/**
 * The language's tags query.
 *
 * @param ws The workspace (its grammars).
 * @param language The language id.
 * @returns The compiled query.
 * @throws RecoverableError `unsupported_language` when the language has none.
 */
export async function tagsQuery(ws: Parsing, language: string): Promise<Query> {
  const query = ws.grammars ? await loadQuery(ws.grammars, language, "tags") : null;
  if (!query) throw unsupportedLanguage("", language);
  return query;
}

/**
 * The outline the tags query's matches make (all of a tree's, or those of some of its statements).
 *
 * @param parsed The language, tree and text.
 * @param matches The tags query's matches.
 * @returns The outline.
 */
export function symbolsOfMatches(
  parsed: { language: string; tree: Tree; text: string },
  matches: QueryMatch[],
): Outline {
  const { language, tree, text } = parsed;
  const rules = symbolRules(language);
  const docPattern = rules.doc_pattern ? new RegExp(rules.doc_pattern) : null;
  let kept = foldSameName(dropLocals(nest(collect(matches)), null, rules));
  const shape = shapeOf(rules);
  const regions = errorRegions(tree.rootNode);
  if (tree.rootNode.hasError) kept = dropInErrors(kept, null, errorNodes(tree.rootNode), rules, shape);
  const index = new TextIndex(text);
  const cx: Context = { text, rules, shape, docPattern, fields: fieldsOf(tree), index };
  const outline: Outline = { language, symbols: finish(complete(kept, cx), "", index) };
  if (regions.length > 0) outline.error_regions = regions;
  return outline;
}

/**
 * The `unsupported_language` error of a symbol lookup: {@linkcode structuralUnsupported}
 * (hint and `suggested_call` naming the `edit_safe_text_patch` fallback), or for a
 * tool that only reads, {@linkcode readUnsupported} (naming `read_file`).
 *
 * @param rel Relative path.
 * @param language The language id, or null when no grammar applies.
 * @param options `tool`: the tool refusing (default "a symbol lookup"); `noGrammars`: the
 *   workspace was opened without a wasm loader, so no language is available at all; `read`: the
 *   tool reads, so the fallback is a read (`"directory"`: `rel` is a directory, which no read shows).
 * @returns The error to throw.
 */
export function unsupportedLanguage(
  rel: string,
  language: string | null,
  options: { tool?: string; noGrammars?: boolean; read?: boolean | "directory" } = {},
): RecoverableError {
  const tool = options.tool ?? "a symbol lookup";
  const reason = options.noGrammars
    ? "the workspace was opened without grammars (createWorkspace needs a wasm loader)"
    : language === null
    ? "no grammar applies to this file type"
    : `graver has no symbol query for ${language}`;
  if (options.read) {
    return readUnsupported(rel, { tool, language, reason, directory: options.read === "directory" });
  }
  return structuralUnsupported(rel, { tool, language, reason });
}

/**
 * The outline of one file, through the workspace's parse cache (incremental
 * after staged edits). Outlines are cached with the parse, so asking again for
 * the same version is free.
 *
 * @param ws The workspace.
 * @param rel Relative path (the cache key).
 * @param file Its decoded text (BOM excluded) and the version of its bytes.
 * @returns The language and its symbols; `unsupported_language` when there is no grammar or query.
 *
 * @example Outline a TypeScript file
 * ```ts
 * import { createMemoryBackend, createWorkspace, outlineOf } from "@graver/core";
 * import { createWasmLoader } from "@graver/core/adapters/deno";
 * import assert from "node:assert/strict";
 *
 * const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
 * const outline = await outlineOf(ws, "a.ts", { text: "class A {\n  run() {}\n}\n", version: "v1" });
 * assert.equal(outline.symbols[0]!.children[0]!.name_path, "A/run");
 * ```
 */
export async function outlineOf(
  ws: Parsing,
  rel: string,
  file: { text: string; version: string },
): Promise<Outline> {
  const { text, version } = file;
  const language = ws.grammars?.languageOf(rel, text.slice(0, HEAD_CHARS)) ?? null;
  if (!ws.grammars || !ws.trees) throw unsupportedLanguage(rel, null, { noGrammars: true });
  if (language === null) throw unsupportedLanguage(rel, language);
  const parsed = await ws.trees.parse(rel, language, version, text);
  const cached = OUTLINES.get(parsed);
  if (cached) return cached;
  try {
    const outline = await symbolsOfTree(ws, { language, tree: parsed.tree, text });
    OUTLINES.set(parsed, outline);
    return outline;
  } catch (err) {
    if (err instanceof RecoverableError && err.code === "unsupported_language") {
      throw unsupportedLanguage(rel, language);
    }
    throw err;
  }
}

/**
 * Every symbol of an outline, depth first, in document order.
 *
 * @param symbols Top-level symbols.
 * @returns The flattened list.
 */
export function flattenSymbols(symbols: SymbolInfo[]): SymbolInfo[] {
  const out: SymbolInfo[] = [];
  const walk = (list: SymbolInfo[]) => {
    for (const s of list) {
      out.push(s);
      walk(s.children);
    }
  };
  walk(symbols);
  return out;
}

export { escapeName, resolveNamePath } from "./name_path.ts";
