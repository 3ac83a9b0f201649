/**
 * The modules an entry evaluates when it is imported: its static value imports, transitively (no `import
 * type`, no `import()`), as `deno info` resolves them. What loads lazily is left out, so a test can hold a
 * path to loading only what it needs.
 *
 * @module
 */
import assert from "node:assert/strict";

const SRC = new URL("../../src/", import.meta.url);

/**
 * The src-relative modules `entry` evaluates at start.
 *
 * @param entry A module, relative to `src/` (e.g. `"tools/catalogue.ts"`).
 * @returns Every module of `src/` it evaluates, itself included (e.g. `"fs/stage.ts"`).
 */
export async function startGraph(entry: string): Promise<Set<string>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL(entry, SRC).href],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: { specifier: string; dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[] }[];
  };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const visit = (specifier: string) => {
    if (seen.has(specifier)) return;
    seen.add(specifier);
    for (const d of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (d.code && !d.isDynamic) visit(d.code.specifier);
    }
  };
  visit(new URL(entry, SRC).href);
  return new Set([...seen].filter((s) => s.startsWith(SRC.href)).map((s) => s.slice(SRC.href.length)));
}
