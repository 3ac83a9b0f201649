/**
 * The `graver` CLI entry for Deno (`deno task graver ...`).
 *
 * @module
 */
import { runCli } from "../../surfaces/cli.ts";
import { createDiskBackend, createWasmLoader } from "./mod.ts";

/** Read all of stdin as text. */
async function readStdin(): Promise<string> {
  return await new Response(Deno.stdin.readable).text();
}

if (import.meta.main) {
  const encoder = new TextEncoder();
  const code = await runCli(Deno.args, {
    stdout: (t) => Deno.stdout.writeSync(encoder.encode(t)),
    stderr: (t) => Deno.stderr.writeSync(encoder.encode(t)),
    readStdin,
    readHostFile: (p) => Deno.readTextFile(p),
    cwd: Deno.env.get("INIT_CWD") ?? Deno.cwd(),
    backend: createDiskBackend(),
    wasm: createWasmLoader(),
  });
  Deno.exit(code);
}
