/**
 * Module references: every place a file names another module, with the span
 * of the name as written — what a move rewrites. ECMAScript: `import … from`,
 * `import "…"`, `export … from`, `import x = require("…")`, and, with a string
 * literal, dynamic `import("…")` (`typeof import("…")` too) and `require("…")`.
 * Python: `from m import a, b as c` (with each imported name, which may be a
 * submodule) and `import a.b`, `import a.b as c`. Found by scanning the text
 * for the keywords and confirming each hit on the tree (comments and strings
 * never count).
 *
 * @module
 */
import type { Node, Tree } from "web-tree-sitter";
import type { FileBindings } from "../../syntax/bindings.ts";
import { type FamilyStrategy, strategyFor } from "./family_strategies.ts";

/** One name of a Python `from m import …` statement. */
export interface ImportedName {
  /** The name imported (`a` in `a as b`). */
  name: string;
  /** The local alias, or null. */
  alias: string | null;
  /** Span of the whole item (`a as b`), UTF-16. */
  start: number;
  /** End of the item, exclusive. */
  end: number;
}

/** One module named by a file. */
export interface ModuleReference {
  /** What names it. */
  kind: "import" | "export" | "require" | "dynamic" | "from" | "module";
  /** The module name as written (Python: without spaces). */
  source: string;
  /** Span of the module name as written (ECMAScript: inside the quotes), UTF-16. */
  start: number;
  /** End of that span, exclusive. */
  end: number;
  /** The statement (or call) that holds it. */
  statement: { start: number; end: number };
  /** Python `from m import …`: the names, in order (empty for `*`). */
  names?: ImportedName[];
  /** Python `from m import (…)`: the span of the name list. */
  list?: { start: number; end: number };
  /** Python `import a.b`: the alias, or null when the statement binds `a` itself. */
  alias?: string | null;
}

/** One module system's reading of the references in a file. */
interface ReferenceReader extends FamilyStrategy {
  /** The words a reference starts at (a hit is confirmed on the tree). */
  keywords: RegExp;
  /** Records the reference a keyword's node belongs to, if any. */
  at(hit: Node, text: string, out: Map<number, ModuleReference>): void;
}

/**
 * Every module reference of a parsed file.
 *
 * @param tree The file's parse.
 * @param text Its text.
 * @param system "ecmascript" or "python".
 * @returns The references, in document order.
 *
 * @example
 * ```ts
 * import { Grammars } from "../../syntax/grammars.ts";
 * import { createWasmLoader } from "../../adapters/deno/mod.ts";
 * import { moduleReferences } from "./module_imports.ts";
 * import assert from "node:assert/strict";
 *
 * const parser = await new Grammars(createWasmLoader()).parser("typescript");
 * const text = `import { a } from "./a.js";\nconst b = await import('./b');\n`;
 * const refs = moduleReferences(parser.parse(text)!, text, "ecmascript");
 * assert.deepEqual(refs.map((r) => [r.kind, r.source]), [["import", "./a.js"], ["dynamic", "./b"]]);
 * parser.delete();
 * ```
 */
export function moduleReferences(
  tree: Tree,
  text: string,
  system: "ecmascript" | "python",
): ModuleReference[] {
  const out = new Map<number, ModuleReference>();
  const root = tree.rootNode;
  const reader = strategyFor(REFERENCE_READERS, system);
  for (const m of text.matchAll(reader.keywords)) {
    const at = m.index + m[0].search(/[a-z]/);
    const node = root.descendantForIndex(at, at + 1);
    if (!node) continue;
    reader.at(node, text, out);
  }
  return [...out.values()].sort((a, b) => a.start - b.start);
}

/** The string literal's content span, when `node` is a plain string (not a template). */
function stringContent(node: Node | null): { start: number; end: number; text: string } | null {
  if (!node || node.type !== "string") return null;
  const start = node.startIndex + 1;
  const end = node.endIndex - 1;
  if (end < start) return null;
  return { start, end, text: node.text.slice(1, -1) };
}

function ecmaAt(hit: Node, out: Map<number, ModuleReference>): void {
  let n: Node | null = hit;
  for (let depth = 0; n && depth < 4; depth++, n = n.parent) {
    let kind: ModuleReference["kind"] | null = null;
    let str: Node | null = null;
    let statement: Node = n;
    if (n.type === "import_statement" || n.type === "export_statement") {
      const clause = n.namedChildren.find((c) => c?.type === "import_require_clause");
      kind = clause ? "require" : n.type === "import_statement" ? "import" : "export";
      str = (clause ?? n).childForFieldName("source");
    } else if (n.type === "call_expression") {
      const fn = n.childForFieldName("function");
      const args = n.childForFieldName("arguments");
      const isImport = fn?.type === "import";
      if (!isImport && !(fn?.type === "identifier" && fn.text === "require")) continue;
      if (!args || args.namedChildCount !== 1) return;
      kind = isImport ? "dynamic" : "require";
      str = args.namedChild(0);
      statement = n;
    } else continue;
    const s = stringContent(str);
    if (!s || out.has(s.start)) return;
    out.set(s.start, {
      kind: kind!,
      source: s.text,
      start: s.start,
      end: s.end,
      statement: { start: statement.startIndex, end: statement.endIndex },
    });
    return;
  }
}

function pythonAt(hit: Node, text: string, out: Map<number, ModuleReference>): void {
  let n: Node | null = hit;
  while (n && n.type !== "import_statement" && n.type !== "import_from_statement") {
    if (n.type === "module" || n.type === "block" || n.type === "future_import_statement") return;
    n = n.parent;
  }
  if (!n || out.has(n.startIndex) || [...out.values()].some((r) => r.statement.start === n!.startIndex)) {
    return;
  }
  const statement = { start: n.startIndex, end: n.endIndex };
  if (n.type === "import_from_statement") {
    const mod = n.childForFieldName("module_name");
    if (!mod) return;
    const names: ImportedName[] = [];
    for (const item of n.childrenForFieldName("name")) {
      if (!item) continue;
      const aliased = item.type === "aliased_import";
      const name = aliased ? item.childForFieldName("name") : item;
      names.push({
        name: (name?.text ?? "").replace(/\s+/g, ""),
        alias: aliased ? item.childForFieldName("alias")?.text ?? null : null,
        start: item.startIndex,
        end: item.endIndex,
      });
    }
    const ref: ModuleReference = {
      kind: "from",
      source: mod.text.replace(/\s+/g, ""),
      start: mod.startIndex,
      end: mod.endIndex,
      statement,
      names,
    };
    const first = names[0];
    const last = names[names.length - 1];
    if (first && last) ref.list = { start: first.start, end: last.end };
    out.set(mod.startIndex, ref);
    return;
  }
  for (const item of n.childrenForFieldName("name")) {
    if (!item) continue;
    const aliased = item.type === "aliased_import";
    const name = aliased ? item.childForFieldName("name") : item;
    if (!name) continue;
    out.set(name.startIndex, {
      kind: "module",
      source: text.slice(name.startIndex, name.endIndex).replace(/\s+/g, ""),
      start: name.startIndex,
      end: name.endIndex,
      statement,
      alias: aliased ? item.childForFieldName("alias")?.text ?? null : null,
    });
  }
}

/**
 * The uses of a dotted module path in a Python file that bound it with
 * `import a.b` (which binds `a`): each use of the module-level binding `a`
 * followed by `.b` (and `.more` parts when given), as the span of the whole chain.
 *
 * @param fb The file's bindings.
 * @param parts The dotted path's parts after the first (`["b"]`), and any attribute after it.
 * @param head The first part (`a`).
 * @returns Spans of `a.b[.more]`, in document order.
 */
export function dottedUses(
  fb: FileBindings,
  head: string,
  parts: string[],
): { start: number; end: number }[] {
  const tail = new RegExp(`^${parts.map((p) => `\\s*\\.\\s*${p}`).join("")}(?![\\p{L}\\p{N}_])`, "u");
  const local = fb.scopes[0]!.bindings.get(head);
  const out: { start: number; end: number }[] = [];
  if (!local) return out;
  for (const occ of fb.occurrences) {
    if (occ.binding !== local || occ.kind !== "reference") continue;
    const m = tail.exec(fb.text.slice(occ.end, occ.end + 300));
    if (m) out.push({ start: occ.start, end: occ.end + m[0].length });
  }
  return out;
}

/** Each module system's reader, by the system's name. */
const REFERENCE_READERS: readonly ReferenceReader[] = [
  {
    family: "ecmascript",
    keywords: /\b(?:import|export|require)\b/g,
    at: (hit, _text, out) => ecmaAt(hit, out),
  },
  { family: "python", keywords: /^[ \t]*(?:from|import)\b|;[ \t]*(?:from|import)\b/gm, at: pythonAt },
];
