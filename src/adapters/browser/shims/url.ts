/**
 * A tiny `node:url` for browsers and workerd (alias it with esbuild): memfs
 * only needs `URL` and the file-URL helpers.
 *
 * @module
 */

/** The web-standard URL classes. */
export const URL: typeof globalThis.URL = globalThis.URL;
/** The web-standard URLSearchParams. */
export const URLSearchParams: typeof globalThis.URLSearchParams = globalThis.URLSearchParams;

/**
 * A `file:` URL (or string) to a posix path.
 *
 * @param url The file URL.
 * @returns The decoded path.
 */
export function fileURLToPath(url: string | globalThis.URL): string {
  const u = typeof url === "string" ? new globalThis.URL(url) : url;
  if (u.protocol !== "file:") throw new TypeError(`Cannot convert "${u.href}" to a path: not a file URL`);
  return decodeURIComponent(u.pathname);
}

/**
 * A posix path to a `file:` URL.
 *
 * @param path An absolute path.
 * @returns The file URL.
 */
export function pathToFileURL(path: string): globalThis.URL {
  return new globalThis.URL(`file://${path.split("/").map(encodeURIComponent).join("/")}`);
}

export default { URL, URLSearchParams, fileURLToPath, pathToFileURL };
