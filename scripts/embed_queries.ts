/**
 * Generate `grammars/queries.json` from `grammars/<lang>/queries/*.scm` and
 * `grammars/<lang>/symbols.json`, so every runtime (browsers and workerd
 * included) gets the queries through a JSON import.
 *
 *   deno run -A scripts/embed_queries.ts          write grammars/queries.json
 *   deno run -A scripts/embed_queries.ts --check  exit 1 when it is out of date
 *
 * @module
 */
import { buildQueriesJson } from "./_queries_json.ts";

const root = new URL("../grammars/", import.meta.url);
const out = new URL("queries.json", root);
const json = await buildQueriesJson(root);
if (Deno.args.includes("--check")) {
  let current = "";
  try {
    current = await Deno.readTextFile(out);
  } catch {
    current = "";
  }
  if (current !== json) {
    console.error("grammars/queries.json is out of date: run deno run -A scripts/embed_queries.ts");
    Deno.exit(1);
  }
  console.log("grammars/queries.json is up to date");
} else {
  await Deno.writeTextFile(out, json);
  console.log(`wrote ${out.pathname}`);
}
