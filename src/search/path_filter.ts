/**
 * Which files a search's `glob` and `type` filters keep, as ripgrep's `-g` and `-t` decide: globs are read
 * as `.gitignore` lines read them (a glob without a slash matches a name at any depth, `dir/` only folders,
 * braces and `**`), `!` excludes, and the last glob that matches a path decides. When any glob includes,
 * a file that no glob matches is left out; a folder a glob excludes leaves out all it holds. A file a glob
 * includes is kept whatever `type` says; otherwise it must be of one of the types. Globs run on the
 * linear-time matcher of `fs/` (a glob is untrusted input).
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { globMatcher, unclosedInGlob, type WildcardMatcher } from "../fs/glob.ts";
import { fileTypeTest } from "./file_types.ts";

/** One `-g` glob, compiled. */
interface PathGlob {
  /** `!glob`: excludes. */
  exclude: boolean;
  /** `glob/`: matches folders only. */
  dirOnly: boolean;
  /** Matches a whole relative path. */
  matcher: WildcardMatcher;
}

/** Compile one glob as a `.gitignore` line (without the `.gitignore` meaning of `!`: here it excludes). */
function compileGlob(glob: string): PathGlob {
  let body = glob;
  const exclude = body.startsWith("!");
  if (exclude) body = body.slice(1);
  const dirOnly = body.endsWith("/");
  body = body.replace(/\/+$/, "");
  const anchored = body.includes("/");
  body = body.replace(/^\/+/, "");
  return { exclude, dirOnly, matcher: globMatcher(anchored ? body : `**/${body}`) };
}

/** A glob compiled, or refused (`invalid_args`) when it leaves a `[` or `{` open, as ripgrep's `-g` refuses it. */
function checkedGlob(glob: string): PathGlob {
  const problem = unclosedInGlob(glob);
  if (problem === null) return compileGlob(glob);
  throw new RecoverableError("invalid_args", `Cannot use the glob "${glob}": ${problem}`, {
    hint: 'Close it ("src/[ab]*.ts", "*.{ts,tsx}"), or match the character itself with "?"',
    details: { argument: "glob", glob },
  });
}

/** The last glob that matches the path, or null. */
function lastMatch(globs: PathGlob[], path: string, isDir: boolean): PathGlob | null {
  for (let i = globs.length - 1; i >= 0; i--) {
    const g = globs[i]!;
    if (g.dirOnly && !isDir) continue;
    if (g.matcher.test(path)) return g;
  }
  return null;
}

/** Whether a folder on the way to `path` is excluded by the globs (ripgrep does not enter it). */
function inExcludedFolder(globs: PathGlob[], path: string): boolean {
  for (let slash = path.indexOf("/"); slash !== -1; slash = path.indexOf("/", slash + 1)) {
    if (lastMatch(globs, path.slice(0, slash), true)?.exclude) return true;
  }
  return false;
}

/**
 * A test of relative file paths against `glob` and `type`.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { pathFilter } from "./path_filter.ts";
 *
 * const keep = pathFilter({ globs: ["*.ts", "!*.test.ts", "a.test.ts"], types: [] });
 * assert.ok(keep("src/x.ts") && keep("src/a.test.ts"));
 * assert.ok(!keep("src/b.test.ts") && !keep("src/x.js"));
 * ```
 *
 * @param filters The globs in order and the type names.
 * @returns Whether a file is kept.
 * @throws RecoverableError `invalid_args` for an unknown type, or a glob with a `[` or `{` left open.
 */
export function pathFilter(filters: { globs: string[]; types: string[] }): (path: string) => boolean {
  const globs = filters.globs.filter((g) => g !== "" && g !== "!").map(checkedGlob);
  const includes = globs.some((g) => !g.exclude);
  const ofType = filters.types.length > 0 ? fileTypeTest(filters.types) : null;
  if (globs.length === 0 && ofType === null) return () => true;
  return (path) => {
    if (globs.length > 0) {
      if (inExcludedFolder(globs, path)) return false;
      const last = lastMatch(globs, path, false);
      if (last !== null) return !last.exclude;
      if (includes) return false;
    }
    return ofType === null || ofType(path);
  };
}
