/**
 * The str_replace shape (`old_string` → `new_string`): an exact substring
 * first, then the line ladder for whole-line text that drifted.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import type { Stage } from "../fs/stage.ts";
import { spliceBytes, splitsCrlf, type TextFile, withRegionEol } from "../fs/text.ts";
import { TextDoc } from "./_doc.ts";
import { applyMatch, matchSplice } from "./_apply_match.ts";
import { type ErrorShape, explainFailure, lineList } from "./_explain_failure.ts";
import { matchBlockIn, type MatchOptions } from "./match_block.ts";
import { shownByWindow } from "./did_you_mean.ts";
import type { BlockReport, EditBlock } from "./types.ts";

/** Arguments of {@linkcode strReplace}. */
export interface StrReplaceArgs {
  /** Relative path. */
  path: string;
  /** Text to find ("" creates a missing file). */
  oldText: string;
  /** Text to put in its place. */
  newText: string;
  /** Replace every occurrence. */
  replaceAll?: boolean;
  /** 1-based line near which the text is expected (picks one of several matches). */
  startLine?: number;
}

/** What {@linkcode strReplace} did. */
export interface StrReplaceResult {
  /** Relative path. */
  path: string;
  /** The block report (tier, lines, confidence). */
  report: BlockReport;
  /** Occurrences replaced. */
  replaced: number;
  /** Whether the file was created. */
  created: boolean;
}

function linesOf(text: string): string[] {
  const t = text.replace(/\r\n/g, "\n");
  const body = t.endsWith("\n") ? t.slice(0, -1) : t;
  return body.split("\n");
}

function fromShape(shape: ErrorShape): RecoverableError {
  const options: ConstructorParameters<typeof RecoverableError>[2] = { hint: shape.hint };
  if (shape.details) options.details = shape.details;
  // The did-you-mean window was displayed: the ledger counts those lines as read.
  const shown = shownByWindow(shape.details);
  if (shown.length > 0) options.shown = shown;
  const dym = shape.details?.["did_you_mean"] as { start_line: number; end_line: number } | undefined;
  const path = shape.details?.["path"];
  if (dym && typeof path === "string") {
    options.suggestedCall = {
      tool: "read_file",
      args: { path, start_line: Math.max(1, dym.start_line - 3), end_line: dym.end_line + 3 },
    };
  }
  return new RecoverableError(
    shape.code as ConstructorParameters<typeof RecoverableError>[0],
    shape.message,
    options,
  );
}

/**
 * Replace `oldText` by `newText` in one file on the stage.
 *
 * @param stage The call's stage.
 * @param args Path, old and new text, replace_all, start_line.
 * @param options Ladder options.
 * @returns The report of the single block.
 * @throws RecoverableError `no_match` (with did-you-mean), `ambiguous` (every candidate), `already_applied`.
 */
export async function strReplace(
  stage: Stage,
  args: StrReplaceArgs,
  options: MatchOptions = {},
): Promise<StrReplaceResult> {
  const rel = await stage.resolve(args.path);
  const report: BlockReport = { block: 1, path: rel, input_line: 1, status: "applied" };
  if (args.oldText === "") return await createFile(stage, { rel, args, report });
  const file = await stage.readText(rel);
  const edit: Edit = { stage, rel, file, doc: new TextDoc(file.text), args, report };
  for (const reading of readings(file.text, args)) {
    const done = await replaceSubstring(edit, reading);
    if (done) return done;
  }
  return await replaceLines(edit, options);
}

/** One str_replace call on one file, as its steps see it. */
interface Edit {
  stage: Stage;
  rel: string;
  file: TextFile & { bytes: Uint8Array };
  doc: TextDoc;
  args: StrReplaceArgs;
  report: BlockReport;
}

/** An empty old_string creates a missing file (and is refused on one that exists). */
async function createFile(
  stage: Stage,
  { rel, args, report }: { rel: string; args: StrReplaceArgs; report: BlockReport },
): Promise<StrReplaceResult> {
  if (await stage.exists(rel)) {
    throw new RecoverableError(
      "invalid_args",
      `Cannot edit "${rel}": old_string is empty and the file exists`,
      {
        hint: "Pass the exact text to replace as old_string, or use write_file to replace the whole file",
        details: { path: rel },
      },
    );
  }
  await stage.writeText(rel, { text: args.newText, bom: false });
  return {
    path: rel,
    report: { ...report, tier: "create", confidence: "high" },
    replaced: 1,
    created: true,
  };
}

/** The ways to read old and new text as substrings of the file: in a CRLF file, "\n" as "\r\n" first. */
function readings(text: string, args: StrReplaceArgs): [string, string][] {
  const variants: [string, string][] = [[args.oldText, args.newText]];
  if (text.includes("\r\n") && args.oldText.includes("\n") && !args.oldText.includes("\r\n")) {
    // In a CRLF file the model's "\n" means "\r\n": that reading first.
    variants.unshift([args.oldText.replace(/\n/g, "\r\n"), args.newText.replace(/\r?\n/g, "\r\n")]);
  }
  return variants;
}

/**
 * Replace one reading of old text as a substring: the one hit, the one start_line picks, or every hit with
 * replace_all. Null when the file does not hold it; refuses several hits, or an edit already made.
 */
async function replaceSubstring(
  edit: Edit,
  [oldText, newText]: [string, string],
): Promise<StrReplaceResult | null> {
  const { stage, rel, file, doc, report } = edit;
  const text = file.text;
  const hits: number[] = [];
  for (
    let o = text.indexOf(oldText);
    o !== -1 && hits.length < 1000;
    o = text.indexOf(oldText, o + oldText.length)
  ) {
    if (!splitsCrlf(text, o, oldText.length)) hits.push(o); // never leave a lone "\r"
  }
  if (hits.length === 0) return null;
  const chosen = hits.length > 1 && !edit.args.replaceAll ? [pickHit(edit, { hits, oldText })] : hits;
  refuseLanded(edit, { chosen, oldText, newText });
  const splices = chosen.map((o) => ({
    from: o,
    to: o + oldText.length,
    insert: withRegionEol(text, o + oldText.length, newText),
  }));
  if (splices.every((s) => s.insert === oldText)) {
    throw new RecoverableError(
      "already_applied",
      `Cannot edit "${rel}": old_string and new_string are the same`,
      {
        hint: "Nothing to change; drop this edit",
        details: { path: rel },
      },
    );
  }
  // The new bytes straight from the old around the replaced spans (no second copy of the text).
  await stage.write(rel, spliceBytes(file, splices));
  const first = doc.lineAt(chosen[0]!);
  report.tier = "exact";
  report.confidence = "high";
  report.lines = { start: first + 1, end: first + 1 + (oldText.split("\n").length - 1) };
  return { path: rel, report, replaced: chosen.length, created: false };
}

/** The hit start_line picks among several (nearest, and clearly nearer than the next); else `ambiguous`. */
function pickHit(edit: Edit, { hits, oldText }: { hits: number[]; oldText: string }): number {
  const lines = hits.map((o) => edit.doc.lineAt(o));
  const hint = edit.args.startLine === undefined ? undefined : edit.args.startLine - 1;
  if (hint !== undefined) {
    const order = lines.map((l, i) => [Math.abs(l - hint), i] as const).sort((a, b) => a[0] - b[0]);
    const [d1, i1] = order[0]!;
    const d2 = order[1]![0];
    if (d1 !== d2 && (d1 === 0 || (d1 <= 25 && d2 >= 3 * d1))) return hits[i1]!;
  }
  const span = oldText.split("\n").length - 1;
  const candidates = lines.map((l) => ({ start_line: l + 1, end_line: l + 1 + span }));
  throw new RecoverableError(
    "ambiguous",
    `Cannot edit "${edit.rel}": old_string matches ${hits.length} places (lines ${lineList(candidates)})`,
    {
      hint:
        "Include more surrounding text in old_string so it matches once, pass start_line to pick one, or pass replace_all: true to change every occurrence",
      details: { path: edit.rel, candidates },
    },
  );
}

/**
 * new_string holds old_string: a hit that sits inside new_string already written there is this edit,
 * re-sent after it landed (applying it again would repeat the added text). Refused when every chosen hit is.
 */
function refuseLanded(edit: Edit, at: { chosen: number[]; oldText: string; newText: string }): void {
  const { doc, rel } = edit;
  const landed = at.chosen.filter((o) =>
    insideReplacement(edit.file.text, { at: o, oldText: at.oldText, newText: at.newText })
  );
  if (landed.length === 0 || landed.length !== at.chosen.length) return;
  const first = doc.lineAt(landed[0]!);
  throw new RecoverableError(
    "already_applied",
    `Cannot edit "${rel}": new_string is already at line ${first + 1}, where old_string matches inside it`,
    {
      hint: "Drop this edit: the file already holds its change (re-read the lines to check)",
      details: { path: rel, found_at: landed.map((o) => ({ start_line: doc.lineAt(o) + 1 })) },
    },
  );
}

/** Old text that is no substring of the file: whole lines placed by the ladder (drifted indentation, …). */
async function replaceLines(edit: Edit, options: MatchOptions): Promise<StrReplaceResult> {
  const { stage, rel, file, doc, args, report } = edit;
  const block: EditBlock = { search: linesOf(args.oldText), replace: linesOf(args.newText), inputLine: 1 };
  if (args.startLine !== undefined) block.lineHint = args.startLine;
  const outcome = matchBlockIn(doc, block, options);
  if (!outcome.ok) {
    const labels = { where: `old_string to "${rel}"`, search: "old_string", replace: "new_string" };
    throw fromShape(await explainFailure(stage, { rel, blockNo: 1, block, doc, outcome }, { labels }));
  }
  const m = outcome.match;
  const splice = matchSplice(doc, m, block);
  if (splice) await stage.write(rel, spliceBytes(file, [splice]));
  else await stage.writeText(rel, { text: applyMatch(doc, m, block), bom: file.bom });
  report.tier = m.tier;
  report.confidence = m.confidence;
  report.lines = { start: m.start + 1, end: Math.max(m.start + 1, m.end) };
  report.new_lines = { start: m.start + 1, end: m.start + Math.max(1, m.replacement.length) };
  if (m.tier === "fuzzy") report.similarity = Math.round(m.similarity * 100) / 100;
  return { path: rel, report, replaced: 1, created: false };
}

/** Whether old text found at `at` is part of new text already written around it. */
function insideReplacement(
  text: string,
  { at, oldText, newText }: { at: number; oldText: string; newText: string },
): boolean {
  if (newText.length <= oldText.length) return false;
  for (let k = newText.indexOf(oldText); k !== -1; k = newText.indexOf(oldText, k + 1)) {
    if (at - k >= 0 && text.startsWith(newText, at - k)) return true;
  }
  return false;
}
