/**
 * A TypeScript class whose type other declarations implement (`class Hot implements SubscriptionLoggable`,
 * an `interface X extends SubscriptionLoggable` that classes then implement) cannot gain a method: each
 * implementer would lack it. Extracting statements that use `this` into a method of such a class is refused,
 * and so is a name a subclass already gives a member (the new method would clash with it).
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import type { Stage } from "../../fs/stage.ts";
import type { Parsing } from "../../syntax/types.ts";
import { type Context, details } from "./_context.ts";
import type { Placement } from "./_placement.ts";
import { findReferences } from "../references/references.ts";
import { lineOf } from "../shared/statement_ranges.ts";

/** The heritage clauses that make another declaration promise the class's members. */
const IMPLEMENTING = new Set(["implements_clause", "extends_type_clause"]);

/**
 * Refuse (`overrides_present`) a new method of a class that other declarations implement, naming them.
 *
 * @param parsing Grammars and parse cache.
 * @param stage The call's stage.
 * @param ctx The extraction.
 * @param placement Where the new function goes.
 */
export async function checkImplementers(
  parsing: Parsing,
  stage: Stage,
  { ctx, placement }: { ctx: Context; placement: Placement },
): Promise<void> {
  const name = placement.kind === "method" ? placement.classNode?.childForFieldName("name") : null;
  if (!name || !parsing.trees) return;
  const at = {
    line: lineOf(ctx.file.text, name.startIndex),
    column: 1 + name.startIndex - lineStart(ctx, name.startIndex),
  };
  const search = await findReferences(parsing, stage, {
    path: ctx.file.rel,
    target: at,
    tool: ctx.tool,
    scope: "project",
  });
  const implementers: { path: string; line: number }[] = [];
  for (const site of search.sites) {
    const fb = search.files.get(site.path);
    if (site.kind !== "reference" || !fb) continue;
    const tree = (await parsing.trees.parse(fb.path, fb.language, fb.version, fb.text)).tree;
    for (let n = tree.rootNode.descendantForIndex(site.start, site.end); n; n = n.parent) {
      if (IMPLEMENTING.has(n.type)) {
        implementers.push({ path: site.path, line: site.line });
        break;
      }
      if (n.type === "extends_clause") {
        checkSubclass(ctx, site.path, n.parent?.parent ?? null);
        break;
      }
      if (n.type.endsWith("_body") || n.type.endsWith("statement")) break;
    }
  }
  if (implementers.length === 0) return;
  const list = implementers.map((s) => `"${s.path}" line ${s.line}`).join(", ");
  throw new RecoverableError(
    "overrides_present",
    `Cannot extract ${ctx.where} as a method of "${name.text}": the statements use \`this\`, and ${list} implement${
      implementers.length === 1 ? "s" : ""
    } "${name.text}", which would then lack the new method`,
    {
      hint:
        `Read what the statements need from \`this\` into locals before the range and extract the rest (the new function is then not a method), or add the method to the implementers by hand`,
      details: details(ctx, { class: name.text, implementers }),
    },
  );
}

/** Refuse (`name_clash`) when a subclass already declares a member of the new method's name. */
function checkSubclass(ctx: Context, path: string, subclass: Node | null): void {
  for (const item of subclass?.childForFieldName("body")?.namedChildren ?? []) {
    const m = item ? memberNames(item).find((n) => n.text === ctx.name) : undefined;
    if (!m) continue;
    const line = m.startPosition.row + 1;
    throw new RecoverableError(
      "name_clash",
      `Cannot extract ${ctx.where} as "${ctx.name}": the subclass ${
        subclass!.childForFieldName("name")?.text ?? ""
      } ("${path}" line ${line}) already has a member "${ctx.name}", which the new method would clash with`,
      {
        hint: "Choose another name",
        details: details(ctx, { name: ctx.name, clash_path: path, clash_line: line }),
      },
    );
  }
}

/** The member names a class body item declares: its name, and a constructor's parameter properties. */
function memberNames(item: Node): Node[] {
  const name = item.childForFieldName("name");
  if (name?.text !== "constructor") return name ? [name] : [];
  return (item.childForFieldName("parameters")?.namedChildren ?? [])
    .filter((p) => p?.children.some((c) => c?.type === "accessibility_modifier" || c?.type === "readonly"))
    .map((p) => p!.childForFieldName("pattern"))
    .filter((n): n is Node => n !== null);
}

/** Offset where the line holding `offset` starts. */
function lineStart(ctx: Context, offset: number): number {
  return ctx.file.text.lastIndexOf("\n", offset - 1) + 1;
}
