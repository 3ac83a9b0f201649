/**
 * Selectors: the one way structural tools name what they edit. A selector is
 * a name path (`Class/method`), a tree-sitter query with a capture name, or a
 * code pattern with metavariables (`console.log($$$ARGS)`). Every kind
 * resolves through the same rule: unique, ambiguous (every candidate with its
 * lines) or no match (with the nearest candidates), narrowed by
 * `select: unique | first | all | nth`.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { isRecoverable, RecoverableError, type SuggestedCall } from "../../errors.ts";
import { startsLine } from "../../fs/lines.ts";
import { compileUserQuery, type UserQuery } from "../../syntax/user_query.ts";
import { symbolRules } from "../../syntax/queries.ts";
import { outlineOf, resolveNamePath, type SymbolInfo, symbolNode, TextIndex } from "../../syntax/symbols.ts";
import type { Parsing } from "../../syntax/types.ts";
import { type Binding, compilePattern, matchPattern, nearestPatternCandidates } from "./pattern.ts";
import type { SourceFile } from "./source.ts";
import { decorationsStart, isDecoration } from "./decorations.ts";

// Tools load the selector engine as one chunk and take this from it.
export { decorationsStart };

/** How many of the matches to take. */
export type SelectMode = "unique" | "first" | "all" | "nth";

/** A selector as tools accept it: a name path string, or an object with exactly one of its kinds. */
export type Selector =
  | string
  | {
    /** A name path: `name`, `Outer/inner`, `/Absolute/path`, `name[i]`. */
    name_path?: string;
    /** With name_path: match the last segment as a substring when nothing matches exactly. */
    substring?: boolean;
    /** A tree-sitter query (S-expression) ... */
    query?: string;
    /** ... and the capture that names the target (default: the query's only capture). */
    capture?: string;
    /** A code pattern with metavariables: `$X`, `$$$ARGS`, `$_`. */
    pattern?: string;
    /** Only matches inside this symbol (a name path), e.g. a pattern within one method. */
    within?: string;
  };

/** The kind of a selector. */
export type SelectorKind = "name_path" | "query" | "pattern";

/** One selected node. */
export interface Target {
  /** The node (for a symbol: its definition node). */
  node: Node;
  /** Start of the node's own span (UTF-16). */
  start: number;
  /** End of the node's own span (UTF-16, exclusive). */
  end: number;
  /** Start including wrappers (export, decorated_definition), decorations and attached doc comments. */
  fullStart: number;
  /** End including wrappers. */
  fullEnd: number;
  /** The symbol, for a name-path selector. */
  symbol?: SymbolInfo;
  /** What the pattern's metavariables bound, for a pattern selector. */
  bindings?: Record<string, Binding>;
}

/** A match as reported to callers (in ambiguous / no_match details and in results). */
export interface Candidate {
  /** First line (1-based). */
  start_line: number;
  /** Last line (1-based, inclusive). */
  end_line: number;
  /** Node type. */
  type: string;
  /** The symbol's name path, for name-path selectors. */
  name_path?: string;
  /** The first line of the node's text (trimmed, at most 120 characters). */
  snippet: string;
}

/** Options of {@linkcode selectTargets}. */
export interface SelectOptions {
  /** unique (default), first, all or nth. */
  select?: SelectMode | undefined;
  /** With nth: which match, 1-based in document order. */
  n?: number | undefined;
  /** Builds the call that retries with other selection arguments (for suggested_call). */
  retry?: (extra: Record<string, unknown>) => SuggestedCall;
}

/** What a selector selected. */
export interface Selection {
  /** The selector's kind. */
  kind: SelectorKind;
  /** The selected targets, in document order. */
  targets: Target[];
  /** How many matched before `select` narrowed them. */
  total: number;
}

/**
 * Check a selector's shape and tell its kind.
 *
 * @param selector As passed by the caller.
 * @returns The kind and its fields; `invalid_args` unless exactly one kind is given.
 */
export function normaliseSelector(
  selector: Selector,
): {
  kind: SelectorKind;
  name_path?: string;
  substring?: boolean;
  query?: string;
  capture?: string;
  pattern?: string;
  within?: string;
} {
  if (typeof selector === "string") return { kind: "name_path", name_path: selector };
  const kinds = (["name_path", "query", "pattern"] as const).filter((k) => typeof selector[k] === "string");
  if (kinds.length !== 1) {
    throw new RecoverableError(
      "invalid_args",
      kinds.length === 0
        ? "Cannot resolve the selector: give one of name_path, query or pattern"
        : `Cannot resolve the selector: give only one of name_path, query or pattern (got ${
          kinds.join(", ")
        })`,
      {
        hint:
          'Use {"name_path": "Class/method"}, {"query": "(call_expression) @call", "capture": "call"} or {"pattern": "console.log($$$ARGS)"}',
        details: { selector },
      },
    );
  }
  const out: ReturnType<typeof normaliseSelector> = { kind: kinds[0]! };
  for (const k of ["name_path", "substring", "query", "capture", "pattern", "within"] as const) {
    const v = selector[k];
    if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

function snippetOf(text: string, start: number, end: number): string {
  const s = text.slice(start, end).trimStart();
  const nl = s.indexOf("\n");
  const first = (nl === -1 ? s : s.slice(0, nl)).trimEnd();
  return first.length > 120 ? `${first.slice(0, 117)}...` : first;
}

/**
 * A target as reported to callers.
 *
 * @param file The source file.
 * @param index Its text index.
 * @param t The target.
 * @returns Lines, type, name path and a snippet.
 */
export function describeTarget(file: SourceFile, index: TextIndex, t: Target): Candidate {
  const c: Candidate = {
    start_line: index.line(t.start),
    end_line: index.line(Math.max(t.start, t.end - 1)),
    type: t.node.type,
    snippet: snippetOf(file.text, t.start, t.end),
  };
  if (t.symbol) c.name_path = t.symbol.name_path;
  return c;
}

/**
 * A node as a target: climbs wrappers that hold only this node (export,
 * decorated_definition, a `type` declaration with one spec) and takes in the
 * decorations and doc comments right above it.
 *
 * @param file The source file.
 * @param node The node.
 * @returns The target.
 */
export function nodeTarget(file: SourceFile, node: Node): Target {
  const rules = symbolRules(file.language);
  let top = node;
  for (;;) {
    const parent = top.parent;
    if (!parent || !rules.wrappers.includes(parent.type)) break;
    const others = parent.namedChildren.filter((c) =>
      c !== null && c.id !== top.id && !rules.comments.includes(c.type) && !isDecoration(c.type, rules)
    );
    if (others.length > 0) break;
    top = parent;
  }
  let fullStart = top.startIndex;
  let row = top.startPosition.row;
  for (let prev = top.previousNamedSibling; prev; prev = prev.previousNamedSibling) {
    const attachable = rules.comments.includes(prev.type) || isDecoration(prev.type, rules);
    if (!attachable || prev.endPosition.row < row - 1 || !startsLine(file.text, prev.startIndex)) break;
    fullStart = prev.startIndex;
    row = prev.startPosition.row;
  }
  return {
    node,
    start: node.startIndex,
    end: node.endIndex,
    fullStart,
    fullEnd: Math.max(top.endIndex, node.endIndex),
  };
}

/**
 * A symbol as a target: its definition node and own span, its full span
 * taking in wrappers, decorations and attached doc comments.
 *
 * @param file The source file.
 * @param symbol A symbol of the file's outline.
 * @returns The target.
 */
export function symbolTarget(file: SourceFile, symbol: SymbolInfo): Target {
  const { start_utf16: start, end_utf16: end } = symbol.range;
  const known = symbolNode(symbol);
  let node: Node | null = known && known.startIndex === start && known.endIndex === end
    ? known
    : file.tree.rootNode.descendantForIndex(start, Math.max(start, end - 1));
  while (node && node.parent && (node.startIndex > start || node.endIndex < end)) node = node.parent;
  for (let up = node?.parent; up && up.startIndex === start && up.endIndex === end; up = up.parent) node = up;
  return {
    node: node ?? file.tree.rootNode,
    start,
    end,
    fullStart: Math.min(symbol.full_range.start_utf16, start),
    fullEnd: Math.max(symbol.full_range.end_utf16, end),
    symbol,
  };
}

function lineSpans(cands: Candidate[]): string {
  const spans = cands.slice(0, 8).map((c) =>
    c.start_line === c.end_line ? `${c.start_line}` : `${c.start_line}-${c.end_line}`
  );
  return spans.join(", ") + (cands.length > 8 ? ", ..." : "");
}

function narrowTargets(
  file: SourceFile,
  kind: SelectorKind,
  all: Target[],
  options: SelectOptions,
  describe: string,
  noMatch: () => RecoverableError,
): Selection {
  if (all.length === 0) throw noMatch();
  const select = options.select ?? "unique";
  const index = new TextIndex(file.text);
  if (select === "all") return { kind, targets: all, total: all.length };
  if (select === "first") return { kind, targets: [all[0]!], total: all.length };
  if (select === "nth") {
    const n = options.n ?? 1;
    if (n < 1 || n > all.length) {
      const cands = all.slice(0, 50).map((t) => describeTarget(file, index, t));
      throw new RecoverableError(
        "no_match",
        `Cannot take match ${n} in "${file.rel}": ${describe} matches ${all.length} node${
          all.length === 1 ? "" : "s"
        }`,
        {
          hint: `Pass n between 1 and ${all.length} (matches are numbered in document order)`,
          ...(options.retry ? { suggestedCall: options.retry({ select: "nth", n: all.length }) } : {}),
          details: { path: file.rel, total: all.length, candidates: cands },
        },
      );
    }
    return { kind, targets: [all[n - 1]!], total: all.length };
  }
  if (all.length === 1) return { kind, targets: all, total: 1 };
  const cands = all.slice(0, 50).map((t) => describeTarget(file, index, t));
  throw new RecoverableError(
    "ambiguous",
    `Cannot pick one target in "${file.rel}": ${describe} matches ${all.length} nodes (lines ${
      lineSpans(cands)
    })`,
    {
      hint: kind === "name_path"
        ? 'Use one of the candidates\' name paths (each is unique), or select: "all" / "nth" with n (1-based, document order)'
        : 'Pass select: "all" to edit every match, select: "nth" with n (1-based, document order) for one of them, or narrow the selector',
      ...(options.retry
        ? {
          suggestedCall: options.retry(
            kind === "name_path" && cands[0]?.name_path
              ? { selector: cands[0].name_path }
              : { select: "nth", n: 1 },
          ),
        }
        : {}),
      details: { path: file.rel, total: all.length, candidates: cands },
    },
  );
}

function dedupe(nodes: Node[]): Node[] {
  const seen = new Set<string>();
  const out: Node[] = [];
  for (const n of nodes) {
    const key = `${n.startIndex}:${n.endIndex}:${n.type}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(n);
  }
  return out.sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex);
}

/** The span of the symbol a `within` name path names (it must be unique). */
async function scopeOf(
  ws: Parsing,
  file: SourceFile,
  within: string,
): Promise<{ start: number; end: number }> {
  let symbols: SymbolInfo[];
  try {
    symbols = (await outlineOf(ws, file.rel, { text: file.text, version: file.version })).symbols;
  } catch (cause) {
    throw new RecoverableError("unsupported_language", `Cannot resolve within "${within}" in "${file.rel}"`, {
      hint:
        `graver has no symbol query for ${file.language}; drop "within" and narrow the pattern or query instead`,
      details: { path: file.rel, language: file.language },
      cause,
    });
  }
  const res = resolveNamePath(symbols, within);
  if (res.status === "unique") {
    return { start: res.symbol.full_range.start_utf16, end: res.symbol.full_range.end_utf16 };
  }
  if (res.status === "ambiguous") {
    throw new RecoverableError(
      "ambiguous",
      `Cannot scope to "${within}" in "${file.rel}": ${res.candidates.length} symbols match`,
      {
        hint: `Pass within as one of ${res.candidates.map((c) => `"${c.name_path}"`).join(", ")}`,
        details: {
          path: file.rel,
          candidates: res.candidates.map((c) => ({
            name_path: c.name_path,
            start_line: c.range.start_line,
            end_line: c.range.end_line,
          })),
        },
      },
    );
  }
  throw new RecoverableError("no_match", `Cannot scope to "${within}" in "${file.rel}": no such symbol`, {
    hint: res.suggestions.length > 0
      ? `Did you mean ${res.suggestions.map((n) => `"${n}"`).join(", ")}?`
      : "Call outline on the file to see every name path",
    details: { path: file.rel, within, did_you_mean: res.suggestions },
  });
}

/**
 * Resolve a selector in a parsed file.
 *
 * @param ws The workspace (grammars, outlines).
 * @param file The parsed file.
 * @param selector Name path, query or pattern.
 * @param options select mode, n, and how to build a retry call.
 * @returns The targets; `no_match`, `ambiguous`, `invalid_query` or `unsupported_language` otherwise.
 */
export async function selectTargets(
  ws: Parsing,
  file: SourceFile,
  { selector, ...options }: { selector: Selector } & SelectOptions,
): Promise<Selection> {
  const sel = normaliseSelector(selector);
  const scope = sel.within === undefined ? null : await scopeOf(ws, file, sel.within);
  const narrow: Narrow = (kind, all, describe, noMatch) =>
    narrowTargets(
      file,
      kind,
      scope ? all.filter((t) => t.start >= scope.start && t.end <= scope.end) : all,
      options,
      scope ? `${describe} within "${sel.within}"` : describe,
      noMatch,
    );
  const ctx: SelectContext = { ws, file, sel, narrow, options };
  if (sel.kind === "name_path") return await selectByNamePath(ctx);
  if (sel.kind === "query") return await selectByQuery(ctx);
  return await selectByPattern(ctx);
}

/** Narrow the targets a selector found (to the `within` scope, then by select mode), or throw its no-match error. */
type Narrow = (
  kind: SelectorKind,
  all: Target[],
  describe: string,
  noMatch: () => RecoverableError,
) => Selection;

/** What each kind of selector resolves with. */
interface SelectContext {
  ws: Parsing;
  file: SourceFile;
  sel: ReturnType<typeof normaliseSelector>;
  narrow: Narrow;
  options: SelectOptions;
}

/** The symbols a name path names, from the file's outline. */
async function selectByNamePath({ ws, file, sel, narrow, options }: SelectContext): Promise<Selection> {
  const namePath = sel.name_path!;
  const symbols = await outlineForNamePath(ws, file, namePath);
  const res = resolveNamePath(symbols, namePath, sel.substring ? { substring: true } : {});
  const all = res.status === "unique"
    ? [symbolTarget(file, res.symbol)]
    : res.status === "ambiguous"
    ? res.candidates.map((s) => symbolTarget(file, s)).sort((a, b) => a.start - b.start)
    : [];
  return narrow("name_path", all, `the name path "${namePath}"`, () => {
    const suggestions = res.status === "not_found" ? res.suggestions : [];
    // Code passed where a name path goes: say how to match code.
    const looksLikeCode = /[()$;={}]|\.\w/.test(namePath);
    const retry = options.retry && (suggestions.length > 0 || looksLikeCode)
      ? options.retry({ selector: looksLikeCode ? { pattern: namePath } : suggestions[0] })
      : undefined;
    return new RecoverableError("no_match", `Cannot find the symbol "${namePath}" in "${file.rel}"`, {
      hint: looksLikeCode
        ? `A string selector is a name path; to match code pass {"pattern": ${JSON.stringify(namePath)}}`
        : suggestions.length > 0
        ? `Did you mean ${
          suggestions.map((s) => `"${s}"`).join(", ")
        }? Call outline on the file to see every name path`
        : "Call outline on the file to see every name path",
      ...(retry ? { suggestedCall: retry } : {}),
      details: { path: file.rel, name_path: namePath, did_you_mean: suggestions },
    });
  });
}

/** The file's symbols; `unsupported_language` (naming the other selectors) when graver has no symbol query for it. */
async function outlineForNamePath(ws: Parsing, file: SourceFile, namePath: string): Promise<SymbolInfo[]> {
  try {
    return (await outlineOf(ws, file.rel, { text: file.text, version: file.version })).symbols;
  } catch (err) {
    if (err instanceof RecoverableError && err.code === "unsupported_language") {
      throw new RecoverableError(
        "unsupported_language",
        `Cannot resolve the name path "${namePath}" in "${file.rel}": graver has no symbol query for ${file.language}`,
        {
          hint:
            'Select the node with a pattern ({"pattern": "..."}) or a tree-sitter query ({"query": "...", "capture": "..."}) instead, or use edit_safe_text_patch',
          details: {
            path: file.rel,
            language: file.language,
            fallback: ["pattern", "query", "edit_safe_text_patch"],
          },
        },
      );
    }
    throw err;
  }
}

/** The nodes a tree-sitter query's capture selects. */
async function selectByQuery({ ws, file, sel, narrow }: SelectContext): Promise<Selection> {
  const source = sel.query!;
  const compiled = await compileQuerySelector(ws, file, source);
  const query = compiled.query;
  try {
    const names = [...new Set(query.captureNames)];
    const capture = sel.capture ?? (names.length === 1 ? names[0] : undefined);
    if (capture === undefined || !names.includes(capture)) throw captureError(source, { names, capture });
    const captured = compiled.captures(file.tree.rootNode);
    const counts: Record<string, number> = {};
    for (const c of captured) counts[c.name] = (counts[c.name] ?? 0) + 1;
    const nodes = dedupe(captured.filter((c) => c.name === capture).map((c) => c.node));
    const all = nodes.map((n) => nodeTarget(file, n));
    return narrow(
      "query",
      all,
      "the query",
      () =>
        new RecoverableError(
          "no_match",
          `Cannot find any @${capture} in "${file.rel}": the query matched nothing`,
          {
            hint:
              "Check the node types against read_file (or use a pattern selector, which is written as code); other captures matched as shown in details",
            details: { path: file.rel, query: source, capture, captures_found: counts },
          },
        ),
    );
  } finally {
    compiled.delete();
  }
}

/** Compile a query selector for the file's language; `invalid_query` with the line and column of the fault. */
async function compileQuerySelector(ws: Parsing, file: SourceFile, source: string): Promise<UserQuery> {
  const language = await ws.grammars!.language(file.language);
  try {
    return compileUserQuery(language, source);
  } catch (cause) {
    if (isRecoverable(cause)) throw cause;
    const e = cause as { index?: number; message?: string; info?: { word?: string } };
    const at = typeof e.index === "number" ? e.index : 0;
    const before = source.slice(0, at);
    const line = before.split("\n").length;
    const column = at - (before.lastIndexOf("\n") + 1) + 1;
    throw new RecoverableError(
      "invalid_query",
      `Cannot compile the ${file.language} query: ${
        e.message ?? String(cause)
      } (query line ${line}, column ${column})`,
      {
        hint: `Fix the S-expression near "${
          source.slice(at, at + 30)
        }": node and field names must exist in the ${file.language} grammar; or use a pattern selector ({"pattern": "..."})`,
        details: { query: source, offset: at, line, column, word: e.info?.word ?? null },
        cause,
      },
    );
  }
}

/** The `invalid_query` error for a query with no capture, several and none chosen, or an unknown one. */
function captureError(
  source: string,
  { names, capture }: { names: string[]; capture: string | undefined },
): RecoverableError {
  return new RecoverableError(
    "invalid_query",
    names.length === 0
      ? "Cannot select with a query that has no capture"
      : capture === undefined
      ? `Cannot tell which capture names the target: the query has ${names.map((n) => `@${n}`).join(", ")}`
      : `Cannot find the capture "@${capture}" in the query`,
    {
      hint: names.length === 0
        ? "Add a capture after the node to select, e.g. (function_declaration) @target"
        : `Pass capture as one of ${names.map((n) => `"${n}"`).join(", ")}`,
      details: { query: source, captures: names },
    },
  );
}

/** The nodes a code pattern matches, with their metavariable bindings. */
async function selectByPattern({ ws, file, sel, narrow }: SelectContext): Promise<Selection> {
  const index = new TextIndex(file.text);
  const parser = await ws.grammars!.parser(file.language);
  let compiled;
  try {
    compiled = compilePattern(parser, file.language, sel.pattern!);
  } finally {
    parser.delete();
  }
  const matches = matchPattern(compiled, file.tree.rootNode, { text: file.text });
  const all = matches.map((m) => ({ ...nodeTarget(file, m.node), bindings: m.bindings }));
  return narrow("pattern", all, `the pattern "${compiled.source}"`, () => {
    const near = nearestPatternCandidates(compiled, file.tree.rootNode, 5).map((n) =>
      describeTarget(file, index, nodeTarget(file, n))
    );
    return new RecoverableError("no_match", `Cannot find the pattern "${compiled.source}" in "${file.rel}"`, {
      hint: near.length > 0
        ? `Nearest ${compiled.root.type} nodes are at lines ${
          lineSpans(near)
        }; adjust the pattern (use $X for one node, $$$X for any number)`
        : `The file has no ${compiled.root.type} node; check the pattern against read_file`,
      details: { path: file.rel, pattern: compiled.source, node_type: compiled.root.type, nearest: near },
    });
  });
}
