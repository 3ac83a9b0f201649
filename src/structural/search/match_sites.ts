/**
 * What a match becomes in a result: a site of offsets, its metavariables' texts and places, and, with a rewrite,
 * its new code — filled in as the site's line writes it (re-indented), with ast-grep's `transform` (a
 * `rewrite` with `rewriters` matching rules at the nodes under a binding: `rewriters.ts`), and what the new code
 * would take away (words and code the pattern passed over, comments no binding holds).
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { indentOfLine } from "../../fs/lines.ts";
import { dominantEol } from "../../fs/text.ts";
import type { Binding, PatternNode } from "../edit/pattern.ts";
import { substituteMetavariables } from "../edit/metavariable_fill.ts";
import { detectIndentUnit, reindent } from "../edit/reindent.ts";
import { lostComments } from "../edit/lost_comments.ts";
import { nodeFacts } from "../edit/node_facts.ts";
import { ruleMatcherFor, siblingHolding } from "./rule.ts";
import type { RelationRule } from "./rule_compile.ts";
import { unwrittenTerminator } from "./unwritten_terminator.ts";
import { type CompiledTransform, type TransformContext, withTransformed } from "./transform.ts";

/** What one metavariable bound, as offsets. */
export interface SiteBinding {
  /** Start offset (UTF-16); -1 for a `$$$X` that bound nothing. */
  start: number;
  /** End offset. */
  end: number;
  /** The bound text. */
  text: string;
  /** For a `$$$X`: each node it bound (separators such as `,` included), as ast-grep lists them. */
  parts?: { start: number; end: number }[];
}

/** One match in one file, as offsets, with the rewrite's code for it when one was asked for. */
export interface PatternSite {
  /** Start offset (UTF-16) of the matched node. */
  start: number;
  /** End offset. */
  end: number;
  /** Metavariable name -> what it bound. */
  metavariables: Record<string, SiteBinding>;
  /** The new code for the site (only with a rewrite). */
  replacement?: string;
  /**
   * The span the new code replaces where a fix's `expandStart` / `expandEnd` widened it past the match (to a
   * sibling such as the list's `,`); absent, the match's own.
   */
  replaced?: { start: number; end: number };
  /** Words of the code the match passed over that the rewrite does not write: it would take them away. */
  drops?: string[];
  /** Code the match passed over after the pattern's end (`PatternMatch.tail`): the rewrite would take it away. */
  tail?: { kind: string; text: string; widened?: true }[];
  /** Comments inside the match that neither a metavariable nor the rewrite holds: it would take them away. */
  comments?: string[];
}

/** The metavariables of a match as offsets (bound nodes are not kept past the match). */
function siteBindings(
  bindings: Record<string, Binding>,
  multi: ReadonlySet<string>,
): Record<string, SiteBinding> {
  const out: Record<string, SiteBinding> = {};
  for (const [name, b] of Object.entries(bindings)) {
    const site: SiteBinding = { start: b.start, end: b.end, text: b.text };
    if (multi.has(name)) site.parts = b.nodes.map((n) => ({ start: n.startIndex, end: nodeFacts(n).end }));
    out[name] = site;
  }
  return out;
}

/**
 * The rewrite's code for one site. A single-line template takes bound text as it is in the file (its lines
 * stay where they were); a multi-line template is put into the file's indent unit, filled in, and
 * re-indented to the line the matched node starts on, so the code lands at the depth of the block it is in.
 *
 * @param file The file's text and indent unit.
 * @param site The matched node's start and its bindings.
 * @param rewrite The template.
 * @returns The code that replaces the node.
 */
export function siteReplacement(
  file: { text: string; unit: string },
  site: { start: number; bindings: Record<string, Binding> },
  rewrite: string,
): string {
  const { text, unit } = file;
  if (!rewrite.includes("\n")) {
    return substituteMetavariables(rewrite, site.bindings, {
      sourceText: text,
      matchStart: site.start,
      asIs: true,
    });
  }
  const eol = dominantEol(text);
  const template = reindent(rewrite.replace(/^\s*\n/, "").trimEnd(), {
    indent: "",
    eol: "\n",
    unit,
    indentFirstLine: false,
  });
  // Each bound text keeps its lines' indentation relative to its own first line (a body bound from a deeper
  // block is re-based from there), put at the depth of the line its metavariable stands on.
  const code = substituteMetavariables(template, site.bindings, { sourceText: text });
  return reindent(code, {
    indent: indentOfLine(text, site.start),
    eol,
    unit,
    indentFirstLine: false,
    firstColumn: 0,
    codeUnit: unit,
  });
}

/** Each match's site (and replacement), from the matches of one parsed file. */
export function sitesOf(
  found: {
    node: Node;
    bindings: Record<string, Binding>;
    skipped?: string[];
    tail?: { kind: string; start: number; end: number }[];
  }[],
  file: { text: string },
  query: {
    rewrite: string | undefined;
    multi: ReadonlySet<string>;
    pattern: PatternNode | null;
    language: string;
    /** ast-grep's `transform`: new metavariables the rewrite may use (`transform.ts`). */
    transforms: readonly CompiledTransform[];
    /** A fix's `expandStart` / `expandEnd`: the siblings the replaced span widens to. */
    expand?: { start?: RelationRule; end?: RelationRule };
  },
): PatternSite[] {
  const rewrite = query.rewrite;
  const unit = rewrite?.includes("\n") ? detectIndentUnit(file.text) : "";
  const transformContext = contextOf(file.text, query.transforms);
  if (rewrite !== undefined && query.expand) ruleMatcherFor(file.text); // the relations' state, for this tree
  return found.map((m) => {
    const site: PatternSite = {
      start: m.node.startIndex,
      end: nodeFacts(m.node).end,
      metavariables: siteBindings(m.bindings, query.multi),
    };
    if (rewrite !== undefined) {
      site.replacement = siteReplacement(
        { text: file.text, unit },
        {
          start: site.start,
          bindings: withTransformed(query.transforms, m.bindings, transformContext?.(m.bindings)),
        },
        rewrite,
      ) + unwrittenTerminator(m.node, query.pattern, rewrite);
      const drops = droppedWords(m.skipped, rewrite);
      if (drops.length > 0) site.drops = drops;
      // What the refusal shows of the code passed over: its start (a long `else` chain is not copied whole).
      if (m.tail) {
        site.tail = m.tail.map((t) => ({
          kind: t.kind,
          text: file.text.slice(t.start, Math.min(t.end, t.start + 200)),
        }));
      }
      const comments = lostComments(m.node, {
        text: file.text,
        language: query.language,
        // Code passed over after the pattern's end is refused whole (`tail`): its comments are not looked for.
        bindings: [...Object.values(m.bindings), ...(m.tail ?? [])],
        replacement: site.replacement,
      });
      if (comments.length > 0) site.comments = comments;
      if (query.expand) widen(site, { node: m.node, text: file.text, expand: query.expand });
    }
    return site;
  });
}

/**
 * Widen a site's replaced span to the siblings a fix's `expandStart` / `expandEnd` find (ast-grep's FixConfig:
 * the first sibling before / after the match that holds the rule, as far as its stopBy looks). What the wider
 * span passes over besides tokens — a node, a comment — is noted as code the rewrite would take away (`tail`),
 * so the rewrite refuses that site rather than drop it.
 */
function widen(
  site: PatternSite,
  on: { node: Node; text: string; expand: { start?: RelationRule; end?: RelationRule } },
): void {
  const { node, text, expand } = on;
  const before = expand.start ? siblingHolding(node, expand.start, { text, forward: false }) : null;
  const after = expand.end ? siblingHolding(node, expand.end, { text, forward: true }) : null;
  if (before === null && after === null) return;
  site.replaced = { start: before?.startIndex ?? site.start, end: after ? nodeFacts(after).end : site.end };
  const passed: { kind: string; text: string; widened: true }[] = [];
  for (const [from, to] of [[before, node], [node, after]] as const) {
    if (from === null || to === null) continue;
    for (let n = from.nextSibling; n !== null && n.id !== to.id; n = n.nextSibling) {
      const facts = nodeFacts(n);
      if (facts.named || n.isExtra) {
        passed.push({ kind: facts.type, text: text.slice(n.startIndex, facts.end), widened: true });
      }
    }
  }
  if (passed.length > 0) site.tail = [...site.tail ?? [], ...passed];
}

/**
 * What a `rewrite` transformation needs of one file, per site (its bindings, its own count of tries); undefined
 * when no transformation rewrites. The rule matcher and the indent unit are made once per file, when first asked.
 */
function contextOf(
  text: string,
  transforms: readonly CompiledTransform[],
): ((bindings: Record<string, Binding>) => TransformContext) | undefined {
  if (!transforms.some((t) => t.rewrite !== undefined)) return undefined;
  let matchAt: TransformContext["matchAt"] | undefined;
  let unit: string | undefined;
  const fill: TransformContext["fill"] = (template, start, bindings) =>
    siteReplacement({ text, unit: unit ??= detectIndentUnit(text) }, { start, bindings }, template);
  return (bindings) => ({
    text,
    bindings,
    enclosing: bindings,
    matchAt: (rule, node) => (matchAt ??= ruleMatcherFor(text))(rule, node),
    fill,
    tries: { count: 0, depth: 0 },
  });
}

/**
 * The words a match passed over (its pattern does not write them) that the rewrite does not write either: the
 * rewrite would take them away (`async` of `async function f` for `function $F(…)`).
 */
function droppedWords(skipped: readonly string[] | undefined, rewrite: string): string[] {
  if (skipped === undefined) return [];
  const written = new Set(rewrite.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []);
  return skipped.filter((w) => !written.has(w));
}
