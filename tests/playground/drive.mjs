// Drive the playground in headless Chromium (Debian's /usr/bin/chromium) with playwright-core:
// load, apply a model response (preview with tiers, then apply), a definition-gate refusal and its
// suggested call, a structural rename, undo, then reload and find the state persisted in IndexedDB; reset;
// a model response replayed as a stream (blocks placed and refused while it is typed, then the commit).
// Screenshots of each step go to <shots>. Prints "playground browser <passed>/<total>".
//   node tests/playground/drive.mjs <url> <user-data-dir> <shots-dir>
import { launchChromium } from "../runtimes/browser/_chromium.mjs";

const [url, userDataDir, shots] = process.argv.slice(2);
if (!url || !userDataDir || !shots) {
  console.error("usage: node drive.mjs <url> <user-data-dir> <shots-dir>");
  process.exit(2);
}
// The examples of the page's "Examples…" menu (examples/playground/sample.ts) the run applies.
const DRIFTED = "SEARCH/REPLACE (indentation drifted)";
const GATED = "a definition removed as text (the gate refuses)";

const { context, page } = await launchChromium(userDataDir, { viewport: { width: 1500, height: 950 } });
const results = [];

/** Run one step; a failure is recorded with a screenshot and stops the run. */
async function step(name, fn) {
  const t0 = Date.now();
  try {
    await fn();
    results.push({ name, ok: true });
    console.error(`ok   ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (err) {
    results.push({ name, ok: false });
    console.error(`FAIL ${name}: ${err instanceof Error ? err.message : err}`);
    await page.screenshot({ path: `${shots}/failed-${results.length}.png`, fullPage: true }).catch(() => {});
    throw err;
  }
}

function check(cond, message) {
  if (!cond) throw new Error(message);
}

async function shot(name) {
  await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
}

/** Wait until the result pane shows `label` with `status`. */
async function result(label, status) {
  await page.waitForFunction(
    ([l, s]) => {
      const box = document.querySelector("#result .result");
      return box && box.querySelector("h3")?.textContent?.includes(l) &&
        box.getAttribute("data-status") === s &&
        !document.body.dataset.busy;
    },
    [label, status],
    { timeout: 30_000 },
  ).catch(async () => {
    const seen = await page.evaluate(() => document.querySelector("#result")?.textContent ?? "(empty)");
    throw new Error(
      `expected "${label}" with status ${status}, the result pane shows: ${seen.slice(0, 400)}`,
    );
  });
}

const codeText = () => page.evaluate(() => document.querySelector("#code")?.textContent ?? "");
const idle = () => page.waitForFunction(() => !document.body.dataset.busy, null, { timeout: 30_000 });

async function openFile(path) {
  await page.click(`#files li[data-path="${path}"] button`);
  await page.waitForFunction((p) => document.querySelector("#open-path")?.textContent === p, path, {
    timeout: 30_000,
  });
  await idle();
}

try {
  await step("load: graver starts in the page, the sample project is seeded and highlighted", async () => {
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset.ready !== undefined, null, { timeout: 60_000 });
    check(
      await page.evaluate(() => document.body.dataset.ready) === "true",
      "the page failed to start graver",
    );
    await idle();
    check((await page.$$("#code .line")).length > 20, "src/cart.ts shown with its lines");
    check(
      (await page.$$("#code .tok-keyword")).length > 3,
      "keywords highlighted from the tree-sitter parse",
    );
    check((await page.$$("#code .tok-function")).length > 0, "function names highlighted");
    check(
      (await page.$$("#outline [data-name-path='Cart/total']")).length === 1,
      "the outline lists Cart/total",
    );
    const state = await page.textContent('#files li[data-path="src/cart.ts"] .state');
    check(state === "read", `the ledger shows src/cart.ts as read, found "${state}"`);
    await shot("01-loaded");
  });

  await step("apply a model response: preview (dry run) with the tier per block, then apply", async () => {
    await page.selectOption("#examples", DRIFTED);
    await page.click("#preview-response");
    await result("apply_edits", "dry_run");
    const tier = await page.textContent("#result .blocks td.tier");
    check(/indentation|whitespace|exact/.test(tier ?? ""), `the block's tier is shown, found "${tier}"`);
    check((await codeText()).includes("let sum = 0;"), "nothing written by the preview");
    await shot("02-preview");
    await page.click("#apply-pending");
    await result("apply_edits", "applied");
    check((await codeText()).includes("this.items.reduce("), "the code view shows the edit");
    await shot("03-applied");
  });

  await step(
    "definition gate: a definition removed as text is refused with the structural call",
    async () => {
      await openFile("src/money.ts");
      await page.selectOption("#examples", GATED);
      await page.click("#preview-response");
      await result("apply_edits", "definition_gate");
      await page.click("#run-suggested");
      await result("suggested remove_symbol", "dry_run");
      const feed = await page.textContent("#feed");
      check(
        feed?.includes("graver.refusal") && feed.includes("definition_gate"),
        "the feed shows the refusal",
      );
      check(feed?.includes("graver.commit"), "the feed shows the commit");
      const counters = await page.textContent("#counters");
      check(counters?.includes("graver.guard.trigger"), "the counters show the guard trigger");
      await shot("04-gate");
    },
  );

  await step("structural edit: rename formatPrice everywhere (edit_rename_symbol)", async () => {
    await page.click("#outline [data-name-path='formatPrice']");
    await idle();
    await page.fill("#rename-to", "formatCents");
    await page.click("#rename");
    await result("Rename formatPrice", "dry_run");
    check((await page.$$("#result pre.diff")).length === 3, "the preview shows the three files it changes");
    await page.click("#apply-pending");
    await result("Rename formatPrice", "applied");
    check((await codeText()).includes("export function formatCents("), "the definition is renamed");
    await shot("05-renamed");
  });

  await step("undo via checkpoints: the rename is reverted in every file", async () => {
    await page.click("#undo");
    await result("Undo", "applied");
    check((await codeText()).includes("export function formatPrice("), "the definition is back");
    const undone = await page.$$("#checkpoints li.undone");
    check(undone.length === 1, `one checkpoint marked undone, found ${undone.length}`);
  });

  await step("reload at once: files, checkpoints and the ledger persisted in IndexedDB", async () => {
    // No pause after the undo: lightning-fs saves its directory tree 500 ms after the last write unless the
    // page flushes it; the playground flushes after every commit.
    await page.reload();
    await page.waitForFunction(() => document.body.dataset.ready === "true", null, { timeout: 60_000 });
    await idle();
    check(await page.textContent("#open-path") === "src/money.ts", "the last open file is open again");
    check((await codeText()).includes("export function formatPrice("), "the undo persisted");
    const rows = await page.$$eval("#checkpoints li", (lis) => lis.map((li) => li.textContent ?? ""));
    check(
      rows.length === 3,
      `three checkpoints (apply, rename, undo), found ${rows.length}: ${rows.join(" | ")}`,
    );
    check((await page.$$("#checkpoints li.undone")).length === 1, "the rename still marked undone");
    await openFile("src/cart.ts");
    check((await codeText()).includes("this.items.reduce("), "the applied edit persisted");
    await openFile("src/main.ts");
    check((await codeText()).includes("formatPrice(discount("), "main.ts uses formatPrice again");
    await shot("06-reloaded");
  });

  await step(
    "search: text and code across the project, a match opens its file, a rewrite of every match lands",
    async () => {
      await page.fill("#search-pattern", "console\\.log\\(");
      await page.click("#search");
      await idle();
      const hits = await page.$$eval(
        "#search-results li[data-path]",
        (lis) => lis.map((li) => li.dataset.path),
      );
      check(hits.length >= 2 && hits.every((p) => p === "src/main.ts"), `text matches: ${hits.join(", ")}`);
      await page.click("#search-results li[data-path] button");
      await page.waitForFunction(() => document.querySelector("#open-path")?.textContent === "src/main.ts");
      await idle();
      await page.selectOption("#search-kind", "code");
      // A pattern the grammar reads only as an ERROR node finds what ast-grep finds, and says so first.
      await page.fill("#search-pattern", "import {$$$A} from $B");
      await page.click("#search");
      await idle();
      const imports = await page.$$eval("#search-results li[data-path]", (lis) => lis.length);
      const warned = await page.$$eval(
        "#search-results li.warning",
        (lis) => lis.map((li) => li.textContent),
      );
      check(imports === 3, `imports found: ${imports}`);
      check(
        warned.some((w) => /only as one ERROR node/.test(w ?? "")),
        `warnings shown: ${warned.join(" | ")}`,
      );
      await page.fill("#search-pattern", "console.log($$$A)");
      await page.fill("#search-replace", "console.info($$$A)");
      await page.click("#search-rewrite");
      await result("Rewrite every match", "dry_run");
      check((await codeText()).includes("console.log("), "nothing written by the preview");
      await page.click("#apply-pending");
      await result("Rewrite every match", "applied");
      const text = await codeText();
      check(
        text.includes("console.info(cart.summary())") && !text.includes("console.log("),
        "every match rewritten",
      );
      await shot("07-search");
    },
  );

  await step(
    "layout from 800px up: the code pane keeps its room, no panel is cut (screenshots at 800, 1280, 1920)",
    async () => {
      for (const width of [800, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await page.waitForTimeout(100);
        const box = await page.evaluate(() => {
          const rect = (sel) => document.querySelector(sel)?.getBoundingClientRect();
          const code = rect("#code");
          const right = rect("aside#right");
          return {
            code: code ? code.width : 0,
            right: right ? { left: right.left, right: right.right, width: right.width } : null,
            scroll: document.documentElement.scrollWidth,
          };
        });
        check(
          box.code >= Math.min(600, width * 0.6),
          `at ${width}px the code pane is ${Math.round(box.code)}px wide`,
        );
        check(box.scroll <= width + 1, `at ${width}px the page scrolls sideways (${box.scroll}px)`);
        check(
          box.right !== null && box.right.width >= 250 && box.right.right <= width + 1,
          `at ${width}px the right panel is cut`,
        );
        await shot(`08-layout-${width}`);
      }
      await page.setViewportSize({ width: 1500, height: 950 });
    },
  );

  await step("reset: files and checkpoints deleted, the sample project written again", async () => {
    await page.click("#reset");
    await page.waitForFunction(
      () => document.querySelector("#status")?.textContent === "Sample project restored",
      null,
      {
        timeout: 30_000,
      },
    );
    await openFile("src/cart.ts");
    check((await codeText()).includes("let sum = 0;"), "src/cart.ts is the sample again");
    check((await page.$$("#checkpoints li[data-id]")).length === 0, "no checkpoints left");
  });

  await step(
    "replay as a stream: blocks placed and refused while the response is typed, then the refusal, then the commit",
    async () => {
      const done = () =>
        page.waitForFunction(() => document.querySelector("#stream-status")?.dataset.done, null, {
          timeout: 60_000,
        });
      const items = () =>
        page.$$eval(
          "#stream-status li",
          (lis) => lis.map((li) => `${li.dataset.type} ${li.dataset.block ?? ""}`),
        );
      await page.click("#replay-stream");
      await page.waitForFunction(() => document.querySelector("#stream-status li[data-type=placed]"), null, {
        timeout: 60_000,
      });
      check(
        !(await page.$("#stream-status[data-done]")),
        "the first block is placed while the response is typed",
      );
      check((await page.$$("#code .line.streamed")).length > 0, "the placed block's lines are highlighted");
      await shot("09-stream-typing");
      await done();
      const stale = await items();
      check(
        stale.includes("placed 1") && stale.includes("refused 2") && stale.includes("placed 3"),
        `blocks 1 and 3 placed, block 2 refused: ${stale.join(" | ")}`,
      );
      check(await page.$eval("#stream-status", (el) => el.dataset.done) === "no_match", "the result refuses");
      await result("Streamed apply_edits", "no_match");
      check((await codeText()).includes("toFixed(2)"), "nothing written by the refused stream");
      await shot("10-stream-refused");

      await page.uncheck("#stream-stale");
      // The first replay's mark goes first, so that the wait below sees the second one's.
      await page.evaluate(() => delete document.querySelector("#stream-status").dataset.done);
      await page.click("#replay-stream");
      await done();
      const fresh = await items();
      check(
        fresh.includes("placed 1") && fresh.includes("placed 2") &&
          !fresh.some((i) => i.startsWith("refused")),
        `every block placed: ${fresh.join(" | ")}`,
      );
      await result("Streamed apply_edits", "applied");
      check((await codeText()).includes('toLocaleString("en-US"'), "the code view shows the streamed edit");
      await openFile("src/main.ts");
      check(
        (await codeText()).includes('console.log("total", formatPrice(cart.total()));'),
        "main.ts edited",
      );
      await shot("11-stream-applied");
    },
  );
} catch {
  // reported by step()
} finally {
  await context.close();
}
const STEPS = 10;
const passed = results.filter((r) => r.ok).length;
console.log(`playground browser ${passed}/${STEPS}`);
process.exit(passed === STEPS && results.length === STEPS ? 0 : 1);
