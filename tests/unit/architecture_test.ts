import assert from "node:assert/strict";

const SRC = new URL("../../src/", import.meta.url);
const RUNTIME_SPECIFIC = /\b(Deno\.|Bun\.|process\.(env|argv|cwd|exit|versions)|require\()|from\s+["']node:/;

async function* walk(dir: URL): AsyncGenerator<URL> {
  for await (const e of Deno.readDir(dir)) {
    const url = new URL(e.name + (e.isDirectory ? "/" : ""), dir);
    if (e.isDirectory) yield* walk(url);
    else if (e.name.endsWith(".ts")) yield url;
  }
}

Deno.test("core modules use web standards only (runtime code lives in src/adapters/)", async () => {
  const offenders: string[] = [];
  for await (const file of walk(SRC)) {
    const rel = file.pathname.slice(SRC.pathname.length);
    if (rel.startsWith("adapters/")) continue;
    const lines = (await Deno.readTextFile(file)).split("\n");
    lines.forEach((line, i) => {
      if (line.trim().startsWith("*") || line.trim().startsWith("//")) return;
      if (RUNTIME_SPECIFIC.test(line)) offenders.push(`src/${rel}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(offenders, []);
});
