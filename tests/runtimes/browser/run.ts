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
import { BUILD, relay, requireTools, ROOT } from "../_harness.ts";
import { bundleForWeb } from "../_web_bundle.ts";

await requireTools("esbuild");
try {
  await Deno.stat("/usr/bin/chromium");
} catch {
  console.error(
    'Cannot run the browser conformance: "/usr/bin/chromium" is missing (deno run -A scripts/install_runtimes.ts)',
  );
  Deno.exit(1);
}
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
const userDataDir = await Deno.makeTempDir({ prefix: "graver-chromium-" });
let code = 1;
try {
  // Chromium's per-user caches and config (dconf, fontconfig) go into the throw-away dir too.
  const env = { XDG_CACHE_HOME: `${userDataDir}/cache`, XDG_CONFIG_HOME: `${userDataDir}/config` };
  code = await relay(
    "node",
    ["tests/runtimes/browser/drive.mjs", `http://127.0.0.1:${server.addr.port}/`, `${userDataDir}/profile`],
    env,
  );
} finally {
  await server.shutdown();
  await Deno.remove(userDataDir, { recursive: true }).catch(() => {});
}
Deno.exit(code);
