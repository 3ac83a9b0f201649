/**
 * Run the conformance suite in headless Chromium: bundle `entry.ts` for the
 * browser (memfs's Node built-ins aliased to polyfills), serve it with the
 * vendored wasm on 127.0.0.1 (a free port), and drive Debian's
 * `/usr/bin/chromium` with playwright-core from Node (`drive.mjs`) with a
 * fresh user-data dir. Prints `conformance browser <digest> <passed>/<total>`.
 *
 *   deno run -A tests/runtimes/browser/run.ts
 *
 * @module
 */
import { BUILD, requireTools, ROOT } from "../_harness.ts";
import { bundleForWeb } from "../_web_bundle.ts";
import { driveChromium, requireChromium } from "./_chromium.ts";

await requireTools("esbuild");
await requireChromium("the browser conformance");
await bundleForWeb("tests/runtimes/browser/entry.ts", "build/browser/conformance.js");

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>graver conformance</title></head>
<body><script type="module" src="/conformance.js"></script></body></html>`;

const TYPES: Record<string, string> = { js: "text/javascript", wasm: "application/wasm", html: "text/html" };

/** Serve only the page, the bundle and the vendored wasm. */
async function handle(req: Request): Promise<Response> {
  const path = decodeURIComponent(new URL(req.url).pathname);
  let file: string | null = null;
  if (path === "/" || path === "/index.html") {
    return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
  }
  if (path === "/favicon.ico") return new Response(null, { status: 204 });
  if (path === "/conformance.js") file = `${BUILD}browser/conformance.js`;
  else if (/^\/wasm\/[\w.-]+\.wasm$/.test(path) || /^\/grammars\/wasm\/[\w.-]+\.wasm$/.test(path)) {
    file = `${ROOT}${path.slice(1)}`;
  }
  if (file === null) return new Response("not found", { status: 404 });
  try {
    const body = await Deno.readFile(file);
    return new Response(body, {
      headers: { "content-type": TYPES[file.split(".").pop()!] ?? "application/octet-stream" },
    });
  } catch {
    return new Response("not found", { status: 404 });
  }
}

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handle);
let code = 1;
try {
  code = await driveChromium("tests/runtimes/browser/drive.mjs", `http://127.0.0.1:${server.addr.port}/`);
} finally {
  await server.shutdown();
}
Deno.exit(code);
