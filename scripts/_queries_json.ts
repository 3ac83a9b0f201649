/**
 * Build the text of `grammars/queries.json` (shared by the embed script and
 * the unit test that checks it is current).
 *
 * @module
 */

/**
 * Read every `grammars/<lang>/queries/*.scm` and `grammars/<lang>/symbols.json`.
 *
 * @param root URL of the `grammars/` directory (with a trailing slash).
 * @returns The JSON text (sorted keys, trailing newline).
 */
export async function buildQueriesJson(root: URL): Promise<string> {
  const languages: Record<string, { queries: Record<string, string>; symbols?: unknown }> = {};
  const dirs: string[] = [];
  for await (const e of Deno.readDir(root)) if (e.isDirectory && e.name !== "wasm") dirs.push(e.name);
  dirs.sort();
  for (const lang of dirs) {
    const entry: { queries: Record<string, string>; symbols?: unknown } = { queries: {} };
    const qdir = new URL(`${lang}/queries/`, root);
    const files: string[] = [];
    try {
      for await (const e of Deno.readDir(qdir)) if (e.isFile && e.name.endsWith(".scm")) files.push(e.name);
    } catch {
      // no queries for this language
    }
    files.sort();
    for (const f of files) entry.queries[f.slice(0, -4)] = await Deno.readTextFile(new URL(f, qdir));
    try {
      entry.symbols = JSON.parse(await Deno.readTextFile(new URL(`${lang}/symbols.json`, root)));
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    if (files.length > 0 || entry.symbols !== undefined) languages[lang] = entry;
  }
  // "; inherits: base" on the first line: the base language's query follows the dialect's own.
  for (const entry of Object.values(languages)) {
    for (const [name, text] of Object.entries(entry.queries)) {
      const m = /^; inherits: ([\w,]+)/.exec(text);
      if (!m) continue;
      const bases = m[1]!.split(",").map((b) => languages[b]?.queries[name] ?? "");
      entry.queries[name] = [text, ...bases].join("\n");
    }
  }
  return JSON.stringify({ generated_by: "scripts/embed_queries.ts", languages }, null, 2) + "\n";
}
