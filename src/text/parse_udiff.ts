/**
 * Unified diffs (git style or plain): several files, new/deleted files,
 * renames, hunks with or without trustworthy `@@` numbers, `\ No newline at
 * end of file`. Well-formed diffs are parsed by jsdiff's `parsePatch`; diffs
 * models write with bare `@@` lines or wrong counts go through a tolerant
 * parser. Either way each hunk becomes a search/replace block whose `@@` old
 * start is only a line hint: the matching ladder places it.
 *
 * @module
 */
import { parsePatch, type StructuredPatch } from "diff";
import { diffPath, inputLines, malformed } from "./_input.ts";
import type { EditBlock, FileOp } from "./types.ts";

const NUMBERED_HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** True when `text` looks like a unified diff. */
export function looksLikeUnifiedDiff(text: string): boolean {
  return /^@@/m.test(text) || (/^--- \S/m.test(text) && /^\+\+\+ \S/m.test(text)) ||
    /^diff --git /m.test(text);
}

interface Hunk {
  lines: string[];
  oldStart?: number;
  inputLine: number;
}

interface Section {
  oldPath: string | null | undefined;
  newPath: string | null | undefined;
  isCreate: boolean;
  isDelete: boolean;
  renameFrom?: string;
  renameTo?: string;
  hunks: Hunk[];
  inputLine: number;
}

/** Turn a hunk's prefixed lines into a block. */
function hunkToBlock(hunk: Hunk): EditBlock {
  const search: string[] = [];
  const replace: string[] = [];
  let last = " ";
  let oldNoEol = false;
  let newNoEol = false;
  for (const line of hunk.lines) {
    const op = line === "" ? " " : line[0]!;
    const body = line.slice(1);
    if (op === "\\") {
      if (last === "-" || last === " ") oldNoEol = true;
      if (last === "+" || last === " ") newNoEol = true;
      continue;
    }
    if (op === "-" || op === " ") search.push(body);
    if (op === "+" || op === " ") replace.push(body);
    last = op;
  }
  const block: EditBlock = { search, replace, inputLine: hunk.inputLine };
  if (hunk.oldStart !== undefined && hunk.oldStart > 0) block.lineHint = hunk.oldStart;
  if (oldNoEol) block.oldNoEol = true;
  if (newNoEol) block.newNoEol = true;
  return block;
}

function sectionToOp(section: Section): FileOp {
  const oldPath = section.renameFrom ?? section.oldPath;
  const newPath = section.renameTo ?? section.newPath;
  const line = section.inputLine;
  if (section.isDelete || (newPath === null && oldPath)) {
    return { kind: "delete", path: oldPath!, inputLine: line };
  }
  if (section.isCreate || (oldPath === null && newPath)) {
    const blocks = section.hunks.map(hunkToBlock);
    const lines = blocks.flatMap((b) => b.replace);
    const noEol = blocks.some((b) => b.newNoEol === true);
    return { kind: "create", path: newPath!, lines, noEol, inputLine: line };
  }
  const path = oldPath ?? newPath;
  if (!path) {
    throw malformed("udiff", {
      line,
      what: "the diff names no file",
      hint: "Start each file's diff with --- a/<path> and +++ b/<path> lines",
    });
  }
  const op: FileOp = { kind: "edit", path, blocks: section.hunks.map(hunkToBlock), inputLine: line };
  if (newPath && newPath !== path) op.moveTo = newPath;
  return op;
}

/** Map jsdiff's structured patches onto sections (input lines found by header search). */
function fromJsdiff(patches: StructuredPatch[], lines: string[]): Section[] {
  const sections: Section[] = [];
  let cursor = 0;
  for (const p of patches) {
    const git = (p as { isGit?: boolean }).isGit === true;
    const strip = (name: string | undefined, prefix: "a/" | "b/"): string | null | undefined => {
      if (name === undefined) return undefined;
      if (name === "/dev/null") return null;
      return git || name.startsWith(prefix) ? diffPath(name, prefix) : name.trim();
    };
    const extra = p as { isCreate?: boolean; isDelete?: boolean; isRename?: boolean };
    while (cursor < lines.length && !/^(?:diff --git |--- |Index: )/.test(lines[cursor]!)) cursor++;
    const section: Section = {
      oldPath: strip(p.oldFileName, "a/"),
      newPath: strip(p.newFileName, "b/"),
      isCreate: extra.isCreate === true,
      isDelete: extra.isDelete === true,
      hunks: [],
      inputLine: cursor + 1,
    };
    if (extra.isRename && section.oldPath && section.newPath) {
      section.renameFrom = section.oldPath;
      section.renameTo = section.newPath;
    }
    for (const h of p.hunks) {
      while (cursor < lines.length && !lines[cursor]!.startsWith("@@")) cursor++;
      section.hunks.push({ lines: h.lines, oldStart: h.oldStart, inputLine: cursor + 1 });
      cursor++;
    }
    if (section.oldPath === undefined && section.newPath === undefined && section.hunks.length === 0) {
      continue;
    }
    sections.push(section);
  }
  return sections;
}

const META =
  /^(?:new file mode|deleted file mode|similarity index|dissimilarity index|index |old mode|new mode|copy from|copy to|Binary files)/;

/** The tolerant parser: bare `@@`, wrong counts, missing leading spaces on blank context lines. */
function tolerant(lines: string[]): Section[] {
  const sections: Section[] = [];
  let section: Section | null = null;
  let hunk: Hunk | null = null;
  const closeHunk = () => {
    if (hunk) {
      while (hunk.lines.length > 0 && hunk.lines[hunk.lines.length - 1] === "") hunk.lines.pop();
      if (hunk.lines.length > 0) section!.hunks.push(hunk);
    }
    hunk = null;
  };
  const open = (i: number): Section => {
    closeHunk();
    section = {
      oldPath: undefined,
      newPath: undefined,
      isCreate: false,
      isDelete: false,
      hunks: [],
      inputLine: i + 1,
    };
    sections.push(section);
    return section;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith("diff --git ")) {
      const s = open(i);
      const rest = line.slice("diff --git ".length);
      const mid = rest.indexOf(" b/");
      if (rest.startsWith("a/") && mid !== -1) {
        s.oldPath = diffPath(rest.slice(0, mid), "a/");
        s.newPath = diffPath(rest.slice(mid + 1), "b/");
      }
      continue;
    }
    if (line.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) {
      const s: Section = section !== null && (section as Section).hunks.length === 0 && hunk === null
        ? section
        : open(i);
      closeHunk();
      s.oldPath = diffPath(line.slice(4), "a/");
      s.newPath = diffPath(lines[i + 1]!.slice(4), "b/");
      i++;
      continue;
    }
    if (line.startsWith("@@")) {
      const s: Section = section ?? open(i);
      closeHunk();
      const m = NUMBERED_HUNK.exec(line);
      hunk = { lines: [], inputLine: i + 1 };
      if (m) {
        const oldLines = m[2] === undefined ? 1 : Number(m[2]);
        (hunk as Hunk).oldStart = oldLines === 0 ? Number(m[1]) + 1 : Number(m[1]);
      }
      section = s;
      continue;
    }
    if (hunk !== null && (line === "" || " +-\\".includes(line[0]!))) {
      (hunk as Hunk).lines.push(line);
      continue;
    }
    if (section !== null && hunk === null) {
      const s = section as Section;
      if (line.startsWith("rename from ")) s.renameFrom = line.slice(12).trim();
      else if (line.startsWith("rename to ")) s.renameTo = line.slice(10).trim();
      else if (line.startsWith("new file mode")) s.isCreate = true;
      else if (line.startsWith("deleted file mode")) s.isDelete = true;
      else if (META.test(line)) continue;
      continue;
    }
    closeHunk();
  }
  closeHunk();
  return sections;
}

/**
 * Parse a unified diff into file operations.
 *
 * @param text The diff (prose around it is ignored).
 * @returns One op per file section.
 * @throws RecoverableError `invalid_args` when no hunk or file header is found.
 *
 * @example A git diff with one hunk
 * ```ts
 * import { parseUnifiedDiff } from "@graver/core/text";
 * import assert from "node:assert/strict";
 *
 * const ops = parseUnifiedDiff("--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-a\n+b\n");
 * assert.equal(ops[0]!.kind, "edit");
 * ```
 */
export function parseUnifiedDiff(text: string): FileOp[] {
  const lines = inputLines(text);
  const hunkHeaders = lines.filter((l) => l.startsWith("@@"));
  let sections: Section[] | null = null;
  if (hunkHeaders.every((l) => NUMBERED_HUNK.test(l))) {
    try {
      sections = fromJsdiff(parsePatch(lines.join("\n") + "\n"), lines);
    } catch {
      sections = null;
    }
  }
  sections ??= tolerant(lines);
  if (sections.length === 0) {
    throw malformed("udiff", {
      line: 1,
      what: "no file header or @@ hunk found",
      hint: "Write --- a/<path>, +++ b/<path>, then @@ hunks whose lines start with ' ', '-' or '+'",
    });
  }
  const ops: FileOp[] = [];
  for (const s of sections) {
    if (
      s.hunks.length === 0 && !s.isDelete && !s.isCreate && !(s.renameFrom && s.renameTo) &&
      s.newPath !== null
    ) {
      throw malformed("udiff", {
        line: s.inputLine,
        what: `the diff of "${s.newPath ?? s.oldPath ?? "?"}" has no @@ hunk`,
        hint:
          "Give every changed file at least one @@ hunk with context (' '), removed ('-') and added ('+') lines",
      });
    }
    ops.push(sectionToOp(s));
  }
  return ops;
}
