/**
 * How `graver grep` and `graver sg` display what they find, as ripgrep and ast-grep take it from their flags:
 * `--color WHEN` (`auto`: colour on a terminal, the default; `always` or `ansi`: colour even into a pipe;
 * `never`), and `--heading WHEN` (ast-grep's; matches are printed one a line, `path:line:column:text`, never
 * grouped under a heading: `auto` and `never` are taken, `always` refused naming what is printed instead).
 *
 * @module
 */
import type { CliFlag, CliHost } from "./_cli_contract.ts";

/** The values `--color` takes, as rg and ast-grep name them. */
const COLOR_WHEN = ["auto", "always", "ansi", "never"];

/** The `--color` option as both commands declare it. */
export const COLOR_FLAG: CliFlag = {
  kind: "string",
  value: "WHEN",
  help:
    "auto (colour on a terminal), always or ansi (colour into a pipe too), or never, as rg's and ast-grep's",
};

/** ast-grep's `--heading` as `graver sg` declares it. */
export const HEADING_FLAG: CliFlag = {
  kind: "string",
  value: "WHEN",
  help: "auto or never, as ast-grep takes them: matches are printed one a line, never under a heading",
};

/**
 * The host with `--color` applied (its `color` set for `always`, `ansi` and `never`; left as the adapter
 * decided for `auto` or no option), or the problem with the value.
 *
 * @example `--color never` into a terminal, `--color always` into a pipe
 * ```ts
 * import { withColorFlag } from "./_cli_display.ts";
 * import assert from "node:assert/strict";
 * import type { CliHost } from "./_cli_contract.ts";
 *
 * const tty = { color: true } as CliHost;
 * assert.equal((withColorFlag(tty, { color: "never" }) as CliHost).color, false);
 * assert.equal((withColorFlag({ color: false } as CliHost, { color: "always" }) as CliHost).color, true);
 * assert.match((withColorFlag(tty, { color: "yes" }) as { problem: string }).problem, /auto, always, ansi/);
 * ```
 *
 * @param host The command's host.
 * @param flags The parsed options.
 * @returns The host to print with, or the problem.
 */
export function withColorFlag(
  host: CliHost,
  flags: Readonly<Record<string, string | boolean>>,
): CliHost | { problem: string } {
  const when = flags["color"];
  if (when === undefined || when === "auto") return host;
  if (typeof when !== "string" || !COLOR_WHEN.includes(when)) {
    return { problem: `--color takes one of ${COLOR_WHEN.join(", ")}, not ${JSON.stringify(when)}` };
  }
  return { ...host, color: when !== "never" };
}

/**
 * The problem with `--heading`, if any: `auto` and `never` print as graver always prints; `always` (matches
 * grouped under each file's path) is not built.
 *
 * @param flags The parsed options.
 * @returns The problem, or undefined.
 */
export function headingProblem(flags: Readonly<Record<string, string | boolean>>): string | undefined {
  const when = flags["heading"];
  if (when === undefined || when === "auto" || when === "never") return undefined;
  if (when === "always") {
    return "--heading always is not taken: graver sg prints each match on its own line as " +
      "path:line:column:text (what --heading never prints); leave the option out";
  }
  return `--heading takes auto, always or never, not ${JSON.stringify(when)}`;
}

/** ast-grep's `--json` styles: the array over lines, on one line, or one match a line. */
const JSON_STYLES = ["pretty", "compact", "stream"] as const;

/** How `--json=STYLE` prints ast-grep's JSON. */
export type JsonStyle = typeof JSON_STYLES[number];

/**
 * ast-grep's `--json=STYLE` read for `graver sg`: with a style, the matches are printed in ast-grep's JSON shape
 * (`--format ast-grep`) in that style; bare `--json` keeps printing graver's ToolResult. The options with `json`
 * taken out, the style, or the problem.
 *
 * @example
 * ```ts
 * import { jsonStyleOf } from "./_cli_display.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(jsonStyleOf({ json: "stream" }), { flags: { format: "ast-grep" }, style: "stream" });
 * assert.deepEqual(jsonStyleOf({ json: true }), { flags: { json: true } });
 * ```
 *
 * @param flags The parsed options.
 * @returns The options to run with and the style, or the problem.
 */
export function jsonStyleOf(
  flags: Readonly<Record<string, string | boolean>>,
): { flags: Record<string, string | boolean>; style?: JsonStyle } | { problem: string } {
  const style = flags["json"];
  if (typeof style !== "string") return { flags: { ...flags } };
  if (!(JSON_STYLES as readonly string[]).includes(style)) {
    return {
      problem: `--json takes pretty, compact or stream (ast-grep's styles), not ${JSON.stringify(style)}`,
    };
  }
  if (flags["format"] !== undefined && flags["format"] !== "ast-grep") {
    return {
      problem: `--json=${style} prints ast-grep's JSON: it goes without --format ${String(flags["format"])}`,
    };
  }
  const { json: _, ...rest } = flags;
  return { flags: { ...rest, format: "ast-grep" }, style: style as JsonStyle };
}

/**
 * ast-grep's JSON of some matches in a style: `pretty` (the default) over lines, `compact` on one line,
 * `stream` one match a line.
 *
 * @param matches The matches, in ast-grep's shape.
 * @param style The style.
 * @returns The text, ending in a line break.
 */
export function styledJson(matches: readonly unknown[], style: JsonStyle = "pretty"): string {
  if (style === "compact") return JSON.stringify(matches) + "\n";
  if (style === "stream") return matches.map((m) => JSON.stringify(m) + "\n").join("");
  return JSON.stringify(matches, null, 2) + "\n";
}
