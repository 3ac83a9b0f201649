/**
 * Hints for a search block that matched nothing: the closest window of the
 * file (real line numbers, a compact diff of SEARCH against the file), and
 * other workspace files that hold the SEARCH text.
 *
 * @module
 */
import { diffArrays } from "diff";
import { decodeText } from "../fs/text.ts";
import type { Stage } from "../fs/stage.ts";
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
 * @param options `budget`: line comparisons allowed (default 4000).
 * @returns The closest window, or null when nothing is similar.
 */
export function closestWindow(
  doc: TextDoc,
  search: string[],
  options: { budget?: number } = {},
): ClosestWindow | null {
  const n = search.length;
  const total = doc.lines.length;
  if (n === 0 || total === 0) return null;
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
    const sim = windowSimilarity(sq, doc.bodies.slice(s, s + n).map(squash), budget);
    if (best === null || sim > best.sim) best = { start: s, sim };
  }
  if (best === null || best.sim < 0.3) return null;
  const end = Math.min(total, best.start + n);
  return {
    start_line: best.start + 1,
    end_line: end,
    similarity: Math.round(best.sim * 100) / 100,
    diff: compactDiff(search, doc.bodies.slice(best.start, end), best.start + 1),
  };
}

/**
 * A compact line diff of SEARCH against file lines: `-` only in SEARCH, `+`
 * only in the file, unmarked lines in both; file lines carry their numbers.
 *
 * @param search The search lines.
 * @param file The file lines of the window.
 * @param firstLine 1-based number of the window's first line.
 * @returns At most 40 lines of diff.
 */
export function compactDiff(search: string[], file: string[], firstLine: number, limit = 40): string {
  const changes = diffArrays(search, file, {
    comparator: (a: string, b: string) => a.trimEnd() === b.trimEnd(),
  });
  const width = String(firstLine + file.length).length;
  const out: string[] = [];
  let line = firstLine;
  for (const c of changes) {
    for (const v of c.value) {
      if (c.removed) out.push(`-${" ".repeat(width)} | ${v}`);
      else out.push(`${c.added ? "+" : " "}${String(line++).padStart(width)} | ${v}`);
    }
  }
  if (out.length > limit) return [...out.slice(0, limit), `… ${out.length - limit} more line(s)`].join("\n");
  return out.join("\n");
}

const SKIP_DIRS = new Set(["node_modules", "dist", "build", "target", "vendor", "coverage", "out"]);

/**
 * Other text files of the workspace that hold the search text (trailing
 * whitespace and indentation ignored). Bounded: at most `maxFiles` files of at
 * most 512 KiB are read.
 *
 * @param stage The call's stage.
 * @param search The search lines.
 * @param exclude The file the block targeted.
 * @param options `maxFiles` (default 300), `limit` results (default 3).
 * @returns Matching files with 1-based lines.
 */
export async function findInOtherFiles(
  stage: Stage,
  search: string[],
  exclude: string,
  options: { maxFiles?: number; limit?: number } = {},
): Promise<{ path: string; start_line: number; end_line: number }[]> {
  const probe = search.map((s) => s.trim()).filter((s) => s !== "").sort((a, b) => b.length - a.length)[0];
  if (!probe) return [];
  const keys = search.map((s) => s.trim());
  const maxFiles = options.maxFiles ?? 300;
  const limit = options.limit ?? 3;
  const found: { path: string; start_line: number; end_line: number }[] = [];
  const queue = [""];
  let read = 0;
  let listed = 0;
  while (queue.length > 0 && read < maxFiles && found.length < limit && listed < 5000) {
    const dir = queue.shift()!;
    let entries: { name: string; kind: "file" | "dir" }[];
    try {
      entries = await stage.list(dir);
    } catch {
      continue;
    }
    for (const e of entries) {
      listed++;
      if (e.name.startsWith(".")) continue;
      const rel = dir === "" ? e.name : `${dir}/${e.name}`;
      if (e.kind === "dir") {
        if (!SKIP_DIRS.has(e.name)) queue.push(rel);
        continue;
      }
      if (rel === exclude || read >= maxFiles || found.length >= limit) continue;
      // Resolve first: a symlink that leaves the root is skipped, never read.
      const safe = await stage.resolve(rel).catch(() => null);
      if (safe === null || safe === exclude) continue;
      const file = await stage.read(safe).catch(() => null);
      read++;
      if (!file || file.bytes.length > 512 * 1024) continue;
      let text: string;
      try {
        text = decodeText(file.bytes, rel).text;
      } catch {
        continue;
      }
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
  }
  return found;
}
