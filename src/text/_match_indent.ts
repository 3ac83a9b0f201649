/**
 * Normalisations of the ladder (private): the uniform indentation change
 * between the model's lines and the file's, and the rendering of the
 * replacement that maps kept lines to the file's own bytes and re-applies
 * indentation and Unicode drift.
 *
 * @module
 */
import { leadOf, type TextDoc, UNICODE_FOLD, UNICODE_FOLD_RE, widthOf } from "./_doc.ts";
import type { Cand } from "./_match_lines.ts";

/** A uniform indentation change from the model's lines to the file's. */
export interface Shift {
  delta: number;
  /** Indentation width multiplier (2-space code written with 4 spaces and back); 1 for a plain shift. */
  scale: number;
  tab: number;
  useTabs: boolean;
  leads: Map<string, string>;
}

/** The uniform indentation change between search and file lines, or null when not uniform. */
export function indentShift(doc: TextDoc, search: string[], pairs: [number, number][]): Shift | null {
  const leadPairs: [string, string][] = [];
  for (const [s, f] of pairs) {
    const sl = search[s]!;
    if (sl.trim() === "") continue;
    leadPairs.push([leadOf(sl), leadOf(doc.body(f))]);
  }
  return shiftOf(leadPairs);
}

/** The uniform change over (search lead, file lead) pairs of non-blank lines, or null. */
function shiftOf(leadPairs: [string, string][]): Shift | null {
  // A first line copied without its indentation (the selection started at its first character) says nothing
  // about the others: the shift is theirs, and that line keeps the file's indentation.
  let bareFirst: [string, string] | null = null;
  if (leadPairs.length > 1 && leadPairs[0]![0] === "" && leadPairs[0]![1] !== "") {
    bareFirst = leadPairs.shift()!;
  }
  const withFirst = (shift: Shift): Shift => {
    if (bareFirst && !shift.leads.has("")) shift.leads.set("", bareFirst[1]);
    return shift;
  };
  const useTabs = leadPairs.some(([, f]) => f.startsWith("\t"));
  const hasTabs = leadPairs.some(([s, f]) => s.includes("\t") || f.includes("\t"));
  for (const tab of hasTabs ? [4, 8, 2, 3] : [4]) {
    let delta: number | null = null;
    let ok = true;
    for (const [s, f] of leadPairs) {
      const d = widthOf(f, tab) - widthOf(s, tab);
      if (delta === null) delta = d;
      else if (d !== delta) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    const leads = new Map<string, string>();
    for (const [s, f] of leadPairs) if (!leads.has(s)) leads.set(s, f);
    return withFirst({ delta: delta ?? 0, scale: 1, tab, useTabs, leads });
  }
  // A uniform indentation unit change (the model wrote 4-space code with 2 spaces, or back).
  for (const tab of hasTabs ? [4, 8, 2, 3] : [4]) {
    let scale: number | null = null;
    let ok = true;
    const depths = new Set<number>();
    for (const [s, f] of leadPairs) {
      const sw = widthOf(s, tab);
      const fw = widthOf(f, tab);
      if (sw === 0 || fw === 0) {
        if (sw !== fw) ok = false;
        continue;
      }
      depths.add(sw);
      const k = fw / sw;
      if (scale === null) scale = k;
      else if (k !== scale) ok = false;
      if (!ok) break;
    }
    if (!ok || scale === null || scale === 1) continue;
    // One depth beside unindented lines: no shift explains both, so only a unit change can, and the
    // two widths must each be an indent unit (4-space code written with 2, or back); 4 -> 6 is not.
    if (depths.size < 2 && !isUnitChange([...depths][0]!, [...depths][0]! * scale)) continue;
    const leads = new Map<string, string>();
    for (const [s, f] of leadPairs) if (!leads.has(s)) leads.set(s, f);
    return withFirst({ delta: 0, scale, tab, useTabs, leads });
  }
  return null;
}

/** Indentation widths taken as one level of some project's style (columns). */
const INDENT_UNITS: ReadonlySet<number> = new Set([2, 3, 4, 8]);

/** Whether one indentation level of `from` columns written as `to` columns is an indent-unit change. */
function isUnitChange(from: number, to: number): boolean {
  return INDENT_UNITS.has(from) && INDENT_UNITS.has(to);
}

/**
 * Why no uniform indentation change maps the search's lines onto the file's,
 * for a refusal's hint: the widths that disagree, or the one depth whose
 * change is no indent unit. Null when the lines do shift uniformly.
 *
 * @param search The search lines.
 * @param file The file lines they were compared with (same count).
 */
export function indentMismatch(search: string[], file: string[]): string | null {
  const leadPairs = search.flatMap((l, i): [string, string][] =>
    l.trim() === "" ? [] : [[leadOf(l), leadOf(file[i] ?? "")]]
  );
  if (shiftOf(leadPairs) !== null) return null;
  const changes = new Map<string, number>();
  for (let i = 0; i < search.length; i++) {
    if (search[i]!.trim() === "") continue;
    const key = `${widthOf(leadOf(search[i]!), 4)} -> ${widthOf(leadOf(file[i] ?? ""), 4)}`;
    if (!changes.has(key)) changes.set(key, i);
  }
  const list = [...changes.keys()].map((k) => `${k} columns`);
  const moved = [...changes.keys()].filter((k) => !/^(\d+) -> \1$/.test(k));
  if (moved.length === 1 && list.length > 1) {
    return `the indentation changes ${moved[0]} columns at one depth only while other lines keep theirs, ` +
      `which is neither one shift nor an indent-unit change (${[...INDENT_UNITS].join(", ")} columns)`;
  }
  return `the indentation does not change by one amount or one unit (${list.slice(0, 4).join(", ")})`;
}

function reindent(line: string, shift: Shift): string {
  if (line.trim() === "") return line;
  const lead = leadOf(line);
  const mapped = shift.leads.get(lead);
  if (mapped !== undefined) return mapped + line.slice(lead.length);
  const w = Math.max(0, Math.round(widthOf(lead, shift.tab) * shift.scale) + shift.delta);
  const newLead = shift.useTabs
    ? "\t".repeat(Math.floor(w / shift.tab)) + " ".repeat(w % shift.tab)
    : " ".repeat(w);
  return newLead + line.slice(lead.length);
}

/** What {@linkcode render} renders: the matched search lines, their file lines, the replacement. */
export interface Rendering {
  /** The search lines. */
  search: string[];
  /** [search line, file line] pairs of the match. */
  pairs: [number, number][];
  /** The replacement lines as the model wrote them. */
  replace: string[];
  /** How the file's indentation differs from the search's (null: not at all). */
  shift: Shift | null;
  /** Unicode characters to fold in new lines (the file never has them there), or null. */
  fold: Set<string> | null;
}

/** Render the replacement: lines the model kept map to the file's own bytes, new lines are re-indented. */
export function render(doc: TextDoc, rendering: Rendering): string[] {
  const { search, pairs, replace, shift, fold } = rendering;
  const map = new Map<string, string | null>();
  for (const [s, f] of pairs) {
    const k = search[s]!;
    const v = doc.body(f);
    if (map.has(k) && map.get(k) !== v) map.set(k, null);
    else map.set(k, v);
  }
  return replace.map((r) => {
    const m = map.get(r);
    if (m !== undefined && m !== null) return m;
    let line = r;
    if (fold && fold.size > 0) {
      line = line.replace(UNICODE_FOLD_RE, (c) => fold.has(c) ? UNICODE_FOLD[c]! : c);
    }
    if (shift && shift.delta !== 0 || shift && shift.leads.size > 0) line = reindent(line, shift!);
    return line;
  });
}

/** Unicode characters the model used in SEARCH that the matched file lines never contain. */
export function driftChars(search: string[], doc: TextDoc, c: Cand): Set<string> {
  const window = doc.bodySlice(c.start, c.end).join("\n");
  const out = new Set<string>();
  for (const ch of search.join("\n").match(UNICODE_FOLD_RE) ?? []) if (!window.includes(ch)) out.add(ch);
  return out;
}
