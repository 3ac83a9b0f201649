/**
 * The playground end to end in headless Chromium: serve it (examples/playground/serve.ts bundles the page),
 * drive Debian's `/usr/bin/chromium` with playwright-core from Node (`drive.mjs`) with a fresh profile, and
 * keep a screenshot of each step under `build/playground-test/` (gitignored; the path is printed).
 * Prints `playground browser <passed>/<total>`.
 *
 *   deno run -A tests/playground/run.ts
 *
 * @module
 */
import { BUILD, relay } from "../runtimes/_harness.ts";
import { startPlayground } from "../../examples/playground/serve.ts";

try {
  await Deno.stat("/usr/bin/chromium");
} catch {
  console.error(
    'Cannot run the playground test: "/usr/bin/chromium" is missing (deno run -A scripts/install_runtimes.ts)',
  );
  Deno.exit(1);
}
const shots = `${BUILD}playground-test`;
await Deno.remove(shots, { recursive: true }).catch(() => {});
await Deno.mkdir(shots, { recursive: true });

const server = await startPlayground({ port: 0 });
const userDataDir = await Deno.makeTempDir({ prefix: "graver-playground-" });
let code = 1;
try {
  // Chromium's per-user caches and config go into the throw-away dir too.
  const env = { XDG_CACHE_HOME: `${userDataDir}/cache`, XDG_CONFIG_HOME: `${userDataDir}/config` };
  code = await relay(
    "node",
    ["tests/playground/drive.mjs", server.url, `${userDataDir}/profile`, shots],
    env,
  );
} finally {
  await server.shutdown();
  await Deno.remove(userDataDir, { recursive: true }).catch(() => {});
}
console.error(`playground: screenshots in ${shots}/`);
Deno.exit(code);
