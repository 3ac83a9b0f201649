import assert from "node:assert/strict";
import { keywordParameter } from "../../../../src/structural/references/keyword_parameter.ts";
import { projectOf } from "../_fixtures.ts";

Deno.test("keywordParameter() ties a keyword argument to the parameter of a function or of a class's __init__", async () => {
  const text = [
    "class Box:",
    "    def __init__(self, size):",
    "        self.size = size",
    "",
    "def make(size, label=None):",
    "    return Box(size=size)",
    "",
    "make(size=1, label='x')",
    "print(sep='')",
    "",
  ].join("\n");
  const project = await projectOf({ "m.py": text });
  const fb = (await project.bindings("m.py"))!;
  const keywords = fb.occurrences.filter((o) => o.kind === "keyword");
  const params = keywords.map((o) => {
    const p = keywordParameter(fb, o);
    return p ? `${o.name}@${text.slice(0, p.scope.start).split("\n").length}` : null;
  });
  // Box(size=…) names __init__'s parameter; make(size=…, label=…) names make's; print is not declared here
  assert.deepEqual(params, ["size@2", "size@5", "label@5", null]);
});
