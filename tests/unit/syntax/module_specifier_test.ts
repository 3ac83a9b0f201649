import assert from "node:assert/strict";
import { ModuleResolver } from "../../../src/syntax/module_resolution.ts";
import {
  ecmaSpecifier,
  isRelativeSpecifier,
  pythonModuleParts,
  pythonSpecifier,
  relativeSpecifier,
} from "../../../src/syntax/module_specifier.ts";

Deno.test("relativeSpecifier() and isRelativeSpecifier() agree on ./ and ../ forms", () => {
  assert.equal(relativeSpecifier("", "lib/a"), "./lib/a");
  assert.equal(relativeSpecifier("src/a/b", "src/c"), "../../c");
  assert.equal(relativeSpecifier("src", "src"), ".");
  for (const s of [".", "..", "./a", "../a"]) assert.equal(isRelativeSpecifier(s), true, s);
  for (const s of ["a", ".a", "@scope/a", "...a"]) assert.equal(isRelativeSpecifier(s), false, s);
});

Deno.test("ecmaSpecifier() keeps the old specifier's habit (extension, index folder) and checks it resolves", () => {
  const r = new ModuleResolver(["src/b.ts", "lib/a.ts", "lib/d/index.ts", "src/x.ts"]);
  const old = (source: string, target: string) => ({ source, target });
  assert.equal(
    ecmaSpecifier(r, { from: "src/b.ts", target: "lib/a.ts", old: old("./a", "src/a.ts") }),
    "../lib/a",
  );
  assert.equal(
    ecmaSpecifier(r, { from: "src/b.ts", target: "lib/a.ts", old: old("./a.ts", "src/a.ts") }),
    "../lib/a.ts",
  );
  assert.equal(
    ecmaSpecifier(r, {
      from: "src/b.ts",
      target: "lib/d/index.ts",
      old: old("./d/index.js", "src/d/index.ts"),
    }),
    "../lib/d/index.js",
  );
  assert.equal(ecmaSpecifier(r, { from: "src/b.ts", target: "gone.ts", old: old("./x", "src/x.ts") }), null);
});

Deno.test("pythonSpecifier() writes relative or absolute like the old name; pythonModuleParts() names packages", () => {
  assert.deepEqual(pythonModuleParts("pkg/sub/__init__.py"), ["pkg", "sub"]);
  assert.deepEqual(pythonModuleParts("pkg/m.pyi"), ["pkg", "m"]);
  assert.equal(pythonModuleParts("pkg/m.ts"), null);
  const r = new ModuleResolver([
    "pkg/__init__.py",
    "pkg/sub/__init__.py",
    "pkg/sub/m.py",
    "pkg/x.py",
    "top.py",
  ]);
  // A relative name stays relative (`...top`: up from pkg.sub to the root); an absolute one stays absolute.
  const old = { source: "..x", target: "pkg/x.py" };
  assert.equal(pythonSpecifier(r, { from: "pkg/sub/m.py", target: "top.py", old }), "...top");
  assert.equal(
    pythonSpecifier(r, {
      from: "pkg/x.py",
      target: "pkg/sub/m.py",
      old: { source: "pkg.m", target: "pkg/m.py" },
    }),
    "pkg.sub.m",
  );
});
