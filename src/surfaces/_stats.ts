/**
 * What `graver stats` counts, file by file: the project's one walk (`project/project_view.ts`, with its ignore and link
 * rules) picks the files, capped at a number of files (directories are entered, never counted), and each
 * file is read once, read-only, through a throw-away `Stage` (the confinement and special-file rules of every
 * read) and classified as `read_file` classifies it: binary, not UTF-8, or text with a language and a line
 * count. No version hash, no parse, no per-file dispatch: on 100,000 files those were most of a minute.
 * Reads run a few at a time, so that the file system's latency overlaps.
 *
 * @module
 */
import { errnoError, isRecoverable } from "../errors.ts";
import { forEachLine } from "../fs/lines.ts";
import { Stage } from "../fs/stage.ts";
import { skippedCounts, type WalkSkipped } from "../fs/walk.ts";
import { openProject } from "../project/project_view.ts";
import { HEAD_CHARS } from "../syntax/grammars.ts";
import type { Workspace } from "../workspace.ts";

/** What one file is, as `graver stats` counts it. */
export type FileFacts =
  | { kind: "text"; language: string | null; lines: number }
  | { kind: "binary" }
  | { kind: "not_utf8" }
  | { kind: "unreadable"; code: string };

/** Files read at once. */
const READS_IN_FLIGHT = 16;

/** The files under `dir` that stats counts, in walk order, and the first one the cap left out. */
export interface StatsWalk {
  /** Real paths of the files counted (at most `maxFiles`). */
  files: string[];
  /** The first file the cap left out (its tree path), or undefined when every file was counted. */
  firstLeftOut?: string;
  /** Entries the ignore rules left out (their contents not looked at). */
  ignored: number;
  /** Entries the walk's link and special-file rules left out, and unreadable directories (null: none). */
  skipped: Partial<WalkSkipped> | null;
  /** The directories the walk could not read (the first 20). */
  unreadableDirs: string[];
}

/**
 * Walk `dir` for files only, counting at most `maxFiles` of them.
 *
 * @param ws The workspace.
 * @param options The directory (relative, "" for the root), whether ignored files count, the cap, and
 *   `found`, called with the count of files found so far as the walk finds each.
 * @returns The files and, when capped, the first file left out.
 */
export async function walkFiles(
  ws: Workspace,
  options: { dir: string; includeIgnored: boolean; maxFiles: number; found?: (count: number) => void },
): Promise<StatsWalk> {
  let found = 0;
  const walked = await openProject({ stage: new Stage(ws.fs, ws.sandbox) }).list({
    under: options.dir,
    includeIgnored: options.includeIgnored,
    accept: (e) => {
      if (e.kind !== "file") return false;
      options.found?.(++found);
      return true;
    },
    limit: options.maxFiles + 1, // one more: the first file left out, to name it
  });
  const files = walked.entries.map((e) => e.real);
  const left = {
    ignored: walked.ignored,
    skipped: skippedCounts(walked.skipped),
    unreadableDirs: walked.unreadable,
  };
  if (files.length <= options.maxFiles) return { files, ...left };
  return {
    files: files.slice(0, options.maxFiles),
    firstLeftOut: walked.entries[options.maxFiles]!.rel,
    ...left,
  };
}

/**
 * The entries directly under `dir` (directories ending with "/") from the one holding `firstLeftOut` on:
 * what a capped count left out, in whole or in part.
 *
 * @param ws The workspace.
 * @param options The directory counted, whether ignored files count, and the first file left out.
 * @returns Those entries, in walk order.
 */
export async function leftOutAt(
  ws: Workspace,
  options: { dir: string; includeIgnored: boolean; firstLeftOut: string },
): Promise<string[]> {
  const prefix = options.dir === "" ? "" : `${options.dir}/`;
  const inside = options.firstLeftOut.slice(prefix.length);
  const slash = inside.indexOf("/");
  const top = prefix + (slash < 0 ? inside : inside.slice(0, slash));
  const level = await openProject({ stage: new Stage(ws.fs, ws.sandbox) }).list({
    under: options.dir,
    accept: () => true, // files and folders: what comes after the first file left out
    limit: Infinity,
    recursive: false,
    includeIgnored: options.includeIgnored,
  });
  const names = level.entries.map((e) => e.kind === "dir" ? `${e.rel}/` : e.rel);
  const at = names.findIndex((n) => n === top || n === `${top}/`);
  return at < 0 ? [slash < 0 ? top : `${top}/`] : names.slice(at);
}

/** How many lines a text has, as read_file counts them. */
function lineCount(text: string): number {
  return forEachLine(text, { start: 1, end: 0 }, () => {});
}

/**
 * Read one file (a real path from the walk) and say what it is.
 *
 * @param ws The workspace (its backend, root and grammars).
 * @param rel The file's real relative path.
 * @returns Its facts; never throws for a file the system refuses (that is `unreadable` with the code).
 */
export async function factsOf(ws: Workspace, rel: string): Promise<FileFacts> {
  try {
    // A fresh stage per file: nothing read is held once it is counted.
    const file = await new Stage(ws.fs, ws.sandbox).peekText(rel);
    if (file === null) return { kind: "unreadable", code: "not_found" };
    const language = ws.grammars?.languageOf(rel, file.text.slice(0, HEAD_CHARS)) ?? null;
    return { kind: "text", language, lines: lineCount(file.text) };
  } catch (thrown) {
    const err = isRecoverable(thrown) ? thrown : errnoError(thrown);
    if (err === null) throw thrown;
    if (err.code === "binary_file" && err.details?.["file_type"] === undefined) return { kind: "binary" };
    if (err.code === "encoding") return { kind: "not_utf8" };
    return { kind: "unreadable", code: err.code };
  }
}

/**
 * The facts of every file, in the order given, read {@linkcode READS_IN_FLIGHT} at a time.
 *
 * @param ws The workspace.
 * @param files Real relative paths.
 * @param done Called after each file is read, with how many are done.
 * @returns One entry per file, in the same order.
 */
export async function factsOfAll(
  ws: Workspace,
  files: readonly string[],
  done: (count: number) => void,
): Promise<FileFacts[]> {
  const out: FileFacts[] = new Array(files.length);
  let next = 0;
  let finished = 0;
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      out[i] = await factsOf(ws, files[i]!);
      done(++finished);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READS_IN_FLIGHT, files.length) }, worker));
  return out;
}
