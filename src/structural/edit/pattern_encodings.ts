/**
 * How a pattern's metavariables are spelled for a grammar ({@linkcode encodedPatterns}): `$X` where the
 * language's identifiers may hold a `$`, else `µX` or `graver_mv_X`, and `$$$ARGS` as what the grammar takes
 * in its slot (a typed parameter, a statement). The pattern compiler tries each spelling in turn.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";

/** A metavariable of a pattern. */
export interface MetaVariable {
  /** Its name without `$`; null for the anonymous `$$$`. Names starting with `_` bind nothing. */
  name: string | null;
  /** True for `$$$NAME` (zero or more nodes). */
  multi: boolean;
  /** True for `$$NAME`: one node, unnamed ones (`+`, `;`) too, where `$NAME` takes named nodes only. */
  unnamed?: boolean;
}

/**
 * A metavariable as written in a pattern or a template: `$$$NAME`, `$$$`, `$NAME`, `$_`, `$$NAME` (ast-grep's
 * metavariable of one node that may be unnamed). The first group is a `$$$`'s name, the second any other's.
 */
export const TOKEN = /\$\$\$([A-Z_][A-Z0-9_]*)?|\$\$?([A-Z_][A-Z0-9_]*)/g;

/** Where a `$$$X` stands: last in a parenthesised list, alone before a closing brace, or elsewhere. */
type Slot = "parens" | "block" | "other";

/** How metavariables are spelled so that a grammar accepts them. */
interface Encoding {
  single: (n: string) => string;
  multi: (n: string, slot: Slot) => string;
}

const ENCODINGS: Encoding[] = [
  { single: (n) => `$${n}`, multi: (n) => `$$$${n}` },
  { single: (n) => `µ${n}`, multi: (n) => `µµµ${n}` },
  { single: (n) => `graver_mv_${n}`, multi: (n) => `graver_mvs_${n}` },
  // Typed languages: a parameter needs a type (`Object p`), a statement its `;`.
  {
    single: (n) => `graver_mv_${n}`,
    multi: (n, slot) =>
      slot === "parens"
        ? `Object graver_mvs_${n}`
        : slot === "block"
        ? `graver_mvs_${n}();`
        : `graver_mvs_${n}`,
  },
  // `name: Type` languages (Kotlin, Scala): a parameter needs its type after the name.
  {
    single: (n) => `graver_mv_${n}`,
    multi: (n, slot) => slot === "parens" ? `graver_mvs_${n}: Any` : `graver_mvs_${n}`,
  },
];

function slotOf(src: string, start: number, end: number): Slot {
  const before = src.slice(0, start).trimEnd();
  const after = src.slice(end).trimStart();
  if ((before.endsWith("(") || before.endsWith(",")) && after.startsWith(")")) return "parens";
  if ((before.endsWith("{") || before.endsWith(";")) && after.startsWith("}")) return "block";
  return "other";
}

/**
 * The names of a pattern's binding metavariables, in order of first appearance (`$_X` and `$$$` bind nothing).
 *
 * @param src The pattern.
 * @returns The names, without `$`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bindingNames } from "./pattern_encodings.ts";
 *
 * assert.deepEqual(bindingNames("f($A, $_, $$$REST, $A)"), ["A", "REST"]);
 * ```
 */
export function bindingNames(src: string): string[] {
  const names: string[] = [];
  for (const m of src.matchAll(TOKEN)) {
    const name = m[1] ?? m[2];
    if (name && !name.startsWith("_") && !names.includes(name)) names.push(name);
  }
  return names;
}

/** A pattern with its metavariables spelled one way, and what each spelling stands for. */
export interface EncodedPattern {
  /** The pattern with each metavariable spelled for the grammar. */
  encoded: string;
  /** Spelling -> the metavariable. */
  metas: Map<string, MetaVariable>;
  /** Spelling -> how many times the pattern uses it. */
  uses: Map<string, number>;
}

/**
 * The pattern in each spelling of its metavariables, in the order to try them (only the first when it has
 * none).
 *
 * @param src The pattern, trimmed.
 * @returns One encoding per spelling.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodedPatterns } from "./pattern_encodings.ts";
 *
 * const [asWritten, micro] = encodedPatterns("f($X, $$$REST)");
 * assert.equal(asWritten!.encoded, "f($X, $$$REST)");
 * assert.equal(micro!.encoded, "f(µX, µµµREST)");
 * assert.deepEqual(micro!.metas.get("µµµREST"), { name: "REST", multi: true });
 * ```
 */
export function encodedPatterns(src: string): EncodedPattern[] {
  const hasMeta = TOKEN.test(src);
  TOKEN.lastIndex = 0;
  return (hasMeta ? ENCODINGS : ENCODINGS.slice(0, 1)).map((enc) => {
    const metas = new Map<string, MetaVariable>();
    const uses = new Map<string, number>();
    const encoded = src.replace(
      TOKEN,
      (m: string, multiName: string | undefined, singleName: string | undefined, at: number) => {
        const multi = singleName === undefined;
        const name = multi ? multiName ?? "" : singleName!;
        const token = multi ? enc.multi(name, slotOf(src, at, at + m.length)) : enc.single(name);
        const meta: MetaVariable = { name: name === "" ? null : name, multi };
        if (!multi && m.startsWith("$$")) meta.unnamed = true;
        metas.set(token, meta);
        uses.set(token, (uses.get(token) ?? 0) + 1);
        return token;
      },
    );
    return { encoded, metas, uses };
  });
}

/**
 * Whether every error under `root` is an ERROR node holding one metavariable alone, where the grammar takes no
 * name (`$$$C` in `switch ($X) { $$$C }`, whose body holds only cases): such a node stands for the
 * metavariable, as ast-grep reads it. A missing token, or any other error, is not.
 *
 * @param root A node of the pattern's parse that has an error.
 * @param metas The metavariables' spellings.
 * @returns True when every error is such a metavariable (and there is one).
 */
export function errorsAreMetavariables(root: Node, metas: ReadonlyMap<string, MetaVariable>): boolean {
  if (root.isMissing) return false;
  if (root.type === "ERROR") {
    const only = root.childCount === 1 ? root.firstChild : null; // a name token the grammar lexed whole
    return only !== null && only.isNamed && only.childCount === 0 && metas.has(root.text);
  }
  // An error of the node itself (no child of it in error) is not a metavariable's.
  const erring = root.children.filter((c): c is Node => c !== null && c.hasError);
  return erring.length > 0 && erring.every((c) => errorsAreMetavariables(c, metas));
}
