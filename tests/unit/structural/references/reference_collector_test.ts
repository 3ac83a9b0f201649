import assert from "node:assert/strict";
import { Collector } from "../../../../src/structural/references/reference_collector.ts";
import { projectOf } from "../_fixtures.ts";

/** Each file's sites as `path:line` of the named occurrences. */
function sitesOf(collector: Collector, texts: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [path, sites] of collector.sites) {
    for (const start of sites.keys()) out.push(`${path}:${texts[path]!.slice(0, start).split("\n").length}`);
  }
  return out.sort();
}

Deno.test("Collector follows a binding into the files that import it, through a re-export", async () => {
  const files = {
    "a.ts": "export function helper() {}\nhelper();\n",
    "index.ts": 'export { helper } from "./a";\n',
    "b.ts": 'import { helper } from "./index";\nhelper();\n',
    "c.ts": "function helper() {}\nhelper();\n",
  };
  const project = await projectOf(files);
  const fb = (await project.bindings("a.ts"))!;
  const collector = new Collector(project);
  await collector.binding(fb, fb.scopes[0]!.bindings.get("helper")!, true);
  assert.deepEqual(sitesOf(collector, files), ["a.ts:1", "a.ts:2", "b.ts:1", "b.ts:2", "index.ts:1"]);
});
