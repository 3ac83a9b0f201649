import assert from "node:assert/strict";
import { ModuleChains } from "../../../../src/structural/references/module_chains.ts";
import { projectOf } from "../_fixtures.ts";

Deno.test("ModuleChains walks `pkg.utils.helper` through a package's submodule, and `from pkg import utils`", async () => {
  const project = await projectOf({
    "pkg/__init__.py": "",
    "pkg/utils.py": "def helper(x):\n    return x\n",
    "a.py": "import pkg.utils\npkg.utils.helper(1)\n",
    "c.py": "from pkg import utils\nutils.helper(3)\n",
    "d.py": "import pkg\nvalue = pkg.VERSION\n",
  });
  const chains = new ModuleChains(project);
  for (const path of ["a.py", "c.py"]) {
    const fb = (await project.bindings(path))!;
    const occ = fb.occurrences.find((o) => o.name === "helper" && o.kind === "member_property")!;
    assert.equal(await chains.objectModule(fb, occ), "pkg/utils.py", path);
    const chain = (await chains.moduleChain(fb, occ, false))!;
    assert.equal(chain.end, "module");
    assert.equal(chain.hidden, path === "c.py" ? 1 : 0);
    assert.deepEqual(chain.steps.map((s) => [s.property, s.module, s.submodule]), [
      ["utils", "pkg/utils.py", true],
    ]);
  }
  // `pkg.VERSION`: the object is the package; walked with the name itself, VERSION is no module of it.
  const d = (await project.bindings("d.py"))!;
  const version = d.occurrences.find((o) => o.name === "VERSION")!;
  assert.equal(await chains.objectModule(d, version), "pkg/__init__.py");
  assert.equal((await chains.moduleChain(d, version, true))?.end, "none");
});
