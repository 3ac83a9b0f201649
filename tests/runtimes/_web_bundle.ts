/**
 * The esbuild set-up shared by the browser and workerd harnesses: one
 * web-standard bundle where memfs's Node built-ins are aliased to npm
 * polyfills (installed in `tools/`) and `process`/`Buffer` are injected.
 *
 * @module
 */
import { BUILD, bundle, ROOT } from "./_harness.ts";

const TOOLS_NM = `${ROOT}tools/node_modules/`;

/** Node built-in -> browser polyfill (absolute paths, so esbuild resolves them from tools/). */
export const WEB_ALIASES: Record<string, string> = {
  "buffer": `${TOOLS_NM}buffer/index.js`,
  "node:buffer": `${TOOLS_NM}buffer/index.js`,
  "events": `${TOOLS_NM}events/events.js`,
  "node:events": `${TOOLS_NM}events/events.js`,
  "path": `${TOOLS_NM}path-browserify/index.js`,
  "node:path": `${TOOLS_NM}path-browserify/index.js`,
  "stream": `${TOOLS_NM}readable-stream/lib/ours/browser.js`,
  "node:stream": `${TOOLS_NM}readable-stream/lib/ours/browser.js`,
  "url": `${ROOT}src/adapters/browser/shims/url.ts`,
  "node:url": `${ROOT}src/adapters/browser/shims/url.ts`,
};

/**
 * The esbuild flags of a web-standard bundle: browser platform, the Node built-in aliases, an injected
 * `process`, and (unless `buffer: false`) an injected `Buffer` — memfs needs it; the workerd HTTP worker, on
 * the Map backend, does not (25 KB minified saved).
 *
 * @param options Whether to inject `Buffer` (default true).
 * @returns The flags.
 */
export async function webFlags(options: { buffer?: boolean } = {}): Promise<string[]> {
  const flags = [
    "--platform=browser",
    "--target=es2022",
    "--main-fields=browser,module,main",
    ...Object.entries(WEB_ALIASES).map(([from, to]) => `--alias:${from}=${to}`),
    `--inject:${ROOT}src/adapters/browser/shims/process.ts`,
    "--define:global=globalThis",
  ];
  if (options.buffer === false) return flags;
  // `Buffer` comes from the npm package; written here because src/ cannot import it.
  const bufferShim = `${BUILD}shims/buffer.mjs`;
  await Deno.mkdir(`${BUILD}shims`, { recursive: true });
  await Deno.writeTextFile(bufferShim, `export { Buffer } from ${JSON.stringify(WEB_ALIASES["buffer"])};\n`);
  return [...flags, `--inject:${bufferShim}`];
}

/**
 * Bundle an entry for a web-standard runtime (Chromium, workerd).
 *
 * @param entry Entry file, relative to the repository root.
 * @param outfile Output file, relative to the repository root.
 * @param extra More esbuild flags (e.g. wasm loaders for workerd).
 */
export async function bundleForWeb(entry: string, outfile: string, extra: string[] = []): Promise<void> {
  await bundle(entry, outfile, [...await webFlags(), ...extra]);
}
