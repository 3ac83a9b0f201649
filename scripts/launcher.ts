/**
 * The `bin/graver` launcher `deno task setup` writes: a small sh script that
 * runs graver's CLI with the Deno binary that ran the set-up (the one npx
 * cached, or the one on PATH), so that one call costs what graver's work
 * costs, not npx resolving a package (~1.5 s) or the task runner starting.
 * It falls back to `deno` on PATH, then to `npx -y deno@2.9.6`, when that
 * binary has gone (an npx cache cleaned).
 *
 *   deno run -A scripts/launcher.ts [OUT]    (re)write the launcher (default: bin/graver)
 *
 * @module
 */

/** The Deno version the project pins (the README's `npx -y deno@…`). */
export const DENO_VERSION = "2.9.6";

/**
 * V8 flags the launcher passes (none today). Candidates for the first call's extra cost (wasm running in
 * V8's baseline tier until the optimised code is ready, young-generation size, tier-up budget) are measured
 * by bench/first_call.bench.ts: none lowered what one CLI call pays, set-up included (optimising all wasm up
 * front makes the first parse faster and the set-up slower by more). A flag that does goes here.
 */
export const CLI_V8_FLAGS: readonly string[] = [];

/** Quote a string for sh (single quotes; a quote inside closes, escapes and reopens). */
function shQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/**
 * The launcher's text.
 *
 * @param root The graver checkout (absolute, where deno.json is).
 * @param deno The Deno binary to run (absolute).
 * @returns An sh script.
 */
export function launcherScript(root: string, deno: string): string {
  const base = root.endsWith("/") ? root.slice(0, -1) : root;
  const flags = CLI_V8_FLAGS.length > 0 ? ` --v8-flags=${CLI_V8_FLAGS.join(",")}` : "";
  return `#!/bin/sh
# graver's CLI launcher, written by \`deno task setup\` (scripts/launcher.ts); not tracked by git.
# Runs the CLI with the Deno binary that ran the set-up, skipping npx and the task runner.
# Works from any directory: graver works on the current one (or --root DIR).
DENO=${shQuote(deno)}
ROOT=${shQuote(base)}
if [ ! -x "$DENO" ]; then
  DENO=$(command -v deno) || exec npx -y deno@${DENO_VERSION} run -A --config "$ROOT/deno.json"${flags} "$ROOT/src/adapters/deno/cli.ts" "$@"
fi
exec "$DENO" run -A --config "$ROOT/deno.json"${flags} "$ROOT/src/adapters/deno/cli.ts" "$@"
`;
}

/**
 * Write the launcher (executable).
 *
 * @param out Where (e.g. `<root>/bin/graver`).
 * @param root The graver checkout.
 * @param deno The Deno binary (default: the one running this).
 */
export async function installLauncher(
  out: string,
  root: string,
  deno: string = Deno.execPath(),
): Promise<void> {
  const dir = out.slice(0, out.lastIndexOf("/"));
  if (dir) await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(out, launcherScript(root, deno));
  await Deno.chmod(out, 0o755);
}

if (import.meta.main) {
  const root = new URL("../", import.meta.url).pathname;
  const out = Deno.args[0] ?? `${root}bin/graver`;
  await installLauncher(out, root);
  console.log(`launcher: ${out} runs ${Deno.execPath()}`);
}
