/**
 * The operations on whole files: a `delete` (the file must exist), a `create` (it must not, unless it already
 * holds that content), and an edit operation's file — opened (read, missing, or unreadable), created by its
 * blocks when missing, then staged at its path or the one it moves to.
 *
 * @module
 */
import { isRecoverable } from "../errors.ts";
import { spliceBytes } from "../fs/text.ts";
import { TextDoc } from "./_doc.ts";
import { type ErrorShape, errorShape } from "./_explain_failure.ts";
import { blockDiff, blockReport, current, type EditedFile, fail, type Run, succeed } from "./_edit_record.ts";
import type { BlockReport, EditBlock, FileOp } from "./types.ts";

/** The file an open edit operation works on: read, missing (its blocks wait), or unreadable. */
export type OpenFile =
  | { mode: "read"; file: EditedFile }
  | { mode: "missing"; held: EditBlock[] }
  | { mode: "failed"; error: ErrorShape };

/** A `delete` operation: the file must exist. */
export async function deleteFile(run: Run, op: FileOp & { kind: "delete" }, rel: string): Promise<void> {
  const report: BlockReport = { block: ++run.blockNo, path: rel, input_line: op.inputLine, status: "failed" };
  if (!(await run.stage.exists(rel))) return fail(run, report, errorShape(await run.stage.notFound(rel)));
  await run.stage.remove(rel);
  succeed(run, report, { tier: "delete", confidence: "high" });
  run.result.files.push({ path: rel, action: "deleted" });
}

/** A `create` operation: the file must not exist (the same content there already is `already_applied`). */
export async function createFile(run: Run, op: FileOp & { kind: "create" }, rel: string): Promise<void> {
  const report: BlockReport = { block: ++run.blockNo, path: rel, input_line: op.inputLine, status: "failed" };
  const content = op.lines.length === 0 ? "" : op.lines.join("\n") + (op.noEol ? "" : "\n");
  const existing = await run.stage.read(rel);
  if (existing) {
    const same = new TextDecoder().decode(existing.bytes).replace(/\r\n/g, "\n") === content;
    return fail(
      run,
      report,
      same
        ? {
          code: "already_applied",
          message: `Cannot create "${rel}": it already exists with this content`,
          hint: "Drop this file from the edits: it is already there",
          details: { path: rel },
        }
        : {
          code: "already_exists",
          message: `Cannot create "${rel}": the file already exists`,
          hint: "Edit it with SEARCH/REPLACE blocks or a diff hunk instead, or delete it first",
          details: { path: rel, version: existing.version },
        },
    );
  }
  await run.stage.writeText(rel, { text: content, bom: false });
  succeed(run, report, { tier: "create", confidence: "high" });
  report.new_lines = { start: 1, end: op.lines.length };
  const added = {
    start: 0,
    end: 0,
    replacement: op.lines,
    tier: "create",
    confidence: "high",
    similarity: 1,
  } as const;
  run.diffs?.set(report.block, blockDiff(new TextDoc(""), { match: added, path: rel }));
  run.result.files.push({ path: rel, action: "created" });
}

/** A missing file that an operation's blocks create. */
export function newFile(rel: string): EditedFile {
  return {
    rel,
    bom: false,
    since: [],
    shifts: [],
    before: "",
    seen: new TextDoc(""),
    log: null,
    bytes: null,
    created: true,
  };
}

/** The file an edit operation works on: read, missing, or unreadable (each block then fails with why). */
export async function openEdited(run: Run, rel: string): Promise<OpenFile> {
  if (!(await run.stage.exists(rel))) return { mode: "missing", held: [] };
  try {
    const read = await run.stage.readText(rel);
    const seen = new TextDoc(read.text);
    const file: EditedFile = {
      rel,
      bom: read.bom,
      since: [],
      shifts: [],
      before: read.text,
      seen,
      log: [],
      bytes: read.bytes,
      created: false,
    };
    return { mode: "read", file };
  } catch (err) {
    if (!isRecoverable(err)) throw err;
    return { mode: "failed", error: errorShape(err) };
  }
}

/** Where the edited file goes (its own path unless moved), or null when the destination exists (reported). */
export async function moveTarget(
  run: Run,
  op: FileOp & { kind: "edit" },
  rel: string,
): Promise<string | null> {
  if (op.moveTo === undefined) return rel;
  const to = await run.stage.resolve(op.moveTo);
  if (to === rel) return rel;
  if (!(await run.stage.exists(to))) return to;
  const report = blockReport(to, ++run.blockNo, { search: [], replace: [], inputLine: op.inputLine });
  fail(run, report, {
    code: "already_exists",
    message: `Cannot move "${rel}" to "${to}": the destination exists`,
    hint: "Pick another destination or delete it first",
    details: { from: rel, to },
  });
  return null;
}

/** Stage the edited file at `target` when it changed, was created or moves; record what was done. */
export async function stageEdited(run: Run, file: EditedFile, target: string): Promise<void> {
  const { rel, log, bytes, bom } = file;
  const before = file.before;
  // Spliced: the file changed when a splice changed its text; its new bytes come from the old ones.
  const changed = log
    ? log.some((s) => s.insert !== before.slice(s.from, s.to))
    : current(file).text !== before;
  if (!changed && !file.created && target === rel) return;
  if (log && bytes) await run.stage.write(target, spliceBytes({ text: before, bom, bytes }, log));
  else await run.stage.writeText(target, { text: current(file).text, bom });
  if (target !== rel) {
    await run.stage.remove(rel);
    run.result.renames.set(target, rel);
    run.result.files.push({ path: target, action: "moved", from: rel });
  } else {
    run.result.files.push({ path: rel, action: file.created ? "created" : "edited" });
  }
}
