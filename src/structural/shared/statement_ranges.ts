/**
 * The statements an extraction takes: a 1-based line range resolved to
 * complete sibling statements of one block (or a refusal naming the
 * statements that straddle it), and what those statements do to control flow
 * — `return`, `break`/`continue` whose target lies outside them, `await`,
 * `yield`, `this`/`super` — per language family, from the node-type tables of its profile
 * (`src/languages/`).
 *
 * @module
 */
import type { FlowRules } from "../../languages/types.ts";
import { profileOf } from "../../languages/profiles.ts";
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import type { SourceFile } from "../edit/source.ts";

/** Node types one language family uses for what extraction looks at: its profile's flow rules. */
export type FamilyRules = FlowRules;

/**
 * The extraction rules of a language.
 *
 * @param language Language id.
 * @returns The rules, or null when extraction does not support the language.
 */
export function familyOf(language: string): FamilyRules | null {
  return profileOf(language).flow;
}

/** A 1-based, inclusive line range. */
export interface LineRange {
  /** First line (1-based). */
  start_line: number;
  /** Last line (1-based, inclusive). */
  end_line: number;
}

/** The statements a range selects. */
export interface StatementRun {
  /** The block they belong to. */
  container: Node;
  /** The statements (comments between them included), in order. */
  statements: Node[];
  /** Start of the first statement (UTF-16). */
  start: number;
  /** End of the last statement (UTF-16). */
  end: number;
}

/** The offset where 1-based `line` starts, or -1 past the end. */
function lineOffset(text: string, line: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf("\n", at);
    if (nl === -1) return -1;
    at = nl + 1;
  }
  return at;
}

/** 1-based line of an offset. */
export function lineOf(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

function describe(file: SourceFile, n: Node): string {
  const first = n.startPosition.row + 1;
  const last = n.endPosition.row + 1;
  const head = file.text.slice(n.startIndex, n.endIndex).split("\n")[0]!.trim().slice(0, 40);
  return `the ${n.type} at line${first === last ? ` ${first}` : `s ${first}-${last}`} ("${head}")`;
}

/**
 * The complete sibling statements a line range covers.
 *
 * @param file The source file.
 * @param rules The language family's rules.
 * @param range 1-based, inclusive lines.
 * @returns The statements; `invalid_args` when the range is empty, or when statements straddle it (named in the message).
 */
export function statementsInRange(
  file: SourceFile,
  rules: FamilyRules,
  range: LineRange,
): StatementRun {
  const refuse = refusalFor(file, range);
  const { s, e } = codeSpanOf(file, rules, { range, refuse });
  let container: Node | null = file.tree.rootNode.descendantForIndex(s, s);
  while (container && !(rules.containers.has(container.type) && container.endIndex >= e)) {
    container = container.parent;
  }
  if (!container) container = file.tree.rootNode;
  const statements = wholeStatementsOf(file, container, { s, e, refuse });
  refuseUnmovable(file, rules, { statements, refuse });
  return {
    container,
    statements,
    start: statements[0]!.startIndex,
    end: statements[statements.length - 1]!.endIndex,
  };
}

/** Throws the `invalid_args` refusal of one range, with why, a hint and more details. */
type RangeRefusal = (why: string, hint: string, details?: Record<string, unknown>) => never;

/** The refusal of {@link statementsInRange} for one range. */
function refusalFor(file: SourceFile, range: LineRange): RangeRefusal {
  const { rel } = file;
  const where = `lines ${range.start_line}-${range.end_line} of "${rel}"`;
  return (why: string, hint: string, details: Record<string, unknown> = {}): never => {
    throw new RecoverableError("invalid_args", `Cannot extract ${where}: ${why}`, {
      hint,
      details: { path: rel, start_line: range.start_line, end_line: range.end_line, ...details },
    });
  };
}

/** The offsets of the range's code: whitespace and loose comments at either end trimmed (refused when none). */
function codeSpanOf(
  file: SourceFile,
  rules: FamilyRules,
  { range, refuse }: { range: LineRange; refuse: RangeRefusal },
): { s: number; e: number } {
  const { text } = file;
  if (range.end_line < range.start_line) {
    refuse("end_line is before start_line", "Give start_line <= end_line (1-based, inclusive)");
  }
  const from = lineOffset(text, range.start_line);
  const afterLast = lineOffset(text, range.end_line + 1);
  if (from === -1 || lineOffset(text, range.end_line) === -1) {
    refuse("the file is shorter", "read_file to see the lines, then give a range inside the file");
  }
  let s = from;
  while (s < text.length && /\s/.test(text[s]!)) s++;
  let e = afterLast === -1 ? text.length : afterLast;
  while (e > s && /\s/.test(text[e - 1]!)) e--;
  if (e <= s || s >= (afterLast === -1 ? text.length : afterLast)) {
    refuse("the lines hold no code", "Give the lines of the statements to extract");
  }
  // Comments at either end that lie outside any statement list (Go keeps them in the block) stay where they are.
  const looseComment = (at: number) => {
    const n = file.tree.rootNode.descendantForIndex(at, at);
    return n && n.type.includes("comment") && n.parent !== null && !rules.containers.has(n.parent.type)
      ? n
      : null;
  };
  for (let c = looseComment(s); c && c.endIndex < e; c = looseComment(s)) {
    s = c.endIndex;
    while (s < e && /\s/.test(text[s]!)) s++;
  }
  for (let c = looseComment(e - 1); c && c.startIndex > s; c = looseComment(e - 1)) {
    e = c.startIndex;
    while (e > s && /\s/.test(text[e - 1]!)) e--;
  }
  return { s, e };
}

/** The container's statements inside `s`..`e`, refusing those that straddle it. */
function wholeStatementsOf(
  file: SourceFile,
  container: Node,
  { s, e, refuse }: { s: number; e: number; refuse: RangeRefusal },
): Node[] {
  const value = container.childForFieldName("value");
  const statements: Node[] = [];
  const straddling: Node[] = [];
  for (const c of container.namedChildren) {
    if (!c || c.endIndex <= s || c.startIndex >= e) continue;
    if (value && c.id === value.id) continue;
    if (c.startIndex < s || c.endIndex > e) straddling.push(c);
    else statements.push(c);
  }
  if (straddling.length > 0) {
    const names = straddling.map((n) => describe(file, n));
    refuse(
      `the range must cover whole statements of one block, and ${names.join(" and ")} ${
        straddling.length === 1 ? "straddles" : "straddle"
      } it`,
      `Extend or shrink the range to whole statements: ${
        straddling.map((n) => `lines ${n.startPosition.row + 1}-${n.endPosition.row + 1}`).join(", ")
      } (read_file shows them)`,
      {
        straddling: straddling.map((n) => ({
          type: n.type,
          start_line: n.startPosition.row + 1,
          end_line: n.endPosition.row + 1,
        })),
      },
    );
  }
  return statements;
}

/** Refuse statements without code, a Rust attribute split from its statement, and statements that cannot move. */
function refuseUnmovable(
  file: SourceFile,
  rules: FamilyRules,
  { statements, refuse }: { statements: Node[]; refuse: RangeRefusal },
): void {
  const code = statements.filter((n) => !n.type.includes("comment"));
  if (code.length === 0) refuse("the lines hold no statement", "Give the lines of the statements to extract");
  // A Rust attribute (`#[cfg(…)]`) belongs to the statement after it: both move, or neither.
  let before = code[0]!.previousNamedSibling;
  while (before && before.type.includes("comment")) before = before.previousNamedSibling;
  const attribute = before?.type === "attribute_item" ? before : null;
  const lastCode = code[code.length - 1]!;
  if (attribute || lastCode.type === "attribute_item") {
    const n = attribute ?? lastCode;
    refuse(
      `${describe(file, n)} applies to the statement ${
        attribute ? "the range starts with" : "after the range"
      }`,
      `Extend the range over the attribute and its statement (lines ${n.startPosition.row + 1}-${
        (attribute ? code[0]! : lastCode.nextNamedSibling ?? lastCode).endPosition.row + 1
      })`,
    );
  }
  const immovable = code.find((n) => rules.immovable.has(n.type));
  if (immovable) {
    refuse(
      `${describe(file, immovable)} cannot move into a function`,
      "Leave imports, exports and global/nonlocal declarations out of the range",
    );
  }
}

/** What the statements do to control flow. */
export interface FlowFacts {
  /** `return` statements that belong to the enclosing function. */
  returns: Node[];
  /** Jumps whose target is outside the statements (and jumps from outside to a label inside them). */
  escapes: Node[];
  /** Whether an `await` (or `for await`, `async for`, `async with`) belongs to the enclosing function. */
  awaits: boolean;
  /** Whether a `yield` belongs to the enclosing function. */
  yields: boolean;
  /** `this` / `super` (Rust: `self`) nodes that mean the enclosing method's receiver. */
  thisUses: Node[];
  /** Go `defer` statements of the enclosing function. */
  defers: Node[];
  /** Rust `?` operators that return from the enclosing function. */
  tries: Node[];
  /** Rust: `Self` used as a type or a path. */
  selfTypes: Node[];
}

/**
 * Scan statements for control flow that leaves them or ties them to the
 * enclosing function.
 *
 * @param run The statements.
 * @param rules The language family's rules.
 * @returns The facts.
 */
export function flowFacts(run: StatementRun, rules: FamilyRules): FlowFacts {
  const facts: FlowFacts = {
    returns: [],
    escapes: [],
    awaits: false,
    yields: false,
    thisUses: [],
    defers: [],
    tries: [],
    selfTypes: [],
  };
  const inside = (n: Node) => n.startIndex >= run.start && n.endIndex <= run.end;
  const visit = (n: Node, nested: "no" | "arrow" | "function") => {
    const t = n.type;
    if (nested !== "function" && rules.receivers.has(t) && !isPathSegment(n)) facts.thisUses.push(n);
    if (nested !== "function" && rules.selfType !== null && n.text === rules.selfType && n.childCount === 0) {
      facts.selfTypes.push(n);
    }
    if (nested === "no") {
      if (rules.returns.has(t)) facts.returns.push(n);
      else if (rules.jumps.has(t)) {
        const target = jumpTarget(n, rules);
        if (!target || !inside(target)) facts.escapes.push(n);
      } else if (rules.awaits.has(t)) facts.awaits = true;
      else if (rules.yields.has(t)) facts.yields = true;
      else if (rules.defers.has(t)) facts.defers.push(n);
      else if (rules.tries.has(t)) facts.tries.push(n);
      else if (
        rules.asyncStatements.has(t) && n.children.some((c) => c?.type === "async" || c?.type === "await")
      ) {
        facts.awaits = true;
      }
    }
    let next = nested;
    if (rules.functions.has(t)) {
      next = rules.thisFunctions.has(t) ? "function" : nested === "no" ? "arrow" : nested;
    }
    for (const c of n.children) if (c) visit(c, next);
  };
  for (const s of run.statements) visit(s, "no");
  // Jumps from outside the statements to a label inside them (Go's goto, labelled break/continue).
  let fn: Node | null = run.container;
  while (fn && !rules.functions.has(fn.type)) fn = fn.parent;
  if (fn && rules.labelledJumps) {
    const from = (n: Node) => {
      if (rules.jumps.has(n.type) && !inside(n) && labelOf(n) !== null) {
        const target = jumpTarget(n, rules);
        if (target && inside(target)) facts.escapes.push(n);
      }
      for (const c of n.children) if (c && !rules.functions.has(c.type)) from(c);
    };
    for (const c of fn.children) if (c) from(c);
  }
  return facts;
}

/** Whether a Rust `self` is a path segment (`self::x`), not the receiver. */
function isPathSegment(n: Node): boolean {
  const p = n.parent;
  return p !== null &&
    /^(?:scoped_identifier|scoped_type_identifier|scoped_use_list|use_declaration)$/.test(p.type);
}

/** The label a jump names (`break outer`, `goto L`, `break 'a`), or null. */
export function labelOf(n: Node): string | null {
  const label = n.childForFieldName("label") ??
    n.namedChildren.find((c) =>
      c?.type === "statement_identifier" || c?.type === "label_name" || c?.type === "label"
    );
  return label ? label.text : null;
}

/** The label a statement carries (`outer:`, `L:`, `'a: loop`), or null. */
function labelHere(p: Node): string | null {
  if (p.type === "labeled_statement") return p.childForFieldName("label")?.text ?? null;
  return p.namedChildren.find((c) => c?.type === "label")?.text ?? null;
}

/** The loop, switch or labelled statement a jump leaves or goes to (null: none in this function). */
function jumpTarget(n: Node, rules: FamilyRules): Node | null {
  const label = labelOf(n);
  if (n.type === "goto_statement") {
    let fn: Node | null = n.parent;
    while (fn && !rules.functions.has(fn.type)) fn = fn.parent;
    return fn && label ? findLabel(fn, label, rules) : null;
  }
  for (let p = n.parent; p; p = p.parent) {
    if (rules.functions.has(p.type)) return null;
    if (label) {
      if (labelHere(p) === label) return p;
      continue;
    }
    if (rules.loops.has(p.type)) return p;
    if (n.type !== "continue_statement" && rules.switches.has(p.type)) return p;
  }
  return null;
}

/** The statement labelled `label` in a function (not in nested functions). */
function findLabel(n: Node, label: string, rules: FamilyRules): Node | null {
  for (const c of n.children) {
    if (!c || rules.functions.has(c.type)) continue;
    if (c.type === "labeled_statement" && labelHere(c) === label) return c;
    const hit = findLabel(c, label, rules);
    if (hit) return hit;
  }
  return null;
}
