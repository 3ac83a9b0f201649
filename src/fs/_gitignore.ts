/**
 * `.gitignore` patterns, as git reads them: comments and blank lines,
 * trailing spaces, `!` negation, `dir/` for directories only, patterns with
 * a slash anchored to the `.gitignore`'s directory, `*`, `?`, `[a-z]`, `[!a]`,
 * and `**` (leading `**\/`, trailing `/**`, inner `/**\/`). The last rule that
 * matches decides; a file under an ignored directory cannot be re-included
 * (the walker does not enter that directory).
 *
 * @module
 */

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
  /** Matches a path relative to `base`. */
  regex: RegExp;
}

/** Escape one character for a regular expression. */
function esc(c: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}

/** A bracket expression starting at `p[i]` ("["), as a regex class, and the index after it; null when unclosed. */
function bracket(p: string, i: number): [string, number] | null {
  let j = i + 1;
  let out = "[";
  if (p[j] === "!" || p[j] === "^") {
    out += "^";
    j++;
  }
  let first = true;
  for (; j < p.length; j++) {
    const c = p[j]!;
    if (c === "]" && !first) return [out + "]", j + 1];
    first = false;
    if (c === "\\" && j + 1 < p.length) {
      out += esc(p[++j]!);
      continue;
    }
    out += c === "-" ? "-" : esc(c);
  }
  return null;
}

/** A glob (slashes already trimmed at both ends) as a regex source matching whole relative paths. */
function globToRegex(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length;) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      const atStart = i === 0 || glob[i - 1] === "/";
      const atEnd = i + 2 === glob.length;
      if (atStart && glob[i + 2] === "/") {
        out += "(?:.*/)?"; // "**/": zero or more directories
        i += 3;
        continue;
      }
      if (atStart && atEnd) {
        out += ".*"; // "/**" at the end: everything inside
        i += 2;
        continue;
      }
      // any other "**" is an ordinary "*"
      while (glob[i] === "*") i++;
      out += "[^/]*";
      continue;
    }
    if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const b = bracket(glob, i);
      if (b) {
        out += b[0];
        i = b[1];
        continue;
      }
      out += "\\[";
    } else if (c === "\\" && i + 1 < glob.length) {
      out += esc(glob[++i]!);
    } else out += esc(c);
    i++;
  }
  return out;
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
    line = line.replace(/(?<!\\)\s+$/, "");
    if (line.endsWith("\\ ")) line = line.slice(0, -2) + " ";
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
      line = line.replace(/\/+$/, "");
    }
    if (line === "") continue;
    // A slash at the start or in the middle anchors the pattern to the .gitignore's directory.
    const anchored = line.includes("/");
    line = line.replace(/^\/+/, "");
    if (line === "") continue;
    const source = globToRegex(line);
    rules.push({
      base,
      pattern,
      negate,
      dirOnly,
      regex: new RegExp(anchored ? `^${source}$` : `^(?:.*/)?${source}$`),
    });
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
    if (r.regex.test(sub)) return !r.negate;
  }
  return false;
}
