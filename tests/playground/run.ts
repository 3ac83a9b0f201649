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
import { BUILD } from "../runtimes/_harness.ts";
import { driveChromium, requireChromium } from "../runtimes/browser/_chromium.ts";
import { startPlayground } from "../../examples/playground/serve.ts";

await requireChromium("the playground test");
const shots = `${BUILD}playground-test`;
await Deno.remove(shots, { recursive: true }).catch(() => {});
await Deno.mkdir(shots, { recursive: true });

const server = await startPlayground({ port: 0 });
let code = 1;
try {
  code = await driveChromium("tests/playground/drive.mjs", server.url, [shots]);
} finally {
  await server.shutdown();
}
console.error(`playground: screenshots in ${shots}/`);
Deno.exit(code);
