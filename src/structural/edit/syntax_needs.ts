/**
 * Which version-dependent syntax a stretch of a file uses: the
 * node shapes of {@linkcode SYNTAX_SINCE}, plus the structural checks a
 * family needs (Python f-string fields), so a generator that carries code to
 * another place can tell whether the version declared there accepts it.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import { fstringNeeds } from "./python_fstrings.ts";
import {
  allows,
  type ConfigReader,
  type DeclaredVersion,
  declaredVersion,
  type Family,
  familyOfLanguage,
  SYNTAX_SINCE,
  type SyntaxFeature,
  type SyntaxMatcher,
  tooNew,
} from "./target_version.ts";

/** Checks that need more than a node's shape, per family. */
const STRUCTURAL: Partial<Record<Family, (node: Node) => SyntaxFeature[]>> = { python: fstringNeeds };

/**
 * The version-dependent syntax used by the nodes of `root` that overlap one of
 * `ranges` (UTF-16 offsets), each feature once.
 *
 * @param root The tree's root (or any subtree).
 * @param language The file's language id.
 * @param ranges The stretches looked at.
 * @returns The features, in the order found.
 */
export function syntaxNeeds(
  root: Node,
  language: string,
  ranges: { start: number; end: number }[],
): SyntaxFeature[] {
  const family = familyOfLanguage(language);
  if (!family) return [];
  const table: readonly SyntaxFeature[] = Object.values(SYNTAX_SINCE[family]);
  const found = new Set<SyntaxFeature>();
  const overlaps = (n: Node) => ranges.some((r) => n.startIndex < r.end && n.endIndex > r.start);
  const inside = (n: Node) => ranges.some((r) => n.startIndex >= r.start && n.endIndex <= r.end);
  const visit = (n: Node): void => {
    if (!overlaps(n)) return;
    for (const f of table) if (f.nodes.some((m) => matches(n, m))) found.add(f);
    if (inside(n)) {
      for (const f of STRUCTURAL[family]?.(n) ?? []) found.add(f);
      walkShapes(n, table, found);
      return;
    }
    for (const c of n.children) if (c) visit(c);
  };
  visit(root);
  return [...found];
}

/**
 * The first feature among `needs` the declared version does not accept, or
 * null (always null when nothing is declared).
 *
 * @param needs Features a text uses.
 * @param declared The version declared where it goes.
 * @returns The feature too new for it.
 */
export function firstTooNew(needs: SyntaxFeature[], declared: DeclaredVersion | null): SyntaxFeature | null {
  return needs.find((f) => !allows(declared, f)) ?? null;
}

function walkShapes(n: Node, table: readonly SyntaxFeature[], found: Set<SyntaxFeature>): void {
  for (const c of n.children) {
    if (!c) continue;
    for (const f of table) if (f.nodes.some((m) => matches(c, m))) found.add(f);
    walkShapes(c, table, found);
  }
}

function matches(n: Node, m: SyntaxMatcher): boolean {
  return n.type === m.type &&
    (m.child === undefined || n.children.some((c) => c?.type === m.child)) &&
    (m.textEnds === undefined || n.text.endsWith(m.textEnds));
}

/**
 * Refuse to carry code to a place whose declared version is older than the
 * syntax the code uses (`destination_conflict`), when that place is governed
 * by another declaration than the code's own (code a project already holds
 * under its declaration is not the mover's to judge).
 *
 * @param reader The call's stage.
 * @param source The file the code comes from (relative path, language, tree).
 * @param options The destination, its language, the moved name and the moved ranges (UTF-16).
 * @throws RecoverableError `destination_conflict` naming the syntax, the version it needs and the declaration.
 */
export async function checkTargetVersion(
  reader: ConfigReader,
  source: { rel: string; language: string; tree: { rootNode: Node } },
  options: { to: string; toLanguage: string; name: string; ranges: { fullStart: number; fullEnd: number }[] },
): Promise<void> {
  const there = await declaredVersion(reader, options.to, options.toLanguage);
  if (there === null) return;
  const here = await declaredVersion(reader, source.rel, source.language);
  if (here !== null && here.source === there.source && here.field === there.field) return;
  const ranges = options.ranges.map((r) => ({ start: r.fullStart, end: r.fullEnd }));
  const needs = syntaxNeeds(source.tree.rootNode, source.language, ranges);
  const feature = firstTooNew(needs, there);
  if (!feature) return;
  throw new RecoverableError(
    "destination_conflict",
    `Cannot move "${options.name}" from "${source.rel}" to "${options.to}": its code has syntax the version declared there does not accept (${
      tooNew(there, feature)
    })`,
    {
      hint:
        `Rewrite that syntax for the older version first, or move it where ${there.source} does not govern (or raise the declared version there)`,
      details: {
        path: source.rel,
        to: options.to,
        name: options.name,
        declared: { source: there.source, field: there.field, value: there.written },
      },
    },
  );
}
