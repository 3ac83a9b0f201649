/**
 * The importers edit_move_decl rewrites: every file of the source's module system that takes the moved name
 * from the source (named, default and namespace imports, Python submodule imports and module attribute
 * chains, re-exports, `export *` barrels) now takes it from the destination; what the move cannot follow (a
 * star import, a module reached as a value) is reported, and the files that pass the source on as a namespace
 * are named.
 *
 * @module
 */
import { moduleSystemNamed, profileOf } from "../../languages/profiles.ts";
import type { Tree } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import type { Stage } from "../../fs/stage.ts";
import { dominantEol } from "../../fs/text.ts";
import {
  type Binding,
  type FileBindings,
  fileBindings,
  memberPath,
  type Occurrence,
} from "../../syntax/bindings.ts";
import type { ModuleResolver } from "../../syntax/module_resolution.ts";
import { TextIndex } from "../../syntax/text_index.ts";
import type { Parsing } from "../../syntax/types.ts";
import {
  type ImportItem,
  importStatements,
  type ImportStyle,
  importStyleOf,
  linesAfter,
} from "../shared/import_edits.ts";
import { importSiteAt, topStatement } from "./_import_sites.ts";
import { moduleReferences } from "../shared/module_imports.ts";
import { type ModuleLookup, namespaceExports, namespaceModule } from "../shared/namespaces.ts";
import { type ModuleWorld, movableSystem } from "../move_file/imports_rewrite.ts";
import { applyTextEdits, type TextEdit } from "../edit/source.ts";

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
