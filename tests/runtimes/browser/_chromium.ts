/**
 * The Deno side of a Chromium run, shared by the browser conformance and the
 * playground test: check that Debian's `/usr/bin/chromium` is there, then run
 * a Node driver script (playwright-core) with a throw-away profile and
 * caches, and return its exit code.
 *
 * @module
 */
import { relay } from "../_harness.ts";

/** Exit with a clear message when `/usr/bin/chromium` is missing. */
export async function requireChromium(what: string): Promise<void> {
  try {
    await Deno.stat("/usr/bin/chromium");
  } catch {
    console.error(
      `Cannot run ${what}: "/usr/bin/chromium" is missing (deno run -A scripts/install_runtimes.ts)`,
    );
    Deno.exit(1);
  }
}

/**
 * Run a driver with Node: `node <script> <url> <profile dir> ...args`, in a fresh temporary profile.
 *
 * @param script Driver path, relative to the repository root.
 * @param url The page to open.
 * @param args More arguments after the profile dir.
 * @returns The driver's exit code.
 */
export async function driveChromium(script: string, url: string, args: string[] = []): Promise<number> {
  const userDataDir = await Deno.makeTempDir({ prefix: "graver-chromium-" });
  try {
    // Chromium's per-user caches and config (dconf, fontconfig) go into the throw-away dir too.
    const env = { XDG_CACHE_HOME: `${userDataDir}/cache`, XDG_CONFIG_HOME: `${userDataDir}/config` };
    return await relay("node", [script, url, `${userDataDir}/profile`, ...args], env);
  } finally {
    await Deno.remove(userDataDir, { recursive: true }).catch(() => {});
  }
}
