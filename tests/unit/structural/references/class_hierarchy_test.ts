import assert from "node:assert/strict";
import { ClassHierarchy, classNamed } from "../../../../src/structural/references/class_hierarchy.ts";
import { projectOf } from "../_fixtures.ts";

Deno.test("classNamed() finds the class a name declares in its file, and nothing for a function", async () => {
  const project = await projectOf({ "m.py": "class Box:\n    pass\n\ndef make():\n    return Box()\n" });
  const fb = (await project.bindings("m.py"))!;
  assert.equal(classNamed(fb, fb.scopes[0]!.bindings.get("Box"))?.kind, "class");
  assert.equal(classNamed(fb, fb.scopes[0]!.bindings.get("make")), null);
});

Deno.test("ClassHierarchy follows a member across imported bases and derived classes, not into classes that redeclare it statically", async () => {
  const files = {
    "base.ts": "export class Base {\n  size(): number { return 1; }\n}\n",
    "box.ts":
      'import { Base } from "./base";\nexport class Box extends Base {\n  size(): number { return 2; }\n}\n',
    "crate.ts":
      'import { Box } from "./box";\nexport class Crate extends Box {}\nexport class Other {\n  size = 3;\n}\n',
  };
  const project = await projectOf(files);
  const classes = new ClassHierarchy(project);
  const box = (await project.bindings("box.ts"))!;
  const boxClass = classNamed(box, box.scopes[0]!.bindings.get("Box"))!;
  const family = await classes.hierarchy({ fb: box, scope: boxClass }, "size", true);
  const named = family.map((c) => `${c.fb.path}:${c.fb.text.slice(c.scope.nameStart).match(/^\w+/)![0]}`);
  assert.deepEqual(named.sort(), ["base.ts:Base", "box.ts:Box", "crate.ts:Crate"]);
  // The class a written type names: `b: Box` in another file reaches box.ts's Box.
  const user = await projectOf({
    ...files,
    "use.ts": 'import { Box } from "./box";\nfunction f(b: Box) {\n  b.size();\n}\n',
  });
  const ufb = (await user.bindings("use.ts"))!;
  const b = ufb.occurrences.find((o) => o.name === "b" && o.kind === "definition")!.binding;
  const declared = await new ClassHierarchy(user).declaredClass(ufb, b);
  assert.equal(declared?.fb.path, "box.ts");
});
