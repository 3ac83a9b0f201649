import assert from "node:assert/strict";
import { Stage } from "../../../../src/fs/stage.ts";
import { ProjectFiles } from "../../../../src/structural/shared/project_files.ts";
import {
  classNamed,
  Collector,
  keywordParameter,
} from "../../../../src/structural/references/reference_collector.ts";
import { workspaceWith } from "../_fixtures.ts";

async function projectOf(files: Record<string, string>): Promise<ProjectFiles> {
  const ws = await workspaceWith(files);
  const project = new ProjectFiles(ws, new Stage(ws.fs, ws.sandbox));
  await project.open();
  return project;
}

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

Deno.test("keywordParameter() and classNamed() tie a keyword argument to its parameter and a name to its class", async () => {
  const text = [
    "class Box:",
    "    def __init__(self, size):",
    "        self.size = size",
    "",
    "def make(size, label=None):",
    "    return Box(size=size)",
    "",
    "make(size=1, label='x')",
    "",
  ].join("\n");
  const project = await projectOf({ "m.py": text });
  const fb = (await project.bindings("m.py"))!;
  const keywords = fb.occurrences.filter((o) => o.kind === "keyword");
  const params = keywords.map((o) => {
    const p = keywordParameter(fb, o);
    return p ? `${o.name}@${text.slice(0, p.scope.start).split("\n").length}` : null;
  });
  // Box(size=…) names __init__'s parameter; make(size=…, label=…) names make's
  assert.deepEqual(params, ["size@2", "size@5", "label@5"]);
  const box = fb.scopes[0]!.bindings.get("Box")!;
  assert.equal(classNamed(fb, box)?.kind, "class");
  assert.equal(classNamed(fb, fb.scopes[0]!.bindings.get("make")), null);
});
