/**
 * Idempotent set-up, run by the tasks themselves (nothing manual):
 *   deno run -A scripts/setup.ts          npm deps via deno + vendored, hash-checked wasm, and the
 *                                         bin/graver launcher (scripts/launcher.ts)
 *   deno run -A scripts/setup.ts --all    also the other runtimes' tools (Node tools, Bun,
 *                                         miniflare, esbuild, playwright-core, Debian chromium)
 *
 * @module
 */
import { installLauncher } from "./launcher.ts";

const ROOT = new URL("../", import.meta.url).pathname;

async function run(cmd: string, args: string[], opts: { cwd?: string } = {}): Promise<void> {
  const child = new Deno.Command(cmd, { args, cwd: opts.cwd ?? ROOT, stdout: "inherit", stderr: "inherit" });
  const { code } = await child.output();
  if (code !== 0) throw new Error(`setup: "${cmd} ${args.join(" ")}" exited with ${code}`);
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

// 1. npm packages pinned in deno.json (+ deno.lock), installed into node_modules/.
if (!(await exists(`${ROOT}node_modules/web-tree-sitter/package.json`))) {
  await run(Deno.execPath(), ["install", "--frozen"]);
}
// 2. wasm copied from the pinned packages and verified against the manifests.
await run(Deno.execPath(), ["run", "-A", `${ROOT}scripts/vendor_wasm.ts`]);

// 3. bin/graver: the CLI run by this very Deno binary, without npx or the task runner.
await installLauncher(`${ROOT}bin/graver`, ROOT);

if (Deno.args.includes("--all")) {
  await run(Deno.execPath(), ["run", "-A", `${ROOT}scripts/install_runtimes.ts`]);
}
