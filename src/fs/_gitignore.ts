/**
 * `.gitignore` patterns, as git reads them: comments and blank lines,
 * trailing spaces, `!` negation, `dir/` for directories only, patterns with
 * a slash anchored to the `.gitignore`'s directory, `*`, `?`, `[a-z]`, `[!a]`,
 * and `**` (leading `**\/`, trailing `/**`, inner `/**\/`). The last rule that
 * matches decides; a file under an ignored directory cannot be re-included
 * (the walker does not enter that directory).
 *
 * Lines compile to linear-time matchers (`_wildcard.ts`): a `.gitignore` is
 * untrusted input, and a line like `*a*a*a…*b` must not stall a walk.
 *
 * @module
 */
import { bracketAt, WildcardBuilder, type WildcardMatcher } from "./_wildcard.ts";

/** One line of a `.gitignore`. */
export interface IgnoreRule {
  /** Directory of the `.gitignore` relative to the root ("" for the root). */
  base: string;
  /** The line as written, trailing spaces dropped (for messages and tests). */
  pattern: string;
  /** `!pattern`: re-include what an earlier rule ignored. */
  negate: boolean;
  /** `pattern/`: matches directories only. */
  dirOnly: boolean;
  /** Matches a path relative to `base` (in linear time, whatever the line holds). */
  matcher: WildcardMatcher;
}

/** Adds a glob (slashes already trimmed at both ends) to `b`, as git reads it. */
function addGlob(b: WildcardBuilder, glob: string): void {
  for (let i = 0; i < glob.length;) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      const atStart = i === 0 || glob[i - 1] === "/";
      const atEnd = i + 2 === glob.length;
      if (atStart && glob[i + 2] === "/") {
        b.folders(); // "**/": zero or more directories
        i += 3;
        continue;
      }
      if (atStart && atEnd) {
        b.star(true); // "/**" at the end: everything inside
        i += 2;
        continue;
      }
      // any other "**" is an ordinary "*"
      while (glob[i] === "*") i++;
      b.star();
      continue;
    }
    if (c === "*") b.star();
    else if (c === "?") b.one();
    else if (c === "[") {
      const bracket = bracketAt(glob, i);
      if (bracket) {
        b.char(bracket.test);
        i = bracket.end;
        continue;
      }
      b.literal("[");
    } else if (c === "\\" && i + 1 < glob.length) {
      b.literal(glob[++i]!);
    } else b.literal(c);
    i++;
  }
}

/** `line` without its trailing whitespace, unless the last of it is escaped with a backslash (one pass). */
function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && /\s/.test(line[end - 1]!)) end--;
  if (end < line.length && end > 0 && line[end - 1] === "\\") return line.slice(0, end - 1) + line[end];
  return line.slice(0, end);
}

/** Index of the last character of `line` that is not a `/` (-1 when none). */
function lastNonSlash(line: string): number {
  let i = line.length - 1;
  while (i >= 0 && line[i] === "/") i--;
  return i;
}

/**
 * The rules of one `.gitignore` file.
 *
 * @param text The file's text.
 * @param base Its directory relative to the root ("" for the root).
 * @returns Rules in file order (comments and blank lines dropped).
 */
export function parseGitignore(text: string, base: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (let line of text.split(/\r?\n/)) {
    if (line === "" || line.startsWith("#")) continue;
    // Trailing spaces are dropped unless escaped with a backslash.
    line = trimTrailingSpaces(line);
    if (line === "") continue;
    const pattern = line;
    let negate = false;
    if (line.startsWith("!")) {
      negate = true;
      line = line.slice(1);
    } else if (line.startsWith("\\!") || line.startsWith("\\#")) line = line.slice(1);
    let dirOnly = false;
    if (line.endsWith("/")) {
      dirOnly = true;
      line = line.slice(0, lastNonSlash(line) + 1);
    }
    if (line === "") continue;
    // A slash at the start or in the middle anchors the pattern to the .gitignore's directory.
    const anchored = line.includes("/");
    line = line.replace(/^\/+/, "");
    if (line === "") continue;
    const b = new WildcardBuilder();
    if (!anchored) b.folders();
    addGlob(b, line);
    rules.push({ base, pattern, negate, dirOnly, matcher: b.build() });
  }
  return rules;
}

/**
 * Whether the last of `rules` that matches `rel` ignores it (git's
 * precedence: later rules win; a `.gitignore` deeper down comes after its
 * parents').
 *
 * @param rules Rules of every `.gitignore` from the root down to `rel`'s directory, in that order.
 * @param rel Path relative to the root.
 * @param isDir Whether `rel` is a directory.
 * @returns True when ignored.
 */
export function isIgnored(rules: IgnoreRule[], rel: string, isDir: boolean): boolean {
  for (let i = rules.length - 1; i >= 0; i--) {
    const r = rules[i]!;
    if (r.dirOnly && !isDir) continue;
    let sub: string;
    if (r.base === "") sub = rel;
    else if (rel.startsWith(`${r.base}/`)) sub = rel.slice(r.base.length + 1);
    else continue;
    if (r.matcher.test(sub)) return !r.negate;
  }
  return false;
}
