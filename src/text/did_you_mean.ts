/**
 * Hints for a search block that matched nothing: the closest window of the
 * file (real line numbers, a compact diff of SEARCH against the file), and
 * other workspace files that hold the SEARCH text.
 *
 * @module
 */
import { diffArrays } from "diff";
import type { ShownLines } from "../errors.ts";
import type { Stage } from "../fs/stage.ts";
import { PROJECT_LIMITS } from "../project/limits.ts";
import { openProject } from "../project/project_view.ts";
import { TextDoc } from "./_doc.ts";
import { occursAt } from "./_match_lines.ts";
import { squash, windowSimilarity } from "./_similarity.ts";

/** The closest window to a search block. */
export interface ClosestWindow {
  /** 1-based first line. */
  start_line: number;
  /** 1-based last line (inclusive). */
  end_line: number;
  /** Window similarity 0..1 (2 decimals). */
  similarity: number;
  /** Compact diff: `-` lines are in SEARCH only, `+` lines in the file only, with file line numbers. */
  diff: string;
}

const TOKEN = /[A-Za-z_$][\w$]{3,}/g;

/**
 * Find the window of `doc` closest to `search`: windows that share whole lines
 * or rare identifiers with the search are scored by line similarity.
 *
 * @param doc The file.
 * @param search The search lines.
 * @param options `budget`: line comparisons allowed (default 4000); `hint`:
 * the 1-based line where the search is expected (a `@@` number, `start_line`).
 * A window within 25 lines of the hint whose first or last line is the
 * search's own is taken first.
 * @returns The closest window, or null when nothing is similar.
 */
export function closestWindow(
  doc: TextDoc,
  search: string[],
  options: { budget?: number; hint?: number } = {},
): ClosestWindow | null {
  const n = search.length;
  const total = doc.lineCount;
  if (n === 0 || total === 0) return null;
  if (options.hint !== undefined) {
    const near = nearHint(doc, search, options.hint - 1);
    if (near) return windowAt(doc, search, { start: near.start, similarity: near.sim });
  }
  const votes = new Map<number, number>();
  const vote = (start: number, w: number) => {
    const s = Math.max(0, Math.min(start, total - Math.min(n, total)));
    votes.set(s, (votes.get(s) ?? 0) + w);
  };
  const index = doc.positionsOf(search.map((s) => s.trim()).filter((s) => s.length >= 2));
  for (let j = 0; j < n; j++) {
    const k = search[j]!.trim();
    if (k.length < 2) continue;
    const at = index.get(k);
    if (!at || at.length > 200) continue;
    for (const p of at) vote(p - j, 2);
  }
  const tokens = new Map<string, number>();
  search.forEach((line, j) => {
    for (const t of line.match(TOKEN) ?? []) if (!tokens.has(t)) tokens.set(t, j);
  });
  const picked = [...tokens].sort((a, b) => b[0].length - a[0].length).slice(0, 6);
  const text = doc.text;
  // One indexOf scan per token: a regular expression alternating them scans no faster in V8 (measured).
  for (const [t, j] of picked) {
    let hits = 0;
    for (let o = text.indexOf(t); o !== -1 && hits < 100; o = text.indexOf(t, o + t.length)) {
      hits++;
      vote(doc.lineAt(o) - j, 1);
    }
  }
  if (votes.size === 0) return null;
  const starts = [...votes].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 24);
  const budget = { left: options.budget ?? 4000 };
  const sq = search.map(squash);
  let best: { start: number; sim: number } | null = null;
  for (const [s] of starts) {
    if (budget.left <= 0) break;
    const sim = windowSimilarity(sq, doc.bodySlice(s, s + n).map(squash), budget);
    if (best === null || sim > best.sim) best = { start: s, sim };
  }
  if (best === null || best.sim < 0.3) return null;
  return windowAt(doc, search, { start: best.start, similarity: best.sim });
}

/** The file lines each window's diff displays with their numbers, recorded as the diff is written. */
const SHOWN = new WeakMap<ClosestWindow, { start_line: number; end_line: number }>();

/**
 * The file lines a did-you-mean window displays with their numbers (its diff's context and `+` lines, up to
 * the diff's cut), as recorded when the window was built: what the agent has now seen of the file.
 *
 * @param window A window from {@linkcode closestWindow} or {@linkcode windowAt}.
 * @returns The lines (1-based, inclusive), or null when the diff numbers none.
 *
 * @example A long window's diff is cut: only the lines before the cut are shown
 * ```ts
 * import { linesShownBy, windowAt } from "./did_you_mean.ts";
 * import { TextDoc } from "./_doc.ts";
 * import assert from "node:assert/strict";
 *
 * const lines = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`);
 * const doc = new TextDoc(lines.join("\n") + "\n");
 * const window = windowAt(doc, lines.slice(4, 54), { start: 4, similarity: 1 });
 * assert.deepEqual(linesShownBy(window), { start_line: 5, end_line: 44 });
 * ```
 */
export function linesShownBy(window: ClosestWindow): { start_line: number; end_line: number } | null {
  return SHOWN.get(window) ?? null;
}

/**
 * What a refusal's details displayed of a file through their did-you-mean window (`details.path` and
 * `details.did_you_mean`), for the read ledger: the refusal carries it as `shown`.
 *
 * @param details A no_match refusal's details (any other details: nothing shown).
 * @returns The lines shown, with their path (empty when the details hold no window).
 */
export function shownByWindow(details: Readonly<Record<string, unknown>> | undefined): ShownLines[] {
  const window = details?.["did_you_mean"];
  const path = details?.["path"];
  if (typeof path !== "string" || window === null || typeof window !== "object") return [];
  const lines = linesShownBy(window as ClosestWindow);
  return lines ? [{ path, lines: [lines] }] : [];
}

/**
 * The window at `at.start` as a did-you-mean: lines, similarity (1 only when equal but for whitespace), diff.
 *
 * @param doc The file.
 * @param search The search lines.
 * @param at `start`: the window's first line (0-based); `similarity`: its score, 0..1.
 * @returns The window.
 */
export function windowAt(
  doc: TextDoc,
  search: string[],
  at: { start: number; similarity: number },
): ClosestWindow {
  const { start, similarity: sim } = at;
  const end = Math.min(doc.lineCount, start + search.length);
  const rounded = Math.round(sim * 100) / 100;
  const diff = numberedDiff(search, doc.bodySlice(start, end), { firstLine: start + 1 });
  const window = {
    start_line: start + 1,
    end_line: end,
    similarity: sim < 1 && rounded === 1 ? 0.99 : rounded,
    diff: diff.text,
  };
  if (diff.lastNumbered >= start + 1) {
    SHOWN.set(window, { start_line: start + 1, end_line: diff.lastNumbered });
  }
  return window;
}

/** The best window within 25 lines of the hint (0-based) whose first or last non-blank line is the search's. */
function nearHint(doc: TextDoc, search: string[], hint: number): { start: number; sim: number } | null {
  const n = search.length;
  const total = doc.lineCount;
  const first = search.findIndex((l) => l.trim() !== "");
  if (first === -1) return null;
  let last = n - 1;
  while (search[last]!.trim() === "") last--;
  const keys = doc.keys("trim");
  const sq = search.map(squash);
  let best: { start: number; sim: number } | null = null;
  for (let d = 0; d <= 25; d++) {
    for (const s of d === 0 ? [hint] : [hint - d, hint + d]) {
      if (s < 0 || s >= total) continue;
      const anchored = keys[s + first] === search[first]!.trim() ||
        (last !== first && keys[s + last] === search[last]!.trim());
      if (!anchored) continue;
      const sim = windowSimilarity(sq, doc.bodySlice(s, s + n).map(squash), { left: n });
      if (best === null || sim > best.sim) best = { start: s, sim };
    }
  }
  return best;
}

/**
 * When `search` and the file lines differ only in whitespace, say where and how
 * ("tabs vs spaces in the indentation on lines 11, 12"); null otherwise.
 *
 * @param search The search lines.
 * @param file The file lines of the window (same count).
 * @param firstLine 1-based number of the window's first line.
 * @returns The differences, or null when some line differs in more than whitespace.
 */
export function whitespaceDifference(search: string[], file: string[], firstLine: number): string | null {
  if (search.length !== file.length) return null;
  const kinds = new Map<string, number[]>();
  for (let j = 0; j < search.length; j++) {
    const a = search[j]!;
    const b = file[j]!;
    if (a === b) continue;
    if (squash(a) !== squash(b)) return null;
    let kind: string;
    if (a.trimEnd() === b.trimEnd()) kind = "trailing whitespace";
    else if (a.trim() === b.trim()) {
      const la = /^\s*/.exec(a)![0];
      const lb = /^\s*/.exec(b)![0];
      kind = la.includes("\t") !== lb.includes("\t") ? "tabs vs spaces in the indentation" : "indentation";
    } else kind = "spacing inside the line";
    const list = kinds.get(kind) ?? [];
    list.push(firstLine + j);
    kinds.set(kind, list);
  }
  if (kinds.size === 0) return null;
  return [...kinds].map(([k, lines]) => `${k} on line${lines.length === 1 ? "" : "s"} ${lines.join(", ")}`)
    .join("; ");
}

/**
 * A compact line diff of SEARCH against file lines: `-` only in SEARCH, `+`
 * only in the file, unmarked lines in both; file lines carry their numbers.
 *
 * @param search The search lines.
 * @param file The file lines of the window.
 * @param options `firstLine`: the 1-based number of the window's first line; `limit`: most diff lines (40).
 * @returns At most `limit` lines of diff.
 */
export function compactDiff(search: string[], file: string[], options: DiffOptions): string {
  return numberedDiff(search, file, options).text;
}

/** Options of {@linkcode compactDiff}. */
export interface DiffOptions {
  /** 1-based number of the window's first line. */
  firstLine: number;
  /** Most lines of diff before the cut (default 40). */
  limit?: number;
}

/** {@linkcode compactDiff}, and the number of the last file line its text shows (before the cut). */
function numberedDiff(
  search: string[],
  file: string[],
  options: DiffOptions,
): { text: string; lastNumbered: number } {
  const { firstLine, limit = 40 } = options;
  const changes = diffArrays(search, file, {
    comparator: (a: string, b: string) => a.trimEnd() === b.trimEnd(),
  });
  const width = String(firstLine + file.length).length;
  const out: string[] = [];
  let line = firstLine;
  let lastNumbered = firstLine - 1;
  for (const c of changes) {
    for (const v of c.value) {
      if (c.removed) out.push(`-${" ".repeat(width)} | ${v}`);
      else {
        if (out.length < limit) lastNumbered = line;
        out.push(`${c.added ? "+" : " "}${String(line++).padStart(width)} | ${v}`);
      }
    }
  }
  if (out.length > limit) {
    return {
      text: [...out.slice(0, limit), `… ${out.length - limit} more line(s)`].join("\n"),
      lastNumbered,
    };
  }
  return { text: out.join("\n"), lastNumbered };
}

/**
 * Other text files of the workspace that hold the search text (trailing
 * whitespace and indentation ignored), found by the project walk (`.gitignore`
 * honoured). Bounded by the walk's `hint` limits (`project/limits.ts`): at most `maxFiles` files of at most
 * 512 KiB are read.
 *
 * @param stage The call's stage.
 * @param search The search lines.
 * @param options `exclude`: the file the block targeted; `maxFiles` (default the hint limit, 300), `limit`
 *   results (default 3).
 * @returns Matching files with 1-based lines.
 */
export async function findInOtherFiles(
  stage: Stage,
  search: string[],
  options: { exclude: string; maxFiles?: number; limit?: number },
): Promise<{ path: string; start_line: number; end_line: number }[]> {
  const { exclude } = options;
  const probe = search.map((s) => s.trim()).filter((s) => s !== "").sort((a, b) => b.length - a.length)[0];
  if (!probe) return [];
  const keys = search.map((s) => s.trim());
  const maxFiles = options.maxFiles ?? PROJECT_LIMITS.hint.files;
  const limit = options.limit ?? 3;
  const found: { path: string; start_line: number; end_line: number }[] = [];
  // The project's one walk (no VCS folders, .gitignore honoured, node_modules skipped), with the hint's limits.
  const project = openProject({ stage, limits: { ...PROJECT_LIMITS.hint, files: maxFiles } });
  const files = await project.files({ accept: (e) => e.kind === "file" && e.real !== exclude });
  for (const safe of files) {
    if (found.length >= limit) break;
    // The walk skipped every link that leaves the root; one inside it is read at its target.
    const text = (await project.read(safe))?.text;
    if (text === undefined) continue;
    if (!text.includes(probe)) continue;
    const doc = new TextDoc(text);
    const all = doc.keys("trim");
    for (let i = 0; i + keys.length <= all.length; i++) {
      if (occursAt(all, i, keys)) {
        found.push({ path: safe, start_line: i + 1, end_line: i + keys.length });
        break;
      }
    }
  }
  return found;
}
