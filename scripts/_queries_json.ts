/**
 * Build the text of `grammars/queries.json` (shared by the embed script and
 * the unit test that checks it is current).
 *
 * @module
 */

interface NodeType {
  type: string;
  named: boolean;
  subtypes?: { type: string; named: boolean }[];
  fields?: Record<string, { types: { type: string; named: boolean }[] }>;
  children?: { types: { type: string; named: boolean }[] };
}

/**
 * The grammar package's `node-types.json` for a language (under the repository's `node_modules/`), chosen by
 * the wasm file's name when a package holds several grammars (typescript/tsx, php/php_only); null if absent.
 */
async function nodeTypes(repo: URL, pkg: string, wasmFile: string): Promise<NodeType[] | null> {
  const dir = new URL(`node_modules/${pkg}/`, repo);
  const dialect = wasmFile.replace(/^tree-sitter-/, "").replace(/\.wasm$/, "");
  for (const rel of [`${dialect}/src/node-types.json`, "src/node-types.json"]) {
    try {
      return JSON.parse(await Deno.readTextFile(new URL(rel, dir))) as NodeType[];
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  }
  return null;
}

/**
 * What the symbol engine may skip asking the tree, read from the grammar's own node types: which node types
 * can sit directly in a wrapper (only those can have one), and which have a `body` or a `value` field.
 */
function shapeOf(
  types: NodeType[],
  wrappers: string[],
): { wrappable: string[]; body: string[]; value: string[] } {
  const byName = new Map(types.filter((t) => t.named).map((t) => [t.type, t]));
  const expand = (name: string, out: Set<string>) => {
    const t = byName.get(name);
    if (t?.subtypes) { for (const s of t.subtypes) expand(s.type, out); }
    else out.add(name);
  };
  const wrappable = new Set<string>();
  for (const w of wrappers) {
    const t = byName.get(w);
    if (!t) continue;
    for (const f of Object.values(t.fields ?? {})) {
      for (const c of f.types) if (c.named) expand(c.type, wrappable);
    }
    for (const c of t.children?.types ?? []) if (c.named) expand(c.type, wrappable);
  }
  const withField = (field: string) =>
    types.filter((t) => t.fields?.[field] !== undefined).map((t) => t.type).sort();
  return { wrappable: [...wrappable].sort(), body: withField("body"), value: withField("value") };
}

/**
 * Read every `grammars/<lang>/queries/*.scm` and `grammars/<lang>/symbols.json`, and add to the symbol rules
 * the shape of each language's nodes (see {@linkcode shapeOf}) from its grammar package's `node-types.json`.
 *
 * @param root URL of the `grammars/` directory (with a trailing slash).
 * @returns The JSON text (sorted keys, trailing newline).
 */
export async function buildQueriesJson(root: URL): Promise<string> {
  const languages: Record<string, { queries: Record<string, string>; symbols?: unknown }> = {};
  const manifest = JSON.parse(await Deno.readTextFile(new URL("manifest.json", root))) as {
    languages: Record<string, { package: string; file: string }>;
  };
  const repo = new URL("../", root);
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
    const grammar = manifest.languages[lang];
    const rules = entry.symbols as { wrappers?: string[] } | undefined;
    if (grammar && rules) {
      const types = await nodeTypes(repo, grammar.package, grammar.file);
      if (types) (entry.symbols as Record<string, unknown>)["shape"] = shapeOf(types, rules.wrappers ?? []);
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
