/**
 * The `*** Begin Patch` / `*** End Patch` envelope (Add File, Delete File,
 * Update File, Move to, `@@` context headers, `*** End of File`), tolerant of
 * padded markers and a surrounding heredoc (`apply_patch <<'EOF'` … `EOF`).
 *
 * @module
 */
import { inputLines, malformed } from "./_input.ts";
import type { EditBlock, FileOp } from "./types.ts";

const MARKER =
  /^\s*\*{3}\s*(Begin Patch|End Patch|Add File|Delete File|Update File|Move to|End of File)\s*:?\s*(.*?)\s*$/;

/** True when `text` holds a `*** Begin Patch` line. */
export function looksLikeApplyPatch(text: string): boolean {
  return /^\s*\*{3}\s*Begin Patch\s*$/m.test(text);
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
  const lines = inputLines(text);
  const begin = lines.findIndex((l) => marker(l)?.kind === "Begin Patch");
  if (begin === -1) {
    throw malformed("apply-patch", {
      line: 1,
      what: "no *** Begin Patch line",
      hint: "Wrap the patch in *** Begin Patch and *** End Patch lines",
    });
  }
  const cur: Cursor = { lines, i: begin + 1 };
  const ops: FileOp[] = [];
  while (cur.i < lines.length) {
    const line = lines[cur.i]!;
    const m = marker(line);
    if (m?.kind === "End Patch") return ops;
    if (m !== null) ops.push(fileOp(cur, m));
    else if (line.trim() === "") cur.i++;
    else {
      throw malformed("apply-patch", {
        line: cur.i + 1,
        what: `expected a *** Add File, *** Delete File or *** Update File line, found "${
          line.slice(0, 60)
        }"`,
        hint: "Start each file with *** Add File: <path>, *** Delete File: <path> or *** Update File: <path>",
      });
    }
  }
  throw malformed("apply-patch", {
    line: lines.length,
    what: "no *** End Patch line",
    hint: "End the patch with a line *** End Patch",
  });
}

/** The patch's lines and the index of the next one to read. */
interface Cursor {
  lines: string[];
  i: number;
}

/** The operation a file marker (at the cursor) starts; the cursor ends past its lines. */
function fileOp(cur: Cursor, m: Marker): FileOp {
  const opLine = cur.i + 1;
  if (m.arg === "" && m.kind !== "End of File") {
    throw malformed("apply-patch", {
      line: opLine,
      what: `*** ${m.kind} names no file`,
      hint: `Write *** ${m.kind}: <path>`,
    });
  }
  if (m.kind === "Delete File") {
    cur.i++;
    return { kind: "delete", path: m.arg, inputLine: opLine };
  }
  if (m.kind === "Add File") return addedFile(cur, { path: m.arg, opLine });
  if (m.kind !== "Update File") {
    throw malformed("apply-patch", {
      line: opLine,
      what: `unexpected *** ${m.kind} line`,
      hint:
        "Use *** Move to only right after *** Update File, and *** End of File only at the end of a chunk",
    });
  }
  return updatedFile(cur, { path: m.arg, opLine });
}

/** `*** Add File`: every line up to the next marker is a `+` line of the new file (blank lines are skipped). */
function addedFile(cur: Cursor, at: { path: string; opLine: number }): FileOp {
  const content: string[] = [];
  for (cur.i++; cur.i < cur.lines.length && marker(cur.lines[cur.i]!) === null; cur.i++) {
    const l = cur.lines[cur.i]!;
    if (l.startsWith("+")) content.push(l.slice(1));
    else if (l.trim() !== "") {
      throw malformed("apply-patch", {
        line: cur.i + 1,
        what: `a line of the added file "${at.path}" does not start with "+"`,
        hint: "Prefix every line of an added file with +",
      });
    }
  }
  return { kind: "create", path: at.path, lines: content, noEol: false, inputLine: at.opLine };
}

/** `*** Update File`, an optional `*** Move to`, then its chunks (a move alone needs none). */
function updatedFile(cur: Cursor, at: { path: string; opLine: number }): FileOp {
  const op: FileOp & { kind: "edit" } = { kind: "edit", path: at.path, blocks: [], inputLine: at.opLine };
  cur.i++;
  const move = cur.i < cur.lines.length ? marker(cur.lines[cur.i]!) : null;
  if (move?.kind === "Move to") {
    if (move.arg === "") {
      throw malformed("apply-patch", {
        line: cur.i + 1,
        what: "*** Move to names no file",
        hint: "Write *** Move to: <path>",
      });
    }
    op.moveTo = move.arg;
    cur.i++;
  }
  op.blocks.push(...chunks(cur, at.path));
  if (op.blocks.length === 0 && op.moveTo === undefined) {
    throw malformed("apply-patch", {
      line: at.opLine,
      what: `*** Update File: ${op.path} has no change lines`,
      hint: "Follow *** Update File with @@ chunks of context, - and + lines",
    });
  }
  return op;
}

/** The chunk being read: its block so far, the `@@` anchors for the next block, blank lines not placed yet. */
interface ChunkState {
  block: EditBlock | null;
  anchors: string[];
  blanks: number;
}

/**
 * The blocks of an update, up to the next file marker: `@@` lines end a block (and stack anchors), `*** End of
 * File` marks the block's end at the file's, blank lines join a block only when a change line follows them.
 */
function chunks(cur: Cursor, path: string): EditBlock[] {
  const out: EditBlock[] = [];
  const state: ChunkState = { block: null, anchors: [], blanks: 0 };
  const flush = () => {
    state.blanks = 0;
    const block = state.block;
    if (block && (block.search.length > 0 || block.replace.length > 0)) out.push(block);
    state.block = null;
  };
  for (; cur.i < cur.lines.length; cur.i++) {
    const l = cur.lines[cur.i]!;
    const mm = marker(l);
    if (mm?.kind === "End of File") {
      if (state.block) state.block.atEnd = true;
    } else if (mm) break;
    else if (l.startsWith("@@")) {
      flush();
      const ctx = l.slice(2).trim();
      state.anchors = ctx === "" ? [] : [...state.anchors, ctx];
    } else if (l === "") state.blanks++;
    else changeLine(state, { line: l, inputLine: cur.i + 1, path });
  }
  flush();
  return out;
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
