/**
 * Glob patterns in paths, only to explain a path that was meant as one: file
 * tools take one path, never a pattern.
 *
 * @module
 */

/** Whether a path looks like a glob pattern (`*`, `?` or `{a,b}`); `[id]` alone is a real name (Next.js). */
export function looksLikeGlob(path: string): boolean {
  return /[*?]/.test(path) || /\{[^{}]*,[^{}]*\}/.test(path);
}

/**
 * A regular expression for a posix glob: `**` spans folders, `*` and `?` stay
 * within one name, `[abc]` and `{a,b}` as in a shell.
 *
 * @param glob The pattern, relative to the root.
 * @returns An anchored expression over relative paths.
 */
export function globToRegExp(glob: string): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const slash = glob[i + 2] === "/";
        out += slash ? "(?:.*/)?" : ".*";
        i += slash ? 2 : 1;
      } else out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end === -1) out += "\\[";
      else {
        const body = glob.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\");
        out += `[${body}]`;
        i = end;
      }
    } else if (c === "{") {
      const end = glob.indexOf("}", i + 1);
      if (end === -1) out += "\\{";
      else {
        out += `(?:${glob.slice(i + 1, end).split(",").map(escape).join("|")})`;
        i = end;
      }
    } else out += escape(c);
  }
  return new RegExp(`^${out}$`);
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The folder a glob's walk starts from: its leading segments without a pattern ("" for the root). */
export function globBase(glob: string): string {
  const segments = glob.split("/");
  const literal: string[] = [];
  for (const s of segments.slice(0, -1)) {
    if (/[*?[{]/.test(s)) break;
    literal.push(s);
  }
  return literal.join("/");
}
