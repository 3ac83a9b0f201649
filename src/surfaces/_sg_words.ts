/**
 * The words of an ast-grep command line that `graver sg` reads as ast-grep does: `run` or `scan` before the
 * PATHs, and `--no-ignore FILE_TYPE`. ast-grep's `--no-ignore FILE_TYPE` is read for `graver sg`, where `--no-ignore` alone lifts the ignore files (as
 * `graver grep`'s and ripgrep's): `--no-ignore hidden` (or `=hidden`) searches hidden files and folders, as
 * `--hidden` does; `dot`, `vcs`, `exclude`, `global` and `parent` lift the ignore files, which in graver lifts
 * them all (`.gitignore` and `.ignore`), said on stderr. The word after `--no-ignore` is taken as its value only
 * when no file or folder of that name is there to search (as `run` and `scan` are taken).
 *
 * @module
 */

/** ast-grep's values of `--no-ignore`. */
const FILE_TYPES = ["hidden", "dot", "exclude", "global", "parent", "vcs"];

/**
 * The options and PATHs with ast-grep's `--no-ignore FILE_TYPE` read (`hidden` as `--hidden`, the others as
 * graver's `--no-ignore`), and a note when graver lifts more than the value names; or the problem.
 *
 * @example
 * ```ts
 * import { noIgnoreRead } from "./_sg_words.ts";
 * import assert from "node:assert/strict";
 *
 * const none = () => Promise.resolve(false);
 * const read = await noIgnoreRead({ "no-ignore": true }, ["hidden", "src"], none);
 * assert.deepEqual(read, { flags: { hidden: true }, paths: ["src"] });
 * ```
 *
 * @param flags The parsed options (`no-ignore`: true bare, or the value given after `=`).
 * @param paths The PATHs given.
 * @param exists Whether a file or folder of a name is there (relative to the current folder).
 * @returns The options and PATHs to run with, and the note, or the problem.
 */
export async function noIgnoreRead(
  flags: Readonly<Record<string, string | boolean>>,
  paths: readonly string[],
  exists: (path: string) => Promise<boolean>,
): Promise<
  { flags: Record<string, string | boolean>; paths: string[]; note?: string } | { problem: string }
> {
  let value = flags["no-ignore"];
  let rest = [...paths];
  if (value === true && FILE_TYPES.includes(rest[0] ?? "") && !(await exists(rest[0]!))) {
    value = rest[0]!;
    rest = rest.slice(1);
  }
  if (typeof value !== "string") return { flags: { ...flags }, paths: rest };
  if (!FILE_TYPES.includes(value)) {
    return {
      problem: `--no-ignore takes ${FILE_TYPES.join(", ")} (ast-grep's), or nothing, not ${
        JSON.stringify(value)
      }`,
    };
  }
  const { "no-ignore": _, ...others } = flags;
  if (value === "hidden") return { flags: { ...others, hidden: true }, paths: rest };
  return {
    flags: { ...others, "no-ignore": true },
    paths: rest,
    note:
      `--no-ignore ${value}: graver lifts every ignore file (.gitignore and .ignore), not only ${value}'s`,
  };
}

/**
 * The arguments without ast-grep's `run` or `scan` before them (`ast-grep run -p …` is `graver sg -p …`,
 * `ast-grep scan --inline-rules …` is `graver sg scan --inline-rules …`), unless a file or folder of that name is
 * there to search; and whether the word was `scan` (its rule files, report lines and exit codes are a lint's).
 *
 * @param positional The command's positional arguments.
 * @param exists Whether a file or folder of a name is there (relative to the current folder).
 * @returns The PATHs, and whether the command is a scan.
 */
export async function withoutRunWord(
  positional: string[],
  exists: (path: string) => Promise<boolean>,
): Promise<{ paths: string[]; scan: boolean }> {
  const word = positional[0];
  if (word !== "run" && word !== "scan") return { paths: positional, scan: false };
  return (await exists(word))
    ? { paths: positional, scan: false }
    : { paths: positional.slice(1), scan: word === "scan" };
}
