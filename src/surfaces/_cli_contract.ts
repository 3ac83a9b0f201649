/**
 * What the CLI runner and its commands share: the runtime a command runs in (`CliHost`), a command's shape
 * and its options (`CliCommand`, `CliFlag`, `CliInvocation`), the documented exit codes and graver's version.
 *
 * @module
 */
import denoJson from "../../deno.json" with { type: "json" };
import type { Backend } from "../fs/backend.ts";
import type { MatchPool } from "../structural/search/match_pool.ts";
import type { WasmLoader } from "../syntax/grammars.ts";
import type { Workspace } from "../workspace.ts";

/** graver's version (from `deno.json`). */
export const VERSION: string = denoJson.version;

/** The documented exit codes. */
export const EXIT = {
  /** The call succeeded. */
  ok: 0,
  /** The call was refused or failed: nothing was written. */
  failed: 1,
  /** Usage error: unknown command or option, bad arguments, a root that is not a directory. */
  usage: 2,
  /** Applied in part: ok, but some blocks (or plan steps) failed and were skipped (`data.failed > 0`). */
  partial: 3,
} as const;

/** What the CLI needs from its runtime (built by an adapter entry). */
export interface CliHost {
  /** Write to stdout. */
  stdout(text: string): void;
  /** Write to stderr. */
  stderr(text: string): void;
  /** Read all of stdin. */
  readStdin(): Promise<string>;
  /**
   * stdin as bytes as they arrive (`graver apply - --stream` reads a model's output while it is written).
   * Absent: a stream reads all of stdin first, then feeds it line by line.
   */
  stdinStream?(): ReadableStream<Uint8Array>;
  /** Read a host file (outside any workspace), for `apply FILE`. */
  readHostFile(path: string): Promise<string>;
  /** The current directory (absolute posix). */
  cwd: string;
  /** The disk backend. */
  backend: Backend;
  /** Wasm for grammars. */
  wasm: WasmLoader;
  /** Colour human output: stdout is a terminal and `NO_COLOR` is unset (the adapter decides; default false). */
  color?: boolean;
  /** Show progress lines: stderr is a terminal (default false). */
  progress?: boolean;
  /** How long work runs before its progress line appears, in ms (default 400). */
  progressDelayMs?: number;
  /**
   * A pool of workers for a structural command's parsing (`graver sg`, `graver call search_structural`): its
   * workers start only once a search has parsed the pool's `startChars` of candidates on its own thread (the
   * Deno adapter's: 1,000,000), so a small search never starts one; the command closes it when it ends.
   * Absent: structural commands parse on the main thread alone.
   */
  matchPool?(): Promise<MatchPool>;
}

/** One option of a command. */
export interface CliFlag {
  /**
   * `string` takes a value (`--root DIR` or `--root=DIR`); `boolean` takes none; `optional` takes one only after
   * `=` (ast-grep's `--error` or `--error=RULE_ID`: given bare, its value is `""`); `switch` is a boolean that
   * may take a value after `=` (`--json`, or ast-grep's `--json=stream`).
   */
  kind: "string" | "boolean" | "optional" | "switch";
  /** The value's placeholder in help, e.g. `"DIR"` (string options). */
  value?: string;
  /** One line for `--help`, e.g. `"the workspace root (default: the current directory)"`. */
  help: string;
  /** A one-letter form, e.g. `"i"` for `-i` (boolean ones may be grouped: `-iw`; a value may follow: `-A3`). */
  short?: string;
}

/** What a command's `run` receives. */
export interface CliInvocation {
  /** Parsed options by name (without `--`); a string option given twice holds its last value. */
  flags: Record<string, string | boolean>;
  /** Every value of each string option, in order (for options that may repeat, e.g. `-g A -g B`). */
  values: Record<string, string[]>;
  /** How many times each boolean option was given (`-uu`: 2); absent where the caller does not count. */
  counts?: Record<string, number>;
  /** Each option given, by name, in the order given; absent where the caller does not keep it. */
  order?: string[];
  /** Positional arguments. */
  positional: string[];
  /** The runtime. */
  host: CliHost;
  /**
   * Open the workspace at `--root` (resolved against the cwd; refused unless it is an existing directory);
   * `options.matchPool`: the pool its structural searches parse with; `options.maxParseBytes`: its parse limit.
   */
  open(
    root: string | undefined,
    options?: { matchPool?: MatchPool; maxParseBytes?: number },
  ): Promise<Workspace>;
}

/** A subcommand of `graver`. */
export interface CliCommand {
  /** The command word. */
  name: string;
  /** The synopsis after `graver `, e.g. `"apply [FILE|-] [--root DIR]"`. */
  synopsis: string;
  /** One line for the command list. */
  summary: string;
  /** More paragraphs for `graver help NAME`. */
  details: string;
  /** Its options (`--help` is implied). */
  flags: Record<string, CliFlag>;
  /** At most this many positional arguments; more are refused, naming them. */
  maxPositional: number;
  /**
   * Options of the tool the command stands in for (ripgrep's for `grep`, ast-grep's for `sg`) that it does not
   * take, as written (`-v`, `--invert-match`), each with what to do instead: a model or a user writing one gets
   * that, not the nearest option by spelling.
   */
  foreign?: Readonly<Record<string, string>>;
  /** Run it and return the exit code. */
  run(invocation: CliInvocation): Promise<number>;
}
