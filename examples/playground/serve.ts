/**
 * `deno task start`: serve the browser playground on 127.0.0.1. The server
 * only serves files — the page, its script (bundled here at start with the
 * esbuild set-up of the browser runtime tests), the tree-sitter runtime and
 * grammar wasm — and graver runs in the page.
 *
 *   deno run -A examples/playground/serve.ts [--port 8787]   (or GRAVER_PLAYGROUND_PORT; 0: a free port)
 *
 * The bundler comes from `tools/` (npm packages pinned in tools/package-lock.json), installed on first use
 * by scripts/install_runtimes.ts without Chromium: nothing but npm packages is downloaded.
 *
 * @module
 */
import { BUILD, ROOT } from "../../tests/runtimes/_harness.ts";
import { bundleForWeb } from "../../tests/runtimes/_web_bundle.ts";

/** The port when neither the flag nor the environment names one. */
export const DEFAULT_PORT = 8787;

const HERE = `${ROOT}examples/playground/`;
const BUNDLE = `${BUILD}playground/app.js`;

/** The files the server answers with, by URL path. */
const STATIC: Record<string, string> = {
  "/": `${HERE}index.html`,
  "/index.html": `${HERE}index.html`,
  "/style.css": `${HERE}style.css`,
  "/app.js": BUNDLE,
};

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  wasm: "application/wasm",
};

/** A running playground server. */
export interface PlaygroundServer {
  /** Its URL, e.g. `http://127.0.0.1:8787/`. */
  url: string;
  /** Stop serving. */
  shutdown(): Promise<void>;
}

/**
 * The port to serve on: `--port N` (or `--port=N`, `-p N`), else
 * `GRAVER_PLAYGROUND_PORT`, else {@linkcode DEFAULT_PORT}.
 *
 * @param args Command-line arguments.
 * @param env Reads an environment variable.
 * @returns The port (0: any free port).
 * @throws TypeError for a value that is not a port number.
 */
export function portFrom(args: readonly string[], env: (name: string) => string | undefined): number {
  let raw: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--port" || a === "-p") raw = args[++i];
    else if (a.startsWith("--port=")) raw = a.slice("--port=".length);
  }
  raw ??= env("GRAVER_PLAYGROUND_PORT");
  if (raw === undefined || raw === "") return DEFAULT_PORT;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) {
    throw new TypeError(`Cannot serve the playground on port "${raw}": expected a number from 0 to 65535`);
  }
  return port;
}

/** Install the bundler and the browser polyfills into tools/ when missing (npm only, no Chromium). */
async function ensureTools(): Promise<void> {
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}scripts/install_runtimes.ts`, "--skip-chromium"],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) {
    throw new Error("Cannot install the playground's bundler: scripts/install_runtimes.ts failed");
  }
}

/** Answer one request: a known file, a vendored wasm file, or 404. */
async function handle(req: Request): Promise<Response> {
  const path = decodeURIComponent(new URL(req.url).pathname);
  if (req.method !== "GET" && req.method !== "HEAD") {
    return new Response("method not allowed", { status: 405 });
  }
  if (path === "/favicon.ico") return new Response(null, { status: 204 });
  let file = STATIC[path] ?? null;
  if (/^\/wasm\/[\w.-]+\.wasm$/.test(path) || /^\/grammars\/wasm\/[\w.-]+\.wasm$/.test(path)) {
    file = `${ROOT}${path.slice(1)}`;
  }
  if (file === null) return new Response("not found", { status: 404 });
  try {
    const body = await Deno.readFile(file);
    return new Response(body, {
      headers: {
        "content-type": TYPES[file.slice(file.lastIndexOf(".") + 1)] ?? "application/octet-stream",
        "cache-control": "no-cache",
      },
    });
  } catch {
    return new Response("not found", { status: 404 });
  }
}

/**
 * Bundle the page's script and serve the playground on 127.0.0.1.
 *
 * @param options `port` (0: a free one).
 * @returns The server, with its URL.
 */
export async function startPlayground(options: { port: number }): Promise<PlaygroundServer> {
  await ensureTools();
  await bundleForWeb("examples/playground/app.ts", "build/playground/app.js", ["--minify"]);
  const server = Deno.serve({ hostname: "127.0.0.1", port: options.port, onListen() {} }, handle);
  return { url: `http://127.0.0.1:${server.addr.port}/`, shutdown: () => server.shutdown() };
}

if (import.meta.main) {
  const port = portFrom(Deno.args, (name) => Deno.env.get(name));
  const { url } = await startPlayground({ port });
  console.log(`graver playground: ${url}`);
  console.log("graver runs in the page (WASM, IndexedDB); this server only serves files. Ctrl-C stops it.");
}
