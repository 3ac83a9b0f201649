// Drive headless Chromium (Debian's /usr/bin/chromium) with playwright-core:
// open the page served by run.ts, wait for the suite, print its line.
//   node tests/runtimes/browser/drive.mjs <url> <user-data-dir>
import { chromium } from "../../../tools/node_modules/playwright-core/index.mjs";

const [url, userDataDir] = process.argv.slice(2);
if (!url || !userDataDir) {
  console.error("usage: node drive.mjs <url> <user-data-dir>");
  process.exit(2);
}
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: FLAGS,
  timeout: 60_000,
});
let code = 1;
try {
  const page = context.pages()[0] ?? (await context.newPage());
  page.on("pageerror", (err) => console.error(`page error: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") console.error(`page console: ${msg.text()}`);
  });
  await page.goto(url);
  await page.waitForFunction(() => globalThis.__conformance !== undefined, null, { timeout: 150_000 });
  const result = await page.evaluate(() => globalThis.__conformance);
  for (const line of result.failures) console.error(line);
  if (result.smoke) console.error(result.smoke);
  if (result.line) console.log(result.line);
  code = result.ok ? 0 : 1;
} finally {
  await context.close();
}
process.exit(code);
