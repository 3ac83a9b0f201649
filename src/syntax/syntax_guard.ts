/**
 * Syntax guard: an edit may not introduce new ERROR/MISSING nodes in a file
 * that has a grammar. Errors that were already there do not block.
 *
 * @module
 */
import { isRecoverable, RecoverableError } from "../errors.ts";
import type { PendingChange } from "../fs/stage.ts";
import { afterVersionOf, decodedSide } from "../fs/change_facts.ts";
import type { Parsing, SyntaxGuardMode } from "./types.ts";
import type { Node } from "web-tree-sitter";
import { symbolRules } from "./queries.ts";
import { parseLimitError, pointIn, type SyntaxProblem, syntaxProblems } from "./trees.ts";
import { changedSpan } from "../fs/text_changes.ts";
import { rowOf } from "../fs/lines.ts";
import { changeLanguage } from "./change_language.ts";

/** New syntax problems in one file. */
export interface SyntaxRegression {
  /** Relative path. */
  path: string;
  /** Language id. */
  language: string;
  /** Problems present after the edit and not before. */
  problems: SyntaxProblem[];
  /** Parse errors (ERROR/MISSING nodes) the file already had before the edit. */
  errors_before: number;
  /** The lines of the new text the edit changed (1-based, inclusive); absent for a new file. */
  edited_lines?: { start_line: number; end_line: number };
}

/** 0-based rows, inclusive: where an edit can have changed a body. */
interface Rows {
  first: number;
  last: number;
}

function key(p: SyntaxProblem): string {
  return `${p.kind}\0${p.text}`;
}

/**
 * Bodies of the given types with no statement in them (comments aside), as problems of kind "empty" on the
 * line of what owns them. Walks only definitions and blocks, where bodies are.
 */
function emptyBodies(root: Node, types: string[], language: string, rows?: Rows): SyntaxProblem[] {
  const comments = symbolRules(language).comments;
  const out: SyntaxProblem[] = [];
  // Only the bodies that meet the edited rows: walking every body of a large file costs more than the re-parse.
  const found = rows
    ? root.descendantsOfType(types, { row: rows.first, column: 0 }, { row: rows.last + 1, column: 0 })
    : root.descendantsOfType(types);
  for (const b of found) {
    if (!b || b.namedChildren.some((c) => c !== null && !comments.includes(c.type))) continue;
    const owner = b.parent ?? b;
    out.push({
      kind: "empty",
      line: owner.startPosition.row + 1,
      column: owner.startPosition.column + 1,
      end_line: owner.endPosition.row + 1,
      text: `${owner.type} with an empty ${b.type}`,
    });
  }
  return out;
}

/** What a state of a file had: its parse problems and its empty bodies around the edit, counted by key. */
interface Had {
  problems: Map<string, number>;
  errors: number;
  empty: Map<string, number>;
}

function count(into: Map<string, number>, problems: SyntaxProblem[]): void {
  for (const p of problems) into.set(key(p), (into.get(key(p)) ?? 0) + 1);
}

/** The problems and empty bodies (within `rows`) of the state before the edit. */
function hadBefore(root: Node, language: string, rows: Rows | undefined): Had {
  const had: Had = { problems: new Map(), errors: 0, empty: new Map() };
  const problems = syntaxProblems(root, 500);
  count(had.problems, problems);
  had.errors = problems.length;
  const empty = symbolRules(language).empty_body;
  if (empty) count(had.empty, emptyBodies(root, empty.types, language, rows));
  return had;
}

/**
 * Compare parse errors before and after for every changed file with a grammar.
 *
 * At most one parse per file: the state after the edit, incrementally from the cached tree of the state
 * before when there is one (a read, outline or earlier edit left it), from scratch otherwise. A clean result
 * needs nothing more; only when the new state has problems is the old one's tree needed, and it is then
 * re-parsed incrementally from the new one.
 *
 * @param ws The workspace (its grammars and parse cache).
 * @param changes Pending changes.
 * @returns One entry per file that gained problems.
 */
export async function findSyntaxRegressions(
  ws: Parsing,
  changes: PendingChange[],
): Promise<SyntaxRegression[]> {
  if (!ws.grammars || !ws.trees) return [];
  const out: SyntaxRegression[] = [];
  for (const change of changes) {
    const regression = await regressionOf(ws, change);
    if (regression) out.push(regression);
  }
  return out;
}

/** The new problems of one changed file, or null when it has no grammar or gained none. */
async function regressionOf(ws: Parsing, change: PendingChange): Promise<SyntaxRegression | null> {
  const trees = ws.trees!;
  const side = changeLanguage(ws, change);
  if (!side) return null;
  const { language, text: afterText } = side;
  // Over the parse limit: refuse before decoding the state before too.
  trees.checkParseSize(change.path, afterText);
  // The cached tree of the state before (a read, outline or earlier edit left it) holds its text too.
  const cachedBefore = change.before !== null && change.baseVersion !== null
    ? trees.peek(change.path, language, change.baseVersion)
    : null;
  const beforeText = cachedBefore?.text ?? textBefore(change);
  const where = beforeText === null ? {} : editedRows({ beforeText, afterText, cachedBefore });
  // The cached tree of the state before is judged now: parsing the new text re-parses it in place.
  let had: Had | null = cachedBefore
    ? hadBefore(cachedBefore.tree.rootNode, language, where.rowsBefore)
    : null;
  const parsed = await trees.parse(change.path, language, await afterVersionOf(change), afterText);
  const problems = syntaxProblems(parsed.tree.rootNode, 500);
  // Bodies the grammar accepts empty but the language does not (Python): a new one is an error too.
  const empty = symbolRules(language).empty_body;
  const empties = empty ? emptyBodies(parsed.tree.rootNode, empty.types, language, where.rowsAfter) : [];
  if (problems.length === 0 && empties.length === 0) return null;
  if (!had && beforeText !== null) {
    const tree = await trees.reparseDetached(language, parsed.tree, afterText, beforeText);
    try {
      had = hadBefore(tree.rootNode, language, where.rowsBefore);
    } finally {
      tree.delete();
    }
  }
  const fresh = freshProblems(had, { problems, empties });
  if (fresh.length === 0) return null;
  const reg: SyntaxRegression = {
    path: change.path,
    language,
    problems: fresh.slice(0, 20),
    errors_before: had?.errors ?? 0,
  };
  if (where.edited) reg.edited_lines = where.edited;
  return reg;
}

/** The text before the change, decoded; null for a new file or one that does not decode. */
function textBefore(change: PendingChange): string | null {
  if (change.before === null || change.baseVersion === null) return null;
  try {
    return decodedSide(change, "before").text;
  } catch {
    return null;
  }
}

/** Where an edit landed: the edited lines, and the rows before and after where a body can have been emptied. */
interface EditedRows {
  /** The lines of the new text the edit changed (1-based, inclusive). */
  edited?: { start_line: number; end_line: number };
  /** Rows of the text before (undefined: anywhere, e.g. a new file). */
  rowsBefore?: Rows;
  /** Rows of the text after (undefined: anywhere). */
  rowsAfter?: Rows;
}

/** The rows an edit changed, from the span where the two texts differ (nothing when they do not). */
function editedRows(
  { beforeText, afterText, cachedBefore }: {
    beforeText: string;
    afterText: string;
    cachedBefore: ReturnType<NonNullable<Parsing["trees"]>["peek"]>;
  },
): EditedRows {
  const span = changedSpan(beforeText, afterText);
  if (!span) return {};
  const end = Math.max(span.start, span.newEnd - 1);
  // The row where the edit starts (the prefix is shared), found from the cached tree when there is one;
  // the rows where it ends, by counting line breaks inside the edit only.
  const first = cachedBefore
    ? pointIn(cachedBefore.tree, beforeText, span.start).row
    : rowOf(afterText, span.start);
  const edited = { start_line: first + 1, end_line: first + rowOf(afterText, end, span.start) + 1 };
  // 0-based rows with a row of margin each side (a header's or a closer's line).
  const rowsAfter = { first: Math.max(0, edited.start_line - 2), last: edited.end_line };
  const rowsBefore = { first: rowsAfter.first, last: first + rowOf(beforeText, span.oldEnd, span.start) + 1 };
  return { edited, rowsBefore, rowsAfter };
}

/**
 * The problems and empty bodies after the edit that the state before did not have, counted by key. A body
 * the parser emptied because its statements went into an ERROR (a broken `def` header inside a class) is
 * that error's doing, not an empty body.
 */
function freshProblems(
  had: Had | null,
  { problems, empties }: { problems: SyntaxProblem[]; empties: SyntaxProblem[] },
): SyntaxProblem[] {
  const fresh: SyntaxProblem[] = [];
  for (const p of problems) {
    const n = had?.problems.get(key(p)) ?? 0;
    if (n > 0) had!.problems.set(key(p), n - 1);
    else fresh.push(p);
  }
  const errors = fresh.slice();
  for (const p of empties) {
    const n = had?.empty.get(key(p)) ?? 0;
    if (n > 0) had!.empty.set(key(p), n - 1);
    else if (!errors.some((e) => e.line >= p.line && e.line <= p.end_line)) fresh.push(p);
  }
  return fresh;
}

/**
 * Refuse up front an edit the guard could only refuse after it was computed: a file of a parsed language
 * (known by its name) over the parse limit. Its after-state would be over the limit too, short of an edit
 * that removes most of it, and its before-state, which the guard compares against, is over it in any case.
 * The refusal is the parse limit's own ({@linkcode parseLimitError}).
 *
 * @param ws The workspace (its grammars and parse limit).
 * @param path The file about to be edited (relative path).
 * @param bytes Its size in bytes.
 * @throws RecoverableError `limit_exceeded` naming the size and the limit.
 */
export function refuseOverParseLimit(ws: Parsing, path: string, bytes: number): void {
  if (!ws.grammars || !ws.trees || bytes <= ws.trees.maxParseBytes) return;
  if (ws.grammars.languageOf(path) === null) return;
  throw parseLimitError(path, bytes, ws.trees.maxParseBytes);
}

/** The statement that fills an empty body in the languages of these regressions (`pass`). */
function emptyFiller(regressions: SyntaxRegression[]): string {
  const filler = regressions.map((r) => symbolRules(r.language).empty_body?.filler).find((f) =>
    f !== undefined
  );
  return filler ? `\`${filler}\`` : "a statement";
}

/** What to do about new syntax errors: fill an emptied body, look outside the edit, or fix the new code. */
function refusalHint(regressions: SyntaxRegression[]): string {
  const anyway = 'pass syntax_guard: "warn" to write anyway (the errors are reported) or "off"';
  const empties = regressions.flatMap((r) => r.problems.filter((p) => p.kind === "empty"));
  const onlyEmpty = regressions.every((r) => r.problems.every((p) => p.kind === "empty"));
  if (empties.length > 0 && onlyEmpty) {
    return `The edit leaves a body with no statement (${empties[0]!.text}): put ${
      emptyFiller(regressions)
    } in it, or remove what holds it too; nothing was written`;
  }
  // New errors in lines the edit did not change: the edit may be fine and the grammar misreading it.
  const outside = regressions.filter((r) =>
    r.edited_lines !== undefined &&
    r.problems.every((p) => p.end_line < r.edited_lines!.start_line || p.line > r.edited_lines!.end_line)
  );
  if (outside.length > 0) {
    const r = outside[0]!;
    const e = r.edited_lines!;
    return `The new errors are outside the lines the edit changed (${
      e.start_line === e.end_line ? `line ${e.start_line}` : `lines ${e.start_line}–${e.end_line}`
    } of "${r.path}"): check the new code for an unclosed bracket, string or comment; if it is valid and ` +
      `the grammar misreads it, ${anyway}; nothing was written`;
  }
  return `Fix the new code so it parses (balanced brackets, complete statements) and call again; if it is ` +
    `valid and the grammar misreads it, ${anyway}; nothing was written`;
}

/**
 * The syntax guard step every commit path runs: refuse (`syntax_error`, nothing
 * written) or warn when the changes add parse errors.
 *
 * @param ws The workspace.
 * @param changes Pending changes.
 * @param options The tool whose changes these are (for the message), and the mode: "refuse", "warn" or "off".
 * @returns Warnings to attach to the result (empty when clean or off).
 */
export async function guardSyntax(
  ws: Parsing,
  changes: PendingChange[],
  options: { tool: string; mode: SyntaxGuardMode },
): Promise<string[]> {
  const { tool, mode } = options;
  if (mode === "off" || changes.length === 0) return [];
  let regressions: SyntaxRegression[];
  try {
    regressions = await findSyntaxRegressions(ws, changes);
  } catch (err) {
    // A file over the parse limit: "refuse" refuses (the hint says syntax_guard "off"); "warn" writes, and says so.
    if (mode === "warn" && isRecoverable(err, "limit_exceeded")) {
      return [`Syntax not checked: ${err.message}`];
    }
    throw err;
  }
  if (regressions.length === 0) return [];
  const where = regressions.map((r) => {
    const lines = [...new Set(r.problems.map((p) => p.line))];
    return `"${r.path}" line${lines.length > 1 ? "s" : ""} ${lines.join(", ")}`;
  }).join("; ");
  // Files that already failed to parse: the grammar may not support some syntax there.
  const preexisting = regressions.filter((r) => r.errors_before > 0).map((r) =>
    `"${r.path}" already had ${r.errors_before} syntax error${
      r.errors_before === 1 ? "" : "s"
    } before the edit, so the grammar may not support some syntax there`
  );
  if (mode === "refuse") {
    const hint = refusalHint(regressions);
    throw new RecoverableError(
      "syntax_error",
      `Cannot apply ${tool}: the edit introduces syntax errors at ${where}${
        preexisting.length > 0 ? `; ${preexisting.join("; ")}` : ""
      }`,
      { hint, details: { files: regressions } },
    );
  }
  return [
    `The edit introduces syntax errors at ${where}${
      preexisting.length > 0 ? `; ${preexisting.join("; ")}` : ""
    }`,
  ];
}
