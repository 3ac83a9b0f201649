/**
 * Where a moved declaration lands: the destination stops importing the name and receives the imports the
 * code needs (run-time ones after its imports; Python's typing-only ones under `if TYPE_CHECKING:`, and the
 * source's `__future__` features first), then the declaration after its imports or after what it uses there,
 * with the blank lines {@linkcode insertionEdit} gives every insertion; the source gets the import lines it
 * still needs.
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";
import { RecoverableError } from "../../errors.ts";
import { lineEndAfter, lineStart } from "../../fs/lines.ts";
import { dominantEol, encodeText } from "../../fs/text.ts";
import { versionOf } from "../../fs/version.ts";
import { type Binding, type FileBindings, fileBindings } from "../../syntax/bindings.ts";
import { outlineOf } from "../../syntax/symbols.ts";
import type { Parsing } from "../../syntax/types.ts";
import {
  type ImportItem,
  importStatements,
  type ImportStyle,
  importStyleOf,
  linesAfter,
  statementRemoval,
} from "../shared/import_edits.ts";
import {
  firstStatement,
  futureFeatures,
  importLinesEdit,
  importSiteAt,
  lastImport,
  topStatement,
  typeCheckingBlocks,
} from "./_import_sites.ts";
import { definitionGap, definitionStartsOf } from "../edit/layout.ts";
import { insertionEdit } from "../edit/anchors.ts";
import { detectIndentUnit } from "../edit/reindent.ts";
import { nodeTarget } from "../edit/selectors.ts";
import { applyTextEdits, type SourceFile, type TextEdit } from "../edit/source.ts";

/** A text parsed as a {@linkcode SourceFile}. */
async function sourceFile(
  parsing: Parsing,
  f: { rel: string; language: string; text: string; bom: boolean },
): Promise<SourceFile> {
  const version = await versionOf(encodeText({ text: f.text, bom: f.bom }));
  const tree = (await parsing.trees!.parse(f.rel, f.language, version, f.text)).tree;
  return {
    rel: f.rel,
    language: f.language,
    text: f.text,
    bom: f.bom,
    version,
    eol: dominantEol(f.text),
    unit: detectIndentUnit(f.text, profileOf(f.language).indentUnit ?? "  "),
    tree,
    problems: 0,
  };
}

/** What {@linkcode placeDeclaration} places. */
export interface Placement {
  /** The source file after the declaration left (and the import lines it still needs). */
  source: { rel: string; language: string; text: string; bom: boolean; lines: string[] };
  /** The destination as it is. */
  dest: { rel: string; language: string; text: string; bom: boolean; eol: "\n" | "\r\n" };
  /** "ecmascript" | "python". */
  system: "ecmascript" | "python";
  /** The declaration's code. */
  code: string;
  /** Imports the code needs in the destination. */
  needs: { spec: string; item: ImportItem }[];
  /** The destination's import of the name from the source, to drop (its local uses take the name). */
  dImportOfB: { fb: FileBindings; binding: Binding; name: string } | null;
  /** Edits on the destination from the referrer pass. */
  dEdits: TextEdit[];
  /** The source's import style (for a new destination). */
  style: ImportStyle;
  /** Destination names the code uses: it goes after their declarations. */
  usesOfDest: string[];
  /** Python: the source's `__future__` features, which the destination takes too (they change what code means). */
  futures: string[];
}

/** The import statements for some names, grouped by module. */
function importLines(
  system: "ecmascript" | "python",
  needs: { spec: string; item: ImportItem }[],
  style: ImportStyle,
): string[] {
  const bySpec = new Map<string, ImportItem[]>();
  for (const n of needs) bySpec.set(n.spec, [...(bySpec.get(n.spec) ?? []), n.item]);
  return [...bySpec].flatMap(([spec, items]) => importStatements(system, spec, { items, style }));
}

/** A file's text with import lines added after its imports. */
async function addImportLines(
  parsing: Parsing,
  f: { rel: string; language: string; text: string; bom: boolean; eol: "\n" | "\r\n" },
  lines: string[],
): Promise<string> {
  if (lines.length === 0) return f.text;
  const d = await sourceFile(parsing, f);
  return applyTextEdits(f.text, [importLinesEdit(d.tree, d.text, { lines, eol: f.eol })]);
}

/**
 * A Python file's text with typing-only import lines in its `if TYPE_CHECKING:` block: its first one, else a
 * new one after its imports (guarded by the `typing` import it has, else by `TYPE_CHECKING` imported for it).
 */
async function addTypingImports(
  parsing: Parsing,
  f: { rel: string; language: string; text: string; bom: boolean; eol: "\n" | "\r\n" },
  lines: string[],
): Promise<string> {
  const d = await sourceFile(parsing, f);
  const block = typeCheckingBlocks(d.tree)[0];
  if (block) {
    const last = block.body.namedChildren.filter((c) => c !== null).at(-1)!;
    return applyTextEdits(f.text, [
      linesAfter(f.text, { start: last.startIndex, end: last.endIndex }, { lines, eol: f.eol }),
    ]);
  }
  const fb = await fileBindings(parsing, {
    path: d.rel,
    language: d.language,
    version: d.version,
    text: d.text,
  });
  let guard = "TYPE_CHECKING";
  const own = fb?.scopes[0]?.bindings.get(guard);
  const typing = fb?.imports.find((i) => i.kind === "namespace" && i.source === "typing");
  let text = f.text;
  if (!(own?.import?.source === "typing" && own.import.imported === guard)) {
    if (typing) guard = `${typing.local.name}.TYPE_CHECKING`;
    else if (own || fb?.scopes[0]?.bindings.has("typing")) {
      throw new RecoverableError(
        "name_clash",
        `Cannot add an \`if TYPE_CHECKING:\` block to "${f.rel}": it binds "TYPE_CHECKING" or "typing" otherwise`,
        { hint: `Add \`import typing\` to "${f.rel}" first, then move`, details: { path: f.rel } },
      );
    } else text = await addImportLines(parsing, f, ["from typing import TYPE_CHECKING"]);
  }
  const withGuard = await sourceFile(parsing, { ...f, text });
  const block2 = ["", `if ${guard}:`, ...lines.map((l) => withGuard.unit + l)];
  return applyTextEdits(text, [importLinesEdit(withGuard.tree, text, { lines: block2, eol: f.eol })]);
}

/** A Python file's text with the `__future__` features it lacks imported first (after its docstring). */
async function addFutures(
  parsing: Parsing,
  f: { rel: string; language: string; text: string; bom: boolean; eol: "\n" | "\r\n" },
  features: string[],
): Promise<string> {
  if (features.length === 0) return f.text;
  const d = await sourceFile(parsing, f);
  const have = futureFeatures(d.tree);
  const missing = features.filter((x) => !have.includes(x));
  if (missing.length === 0) return f.text;
  const line = `from __future__ import ${missing.join(", ")}`;
  const first = firstStatement(d.tree);
  if (!first) {
    return f.text.trim() === "" ? line + f.eol : f.text + (f.text.endsWith("\n") ? "" : f.eol) + line + f.eol;
  }
  const at = lineStart(f.text, first.startIndex);
  const gap = first.type === "future_import_statement" ? "" : f.eol;
  return f.text.slice(0, at) + line + f.eol + gap + f.text.slice(at);
}

/**
 * The source's and the destination's new texts: import lines added after
 * their imports, the declaration placed after the destination's imports.
 *
 * @param parsing Grammars and parse cache.
 * @param p What to place.
 * @returns Both texts.
 */
export async function placeDeclaration(
  parsing: Parsing,
  p: Placement,
): Promise<{ source: string; dest: string }> {
  let source = p.source.text;
  if (p.source.lines.length > 0) {
    const s = await sourceFile(parsing, p.source);
    source = applyTextEdits(s.text, [importLinesEdit(s.tree, s.text, { lines: p.source.lines, eol: s.eol })]);
  }
  // 1. The destination stops importing the name and uses its own.
  let dest = applyTextEdits(p.dest.text, await destinationEdits(parsing, p));
  // 2. Its new imports.
  dest = await addDestinationImports(parsing, p, dest);
  // 3. The declaration, after the imports (and after what it uses of the destination).
  return { source, dest: await insertDeclaration(parsing, p, dest) };
}

/** The referrer pass's edits on the destination, and the removal of its import of the name (its uses take the name). */
async function destinationEdits(parsing: Parsing, p: Placement): Promise<TextEdit[]> {
  const dEdits = [...p.dEdits];
  if (p.dImportOfB) {
    const { fb, binding, name } = p.dImportOfB;
    const d0 = await sourceFile(parsing, p.dest);
    const def = fb.occurrences.find((o) => o.binding === binding && o.kind === "definition");
    const site = def ? importSiteAt(d0.tree, d0.text, { system: p.system, offset: def.start }) : null;
    if (def && site) {
      dEdits.push(
        ...(site.only ? [statementRemoval(d0.text, site.statement)] : site.removal),
      );
    }
    for (const o of fb.occurrences) {
      if (o.binding === binding && o.kind !== "definition" && o.name !== name) {
        dEdits.push({ start: o.start, end: o.end, text: name });
      }
    }
  }
  return dEdits;
}

/**
 * The destination with the imports the code needs: run-time ones, then (Python) typing-only ones under
 * `if TYPE_CHECKING:`, and the source's `__future__` features.
 */
async function addDestinationImports(parsing: Parsing, p: Placement, text: string): Promise<string> {
  const typing = profileOf(p.dest.language).moduleSystem?.typeCheckingImports
    ? p.needs.filter((n) => n.item.typeOnly)
    : [];
  const runtime = p.needs.filter((n) => !typing.includes(n));
  const style = text.trim() === "" ? p.style : importStyleOf(text);
  let dest = await addImportLines(parsing, { ...p.dest, text }, importLines(p.system, runtime, style));
  if (typing.length > 0) {
    dest = await addTypingImports(parsing, { ...p.dest, text: dest }, importLines(p.system, typing, style));
  }
  return await addFutures(parsing, { ...p.dest, text: dest }, p.futures);
}

/** The destination with the declaration after its imports (and after what the code uses of it). */
async function insertDeclaration(parsing: Parsing, p: Placement, dest: string): Promise<string> {
  const d2 = await sourceFile(parsing, { ...p.dest, text: dest });
  const eol = p.dest.eol;
  const code = p.code.replace(/\r?\n/g, eol);
  if (dest.trim() === "") return code + eol;
  const outline = await outlineOf(parsing, d2.rel, { text: d2.text, version: d2.version }).catch(() => null);
  const defs = outline ? definitionStartsOf(outline.symbols) : null;
  let anchor = lastImport(d2.tree);
  for (const { statement } of typeCheckingBlocks(d2.tree)) {
    if (!anchor || statement.startIndex > anchor.startIndex) anchor = statement;
  }
  for (const s of outline?.symbols ?? []) {
    if (!p.usesOfDest.includes(s.name)) continue;
    const stmt = topStatement(d2.tree, s.range.start_utf16);
    if (stmt && (!anchor || stmt.startIndex > anchor.startIndex)) anchor = stmt;
  }
  const gap = definitionGap(d2, d2.tree.rootNode, defs);
  if (anchor) {
    const at = lineEndAfter(dest, anchor.endIndex);
    if (dest.slice(at).trim() === "") {
      const head = dest.slice(0, at);
      return head + (head.endsWith("\n") ? "" : eol) + eol.repeat(gap) + code + eol;
    }
    return applyTextEdits(dest, [
      insertionEdit(d2, nodeTarget(d2, anchor), { position: "after", rawCode: code, defs }),
    ]);
  }
  const first = firstStatement(d2.tree);
  if (first) {
    return applyTextEdits(dest, [
      insertionEdit(d2, nodeTarget(d2, first), { position: "before", rawCode: code, defs }),
    ]);
  }
  return dest + (dest.endsWith("\n") ? "" : eol) + eol.repeat(gap) + code + eol;
}
