/**
 * ast-grep's positional rule keys: `nthChild` (where a node stands among its parent's named children, as CSS's
 * `:nth-child` says it: a number, `An+B`, or `{position, reverse, ofRule}`) and `range` (the node spans exactly
 * these 0-based lines and character columns). Compiled from the rule object, answered per node; the rule engine
 * (`rule.ts`) hands in how to refuse a key and how to test `ofRule`.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";

/** How a bad key is refused: the rule engine's `invalid_args` (where, what is wrong, what to write instead). */
export type Refuse = (where: string, message: string, hint: string) => Error;

/** A position as CSS's `An+B`: the 1-based indexes `A·n + B` for some n ≥ 0 (A = 0: B alone). */
export interface NthPosition {
  step: number;
  offset: number;
}

/** A compiled `nthChild`: its position, counted from the end when `reverse`, among the siblings `ofRule` takes. */
export interface NthChild<R> {
  position: NthPosition;
  reverse: boolean;
  ofRule?: R;
}

/** A compiled `range`: 0-based lines, and columns counted in characters (code points), end exclusive. */
export interface RuleRange {
  start: { line: number; column: number };
  end: { line: number; column: number };
}

const AN_B = /^([+-]?)(\d*)[nN](?:([+-])(\d+))?$|^([+-]?)(\d+)$/;

/**
 * An `An+B` position: a number (the 1-based index), or a string as CSS writes it (`"2n+1"`, `"-n+3"`, `"n"`,
 * `"3"`; spaces anywhere).
 *
 * @param value The position, as given.
 * @param where Where it is in the rule (for the refusal).
 * @param refuse How to refuse it.
 * @returns The position.
 */
export function nthPosition(value: unknown, where: string, refuse: Refuse): NthPosition {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) {
    return { step: 0, offset: value };
  }
  const found = typeof value === "string" ? AN_B.exec(value.replace(/\s+/g, "")) : null;
  if (found === null) {
    throw refuse(
      where,
      "must be a 1-based index or CSS's An+B",
      'Write a number (1 is the first named child) or a formula such as "2n+1" (odd), "2n" (even), "-n+3" (the first three)',
    );
  }
  const [, aSign, a, bSign, b, nSign, n] = found;
  if (n !== undefined) return { step: 0, offset: (nSign === "-" ? -1 : 1) * Number(n) };
  const step = (aSign === "-" ? -1 : 1) * (a === "" ? 1 : Number(a));
  return { step, offset: b === undefined ? 0 : (bSign === "-" ? -1 : 1) * Number(b) };
}

/** Whether the 1-based `index` is one of the position's. */
export function isAtPosition(position: NthPosition, index: number): boolean {
  const { step, offset } = position;
  if (step === 0) return index === offset;
  const n = index - offset;
  return Math.trunc(n / step) >= 0 && n % step === 0;
}

/**
 * A rule's `nthChild`: a position, or `{position, reverse, ofRule}`.
 *
 * @param value The key's value.
 * @param where Where it is in the rule.
 * @param on How to compile `ofRule` and how to refuse.
 * @returns The compiled key.
 */
export function compileNthChild<R>(
  value: unknown,
  where: string,
  on: { compile: (raw: unknown, where: string) => R; refuse: Refuse },
): NthChild<R> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { position: nthPosition(value, where, on.refuse), reverse: false };
  }
  const raw = value as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!["position", "reverse", "ofRule"].includes(key)) {
      throw on.refuse(`${where}.${key}`, "is not a key of nthChild", "Use position, reverse and ofRule");
    }
  }
  if (raw["reverse"] !== undefined && typeof raw["reverse"] !== "boolean") {
    throw on.refuse(`${where}.reverse`, "must be true or false", "Pass reverse: true to count from the end");
  }
  const nth: NthChild<R> = {
    position: nthPosition(raw["position"], `${where}.position`, on.refuse),
    reverse: raw["reverse"] === true,
  };
  if (raw["ofRule"] !== undefined) nth.ofRule = on.compile(raw["ofRule"], `${where}.ofRule`);
  return nth;
}

/**
 * Where nodes stand among their parents' named children, found once per parent and key for one search of one
 * tree (a node's named siblings are listed once, not once per sibling: an array of 300,000 items costs its
 * length). Comments count, as they are named children (ast-grep counts them too).
 */
export class SiblingIndex {
  readonly #byKey = new Map<object, Map<number, Map<number, number>>>();

  /**
   * Whether a node stands at an `nthChild`'s position.
   *
   * @param node The node.
   * @param nth The compiled key.
   * @param taken Whether a sibling counts (its `ofRule`; every named child without one).
   * @returns True when it does; false for a root, or a node `ofRule` does not take.
   */
  holds<R>(node: Node, nth: NthChild<R>, taken: (sibling: Node) => boolean): boolean {
    const parent = node.parent;
    if (parent === null) return false;
    let byParent = this.#byKey.get(nth);
    if (byParent === undefined) this.#byKey.set(nth, byParent = new Map());
    let indexes = byParent.get(parent.id);
    if (indexes === undefined) {
      const siblings = parent.namedChildren.filter((c): c is Node => c !== null && taken(c));
      if (nth.reverse) siblings.reverse();
      indexes = new Map(siblings.map((c, i) => [c.id, i + 1]));
      byParent.set(parent.id, indexes);
    }
    const index = indexes.get(node.id);
    return index !== undefined && isAtPosition(nth.position, index);
  }
}

/** A `range` position: `{line, column}`, each a whole number from 0. */
function rangePosition(value: unknown, where: string, refuse: Refuse): { line: number; column: number } {
  const raw = value as Record<string, unknown> | null;
  const whole = (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
  if (typeof raw !== "object" || raw === null || !whole(raw["line"]) || !whole(raw["column"])) {
    throw refuse(where, "must be {line, column}, both 0-based", 'Write e.g. {"line": 0, "column": 4}');
  }
  return { line: raw["line"] as number, column: raw["column"] as number };
}

/**
 * A rule's `range`: `{start: {line, column}, end: {line, column}}`, the start not after the end.
 *
 * @param value The key's value.
 * @param where Where it is in the rule.
 * @param refuse How to refuse it.
 * @returns The compiled range.
 */
export function compileRange(value: unknown, where: string, refuse: Refuse): RuleRange {
  const raw = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const range = {
    start: rangePosition(raw["start"], `${where}.start`, refuse),
    end: rangePosition(raw["end"], `${where}.end`, refuse),
  };
  const { start, end } = range;
  if (start.line > end.line || (start.line === end.line && start.column > end.column)) {
    throw refuse(
      where,
      "starts after it ends",
      "Give the start first: lines and columns are 0-based, the end exclusive",
    );
  }
  return range;
}

/**
 * The UTF-16 offset of a 0-based line and character column in `text` (a character is a code point), or -1
 * when the line is shorter or absent.
 */
function offsetOf(text: string, at: { line: number; column: number }): number {
  let offset = 0;
  for (let line = 0; line < at.line; line++) {
    offset = text.indexOf("\n", offset) + 1;
    if (offset === 0) return -1;
  }
  for (let column = 0; column < at.column; column++) {
    const unit = text.charCodeAt(offset);
    if (offset >= text.length || unit === 10) return -1;
    offset += unit >= 0xd800 && unit <= 0xdbff && offset + 1 < text.length ? 2 : 1;
  }
  return offset;
}

/** A range's offsets in the last text it was asked of (a search asks one text for many nodes in a row). */
const OFFSETS = new WeakMap<RuleRange, { text: string; start: number; end: number }>();

/**
 * Whether a node spans exactly a `range`: its offsets are found once per text, so each node costs a compare
 * (a minified file's one line of a megabyte is not walked again for each node on it).
 *
 * @param node The node.
 * @param range The compiled range.
 * @param text The tree's source.
 * @returns True when its start and end are the range's.
 */
export function inRange(node: Node, range: RuleRange, text: string): boolean {
  let at = OFFSETS.get(range);
  if (at === undefined || at.text !== text) {
    OFFSETS.set(range, at = { text, start: offsetOf(text, range.start), end: offsetOf(text, range.end) });
  }
  return at.start !== -1 && node.startIndex === at.start && at.end !== -1 && node.endIndex === at.end;
}
