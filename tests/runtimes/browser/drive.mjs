// Drive headless Chromium (Debian's /usr/bin/chromium) with playwright-core:
// open the page served by run.ts, wait for the suite, print its line.
//   node tests/runtimes/browser/drive.mjs <url> <user-data-dir>
import { launchChromium } from "./_chromium.mjs";

const [url, userDataDir] = process.argv.slice(2);
if (!url || !userDataDir) {
  console.error("usage: node drive.mjs <url> <user-data-dir>");
  process.exit(2);
}
const { context, page } = await launchChromium(userDataDir);
let code = 1;
try {
  await page.goto(url);
  await page.waitForFunction(() => globalThis.__conformance !== undefined, null, { timeout: 150_000 });
  const result = await page.evaluate(() => globalThis.__conformance);
  for (const line of result.failures) console.error(line);
  if (result.smoke) console.error(result.smoke);
  if (result.timing) console.error(result.timing);
  if (result.line) console.log(result.line);
  code = result.ok ? 0 : 1;
} finally {
  await context.close();
}
process.exit(code);
