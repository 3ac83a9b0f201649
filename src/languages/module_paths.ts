/**
 * Relative-path arithmetic the module systems share: a path's directory, and
 * joining with `.` and `..` folded (never above the root).
 *
 * @module
 */

/**
 * The directory part of a relative path ("" at the root).
 *
 * @param path A relative path.
 * @returns Its directory.
 */
export function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/**
 * Join and normalise relative path parts (`.` and `..` folded; never above the root).
 *
 * @param dir A relative directory ("" for the root).
 * @param rel A path relative to it.
 * @returns The normalised relative path.
 */
export function joinPath(dir: string, rel: string): string {
  const out: string[] = [];
  for (const part of `${dir}/${rel}`.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return out.join("/");
}

/**
 * The first of a list of candidate paths that the workspace holds.
 *
 * @param files The workspace's files.
 * @param candidates Relative paths, best first.
 * @returns The first one present, or null.
 */
export function firstPresent(files: ReadonlySet<string>, candidates: readonly string[]): string | null {
  for (const c of candidates) if (files.has(c)) return c;
  return null;
}
