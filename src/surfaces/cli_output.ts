/**
 * Human output of the CLI: ANSI colour when the host says stdout is a
 * terminal (and `NO_COLOR` is unset), coloured diffs, a refusal as text, and
 * a progress line on stderr for project-wide work that takes more than a
 * moment (terminals only). With `--json`, none of this runs.
 *
 * @module
 */
import type { ToolResult } from "../tools/types.ts";
import type { CliHost } from "./cli.ts";

/** Text styles; each is the identity when colour is off. */
export interface Paint {
  /** Removed lines, errors. */
  red(text: string): string;
  /** Added lines. */
  green(text: string): string;
  /** Hunk headers, kinds. */
  cyan(text: string): string;
  /** Warnings. */
  yellow(text: string): string;
  /** Line numbers, paths' context, footers. */
  dim(text: string): string;
  /** Names, file headers. */
  bold(text: string): string;
}

function sgr(open: number, close: number): (text: string) => string {
  return (text) => text === "" ? text : `\x1b[${open}m${text}\x1b[${close}m`;
}

const COLOUR: Paint = {
  red: sgr(31, 39),
  green: sgr(32, 39),
  cyan: sgr(36, 39),
  yellow: sgr(33, 39),
  dim: sgr(2, 22),
  bold: sgr(1, 22),
};

const PLAIN: Paint = {
  red: (t) => t,
  green: (t) => t,
  cyan: (t) => t,
  yellow: (t) => t,
  dim: (t) => t,
  bold: (t) => t,
};

/**
 * The styles for the host's stdout: colour only when the host says so
 * (a terminal without `NO_COLOR`, decided by the adapter).
 *
 * @param host The runtime.
 * @returns ANSI styles, or identities.
 *
 * @example Plain when piped
 * ```ts
 * import { painter } from "./cli_output.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(painter({ color: false }).red("x"), "x");
 * assert.equal(painter({ color: true }).red("x"), "\x1b[31mx\x1b[39m");
 * ```
 */
export function painter(host: Pick<CliHost, "color">): Paint {
  return host.color ? COLOUR : PLAIN;
}

/**
 * A unified diff with its lines coloured: added green, removed red, hunk
 * headers cyan, file headers bold.
 *
 * @param diff A git-style unified diff.
 * @param paint The styles.
 * @returns The diff, the same text when colour is off.
 */
export function paintDiff(diff: string, paint: Paint): string {
  return diff.split("\n").map((line) => {
    if (line.startsWith("diff --git") || line.startsWith("+++ ") || line.startsWith("--- ")) {
      return paint.bold(line);
    }
    if (line.startsWith("@@")) return paint.cyan(line);
    if (line.startsWith("+")) return paint.green(line);
    if (line.startsWith("-")) return paint.red(line);
    return line;
  }).join("\n");
}

/**
 * A refused call as text: the code and message, the hint, the suggested call
 * and a did-you-mean diff when the error has one.
 *
 * @param result A failed result.
 * @param paint The styles.
 * @returns Lines ending in a newline.
 */
export function failureText(result: Extract<ToolResult, { ok: false }>, paint: Paint): string {
  const e = result.error;
  const out = [`${paint.red(`error ${e.code}`)}: ${e.message}`, `${paint.dim("hint:")} ${e.hint}`];
  if (e.suggested_call) {
    out.push(
      `${paint.dim("next:")} graver call ${e.suggested_call.tool} '${JSON.stringify(e.suggested_call.args)}'`,
    );
  }
  const dym = e.details?.["did_you_mean"] as { diff?: string } | undefined;
  if (dym?.diff) out.push(paintDiff(dym.diff, paint));
  return out.join("\n") + "\n";
}

/** Warnings and reminders of a success, as lines (empty when there are none). */
export function notesText(result: Extract<ToolResult, { ok: true }>, paint: Paint): string {
  const lines = [
    ...result.warnings.map((w) => `${paint.yellow("warning:")} ${w}`),
    ...result.reminders.map((r) => `${paint.dim(`reminder (${r.provider}):`)} ${r.text}`),
  ];
  return lines.length === 0 ? "" : lines.join("\n") + "\n";
}

/**
 * A search's warnings and reminders for `graver grep` and `graver sg`: as {@linkcode notesText}, the arguments
 * that lift the size limits named by their options there (`--max-filesize`, `--max-parse-size`).
 *
 * @param result The search's result.
 * @param paint How to colour.
 * @returns The lines (empty when there are none).
 */
export function searchNotesText(result: Extract<ToolResult, { ok: true }>, paint: Paint): string {
  return notesText(result, paint)
    .replaceAll("a larger max_file_bytes", "a larger --max-filesize")
    .replaceAll(
      "(the workspace option maxParseBytes)",
      "(8M unless graver sg is given a larger --max-parse-size)",
    );
}

/**
 * Why `graver grep` or `graver sg` printed fewer matches than there are (for stderr), or "" when it printed
 * them all: its page was full (`--max-results`), or the page's output reached the character budget first —
 * matches on very long lines (a minified file), each printed with its line, or the context of many matches.
 *
 * @param command "graver grep" or "graver sg".
 * @param result The search's result.
 * @param args The arguments it was called with (`max_results`, `max_chars`).
 * @returns The line, or "".
 */
export function stoppedText(
  command: string,
  result: Extract<ToolResult, { ok: true }>,
  args: Record<string, unknown>,
): string {
  const summary = result.data["summary"] as { truncated?: boolean; shortened?: string } | undefined;
  if (summary?.truncated !== true) return "";
  const astGrep = result.data["ast_grep"] as unknown[] | undefined;
  const cut = (summary.shortened !== undefined && summary.shortened !== "none") ||
    (astGrep !== undefined && astGrep.length < Number(args["max_results"]));
  if (!cut) {
    return `${command}: stopped at --max-results ${args["max_results"]}; narrow the search or raise it\n`;
  }
  const budget = Number(args["max_chars"]).toLocaleString("en");
  return `${command}: stopped where the output reached ${budget} characters (matches on very long lines, or ` +
    `much context around many matches); narrow the search to fewer files (-g GLOB, a PATH), ask for less ` +
    `context, or use a pattern that matches less\n`;
}

/** A progress line on stderr; see {@linkcode startProgress}. */
export interface Progress {
  /** Say where the work is (e.g. "120/560 files"); shown once the delay has passed. */
  update(status: string): void;
  /** Clear the line. */
  stop(): void;
}

/** How long project-wide work runs before its progress line appears (ms), unless the host says otherwise. */
export const PROGRESS_DELAY_MS = 400;

/**
 * Start a progress line for project-wide work: on stderr, only when the host
 * says stderr is a terminal, and only once the work has run for
 * `host.progressDelayMs` (default {@linkcode PROGRESS_DELAY_MS}); it shows the
 * elapsed time, is redrawn in place and cleared on `stop`.
 *
 * @param host The runtime.
 * @param label What runs, e.g. "graver find: searching".
 * @returns The handle; a no-op when stderr is not a terminal.
 */
export function startProgress(host: CliHost, label: string): Progress {
  if (!host.progress) return { update() {}, stop() {} };
  const started = performance.now();
  const delay = host.progressDelayMs ?? PROGRESS_DELAY_MS;
  let status = "";
  let shown = false;
  const draw = () => {
    const elapsed = ((performance.now() - started) / 1000).toFixed(1);
    host.stderr(`\r\x1b[K${label}${status === "" ? "" : ` ${status}`} (${elapsed}s)`);
    shown = true;
  };
  if (delay <= 0) draw(); // no delay asked: show the line from the start
  const timer = setInterval(() => {
    if (performance.now() - started >= delay) draw();
  }, Math.max(50, Math.min(delay, 250)));
  return {
    update(next) {
      status = next;
      if (shown || performance.now() - started >= delay) draw();
    },
    stop() {
      clearInterval(timer);
      if (shown) host.stderr("\r\x1b[K");
    },
  };
}

/**
 * A positive integer option (`--depth 2`), or a usage problem.
 *
 * @param flags The parsed options.
 * @param name The option's name.
 * @returns The number, undefined when absent, or the problem as a sentence fragment.
 */
export function integerFlag(
  flags: Record<string, string | boolean>,
  name: string,
): number | undefined | { problem: string } {
  const raw = flags[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (typeof raw !== "string" || !/^\d+$/.test(raw) || n < 1) {
    return { problem: `option "--${name}" takes a positive whole number, not "${String(raw)}"` };
  }
  return n;
}

/** Multipliers of the suffixes a size takes, as ripgrep's `--max-filesize` reads them. */
const SIZE_SUFFIXES: Record<string, number> = { "": 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/**
 * A size option as ripgrep writes it: a whole number of bytes, or with a suffix K, M or G (`--max-filesize
 * 50M`).
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { sizeFlag } from "./cli_output.ts";
 *
 * assert.equal(sizeFlag({ "max-filesize": "50M" }, "max-filesize"), 50 * 1024 * 1024);
 * assert.equal(sizeFlag({}, "max-filesize"), undefined);
 * assert.ok(typeof sizeFlag({ "max-filesize": "5 MB" }, "max-filesize") === "object");
 * ```
 *
 * @param flags The parsed options.
 * @param name The option's name.
 * @returns The size in bytes, undefined when absent, or the problem as a sentence fragment.
 */
export function sizeFlag(
  flags: Record<string, string | boolean>,
  name: string,
): number | undefined | { problem: string } {
  const raw = flags[name];
  if (raw === undefined) return undefined;
  const m = typeof raw === "string" ? /^(\d+)([KMG]?)$/i.exec(raw) : null;
  if (m === null) {
    return {
      problem: `option "--${name}" takes a size in bytes, with K, M or G after it if you like, not "${
        String(raw)
      }"`,
    };
  }
  return Number(m[1]) * SIZE_SUFFIXES[m[2]!.toUpperCase()]!;
}
