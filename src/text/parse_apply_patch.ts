/**
 * The `*** Begin Patch` / `*** End Patch` envelope (Add File, Delete File,
 * Update File, Move to, `@@` context headers, `*** End of File`), tolerant of
 * padded markers and a surrounding heredoc (`apply_patch <<'EOF'` … `EOF`).
 *
 * @module
 */
import { inputLines, malformed } from "./_input.ts";
import type { EditBlock, EditSink, FileOp, LineReader } from "./types.ts";

const MARKER =
  /^\s*\*{3}\s*(Begin Patch|End Patch|Add File|Delete File|Update File|Move to|End of File)\s*:?\s*(.*?)\s*$/;

const BEGIN = /^\s*\*{3}\s*Begin Patch\s*$/;
const BEGIN_IN_TEXT = new RegExp(BEGIN.source, "m");

/** True when `text` holds a `*** Begin Patch` line. */
export function looksLikeApplyPatch(text: string): boolean {
  return BEGIN_IN_TEXT.test(text);
}

/** True when one line of edit input is `*** Begin Patch` (it decides the format). */
export function isBeginPatch(line: string): boolean {
  return BEGIN.test(line);
}

interface Marker {
  kind: string;
  arg: string;
}

function marker(line: string): Marker | null {
  const m = MARKER.exec(line);
  return m ? { kind: m[1]!, arg: m[2]! } : null;
}

/**
 * Parse a `*** Begin Patch` envelope into file operations.
 *
 * @param text The patch (a heredoc or prose around it is ignored).
 * @returns The operations, in input order.
 * @throws RecoverableError `invalid_args` naming the malformed input line.
 *
 * @example Update one file
 * ```ts
 * import { parseApplyPatch } from "@graver/core/text";
 * import assert from "node:assert/strict";
 *
 * const ops = parseApplyPatch("*** Begin Patch\n*** Update File: a.py\n@@ def f():\n-    return 1\n+    return 2\n*** End Patch\n");
 * assert.equal(ops[0]!.kind, "edit");
 * ```
 */
export function parseApplyPatch(text: string): FileOp[] {
  const ops: FileOp[] = [];
  const reader = new ApplyPatchReader({ op: (op) => ops.push(op) });
  for (const line of inputLines(text)) {
    reader.line(line);
    if (reader.done) return ops;
  }
  reader.finish();
  return ops;
}

/** Where the reader is in the envelope. */
type Place = "before" | "top" | "add" | "update-head" | "chunks" | "done";

/**
 * A `*** Begin Patch` envelope read one line at a time: each file reported at its marker, each chunk of an
 * update as a block when it closes (at the next `@@` line or marker), each operation when the next marker
 * starts; nothing after `*** End Patch` is read.
 *
 * @example A chunk reported at the next @@ line
 * ```ts
 * import { ApplyPatchReader } from "./parse_apply_patch.ts";
 * import type { EditBlock, EditSink, FileOp, LineReader } from "./types.ts";
 * import assert from "node:assert/strict";
 *
 * const blocks: EditBlock[] = [];
 * const reader = new ApplyPatchReader({ op: (_op: FileOp) => {}, block: (b) => blocks.push(b) });
 * for (const line of ["*** Begin Patch", "*** Update File: a.py", "-a", "+b"]) reader.line(line);
 * assert.equal(blocks.length, 0);
 * reader.line("@@ def f():");
 * assert.deepEqual(blocks[0]!.replace, ["b"]);
 * ```
 */
export class ApplyPatchReader implements LineReader {
  #sink: EditSink;
  #n = 0;
  #place: Place = "before";
  /** The operation being read (an added file's lines, or an update's blocks). */
  #op: FileOp | null = null;
  #chunk: ChunkState = { block: null, anchors: [], blanks: 0 };

  /** @param sink Where each file, block and operation is reported. */
  constructor(sink: EditSink) {
    this.#sink = sink;
  }

  /** Whether `*** End Patch` was read (later lines are ignored). */
  get done(): boolean {
    return this.#place === "done";
  }

  /** Read the next line. */
  line(line: string): void {
    this.#n++;
    const m = marker(line);
    if (this.#place === "before") {
      if (m?.kind === "Begin Patch") this.#place = "top";
    } else if (this.#place === "top") this.#top(line, m);
    else if (this.#place === "add") this.#addLine(line, m);
    else if (this.#place === "update-head") this.#updateHead(line, m);
    else if (this.#place === "chunks") this.#chunkLine(line, m);
  }

  /** The input ended: the operation being read is closed; a missing envelope line is malformed. */
  finish(): void {
    if (this.#place === "before") {
      throw malformed("apply-patch", {
        line: 1,
        what: "no *** Begin Patch line",
        hint: "Wrap the patch in *** Begin Patch and *** End Patch lines",
      });
    }
    if (this.#place === "done") return;
    this.#closeOp();
    throw malformed("apply-patch", {
      line: this.#n,
      what: "no *** End Patch line",
      hint: "End the patch with a line *** End Patch",
    });
  }

  /** Between files: a file marker starts one, `*** End Patch` ends the envelope. */
  #top(line: string, m: Marker | null): void {
    if (m?.kind === "End Patch") this.#place = "done";
    else if (m !== null) this.#startOp(m);
    else if (line.trim() !== "") {
      throw malformed("apply-patch", {
        line: this.#n,
        what: `expected a *** Add File, *** Delete File or *** Update File line, found "${
          line.slice(0, 60)
        }"`,
        hint: "Start each file with *** Add File: <path>, *** Delete File: <path> or *** Update File: <path>",
      });
    }
  }

  /** The operation a file marker starts. */
  #startOp(m: Marker): void {
    const inputLine = this.#n;
    if (m.arg === "" && m.kind !== "End of File") {
      throw malformed("apply-patch", {
        line: inputLine,
        what: `*** ${m.kind} names no file`,
        hint: `Write *** ${m.kind}: <path>`,
      });
    }
    if (m.kind === "Delete File") {
      this.#sink.file?.({ path: m.arg, op: "delete", inputLine });
      this.#sink.op({ kind: "delete", path: m.arg, inputLine });
      return;
    }
    if (m.kind === "Add File") {
      this.#op = { kind: "create", path: m.arg, lines: [], noEol: false, inputLine };
      this.#place = "add";
      this.#sink.file?.({ path: m.arg, op: "create", inputLine });
      return;
    }
    if (m.kind !== "Update File") {
      throw malformed("apply-patch", {
        line: inputLine,
        what: `unexpected *** ${m.kind} line`,
        hint:
          "Use *** Move to only right after *** Update File, and *** End of File only at the end of a chunk",
      });
    }
    this.#op = { kind: "edit", path: m.arg, blocks: [], inputLine };
    this.#chunk = { block: null, anchors: [], blanks: 0 };
    this.#place = "update-head";
    this.#sink.file?.({ path: m.arg, op: "edit", inputLine });
  }

  /** `*** Add File`: every line up to the next marker is a `+` line of the new file (blank lines are skipped). */
  #addLine(line: string, m: Marker | null): void {
    if (m !== null) {
      this.#closeOp();
      return this.#top(line, m);
    }
    const op = this.#op as FileOp & { kind: "create" };
    if (line.startsWith("+")) op.lines.push(line.slice(1));
    else if (line.trim() !== "") {
      throw malformed("apply-patch", {
        line: this.#n,
        what: `a line of the added file "${op.path}" does not start with "+"`,
        hint: "Prefix every line of an added file with +",
      });
    }
  }

  /** The line after `*** Update File`: an optional `*** Move to`, else the first line of its chunks. */
  #updateHead(line: string, m: Marker | null): void {
    this.#place = "chunks";
    if (m?.kind !== "Move to") return this.#chunkLine(line, m);
    if (m.arg === "") {
      throw malformed("apply-patch", {
        line: this.#n,
        what: "*** Move to names no file",
        hint: "Write *** Move to: <path>",
      });
    }
    (this.#op as FileOp & { kind: "edit" }).moveTo = m.arg;
  }

  /**
   * A line of an update's chunks: `@@` lines end a block (and stack anchors), `*** End of File` marks the
   * block's end at the file's, another marker ends the update, blank lines join a block only when a change
   * line follows them.
   */
  #chunkLine(line: string, m: Marker | null): void {
    const state = this.#chunk;
    if (m?.kind === "End of File") {
      if (state.block) state.block.atEnd = true;
    } else if (m) {
      this.#closeOp();
      this.#top(line, m);
    } else if (line.startsWith("@@")) {
      this.#flush();
      const ctx = line.slice(2).trim();
      state.anchors = ctx === "" ? [] : [...state.anchors, ctx];
    } else if (line === "") state.blanks++;
    else changeLine(state, { line, inputLine: this.#n, path: this.#op!.path });
  }

  /** The block being read closes. */
  #flush(): void {
    const state = this.#chunk;
    state.blanks = 0;
    const block = state.block;
    state.block = null;
    if (!block || (block.search.length === 0 && block.replace.length === 0)) return;
    (this.#op as FileOp & { kind: "edit" }).blocks.push(block);
    this.#sink.block?.(block);
  }

  /** The operation being read is complete: reported (an update without changes is malformed). */
  #closeOp(): void {
    const op = this.#op;
    if (op?.kind === "edit") this.#flush();
    this.#op = null;
    this.#place = "top";
    if (op === null) return;
    if (op.kind === "edit") {
      if (op.blocks.length === 0 && op.moveTo === undefined) {
        throw malformed("apply-patch", {
          line: op.inputLine,
          what: `*** Update File: ${op.path} has no change lines`,
          hint: "Follow *** Update File with @@ chunks of context, - and + lines",
        });
      }
    }
    this.#sink.op(op);
  }
}

/** The chunk being read: its block so far, the `@@` anchors for the next block, blank lines not placed yet. */
interface ChunkState {
  block: EditBlock | null;
  anchors: string[];
  blanks: number;
}

/** One ` `, `-` or `+` line of a chunk, after the blank lines before it (context on both sides). */
function changeLine(state: ChunkState, at: { line: string; inputLine: number; path: string }): void {
  const anchors = state.anchors;
  const block = state.block ??= {
    search: [],
    replace: [],
    inputLine: at.inputLine,
    ...(anchors.length > 0 ? { anchors } : {}),
  };
  state.anchors = [];
  for (; state.blanks > 0; state.blanks--) {
    block.search.push("");
    block.replace.push("");
  }
  const op = at.line[0]!;
  const body = at.line.slice(1);
  if (op === " ") {
    block.search.push(body);
    block.replace.push(body);
  } else if (op === "-") block.search.push(body);
  else if (op === "+") block.replace.push(body);
  else {
    throw malformed("apply-patch", {
      line: at.inputLine,
      what: `a line of the update to "${at.path}" does not start with " ", "-" or "+"`,
      hint: "Prefix context lines with a space, removed lines with - and added lines with +",
    });
  }
}
