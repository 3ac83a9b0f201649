import assert from "node:assert/strict";
import { BackendFs, createMemoryBackend } from "../../../../src/mod.ts";
import { Sandbox } from "../../../../src/fs/sandbox.ts";
import { Stage } from "../../../../src/fs/stage.ts";
import {
  allows,
  declaredVersion,
  SYNTAX_SINCE,
  tooNew,
} from "../../../../src/structural/edit/target_version.ts";

function stageOf(files: Record<string, string>): Stage {
  return new Stage(BackendFs.wrap(createMemoryBackend(files)), new Sandbox("/"));
}

// Shaped like click 8.4.0's pyproject.toml (its installed METADATA says `Requires-Python: >=3.10`).
const CLICK_PYPROJECT = `[project]
name = "click"
version = "8.4.0"
requires-python = ">=3.10"
dependencies = [
    "colorama; platform_system == 'Windows'",
]

[tool.mypy]
python_version = "3.10"
`;

Deno.test("declaredVersion() reads requires-python from the nearest pyproject.toml above the file", async () => {
  const stage = stageOf({ "/pyproject.toml": CLICK_PYPROJECT, "/src/click/utils.py": "" });
  const v = await declaredVersion(stage, "src/click/utils.py", "python");
  assert.deepEqual(v, {
    family: "python",
    version: [3, 10],
    written: ">=3.10",
    source: "pyproject.toml",
    field: "project.requires-python",
  });
  // A nearer folder's declaration wins; one without the field is passed over.
  const nested = stageOf({
    "/pyproject.toml": CLICK_PYPROJECT,
    "/tools/pyproject.toml": '[project]\nrequires-python = "~=3.12"\n',
    "/tools/sub/pyproject.toml": "[tool.black]\nline-length = 100\n",
  });
  assert.deepEqual((await declaredVersion(nested, "tools/sub/x.py", "python"))?.version, [3, 12]);
  assert.equal((await declaredVersion(nested, "tools/sub/x.py", "python"))?.source, "tools/pyproject.toml");
});

Deno.test("declaredVersion() reads setup.cfg, Poetry, tsconfig (with comments) and Cargo.toml", async () => {
  const stage = stageOf({
    "/a/setup.cfg": "[metadata]\nname = a\n\n[options]\npython_requires = >=3.8, !=3.9.0, <4\n",
    "/b/pyproject.toml": '[tool.poetry.dependencies]\npython = "^3.9"\n',
    "/c/tsconfig.json":
      '{\n  // build\n  "compilerOptions": { "target": "ES2017", /* old */ "strict": true, },\n}\n',
    "/d/Cargo.toml": '[package]\nname = "ignore"\nversion = "0.4.23"\nedition = "2021"\n',
    "/e/pyproject.toml": '[project]\nrequires-python = "<4"\n',
  });
  assert.deepEqual((await declaredVersion(stage, "a/m.py", "python"))?.version, [3, 8]);
  assert.deepEqual(
    (await declaredVersion(stage, "b/m.py", "python"))?.field,
    "tool.poetry.dependencies.python",
  );
  assert.deepEqual((await declaredVersion(stage, "b/m.py", "python"))?.version, [3, 9]);
  assert.deepEqual((await declaredVersion(stage, "c/src/x.ts", "typescript"))?.version, [2017]);
  assert.deepEqual((await declaredVersion(stage, "d/src/lib.rs", "rust"))?.version, [2021]);
  assert.equal(await declaredVersion(stage, "e/m.py", "python"), null, "no lower bound: nothing declared");
  assert.equal(await declaredVersion(stage, "c/x.go", "go"), null);
});

Deno.test("allows() compares the declared floor with the syntax table; tooNew() names both", () => {
  const declared = {
    family: "python" as const,
    version: [3, 10],
    written: ">=3.10",
    source: "pyproject.toml",
    field: "project.requires-python",
  };
  assert.equal(allows(declared, SYNTAX_SINCE.python.fstring_quote_reuse), false);
  assert.equal(allows(declared, SYNTAX_SINCE.python.match_statement), true);
  assert.equal(allows({ ...declared, version: [3, 12] }, SYNTAX_SINCE.python.fstring_quote_reuse), true);
  assert.equal(allows(null, SYNTAX_SINCE.python.fstring_quote_reuse), true);
  assert.equal(
    tooNew(declared, SYNTAX_SINCE.python.fstring_quote_reuse),
    'an f-string replacement field that reuses the f-string\'s own quote (PEP 701) needs Python 3.12, and pyproject.toml declares requires-python ">=3.10"',
  );
});
