/**
 * Shared by the runtime harnesses (Deno-side): paths, esbuild, and running a
 * child process whose conformance line is relayed to stdout.
 *
 * @module
 */
import { fileURLToPath } from "node:url";

/** The repository root (absolute, with a trailing slash). */
export const ROOT: string = fileURLToPath(new URL("../../", import.meta.url));

/** Where bundles go (gitignored). */
export const BUILD: string = `${ROOT}build/`;

/** CommonJS dependencies (memfs) `require` Node built-ins: this banner gives an ESM bundle a `require`. */
export const NODE_BANNER: string = 'import { createRequire as __graverRequire } from "node:module"; ' +
  "const require = __graverRequire(import.meta.url);";

/** A binary installed by `scripts/install_runtimes.ts` into `tools/node_modules/.bin/`. */
export function toolBin(name: string): string {
  return `${ROOT}tools/node_modules/.bin/${name}`;
}

/** Fail with a clear message when the runtime tools are not installed. */
export async function requireTools(...names: string[]): Promise<void> {
  for (const name of names) {
    try {
      await Deno.stat(toolBin(name));
    } catch {
      console.error(
        `Cannot find "tools/node_modules/.bin/${name}": run "deno run -A scripts/install_runtimes.ts" first`,
      );
      Deno.exit(1);
    }
  }
}

/**
 * Bundle an entry with esbuild.
 *
 * @param entry Entry file, relative to the repository root.
 * @param outfile Output file, relative to the repository root.
 * @param args Extra esbuild flags (platform, aliases, ...).
 */
export async function bundle(entry: string, outfile: string, args: string[]): Promise<void> {
  const { code, stderr } = await new Deno.Command(toolBin("esbuild"), {
    args: [entry, "--bundle", "--format=esm", `--outfile=${outfile}`, "--log-level=error", ...args],
    cwd: ROOT,
    stdout: "inherit",
    stderr: "piped",
  }).output();
  if (code !== 0) {
    console.error(new TextDecoder().decode(stderr));
    throw new Error(`Cannot bundle "${entry}": esbuild exited with ${code}`);
  }
}

/**
 * Run a child process, relay its output, and return its exit code.
 *
 * @param cmd Executable.
 * @param args Arguments.
 * @param env Extra environment.
 * @returns The exit code.
 */
export async function relay(cmd: string, args: string[], env: Record<string, string> = {}): Promise<number> {
  const { code } = await new Deno.Command(cmd, { args, cwd: ROOT, env, stdout: "inherit", stderr: "inherit" })
    .output();
  return code;
}
