/**
 * The two path helpers of backend paths (always posix: `/` between parts, absolute from the backend's root),
 * re-exported by `backend.ts`.
 *
 * @module
 */

/**
 * Join posix paths, collapsing duplicate slashes.
 *
 * @param parts The parts, in order ("" parts left out).
 * @returns The joined path, without a trailing slash (but "/" itself).
 */
export function joinPath(...parts: string[]): string {
  const joined = parts.filter((p) => p !== "").join("/").replace(/\/+/g, "/");
  return joined.length > 1 && joined.endsWith("/") ? joined.slice(0, -1) : joined;
}

/**
 * The parent directory of a posix path ("/" for top-level entries, "." for a bare name).
 *
 * @param path The path.
 * @returns Its parent.
 */
export function dirname(path: string): string {
  const i = path.lastIndexOf("/");
  if (i <= 0) return path.startsWith("/") ? "/" : ".";
  return path.slice(0, i);
}
