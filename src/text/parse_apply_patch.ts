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
  let i = lines.findIndex((l) => marker(l)?.kind === "Begin Patch");
  if (i === -1) {
    throw malformed(
      "apply-patch",
      1,
      "no *** Begin Patch line",
      "Wrap the patch in *** Begin Patch and *** End Patch lines",
    );
  }
  const ops: FileOp[] = [];
  i++;
  let ended = false;
  while (i < lines.length) {
    const line = lines[i]!;
    const m = marker(line);
    if (m?.kind === "End Patch") {
      ended = true;
      break;
    }
    if (m === null) {
      if (line.trim() === "") {
        i++;
        continue;
      }
      throw malformed(
        "apply-patch",
        i + 1,
        `expected a *** Add File, *** Delete File or *** Update File line, found "${line.slice(0, 60)}"`,
        "Start each file with *** Add File: <path>, *** Delete File: <path> or *** Update File: <path>",
      );
    }
    const opLine = i + 1;
    if (m.arg === "" && m.kind !== "End of File") {
      throw malformed("apply-patch", opLine, `*** ${m.kind} names no file`, `Write *** ${m.kind}: <path>`);
    }
    if (m.kind === "Delete File") {
      ops.push({ kind: "delete", path: m.arg, inputLine: opLine });
      i++;
      continue;
    }
    if (m.kind === "Add File") {
      const content: string[] = [];
      i++;
      while (i < lines.length && marker(lines[i]!) === null) {
        const l = lines[i]!;
        if (l.startsWith("+")) content.push(l.slice(1));
        else if (l.trim() !== "") {
          throw malformed(
            "apply-patch",
            i + 1,
            `a line of the added file "${m.arg}" does not start with "+"`,
            "Prefix every line of an added file with +",
          );
        }
        i++;
      }
      ops.push({ kind: "create", path: m.arg, lines: content, noEol: false, inputLine: opLine });
      continue;
    }
    if (m.kind !== "Update File") {
      throw malformed(
        "apply-patch",
        opLine,
        `unexpected *** ${m.kind} line`,
        "Use *** Move to only right after *** Update File, and *** End of File only at the end of a chunk",
      );
    }
    const op: FileOp & { kind: "edit" } = { kind: "edit", path: m.arg, blocks: [], inputLine: opLine };
    i++;
    const move = i < lines.length ? marker(lines[i]!) : null;
    if (move?.kind === "Move to") {
      if (move.arg === "") {
        throw malformed("apply-patch", i + 1, "*** Move to names no file", "Write *** Move to: <path>");
      }
      op.moveTo = move.arg;
      i++;
    }
    let block: EditBlock | null = null;
    let anchors: string[] = [];
    let pendingBlank = 0;
    const flush = () => {
      pendingBlank = 0;
      if (block && (block.search.length > 0 || block.replace.length > 0)) op.blocks.push(block);
      block = null;
    };
    while (i < lines.length) {
      const l = lines[i]!;
      const mm = marker(l);
      if (mm?.kind === "End of File") {
        if (block) (block as EditBlock).atEnd = true;
        i++;
        continue;
      }
      if (mm) break;
      if (l.startsWith("@@")) {
        flush();
        const ctx = l.slice(2).trim();
        anchors = ctx === "" ? [] : [...anchors, ctx];
        i++;
        continue;
      }
      if (l === "") {
        pendingBlank++;
        i++;
        continue;
      }
      block ??= { search: [], replace: [], inputLine: i + 1, ...(anchors.length > 0 ? { anchors } : {}) };
      anchors = [];
      for (; pendingBlank > 0; pendingBlank--) {
        block.search.push("");
        block.replace.push("");
      }
      const op0 = l[0]!;
      const body = l.slice(1);
      if (op0 === " ") {
        block.search.push(body);
        block.replace.push(body);
      } else if (op0 === "-") block.search.push(body);
      else if (op0 === "+") block.replace.push(body);
      else {
        throw malformed(
          "apply-patch",
          i + 1,
          `a line of the update to "${op.path}" does not start with " ", "-" or "+"`,
          "Prefix context lines with a space, removed lines with - and added lines with +",
        );
      }
      i++;
    }
    flush();
    if (op.blocks.length === 0 && op.moveTo === undefined) {
      throw malformed(
        "apply-patch",
        opLine,
        `*** Update File: ${op.path} has no change lines`,
        "Follow *** Update File with @@ chunks of context, - and + lines",
      );
    }
    ops.push(op);
  }
  if (!ended) {
    throw malformed(
      "apply-patch",
      lines.length,
      "no *** End Patch line",
      "End the patch with a line *** End Patch",
    );
  }
  return ops;
}
