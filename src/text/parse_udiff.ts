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
import type { EditBlock, EditSink, FileOp, LineReader } from "./types.ts";

const NUMBERED_HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** True when `text` looks like a unified diff. */
export function looksLikeUnifiedDiff(text: string): boolean {
  return /^@@/m.test(text) || (/^--- \S/m.test(text) && /^\+\+\+ \S/m.test(text)) ||
    /^diff --git /m.test(text);
}

/**
 * Whether one line of edit input decides the unified-diff format, as {@linkcode looksLikeUnifiedDiff} does on
 * a whole text: a `@@` or `diff --git` line, or a `+++ ` line once a `--- ` line was read.
 *
 * @param line The line.
 * @param seen What earlier lines showed (`minus`: a `--- ` line); updated.
 * @returns True when the line decides it.
 */
export function decidesUnifiedDiff(line: string, seen: { minus: boolean }): boolean {
  if (line.startsWith("@@") || line.startsWith("diff --git ")) return true;
  if (/^--- \S/.test(line)) seen.minus = true;
  return seen.minus && /^\+\+\+ \S/.test(line);
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
  const op = sectionHead(section);
  if (op.kind === "create") {
    const blocks = section.hunks.map(hunkToBlock);
    op.lines = blocks.flatMap((b) => b.replace);
    op.noEol = blocks.some((b) => b.newNoEol === true);
  }
  if (op.kind === "edit") op.blocks = section.hunks.map(hunkToBlock);
  return op;
}

/** What a section does, from its headers alone (an edit's blocks and a new file's lines still empty). */
function sectionHead(section: Section): FileOp {
  const oldPath = section.renameFrom ?? section.oldPath;
  const newPath = section.renameTo ?? section.newPath;
  const line = section.inputLine;
  if (section.isDelete || (newPath === null && oldPath)) {
    return { kind: "delete", path: oldPath!, inputLine: line };
  }
  if (section.isCreate || (oldPath === null && newPath)) {
    return { kind: "create", path: newPath!, lines: [], noEol: false, inputLine: line };
  }
  const path = oldPath ?? newPath;
  if (!path) {
    throw malformed("udiff", {
      line,
      what: "the diff names no file",
      hint: "Start each file's diff with --- a/<path> and +++ b/<path> lines",
    });
  }
  const op: FileOp = { kind: "edit", path, blocks: [], inputLine: line };
  if (newPath && newPath !== path) op.moveTo = newPath;
  return op;
}

/** A section that changes a file must have a hunk (a delete, a new file or a bare rename need none). */
function checkHunks(s: Section): void {
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
}

/** The error of a diff in which no section was found. */
function noDiff(): Error {
  return malformed("udiff", {
    line: 1,
    what: "no file header or @@ hunk found",
    hint: "Write --- a/<path>, +++ b/<path>, then @@ hunks whose lines start with ' ', '-' or '+'",
  });
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

/** The tolerant parser: bare `@@`, wrong counts, missing leading spaces on blank context lines. */
function tolerant(lines: string[]): Section[] {
  const sections: Section[] = [];
  const reader = new TolerantDiffReader({ section: (s) => sections.push(s) });
  for (const line of lines) reader.line(line);
  reader.finish();
  return sections;
}

/** What the tolerant reader reports: a section's first hunk opening, a hunk closing, a section closing. */
interface DiffSink {
  /** The section's headers are read: its first `@@` line starts (its hunks follow). */
  headers?(section: Section): void;
  /** A numbered hunk has the lines its header counts (it closes at the next line that is no diff line). */
  counted?(hunk: Hunk): void;
  /** A hunk closed (already added to its section). */
  hunk?(section: Section, hunk: Hunk): void;
  /** A section is complete (the next one starts, or the input ends). */
  section(section: Section): void;
}

/**
 * The tolerant unified-diff rules, one line at a time: a section per `diff --git` or `---`/`+++` pair, a hunk
 * per `@@` line, ending at the next header or at a line that is no diff line (trailing blank lines dropped). A
 * `--- ` line is held until the next line tells whether a `+++ ` line pairs with it.
 */
class TolerantDiffReader implements LineReader {
  #sink: DiffSink;
  #n = 0;
  #section: Section | null = null;
  #hunk: Hunk | null = null;
  /** The lines a numbered hunk still lacks on each side (null: no header counts, or reached). */
  #counts: { old: number; new: number } | null = null;
  /** The section whose headers were reported. */
  #announced: Section | null = null;
  /** A `--- ` line waiting for the next line, and its number. */
  #held: { line: string; n: number } | null = null;

  constructor(sink: DiffSink) {
    this.#sink = sink;
  }

  line(line: string): void {
    this.#n++;
    const held = this.#held;
    this.#held = null;
    if (held && line.startsWith("+++ ")) return this.#fileHeader(held, line);
    if (held) this.#read(held.line, held.n);
    if (line.startsWith("--- ")) this.#held = { line, n: this.#n };
    else this.#read(line, this.#n);
  }

  finish(): void {
    const held = this.#held;
    this.#held = null;
    if (held) this.#read(held.line, held.n);
    this.#closeHunk();
    if (this.#section) this.#sink.section(this.#section);
    this.#section = null;
  }

  #closeHunk(): void {
    const hunk = this.#hunk;
    this.#hunk = null;
    if (!hunk) return;
    while (hunk.lines.length > 0 && hunk.lines[hunk.lines.length - 1] === "") hunk.lines.pop();
    if (hunk.lines.length === 0) return;
    this.#section!.hunks.push(hunk);
    this.#sink.hunk?.(this.#section!, hunk);
  }

  #open(n: number): Section {
    this.#closeHunk();
    if (this.#section) this.#sink.section(this.#section);
    const section: Section = {
      oldPath: undefined,
      newPath: undefined,
      isCreate: false,
      isDelete: false,
      hunks: [],
      inputLine: n,
    };
    this.#section = section;
    return section;
  }

  /** A `---`/`+++` pair: the paths of a section (a fresh one, unless only git headers were read). */
  #fileHeader(held: { line: string; n: number }, plus: string): void {
    const open = this.#section;
    const s = open !== null && open.hunks.length === 0 && this.#hunk === null ? open : this.#open(held.n);
    this.#closeHunk();
    s.oldPath = diffPath(held.line.slice(4), "a/");
    s.newPath = diffPath(plus.slice(4), "b/");
  }

  #read(line: string, n: number): void {
    if (line.startsWith("diff --git ")) return this.#gitHeader(line, n);
    if (line.startsWith("@@")) return this.#hunkHeader(line, n);
    if (this.#hunk !== null && (line === "" || " +-\\".includes(line[0]!))) {
      this.#hunk.lines.push(line);
      this.#count(line === "" ? " " : line[0]!);
      return;
    }
    if (this.#section !== null && this.#hunk === null) return metaLine(this.#section, line);
    this.#closeHunk();
  }

  #gitHeader(line: string, n: number): void {
    const s = this.#open(n);
    const rest = line.slice("diff --git ".length);
    const mid = rest.indexOf(" b/");
    if (rest.startsWith("a/") && mid !== -1) {
      s.oldPath = diffPath(rest.slice(0, mid), "a/");
      s.newPath = diffPath(rest.slice(mid + 1), "b/");
    }
  }

  #hunkHeader(line: string, n: number): void {
    const s = this.#section ?? this.#open(n);
    this.#closeHunk();
    if (this.#announced !== s) this.#sink.headers?.(s);
    this.#announced = s;
    const m = NUMBERED_HUNK.exec(line);
    const hunk: Hunk = { lines: [], inputLine: n };
    this.#counts = null;
    if (m) {
      const oldLines = m[2] === undefined ? 1 : Number(m[2]);
      hunk.oldStart = oldLines === 0 ? Number(m[1]) + 1 : Number(m[1]);
      this.#counts = { old: oldLines, new: m[4] === undefined ? 1 : Number(m[4]) };
    }
    this.#hunk = hunk;
  }

  /** One line of a numbered hunk counted: once both sides have the lines its header says, the hunk is complete. */
  #count(op: string): void {
    const counts = this.#counts;
    if (counts === null || op === "\\") return;
    if (op !== "+") counts.old--;
    if (op !== "-") counts.new--;
    if (counts.old !== 0 || counts.new !== 0) return;
    this.#counts = null;
    this.#sink.counted?.(this.#hunk!);
  }
}

/** A header line between a section's start and its first hunk (rename, mode lines; others ignored). */
function metaLine(s: Section, line: string): void {
  if (line.startsWith("rename from ")) s.renameFrom = line.slice(12).trim();
  else if (line.startsWith("rename to ")) s.renameTo = line.slice(10).trim();
  else if (line.startsWith("new file mode")) s.isCreate = true;
  else if (line.startsWith("deleted file mode")) s.isDelete = true;
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
  if (sections.length === 0) throw noDiff();
  return sections.map((s) => {
    checkHunks(s);
    return sectionToOp(s);
  });
}

/**
 * A unified diff read one line at a time by the tolerant rules: each file reported when its first hunk starts
 * (or, without hunks, when its section ends), each hunk of an edited file as a block when it closes (at the
 * next header, or the first line that is no diff line), each operation when its section ends.
 *
 * @example A hunk reported when the next file starts
 * ```ts
 * import { UnifiedDiffReader } from "./parse_udiff.ts";
 * import type { EditBlock, FileOp } from "./types.ts";
 * import assert from "node:assert/strict";
 *
 * const blocks: EditBlock[] = [];
 * const ops: FileOp[] = [];
 * const reader = new UnifiedDiffReader({ op: (op) => ops.push(op), block: (b) => blocks.push(b) });
 * for (const line of ["--- a/x.txt", "+++ b/x.txt", "@@ -1 +1 @@", "-a", "+b"]) reader.line(line);
 * assert.equal(blocks.length, 0);
 * reader.line("--- a/y.txt");
 * reader.line("+++ b/y.txt");
 * assert.deepEqual(blocks[0]!.search, ["a"]);
 * ```
 */
export class UnifiedDiffReader implements LineReader {
  #sink: EditSink;
  #reader: TolerantDiffReader;
  #op: FileOp | null = null;
  #sections = 0;

  /** @param sink Where each file, block and operation is reported. */
  constructor(sink: EditSink) {
    this.#sink = sink;
    this.#reader = new TolerantDiffReader({
      headers: (s) => this.#announce(s),
      hunk: (_s, hunk) => {
        if (this.#op?.kind !== "edit") return;
        const block = hunkToBlock(hunk);
        this.#op.blocks.push(block);
        this.#sink.block?.(block);
      },
      counted: (hunk) => {
        if (this.#op?.kind === "edit") this.#sink.search?.(hunkToBlock(hunk));
      },
      section: (s) => this.#close(s),
    });
  }

  /** Read the next line. */
  line(text: string): void {
    this.#reader.line(text);
  }

  /** The input ended: the last section is reported; no section at all is malformed. */
  finish(): void {
    this.#reader.finish();
    if (this.#sections === 0) throw noDiff();
  }

  #announce(s: Section): void {
    const op = sectionHead(s);
    this.#op = op;
    this.#sink.file?.({ path: op.path, op: op.kind, inputLine: op.inputLine });
  }

  #close(s: Section): void {
    this.#sections++;
    checkHunks(s);
    if (this.#op === null) this.#announce(s);
    const op = this.#op!;
    this.#op = null;
    this.#sink.op(op.kind === "edit" ? op : sectionToOp(s));
  }
}
