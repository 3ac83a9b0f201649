/**
 * What edit_move_decl asks of the source file: how its names are used and
 * declared (CommonJS, assignments, export clauses, type-only imports), the
 * edits it gives up (an `export ` before a declaration the destination now
 * imports, an import only the moved code used), and the
 * habit new imports follow — with the refusal every check shares.
 *
 * @module
 */
import { moduleSystemNamed, profileOf } from "../../languages/profiles.ts";
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import type { Binding, FileBindings, Occurrence } from "../../syntax/bindings.ts";
import { blankLinesAbove, lineEndAfter, lineStart } from "../../fs/lines.ts";
import {
  importRemovals,
  type ImportSite,
  importSiteAt,
  topStatement,
  typeCheckingBlocks,
} from "./_import_sites.ts";
import type { TextEdit } from "../edit/source.ts";
import type { SymbolTarget } from "../edit/symbol_target.ts";

/** Statement types `export ` can prefix. */
const EXPORTABLE = new Set([
  "function_declaration",
  "generator_function_declaration",
  "class_declaration",
  "abstract_class_declaration",
  "lexical_declaration",
  "variable_declaration",
  "interface_declaration",
  "type_alias_declaration",
  "enum_declaration",
  "function_signature",
  "ambient_declaration",
]);

/**
 * Throw a refactor refusal.
 *
 * @param code The error code.
 * @param message What and where.
 * @param hint What to call next.
 * @param details The facts.
 */
export function refuse(
  code:
    | "visibility_required"
    | "destination_conflict"
    | "import_cycle"
    | "name_clash"
    | "invalid_args"
    | "unresolved"
    | "value_reference",
  message: string,
  { hint, details }: { hint: string; details: Record<string, unknown> },
): never {
  throw new RecoverableError(code, message, { hint, details });
}

/** Whether a JavaScript file is a CommonJS module (require/module.exports and no import/export). */
export function isCommonJs(fb: FileBindings): boolean {
  return fb.imports.length === 0 && fb.exports.length === 0 &&
    /\brequire\s*\(|\bmodule\.exports\b|\bexports\.\w+\s*=/.test(fb.text);
}

/** Whether an ECMAScript use is an assignment target (`x = 1`, `x++`, `x += 1`). */
export function assigned(t: SymbolTarget, occ: Occurrence): boolean {
  const node = t.tree.rootNode.descendantForIndex(occ.start, occ.end);
  const p = node?.parent;
  if (!p) return false;
  if (p.type === "update_expression") return true;
  return /assignment_expression$/.test(p.type) && p.childForFieldName("left")?.startIndex === occ.start;
}

/** Whether a use sits in a local `export { x }` clause (no `from`). */
export function inLocalExportClause(t: SymbolTarget, offset: number): boolean {
  let n: Node | null = t.tree.rootNode.descendantForIndex(offset, offset + 1);
  while (n && n.type !== "export_specifier") n = n.parent;
  const stmt = n?.parent?.parent;
  return !!stmt && stmt.type === "export_statement" && !stmt.childForFieldName("source");
}

/** Whether an ECMAScript import binding is type-only (`import type {x}`, `import {type x}`). */
export function typeOnlyImport(t: SymbolTarget, fb: FileBindings, x: Binding): boolean {
  const def = fb.occurrences.find((o) => o.binding === x && o.kind === "definition");
  const stmt = def ? topStatement(t.tree, def.start) : null;
  if (!def || !stmt || stmt.type !== "import_statement") return false;
  if (/^import\s+type\b/.test(stmt.text)) return true;
  let n: Node | null = t.tree.rootNode.descendantForIndex(def.start, def.start + 1);
  while (n && n.type !== "import_specifier" && n.type !== "import_statement") n = n.parent;
  return !!n && n.type === "import_specifier" && /^type\s/.test(n.text);
}

/** The `export ` to put before a source declaration the destination must import, or `visibility_required`. */
export function exportPrefix(t: SymbolTarget, fb: FileBindings, x: Binding): TextEdit {
  const defs = fb.occurrences.filter((o) => o.binding === x && o.kind === "definition");
  const stmts = [
    ...new Map(
      defs.map((d) => topStatement(t.tree, d.start)).filter((s): s is Node => s !== null).map((
        s,
      ) => [s.startIndex, s]),
    ).values(),
  ];
  const stmt = stmts[0];
  const others = stmt
    ? fb.occurrences.some((o) =>
      o.kind === "definition" && o.binding !== x && o.binding?.scope === fb.scopes[0] &&
      o.start >= stmt.startIndex && o.start < stmt.endIndex
    )
    : true;
  if (!stmt || stmts.length !== 1 || !EXPORTABLE.has(stmt.type) || others) {
    refuse(
      "visibility_required",
      `Cannot move the declaration: it uses "${x.name}", which "${t.rel}" does not export and graver cannot export alone`,
      {
        hint: `Export "${x.name}" from "${t.rel}" first (an export statement of its own), then move`,
        details: { path: t.rel, name: x.name },
      },
    );
  }
  return { start: stmt.startIndex, end: stmt.startIndex, text: "export " };
}

/** Whether a Python binding exists only for type checkers: every definition of it is in an `if TYPE_CHECKING:`. */
export function typingOnly(t: SymbolTarget, fb: FileBindings, x: Binding): boolean {
  const blocks = typeCheckingBlocks(t.tree);
  const defs = fb.occurrences.filter((o) => o.binding === x && o.kind === "definition");
  return blocks.length > 0 && defs.length > 0 &&
    defs.every((d) => blocks.some((b) => d.start >= b.body.startIndex && d.end <= b.body.endIndex));
}

/**
 * The edits that take import bindings out of the source file (several names of one statement together); an
 * `if TYPE_CHECKING:` whose every statement goes, goes whole.
 */
export function dropImports(
  t: SymbolTarget,
  system: "ecmascript" | "python",
  { bindings, fb }: { bindings: Binding[]; fb: FileBindings },
): TextEdit[] {
  const sites: ImportSite[] = [];
  for (const x of bindings) {
    const def = fb.occurrences.find((o) => o.binding === x && o.kind === "definition");
    const site = def ? importSiteAt(t.tree, t.text, { system, offset: def.start }) : null;
    if (site) sites.push(site);
  }
  const emptied = profileOf(t.language).moduleSystem?.typeCheckingImports ? emptiedBlocks(t, sites) : [];
  const inEmptied = (s: ImportSite) =>
    emptied.some((b) => s.statement.start >= b.start && s.statement.end <= b.end);
  return [
    ...importRemovals(t.text, sites.filter((s) => !inEmptied(s))),
    // Its lines and the blank ones above it: those below may be the moved declaration's to take.
    ...emptied.map((b) => ({
      start: blankLinesAbove(t.text, lineStart(t.text, b.start)).from,
      end: lineEndAfter(t.text, b.end),
      text: "",
    })),
  ];
}

/** The `if TYPE_CHECKING:` statements (without `else`) whose every statement the sites remove whole. */
function emptiedBlocks(t: SymbolTarget, sites: ImportSite[]): { start: number; end: number }[] {
  const removed = new Set<number>();
  const byStatement = new Map<number, ImportSite[]>();
  for (const s of sites) {
    byStatement.set(s.statement.start, [...(byStatement.get(s.statement.start) ?? []), s]);
  }
  for (const [start, group] of byStatement) {
    if (group[0]!.only || group.length >= group[0]!.count) removed.add(start);
  }
  return typeCheckingBlocks(t.tree).filter(({ statement, body }) =>
    !statement.childForFieldName("alternative") &&
    body.namedChildren.every((c) => !c || c.type === "comment" || removed.has(c.startIndex))
  ).map(({ statement }) => ({ start: statement.startIndex, end: statement.endIndex }));
}

/** A file's habit for new imports: its first relative (or, in Python, in-project) import and the file it names. */
export function habitOf(
  fb: FileBindings | null,
  from: string,
  { resolve, system }: {
    resolve: (from: string, source: string) => string | null;
    system: "ecmascript" | "python";
  },
): { source: string; target: string } | null {
  for (const i of fb?.imports ?? []) {
    const target = resolve(from, i.source);
    if (target && (moduleSystemNamed(system).bareSpecifiersNameProjectModules || i.source.startsWith("."))) {
      return { source: i.source, target };
    }
  }
  return null;
}

/** A habit when a file has none: relative, no extension (ECMAScript); relative inside a package (Python). */
export function syntheticHabit(
  system: "ecmascript" | "python",
  path: string,
): { source: string; target: string } {
  return moduleSystemNamed(system).sampleImport!(path);
}
