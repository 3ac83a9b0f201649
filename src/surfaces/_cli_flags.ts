/**
 * A command's arguments parsed: `--flag value`, `--flag=value`, one-letter forms (`-i`, `-iw`, `-A3`),
 * `--help`, positionals and `--`, with the first problem worded (an unknown option names the nearest known ones).
 *
 * @module
 */
import { nearestNames } from "../fs/stage.ts";

/**
 * How an option takes its value: `string` the next argument or after `=`, `boolean` none, `optional` only after
 * `=` (given bare, its value is `""`), `switch` a boolean that may take a value after `=` (given bare, `true`).
 */
export type FlagKind = "string" | "boolean" | "optional" | "switch";

/** The result of {@linkcode parseFlags}. */
export interface ParsedFlags {
  /** Options by name. */
  flags: Record<string, string | boolean>;
  /** Every value of each string option, in order. */
  values: Record<string, string[]>;
  /** How many times each boolean option was given (`-uu`: 2). */
  counts: Record<string, number>;
  /** Each option given, by name, in the order given (ripgrep's `-C` and `-A`/`-B` override by their order). */
  order: string[];
  /** Positional arguments (everything after `--` included). */
  rest: string[];
  /** Whether `--help` or `-h` was given. */
  help: boolean;
  /** The first problem, as a sentence fragment. */
  error?: string;
}

/**
 * Split `--flag value` / `--flag=value` options out of argv. An unknown
 * option is an error with the nearest known ones; `--` ends the options.
 *
 * @example Values may contain "="
 * ```ts
 * import { parseFlags } from "./cli.ts";
 * import assert from "node:assert/strict";
 *
 * const { flags, rest } = parseFlags(["--root=/tmp/a=b", "x"], { root: "string" });
 * assert.equal(flags["root"], "/tmp/a=b");
 * assert.deepEqual(rest, ["x"]);
 * assert.match(parseFlags(["--rot", "d"], { root: "string" }).error!, /did you mean "--root"/);
 * // A switch is true given bare, its value after "=".
 * assert.deepEqual(parseFlags(["--json", "--json=compact"], { json: "switch" }).flags, { json: "compact" });
 * // An optional value is taken only after "=".
 * assert.deepEqual(parseFlags(["--error", "a", "--error=b"], { error: "optional" }).values["error"], ["", "b"]);
 * ```
 *
 * @param argv Arguments.
 * @param spec Option name -> kind.
 * @param names `shorts`: one-letter forms, letter -> option name; `foreign`: options not taken, as written
 *   (`-v`, `--files`) -> what to do instead.
 * @returns Options, positionals, `--help`, and the first error.
 */
export function parseFlags(
  argv: string[],
  spec: Record<string, FlagKind>,
  names: {
    shorts?: Readonly<Record<string, string>>;
    foreign?: Readonly<Record<string, string>> | undefined;
  } = {},
): ParsedFlags {
  const shorts = names.shorts ?? {};
  const foreign = names.foreign ?? {};
  const out: ParsedFlags = { flags: {}, values: {}, counts: {}, order: [], rest: [], help: false };
  const setValue = (name: string, value: string) => {
    out.order.push(name);
    out.flags[name] = value;
    (out.values[name] ??= []).push(value);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      out.rest.push(...argv.slice(i + 1));
      break;
    }
    if (a === "--help" || a === "-h") {
      out.help = true;
      continue;
    }
    if (!a.startsWith("-") || a === "-") {
      out.rest.push(a);
      continue;
    }
    if (!a.startsWith("--") && shorts[a[1]!] !== undefined) {
      i = parseShort(argv, i, { spec, shorts, out, setValue, foreign });
      continue;
    }
    const body = a.replace(/^--?/, "");
    const eq = body.indexOf("=");
    const name = eq === -1 ? body : body.slice(0, eq);
    const inline = eq === -1 ? undefined : body.slice(eq + 1);
    const kind = spec[name];
    const written = a.startsWith("--") ? `--${name}` : a.slice(0, 2);
    if (!kind && foreign[written] !== undefined) {
      out.error ??= foreignOption(written, foreign[written]!);
      continue;
    }
    if (!kind || !a.startsWith("--")) {
      const near = nearestNames(name, Object.keys(spec), 2);
      out.error ??= `unknown option "${a.startsWith("--") ? "--" : "-"}${name}"${
        near.length > 0 ? ` (did you mean ${near.map((n) => `"--${n}"`).join(" or ")}?)` : ""
      }`;
      continue;
    }
    if (kind === "switch") {
      if (inline === undefined) setTrue(out, name);
      else setValue(name, inline);
      continue;
    }
    if (kind === "boolean") {
      if (inline !== undefined) out.error ??= `option "--${name}" takes no value (got "${inline}")`;
      else setTrue(out, name);
      continue;
    }
    const value = inline ?? (kind === "optional" ? "" : argv[++i]);
    if (value === undefined) out.error ??= `option "--${name}" needs a value`;
    else setValue(name, value);
  }
  return out;
}

/** The refusal of an option the command does not take, with what to do instead. */
function foreignOption(written: string, instead: string): string {
  return `option "${written}" is not taken here: ${instead}`;
}

/** Set a boolean option, counting how many times it was given. */
function setTrue(out: ParsedFlags, name: string): void {
  out.order.push(name);
  out.flags[name] = true;
  out.counts[name] = (out.counts[name] ?? 0) + 1;
}

/**
 * One argument of one-letter options: `-i`, a group of boolean ones (`-iw`), or one taking a value, attached
 * (`-A3`) or next (`-A 3`).
 *
 * @returns The index of the last argument it used.
 */
function parseShort(
  argv: string[],
  at: number,
  ctx: {
    spec: Record<string, FlagKind>;
    shorts: Readonly<Record<string, string>>;
    out: ParsedFlags;
    setValue: (name: string, value: string) => void;
    foreign: Readonly<Record<string, string>>;
  },
): number {
  const letters = argv[at]!.slice(1);
  for (let k = 0; k < letters.length; k++) {
    const name = ctx.shorts[letters[k]!];
    if (name === undefined) {
      const instead = ctx.foreign[`-${letters[k]}`];
      ctx.out.error ??= instead === undefined
        ? `unknown option "-${letters[k]}" in "${argv[at]}"`
        : foreignOption(`-${letters[k]}`, instead);
      return at;
    }
    if (ctx.spec[name] === "boolean" || ctx.spec[name] === "switch") {
      setTrue(ctx.out, name);
      continue;
    }
    const attached = letters.slice(k + 1);
    const value = attached !== "" ? attached : argv[at + 1];
    if (value === undefined) ctx.out.error ??= `option "-${letters[k]}" needs a value`;
    else ctx.setValue(name, value);
    return attached !== "" ? at : at + 1;
  }
  return at;
}
