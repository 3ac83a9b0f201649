/**
 * A replacement template, as ripgrep's `--replace` reads it: `$1` or `${1}` for a numbered group, `$name`
 * or `${name}` for a named one, `$0` for the whole occurrence, `$$` for a `$`. A bare `$name` takes every
 * letter, digit and `_` after the `$` (so `$1a` names a group "1a": write `${1}a`). Unlike ripgrep, a group
 * the pattern does not have is refused rather than replaced by nothing, since code full of `${…}` (template
 * strings, shell) would otherwise lose text silently. A literal replacement takes the text as it is.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";

/** One piece of a template: text as it is, or the text of a capture group. */
type Piece = { text: string } | { group: number };

/** A template checked against a pattern's groups, ready to expand per occurrence. */
export interface ReplaceTemplate {
  /** The pieces in order. */
  pieces: readonly Piece[];
}

/** The groups a pattern has: how many, and the index of each name (as the caller's pattern numbers them). */
export interface PatternGroups {
  /** Number of capture groups (group 0, the occurrence, not counted). */
  count: number;
  /** Group name -> index. */
  names: Readonly<Record<string, number>>;
}

function unknownGroup(name: string, template: string, groups: PatternGroups): RecoverableError {
  const known = [
    ...Array.from({ length: groups.count + 1 }, (_, i) => `$${i}`),
    ...Object.keys(groups.names),
  ];
  return new RecoverableError(
    "invalid_args",
    `The replacement refers to group "${name}", which the pattern does not have (it has ${known.join(", ")})`,
    {
      hint:
        "Write $$ for a literal $ (e.g. $${x} keeps the text ${x}), ${1}a to follow a group with letters, or pass literal_replacement: true to take the replacement as it is",
      details: { replacement: template, group: name, groups: known },
    },
  );
}

function groupIndex(name: string, template: string, groups: PatternGroups): number {
  const index = /^\d+$/.test(name) ? Number(name) : groups.names[name];
  if (index === undefined || index > groups.count) throw unknownGroup(name, template, groups);
  return index;
}

/**
 * Read a replacement template.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { expandTemplate, parseTemplate } from "./replace_template.ts";
 *
 * const t = parseTemplate("$2(${1}) costs $$1", { count: 2, names: {} });
 * assert.equal(expandTemplate(t, ["f(x)", "x", "f"]), "f(x) costs $1");
 * assert.throws(() => parseTemplate("`${name}`", { count: 0, names: {} }), /group "name"/);
 * ```
 *
 * @param template The replacement as the caller wrote it.
 * @param groups The pattern's groups; pass `null` to take the template literally.
 * @returns The template.
 * @throws RecoverableError `invalid_args` naming a group the pattern does not have.
 */
export function parseTemplate(template: string, groups: PatternGroups | null): ReplaceTemplate {
  if (groups === null) return { pieces: [{ text: template }] };
  const pieces: Piece[] = [];
  let text = "";
  const re = /\$(?:\$|\{([A-Za-z0-9_]+)\}|([A-Za-z0-9_]+))/g;
  let last = 0;
  for (let m = re.exec(template); m !== null; m = re.exec(template)) {
    text += template.slice(last, m.index);
    last = m.index + m[0].length;
    if (m[0] === "$$") {
      text += "$";
      continue;
    }
    if (text !== "") pieces.push({ text });
    text = "";
    pieces.push({ group: groupIndex(m[1] ?? m[2]!, template, groups) });
  }
  text += template.slice(last);
  if (text !== "") pieces.push({ text });
  return { pieces };
}

/**
 * The replacement for one occurrence.
 *
 * @param template A parsed template.
 * @param groups The occurrence's groups (index 0: the occurrence; `null` for a group that took no part,
 *   which expands to nothing).
 * @returns The text that replaces the occurrence.
 */
export function expandTemplate(template: ReplaceTemplate, groups: readonly (string | null)[]): string {
  let out = "";
  for (const piece of template.pieces) out += "text" in piece ? piece.text : groups[piece.group] ?? "";
  return out;
}
