// Launch Debian's /usr/bin/chromium headless with playwright-core (never `playwright install`), with a
// fresh profile: shared by the browser conformance driver and the playground's.
import { chromium } from "../../../tools/node_modules/playwright-core/index.mjs";

/** Flags for a quiet, offline headless run. */
export const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Launch Chromium with a persistent profile in `userDataDir` and return the context and its first page,
 * with page errors and console errors relayed to stderr.
 */
export async function launchChromium(userDataDir, options = {}) {
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: FLAGS,
    timeout: 60_000,
    ...options,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on("pageerror", (err) => console.error(`page error: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") console.error(`page console: ${msg.text()}`);
  });
  return { context, page };
}
