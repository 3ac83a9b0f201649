/**
 * The files edit_move_decl changes besides the declaration's own: every
 * importer of the source file that takes the moved name (named, default and
 * namespace imports, Python submodule imports, re-exports, `export *`
 * barrels) now takes it from the destination; and the destination receives
 * the declaration after its imports (or after what it uses there), with the
 * blank lines {@linkcode insertionEdit} gives every insertion.
 *
 * @module
 */
import { moduleSystemNamed, profileOf } from "../../languages/profiles.ts";
import type { Tree } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import { lineEndAfter, lineStart } from "../../fs/lines.ts";
import type { Stage } from "../../fs/stage.ts";
import { dominantEol, encodeText } from "../../fs/text.ts";
import { versionOf } from "../../fs/version.ts";
import {
  type Binding,
  type FileBindings,
  fileBindings,
  memberPath,
  type Occurrence,
} from "../../syntax/bindings.ts";
import type { ModuleResolver } from "../../syntax/module_resolution.ts";
import { outlineOf } from "../../syntax/symbols.ts";
import { TextIndex } from "../../syntax/text_index.ts";
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
import { moduleReferences } from "../shared/module_imports.ts";
import { type ModuleLookup, namespaceExports, namespaceModule } from "../shared/namespaces.ts";
import { definitionGap, definitionStartsOf } from "../edit/layout.ts";
import { insertionEdit } from "../edit/anchors.ts";
import { type ModuleWorld, movableSystem } from "../move_file/imports_rewrite.ts";
import { detectIndentUnit } from "../edit/reindent.ts";
import { nodeTarget } from "../edit/selectors.ts";
import { applyTextEdits, type SourceFile, type TextEdit } from "../edit/source.ts";

/** What {@linkcode updateReferrers} needs to know about the move. */
export interface ReferrerContext {
  /** "ecmascript" | "python". */
  system: "ecmascript" | "python";
  /** Language used to resolve specifiers. */
  language: string;
  /** The source file. */
  source: string;
  /** The destination file. */
  to: string;
  /** The moved name. */
  name: string;
  /** Whether the source exported it as default. */
  isDefault: boolean;
  /** Whether the source exported it (what `export *` barrels passed on). */
  exportedInS: boolean;
  /** Resolution over the files after the move. */
  resolver: ModuleResolver;
  /** The workspace's files. */
  world: ModuleWorld;
  /** The specifier naming `target` from `from`, in the style of `old`. */
  respell: (from: string, target: string, old: { source: string; target: string }) => string | null;
}

/** The referrers' new texts, the destination's own namespace uses, and what could not be followed. */
export interface Referrers {
  /** New text of each importer that changes. */
  files: Map<string, { text: string; bom: boolean }>;
  /** Edits in the destination (its `ns.name` uses of the source become `name`). */
  destEdits: TextEdit[];
  /** References left alone. */
  unresolved: { path: string; line: number; reason: string }[];
  /** Files that pass the source on as a namespace (`export * as ns`): ns loses the name for code outside. */
  namespaces: { path: string; name: string }[];
}

const WORD = (name: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}_$])${name.replace(/[$]/g, "\\$")}(?![\\p{L}\\p{N}_$])`, "u");

/**
 * Rewrite every importer of the source file that takes the moved name.
 *
 * @param parsing Grammars and parse cache.
 * @param stage The call's stage (read only).
 * @param ctx The move.
 * @returns New texts, destination edits and unresolved references.
 */
export async function updateReferrers(
  parsing: Parsing,
  stage: Stage,
  ctx: ReferrerContext,
): Promise<Referrers> {
  const out: Referrers = { files: new Map(), destEdits: [], unresolved: [], namespaces: [] };
  const word = WORD(ctx.name);
  const lookup: ModuleLookup = {
    bindings: async (path) => {
      const language = parsing.grammars!.languageOf(path);
      const file = language ? await stage.readText(path).catch(() => null) : null;
      return file && language
        ? await fileBindings(parsing, { path, language, version: file.version, text: file.text })
        : null;
    },
    resolve: (from, language, source) => ctx.resolver.resolve(from, language, source),
  };
  const parsed: FileBindings[] = [];
  for (const rel of ctx.world.files) {
    if (rel === ctx.source) continue;
    const language = parsing.grammars!.languageOf(rel);
    if (!language || movableSystem(language) !== ctx.system) continue;
    const file = await stage.readText(rel).catch(() => null);
    if (!file || !word.test(file.text) && !/\bimport\s*\*|export\s*\*/.test(file.text)) continue;
    const fb = await fileBindings(parsing, { path: rel, language, version: file.version, text: file.text });
    if (!fb) continue;
    parsed.push(fb);
    // Names imported from a module that passes the source on as a namespace (`import { util }` where the
    // module has `export * as util from` the source): `util.name` is the source's name.
    const namespaces = new Set<Binding>();
    for (const imp of fb.imports) {
      const module = imp.kind === "named" ? ctx.resolver.resolve(rel, language, imp.source) : null;
      if (
        module && module !== ctx.source &&
        await namespaceModule(lookup, module, { name: imp.imported }) === ctx.source
      ) {
        namespaces.add(imp.local);
      }
    }
    const tree = (await parsing.trees!.parse(rel, language, file.version, file.text)).tree;
    const edits = referrerEdits(ctx, { rel, fb, tree, out, namespaces });
    if (rel === ctx.to) out.destEdits.push(...edits);
    else if (edits.length > 0) out.files.set(rel, { text: applyTextEdits(file.text, edits), bom: file.bom });
  }
  out.namespaces = namespaceExports(
    parsed,
    (from, language, source) => ctx.resolver.resolve(from, language, source),
    ctx.source,
  );
  return out;
}

/**
 * The chains `head.….name` in a Python file whose module part (`head.…`) is the moved declaration's source
 * module, `head` being the file's module-level binding of a package or module import.
 */
function sourceChains(
  fb: FileBindings,
  head: string,
  name: string,
  isSource: (module: string) => boolean,
): { start: number; end: number; module: string }[] {
  const local = fb.scopes[0]!.bindings.get(head);
  if (!local) return [];
  const out: { start: number; end: number; module: string }[] = [];
  for (const occ of fb.occurrences) {
    if (occ.kind !== "member_property" || occ.name !== name) continue;
    const path = memberPath(fb, occ);
    if (!path || path.root !== local) continue;
    const module = [head, ...path.properties].join(".");
    if (isSource(module)) out.push({ start: path.start, end: occ.end, module });
  }
  return out;
}

/** What the phases of {@linkcode referrerEdits} share about one importer. */
interface ReferrerScan {
  ctx: ReferrerContext;
  /** The importer. */
  rel: string;
  /** Its bindings. */
  fb: FileBindings;
  /** Its tree. */
  tree: Tree;
  /** Where unresolved references go. */
  out: Referrers;
  /** Its names imported from a module that passes the source on as a namespace. */
  namespaces: Set<Binding>;
  /** Whether the importer is the destination itself. */
  self: boolean;
  /** Its import style and line ending, for the lines added. */
  style: ImportStyle;
  eol: "\n" | "\r\n";
  /** The file a specifier of the importer names. */
  resolve: (source: string) => string | null;
  /** Whether a specifier of the importer names the source. */
  isSource: (source: string) => boolean;
  /** Edits so far. */
  edits: TextEdit[];
  /** Namespace bindings whose uses were rewritten. */
  rewritten: Set<Binding>;
  /** Object offsets of the member uses rewritten (each is rewritten once). */
  rewrittenUses: Set<number>;
}

/** The edits of one importer: its imports, re-exports and (Python) module attribute chains of the name. */
function referrerEdits(
  ctx: ReferrerContext,
  file: { rel: string; fb: FileBindings; tree: Tree; out: Referrers; namespaces: Set<Binding> },
): TextEdit[] {
  const { rel, fb } = file;
  const resolve = (source: string) => ctx.resolver.resolve(rel, ctx.language, source);
  const scan: ReferrerScan = {
    ctx,
    ...file,
    self: rel === ctx.to,
    style: importStyleOf(fb.text),
    eol: dominantEol(fb.text),
    resolve,
    isSource: (source: string) => resolve(source) === ctx.source,
    edits: [],
    rewritten: new Set<Binding>(),
    rewrittenUses: new Set<number>(),
  };
  for (const imp of fb.imports) rewriteImport(scan, imp);
  for (const e of fb.exports) rewriteReExport(scan, e);
  if (profileOf(fb.language).moduleSystem?.modulesAreValues) {
    rewriteModuleChains(scan);
    reportStarImports(scan);
    moduleAttributeCandidates(fb, ctx.name, scan.rewrittenUses, file.out, ctx);
  }
  return scan.edits;
}

/** The specifier naming the destination from the importer, in the style of `old`; refused when none does. */
function destinationSpec(scan: ReferrerScan, old: string, target = scan.ctx.source): string {
  const { ctx, rel } = scan;
  const s = ctx.respell(rel, ctx.to, { source: old, target });
  if (s === null) {
    throw new RecoverableError(
      "unresolved",
      `Cannot move "${ctx.name}": no import from "${rel}" names "${ctx.to}"`,
      {
        hint: "Pick a destination every importer of the source can import",
        details: { path: rel, to: ctx.to },
      },
    );
  }
  return s;
}

/** The definition occurrence of a binding of the importer. */
function definitionOf(fb: FileBindings, b: Binding): Occurrence | undefined {
  return fb.occurrences.find((o) => o.binding === b && o.kind === "definition");
}

/** Rewrite one import of the importer: an import of the name, or of a namespace its uses reach the name through. */
function rewriteImport(scan: ReferrerScan, imp: FileBindings["imports"][number]): void {
  const { ctx, fb, resolve, isSource } = scan;
  const { name } = ctx;
  const spelled = profileOf(fb.language).moduleSystem?.submodule(imp.source, imp.imported) ?? null;
  const submodule = spelled !== null && imp.kind === "named" && resolve(spelled) === ctx.source;
  const takesName = isSource(imp.source) &&
    ((imp.kind === "named" && imp.imported === name) || (imp.kind === "default" && ctx.isDefault));
  if (takesName) {
    if (scan.self) return; // the destination's own import of the name: replaced by the declaration
    rewriteImportOfName(scan, imp);
    return;
  }
  const passedOn = scan.namespaces.has(imp.local);
  if (!submodule && !passedOn && !(imp.kind === "namespace" && isSource(imp.source))) return;
  // Python's `import email` and `import email.policy` both bind `email`: its uses are rewritten once.
  if (scan.rewritten.has(imp.local)) return;
  scan.rewritten.add(imp.local);
  rewriteNamespaceUses(scan, imp, { submodule, passedOn });
}

/** An import of the name from the source now takes it from the destination. */
function rewriteImportOfName(scan: ReferrerScan, imp: FileBindings["imports"][number]): void {
  const { ctx, fb, tree, edits } = scan;
  const def = definitionOf(fb, imp.local);
  const site = def ? importSiteAt(tree, fb.text, { system: ctx.system, offset: def.start }) : null;
  if (!site) return;
  const s = destinationSpec(scan, imp.source);
  if (site.only) edits.push({ start: site.source.start, end: site.source.end, text: s });
  else {
    edits.push(...site.removal);
    const item: ImportItem = { kind: imp.kind, imported: imp.imported, local: imp.local.name };
    edits.push(
      linesAfter(fb.text, site.statement, {
        lines: importStatements(ctx.system, s, { items: [item], style: scan.style }),
        eol: scan.eol,
      }),
    );
  }
}

/** `ns.name` (`ns.default` for a default export; Python `module.name`) becomes `name`, imported from the destination. */
function rewriteNamespaceUses(
  scan: ReferrerScan,
  imp: FileBindings["imports"][number],
  { submodule, passedOn }: { submodule: boolean; passedOn: boolean },
): void {
  const { ctx, fb, rel, tree, edits, self, isSource, rewrittenUses } = scan;
  const { name, system } = ctx;
  const member = ctx.isDefault && moduleSystemNamed(system).defaultExports ? "default" : name;
  // Each use once (the package-attribute chains below skip these too).
  const uses = fb.occurrences.filter((o) =>
    o.kind === "member_property" && o.object === imp.local && o.name === member &&
    o.objectStart !== undefined && !rewrittenUses.has(o.objectStart) && rewrittenUses.add(o.objectStart)
  );
  if (uses.length === 0) return;
  // Already imported (from the source, rewritten above): `ns.name` uses that import.
  const taking = fb.imports.find((i) =>
    isSource(i.source) &&
    ((i.kind === "named" && i.imported === name) || (i.kind === "default" && ctx.isDefault))
  );
  const reuse = taking !== undefined;
  if (!self && !reuse && fb.scopes[0]!.bindings.has(name)) {
    throw new RecoverableError(
      "name_clash",
      `Cannot move "${name}": "${rel}" uses it as ${imp.local.name}.${member} and already binds another "${name}"`,
      { hint: `Rename the other "${name}" in "${rel}" first`, details: { path: rel, name } },
    );
  }
  const local = self ? name : taking?.local.name ?? name;
  for (const u of uses) edits.push({ start: u.objectStart!, end: u.end, text: local });
  if (self || reuse) return;
  const def = definitionOf(fb, imp.local);
  const stmt = def ? topStatement(tree, def.start) : null;
  if (!stmt) return;
  const oldSource = submodule
    ? `${imp.source}${imp.source.endsWith(".") ? "" : "."}${imp.imported}`
    : imp.source;
  const line = importStatements(
    system,
    passedOn
      ? destinationSpec(scan, oldSource, scan.resolve(oldSource) ?? ctx.source)
      : destinationSpec(scan, oldSource),
    {
      items: [
        ctx.isDefault
          ? { kind: "default", imported: "default", local: name }
          : { kind: "named", imported: name, local: name },
      ],
      style: scan.style,
    },
  );
  edits.push(
    linesAfter(fb.text, { start: stmt.startIndex, end: stmt.endIndex }, { lines: line, eol: scan.eol }),
  );
}

/** A re-export of the name from the source now re-exports it from the destination; so does an `export *` barrel. */
function rewriteReExport(scan: ReferrerScan, e: FileBindings["exports"][number]): void {
  const { ctx, fb, tree, edits, style, eol, isSource } = scan;
  const { name, system } = ctx;
  if (!e.from || !isSource(e.from.source) || scan.self) return;
  const takesName = e.from.imported === name || (ctx.isDefault && e.from.imported === "default");
  if (takesName && e.from.occurrence) {
    const site = importSiteAt(tree, fb.text, { system, offset: e.from.occurrence.start });
    if (!site) return;
    const s = destinationSpec(scan, e.from.source);
    if (site.only) edits.push({ start: site.source.start, end: site.source.end, text: s });
    else {
      edits.push(...site.removal);
      const alias = e.exported === e.from.imported ? "" : ` as ${e.exported}`;
      const q = style.quote;
      const text = `export { ${e.from.imported}${alias} } from ${q}${s}${q}${style.semi ? ";" : ""}`;
      edits.push(linesAfter(fb.text, site.statement, { lines: [text], eol }));
    }
  } else if (e.from.imported === "*" && e.exported === "*" && ctx.exportedInS) {
    // A barrel that re-exported everything of the source keeps re-exporting the name.
    const again = fb.exports.some((x) =>
      x.from && x.from.imported === "*" && x.exported === "*" && scan.resolve(x.from.source) === ctx.to
    );
    const stmt = again ? null : topStatement(tree, fb.text.indexOf(e.from.source));
    if (!stmt) return;
    const q = style.quote;
    const text = `export { ${ctx.isDefault ? `default as ${name}` : name} } from ${q}${
      destinationSpec(scan, e.from.source)
    }${q}${style.semi ? ";" : ""}`;
    edits.push(linesAfter(fb.text, { start: stmt.startIndex, end: stmt.endIndex }, { lines: [text], eol }));
  }
}

/**
 * Python: `import pkg.source` or `import pkg` binds `pkg`: `pkg.source.name` becomes `name`, imported from the
 * destination (once per file, after the first import that reaches it; each chain is rewritten once). A chain
 * the namespace imports already rewrote (`import email` where email/__init__.py is the source) is not
 * rewritten twice.
 */
function rewriteModuleChains(scan: ReferrerScan): void {
  const { ctx, fb, rel, tree, edits, isSource } = scan;
  const { name, system } = ctx;
  const seen = scan.rewrittenUses;
  let imported = false;
  for (const ref of moduleReferences(tree, fb.text, "python")) {
    if (ref.kind !== "module" || ref.alias !== null) continue;
    const chains = sourceChains(fb, ref.source.split(".")[0]!, name, isSource).filter((c) =>
      !seen.has(c.start)
    );
    if (chains.length === 0) continue;
    const bound = fb.scopes[0]!.bindings.get(name);
    if (bound && !(bound.import && isSource(bound.import.source) && bound.import.imported === name)) {
      throw new RecoverableError(
        "name_clash",
        `Cannot move "${name}": "${rel}" uses it as ${
          chains[0]!.module
        }.${name} and already binds another "${name}"`,
        { hint: `Rename the other "${name}" in "${rel}" first`, details: { path: rel, name } },
      );
    }
    for (const c of chains) {
      seen.add(c.start);
      edits.push({ start: c.start, end: c.end, text: name });
    }
    if (scan.self || bound || imported) continue;
    imported = true;
    const line = importStatements(system, destinationSpec(scan, chains[0]!.module), {
      items: [{
        kind: "named",
        imported: name,
        local: name,
      }],
      style: scan.style,
    });
    edits.push(linesAfter(fb.text, ref.statement, { lines: line, eol: scan.eol }));
  }
}

/** Python: a star import of the source no longer brings the name, which the move cannot follow. */
function reportStarImports(scan: ReferrerScan): void {
  const { ctx, fb, rel } = scan;
  for (const m of fb.text.matchAll(/^[ \t]*from[ \t]+([.\w]+)[ \t]+import[ \t]+\*/gm)) {
    if (scan.isSource(m[1]!)) {
      scan.out.unresolved.push({
        path: rel,
        line: new TextIndex(fb.text).position(m.index).line,
        reason: `a star import of "${ctx.source}": "${ctx.name}" now lives in "${ctx.to}"`,
      });
    }
  }
}

/**
 * Python `x.name` left as it was, on an object other than `self`/`cls`: `x` may be the source module reached
 * as a value (`encoder_module = email.base64mime; encoder_module.header_length(…)`), which the move cannot
 * follow, so each is an unresolved candidate.
 */
function moduleAttributeCandidates(
  fb: FileBindings,
  name: string,
  rewritten: ReadonlySet<number>,
  out: Referrers,
  ctx: ReferrerContext,
): void {
  let index: TextIndex | null = null;
  for (const o of fb.occurrences) {
    if (o.kind !== "member_property" || o.name !== name || o.objectStart === undefined) continue;
    if (rewritten.has(o.objectStart)) continue;
    const object = fb.text.slice(o.objectStart, o.start).replace(/\s*\.\s*$/, "");
    if (object === "self" || object === "cls") continue;
    index ??= new TextIndex(fb.text);
    out.unresolved.push({
      path: fb.path,
      line: index.position(o.start).line,
      reason:
        `"${object}.${name}" may reach "${name}" through "${ctx.source}" as a value; it now lives in "${ctx.to}"`,
    });
  }
}

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
