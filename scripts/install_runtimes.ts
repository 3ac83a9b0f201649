/**
 * Install what the Node, Bun, Chromium and workerd conformance runs need,
 * idempotently (well under 2 s when already done):
 *   - `tools/`: `npm ci` from the committed `tools/package-lock.json` (exact
 *     pins: bun — its binary comes from its npm platform package —,
 *     miniflare/workerd, esbuild, playwright-core and the browser polyfills
 *     memfs needs, and @ast-grep/cli — its binary from its platform package —
 *     for the structural search's equality table and bench). Redone only when
 *     package.json or the lock file changed.
 *   - Debian's `chromium` via apt-get, only when `/usr/bin/chromium` is absent
 *     and we are root (never `playwright install`: it downloads a browser).
 *   - Debian's `ripgrep` the same way, when `rg` is not on PATH: the text
 *     search's equality table and bench compare graver with it.
 *   - Debian's go-cmp, semver and smallvec sources the same way, when their
 *     folders are absent: the structural search's equality table's Go and
 *     Rust trees.
 * Nothing is fetched from anywhere but the npm registry and Debian's packages.
 *
 *   deno run -A scripts/install_runtimes.ts [--skip-chromium]
 *
 * @module
 */
const ROOT = new URL("../", import.meta.url).pathname;
const TOOLS = `${ROOT}tools/`;
const STAMP = `${TOOLS}node_modules/.graver-installed`;
const CHROMIUM = "/usr/bin/chromium";
const BINS = ["bun", "esbuild", "workerd", "ast-grep"];

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

async function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<void> {
  const { code } = await new Deno.Command(cmd, { args, cwd, env, stdout: "inherit", stderr: "inherit" })
    .output();
  if (code !== 0) throw new Error(`install_runtimes: "${cmd} ${args.join(" ")}" exited with ${code}`);
}

async function capture(cmd: string, args: string[]): Promise<string | null> {
  try {
    const { code, stdout } = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).output();
    return code === 0 ? new TextDecoder().decode(stdout).trim() : null;
  } catch {
    return null;
  }
}

/** SHA-256 over the files that decide what `tools/node_modules` holds. */
async function toolsFingerprint(): Promise<string> {
  const parts = await Promise.all(
    ["package.json", "package-lock.json"].map((f) => Deno.readFile(`${TOOLS}${f}`)),
  );
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length + 1, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length + 1;
  }
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function installTools(): Promise<void> {
  const want = await toolsFingerprint();
  const have = await Deno.readTextFile(STAMP).catch(() => "");
  const binsPresent = (await Promise.all(BINS.map((b) => exists(`${TOOLS}node_modules/.bin/${b}`)))).every(
    Boolean,
  );
  if (have.trim() === want && binsPresent) return;
  console.error(
    "install_runtimes: installing tools/ (npm ci: bun, miniflare/workerd, esbuild, playwright-core, ast-grep, polyfills)",
  );
  // Environment variables some packages honour: never download anything but npm tarballs.
  await run("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], TOOLS, {
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1",
    npm_config_update_notifier: "false",
  });
  const bun = await capture(`${TOOLS}node_modules/.bin/bun`, ["--version"]);
  if (bun === null) {
    throw new Error(
      "install_runtimes: tools/node_modules/.bin/bun does not run: its npm platform package (@oven/bun-linux-x64) is missing",
    );
  }
  await Deno.writeTextFile(STAMP, `${want}\n`);
}

/** Whether a command is on PATH. */
async function onPath(cmd: string): Promise<boolean> {
  return (await capture("sh", ["-c", `command -v ${cmd}`])) !== null;
}

/**
 * Install one Debian package with apt-get when `present()` says it is missing and we are root; otherwise
 * say what to install (apt-get's package lists are refreshed once per run).
 */
async function installDebian(
  pkg: string,
  what: { present: () => Promise<boolean>; why: string },
): Promise<void> {
  if (await what.present()) return;
  if (Deno.uid() !== 0) {
    console.error(
      `install_runtimes: ${pkg} is missing and we are not root: install Debian's ${pkg} (apt-get install ${pkg}) ${what.why}`,
    );
    return;
  }
  console.error(`install_runtimes: installing Debian's ${pkg} (apt-get)`);
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  if (!aptUpdated) await run("apt-get", ["update", "-qq"], ROOT, env);
  aptUpdated = true;
  await run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", pkg], ROOT, env);
  if (!(await what.present())) {
    throw new Error(`install_runtimes: apt-get installed ${pkg} but it is still missing`);
  }
}

let aptUpdated = false;

/**
 * Go and Rust sources from Debian's packages, the structural search's equality table's Go and Rust trees
 * (tests/unit/search/_astgrep.ts: `sgTrees`): each package, and the folder it installs.
 */
const SOURCE_TREES: [string, string][] = [
  ["golang-github-google-go-cmp-dev", "/usr/share/gocode/src/github.com/google/go-cmp"],
  ["librust-semver-dev", "/usr/share/cargo/registry/semver-1.0.14"],
  ["librust-smallvec-dev", "/usr/share/cargo/registry/smallvec-1.9.0"],
];

if (import.meta.main) {
  await installTools();
  if (!Deno.args.includes("--skip-chromium")) {
    await installDebian("chromium", {
      present: () => exists(CHROMIUM),
      why: "to run the browser conformance",
    });
  }
  await installDebian("ripgrep", { present: () => onPath("rg"), why: "to compare the text search with it" });
  for (const [pkg, tree] of SOURCE_TREES) {
    await installDebian(pkg, {
      present: () => exists(tree),
      why: "to compare the structural search with ast-grep on it",
    });
  }
}
