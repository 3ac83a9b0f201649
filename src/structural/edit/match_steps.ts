/**
 * The step budget of the pattern matcher (`pattern.ts`): how many steps of list matching one match may take
 * before it is refused, so that no pattern runs for ever, counted rather than timed.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";

/**
 * Steps of list matching (`matchList` calls) the match at one candidate of `matchPattern`, `matchPatternAround`
 * or `matchPatternAt` may take (a rule's relations, which call `matchPatternAt` again and again, have their own budget:
 * `MAX_RELATION_VISITS` in `search/rule.ts`). Several `$$$` metavariables in one list try every way of splitting
 * the code's list between them, which on a long list never ends (`f($$$A, 1, $$$B, 2, $$$C, $X, $X)` over a
 * call of 3,000 arguments); past this many steps the match is refused, the same on every machine. The parity
 * sweep's 77 patterns over real trees (`bench/structural_parity.ts`) stay under it. A match over a list longer
 * than this budget allows for a scan of it may take {@linkcode MATCH_STEPS_PER_ITEM} steps an item instead.
 */
export const MAX_MATCH_STEPS = 1_000_000;

/**
 * Steps a match may always take per item of the longest list it meets: one `$$$X` before a fixed tail
 * (`[$$$A]`) tries every length of its list, two or three steps an item — a scan, not a blow-up, which on an
 * array literal of 300,000 items (600,000 children with the commas) is past {@linkcode MAX_MATCH_STEPS}.
 */
export const MATCH_STEPS_PER_ITEM = 8;

/**
 * Steps one call of the matcher may take over all its candidates (a file's): each candidate has
 * {@linkcode MAX_MATCH_STEPS} of its own, so that a file of 200,000 simple matches (11 steps each) is not
 * refused as one match of 2,200,000 steps would be, while a pattern that costs each of many candidates
 * half the budget still ends.
 */
export const MAX_CALL_STEPS = 16 * MAX_MATCH_STEPS;

/** Steps taken by the current candidate's match (reset by each entry point and each candidate). */
let matchSteps = 0;

/** Steps taken by the current call, all its candidates together (reset by each entry point). */
let callSteps = 0;

/** The longest list the current match has met. */
let longestList = 0;

/** Start a count of steps: each entry point of the matcher (each call). */
export function resetMatchSteps(): void {
  matchSteps = 0;
  longestList = 0;
  callSteps = 0;
}

/** Start the count of one candidate's match within a call: each has {@linkcode MAX_MATCH_STEPS} of its own. */
export function nextMatchCandidate(): void {
  matchSteps = 0;
  longestList = 0;
}

/**
 * Count one step of list matching at item `j` of the list `ns`; past {@linkcode MAX_MATCH_STEPS}, refuse.
 *
 * @param ns The code's list being matched.
 * @param j Where in it.
 * @throws RecoverableError `limit_exceeded` past the budget.
 */
export function countMatchStep(ns: Node[], j: number): void {
  if (ns.length > longestList) longestList = ns.length;
  if (++matchSteps > MAX_MATCH_STEPS && matchSteps > MATCH_STEPS_PER_ITEM * longestList) {
    throw tooManySteps(ns, j);
  }
  if (++callSteps > MAX_CALL_STEPS) throw tooManyStepsInAll(ns, j);
}

/** The line of item `j` of `ns` (1-based), where a refusal says the match ran out. */
function lineOf(ns: Node[], j: number): number | undefined {
  const at = ns[Math.min(j, ns.length - 1)] ?? null;
  return at === null ? undefined : at.startPosition.row + 1;
}

/** The refusal of a call past {@linkcode MAX_CALL_STEPS}: many candidates, each within its own budget. */
function tooManyStepsInAll(ns: Node[], j: number): RecoverableError {
  const line = lineOf(ns, j);
  return new RecoverableError(
    "limit_exceeded",
    `Cannot match the pattern${
      line === undefined ? "" : ` at line ${line}`
    }: matching it at every candidate ` +
      `of the file took more than ${MAX_CALL_STEPS.toLocaleString("en")} steps in all`,
    {
      hint: "Narrow the pattern (a literal or a kind that fewer nodes hold, fewer $$$ lists) or the files " +
        "(path, glob)",
      details: { ...(line === undefined ? {} : { line }), max_steps: MAX_CALL_STEPS },
    },
  );
}

/** The refusal of a match past {@linkcode MAX_MATCH_STEPS}, at the list where it ran out. */
function tooManySteps(ns: Node[], j: number): RecoverableError {
  const line = lineOf(ns, j);
  return new RecoverableError(
    "limit_exceeded",
    `Cannot match the pattern${line === undefined ? "" : ` at line ${line}`}: its $$$ lists try more than ${
      matchSteps.toLocaleString("en")
    } ways of splitting a list of ${ns.length} items between them`,
    {
      hint:
        "Anchor the pattern's lists: fewer $$$ metavariables in one list, a literal or $X between them that " +
        "few items match, or a rule (kind, has, inside) in place of the list",
      details: { ...(line === undefined ? {} : { line }), items: ns.length, max_steps: matchSteps - 1 },
    },
  );
}
