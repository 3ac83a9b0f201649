import assert from "node:assert/strict";
import { snapshot } from "../../_helpers.ts";
import {
  assertSameTargets,
  type Files,
  pythonEmail,
  runIn,
  rxjsCjs,
  storedFiles,
} from "../structural/_module_check.ts";
import { createDiskBackend, createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createWorkspace } from "../../../src/workspace.ts";
import { ok, RXJS, workspaceOf } from "./_bindings_fixtures.ts";

function prefixed(files: Files): Files {
  return Object.fromEntries(Object.entries(files).map(([k, v]) => [`/${k}`, v]));
}

Deno.test("move_file() on rxjs's CommonJS build: every require of a deep file follows it, and rxjs still runs", async () => {
  const before = rxjsCjs();
  const ws = await workspaceOf(prefixed(before));
  const from = "rxjs/internal/util/isFunction.js";
  const to = "rxjs/internal/helpers/predicates/isFunction.js";
  const res = ok(await ws.call("move_file", { from, to }));
  const imports = res.data["imports"] as {
    updated: { path: string }[];
    files: string[];
    unresolved: unknown[];
  };
  assert.deepEqual(imports.unresolved, []);
  assert.ok(imports.files.length >= 20, `${imports.files.length} files`);
  const paths = Object.keys(before).filter((p) => p !== from).concat([to]);
  const after = await storedFiles(ws, paths);
  await assertSameTargets(before, after, { [from]: to });
  assert.match(
    after["rxjs/internal/util/isScheduler.js"]!,
    /require\("\.\.\/helpers\/predicates\/isFunction"\)/,
  );
  assert.match(after[to]!, /^"use strict";/);
  const out = await runIn(after, [
    "node",
    "-e",
    'const r = require("./rxjs/index.js"); r.of(1, 2, 3).pipe(r.map((x) => x * 2), r.filter((x) => x > 2)).subscribe((x) => console.log(x));',
  ]);
  assert.equal(out, "4\n6\n");
});

Deno.test("move_file() on Python's email package: from-imports, import email.x chains, and python3 still runs it", async () => {
  const before = pythonEmail();
  const ws = await workspaceOf(prefixed(before));
  const from = "email/charset.py";
  const to = "email/codecs/charset.py";
  const res = ok(await ws.call("move_file", { from, to }));
  const imports = res.data["imports"] as { unresolved: unknown[] };
  assert.deepEqual(imports.unresolved, []);
  const paths = Object.keys(before).filter((p) => p !== from).concat([to]);
  const after = await storedFiles(ws, paths);
  await assertSameTargets(before, after, { [from]: to });
  assert.match(after["email/message.py"]!, /^from email\.codecs import charset as _charset$/m);
  assert.match(after["email/utils.py"]!, /^from email\.codecs\.charset import Charset$/m);
  const cm = after["email/contentmanager.py"]!;
  assert.match(cm, /^import email\.codecs\.charset$/m);
  assert.ok(!/email\.charset/.test(cm), "every email.charset chain follows the module");
  const out = await runIn(after, [
    "python3",
    "-c",
    [
      "import email, email.message, email.policy",
      "assert email.__file__.startswith(__import__('os').environ['PYTHONPATH'])",
      "m = email.message.EmailMessage(policy=email.policy.default)",
      "m['Subject'] = 'héllo'",
      "m.set_content('body é')",
      "print(m.get_content_charset(), 'Subject' in m.as_string())",
    ].join("\n"),
  ]);
  assert.equal(out, "utf-8 True\n");
});

Deno.test("move_file() keeps each import's style: .js suffix, none, directory index, quotes, tsconfig alias, import(), require()", async () => {
  const ws = await workspaceOf({}, {
    "tsconfig.json": '{ "compilerOptions": { "baseUrl": ".", "paths": { "@util/*": ["src/util/*"] } } }\n',
    "src/util/str.ts": 'import { pad } from "./pad.js";\nexport const str = (s: string) => pad(s);\n',
    "src/util/pad.ts": "export const pad = (s: string) => ` ${s}`;\n",
    "src/lib/index.ts": "export const lib = 1;\n",
    "src/app.ts": [
      'import { str } from "./util/str.js";',
      "import { str as s2 } from './util/str';",
      'import { str as s3 } from "@util/str";',
      'import { lib } from "./lib";',
      'export * from "./util/str.js";',
      'const lazy = () => import("./util/str.js");',
      'const cjs = require("./util/str");',
      'import other from "react";',
      "",
    ].join("\n"),
  });
  const res = ok(await ws.call("move_file", { from: "src/util/str.ts", to: "src/text/strings/str.ts" }));
  const app = new TextDecoder().decode((await ws.fs.read("/src/app.ts"))!);
  assert.equal(
    app,
    [
      'import { str } from "./text/strings/str.js";',
      "import { str as s2 } from './text/strings/str';",
      'import { str as s3 } from "./text/strings/str";',
      'import { lib } from "./lib";',
      'export * from "./text/strings/str.js";',
      'const lazy = () => import("./text/strings/str.js");',
      'const cjs = require("./text/strings/str");',
      'import other from "react";',
      "",
    ].join("\n"),
    "the @util alias no longer names the file: the import becomes relative",
  );
  const moved = new TextDecoder().decode((await ws.fs.read("/src/text/strings/str.ts"))!);
  assert.match(
    moved,
    /^import \{ pad \} from "\.\.\/\.\.\/util\/pad\.js";$/m,
    "its own relative import follows it",
  );
  assert.equal((res.data["imports"] as { updated: unknown[] }).updated.length, 7);

  const ws2 = await workspaceOf({}, {
    "tsconfig.json": '{ "compilerOptions": { "baseUrl": ".", "paths": { "@util/*": ["src/util/*"] } } }\n',
    "src/util/a.ts": "export const a = 1;\n",
    "src/lib/index.ts": 'export { a } from "@util/a";\n',
    "src/app.ts": 'import { lib } from "./lib";\nimport { a } from "@util/a";\n',
  });
  ok(await ws2.call("move_file", { from: "src/util/a.ts", to: "src/util/deep/a.ts" }));
  assert.equal(
    new TextDecoder().decode((await ws2.fs.read("/src/app.ts"))!),
    'import { lib } from "./lib";\nimport { a } from "@util/deep/a";\n',
    "an alias that still names the file is kept",
  );
  ok(await ws2.call("move_file", { from: "src/lib/index.ts", to: "src/core/index.ts" }));
  assert.equal(
    new TextDecoder().decode((await ws2.fs.read("/src/app.ts"))!),
    'import { lib } from "./core";\nimport { a } from "@util/deep/a";\n',
    "a directory import stays a directory import",
  );
});

Deno.test("move_file() in a Python package: relative stays relative, a from-import of submodules that part ways is split", async () => {
  const ws = await workspaceOf({}, {
    "pkg/__init__.py": "",
    "pkg/a.py": "from .b import helper\nfrom . import c\n\n\ndef run():\n    return helper() + c.VALUE\n",
    "pkg/b.py": "def helper():\n    return 1\n",
    "pkg/c.py": "VALUE = 2\n",
    "pkg/main.py":
      "from . import a, c\nfrom pkg import a as again\nimport pkg.a\n\nprint(a.run(), pkg.a.run(), c.VALUE)\n",
  });
  ok(await ws.call("move_file", { from: "pkg/a.py", to: "pkg/sub/a.py" }));
  const text = async (p: string) => new TextDecoder().decode((await ws.fs.read(`/${p}`))!);
  assert.equal(
    await text("pkg/sub/a.py"),
    "from ..b import helper\nfrom .. import c\n\n\ndef run():\n    return helper() + c.VALUE\n",
  );
  assert.equal(
    await text("pkg/main.py"),
    "from . import c\nfrom .sub import a\nfrom pkg.sub import a as again\nimport pkg.sub.a\n\nprint(a.run(), pkg.sub.a.run(), c.VALUE)\n",
  );
  const files = Object.fromEntries(
    await Promise.all(
      ["pkg/__init__.py", "pkg/sub/a.py", "pkg/b.py", "pkg/c.py", "pkg/main.py"].map(async (
        p,
      ) => [p, await text(p)]),
    ),
  );
  assert.equal(await runIn(files, ["python3", "-m", "pkg.main"]), "3 3 2\n");
});

Deno.test("move_file() update_imports false only moves; unresolved relative imports of the moved file are reported; dry_run writes nothing", async () => {
  const files = {
    "src/a.ts": 'import { b } from "./b";\nimport x from "./missing";\nexport const a = b;\n',
    "src/b.ts": "export const b = 1;\n",
    "src/c.ts": 'import { a } from "./a";\n',
  };
  const ws = await workspaceOf({}, files);
  const before = await snapshot(ws.fs.raw, "/");
  const dry = ok(await ws.call("move_file", { from: "src/a.ts", to: "lib/a.ts", dry_run: true }));
  assert.equal(dry.status, "dry_run");
  assert.deepEqual(dry.changes.map((c) => c.path).sort(), ["lib/a.ts", "src/c.ts"]);
  assert.deepEqual(await snapshot(ws.fs.raw, "/"), before);
  const unresolved =
    (dry.data["imports"] as { unresolved: { specifier: string; line: number }[] }).unresolved;
  assert.deepEqual(unresolved.map((u) => [u.specifier, u.line]), [["./missing", 2]]);
  assert.match(dry.warnings.join("\n"), /1 import\(s\) could not be rewritten/);
  ok(await ws.call("move_file", { from: "src/a.ts", to: "lib/a.ts", update_imports: false }));
  assert.equal(new TextDecoder().decode((await ws.fs.read("/src/c.ts"))!), files["src/c.ts"]);
  assert.equal(new TextDecoder().decode((await ws.fs.read("/lib/a.ts"))!), files["src/a.ts"]);
});

Deno.test("move_file() on rxjs's TypeScript sources: barrels and importers of map.ts follow it, every import still names the same file", async () => {
  const before = Object.fromEntries(Object.entries(RXJS).map(([k, v]) => [k.slice(1), v]));
  const ws = await workspaceOf(RXJS);
  const from = "internal/operators/map.ts";
  const to = "internal/operators/projection/map.ts";
  const res = ok(await ws.call("move_file", { from, to }));
  const imports = res.data["imports"] as { files: string[]; unresolved: unknown[] };
  assert.deepEqual(imports.unresolved, []);
  assert.ok(imports.files.includes("index.ts") && imports.files.includes("operators/index.ts"));
  const after = await storedFiles(ws, Object.keys(before).filter((p) => p !== from).concat([to]));
  await assertSameTargets(before, after, { [from]: to });
  assert.match(after["index.ts"]!, /export \{ map \} from '\.\/internal\/operators\/projection\/map';/);
  assert.match(after[to]!, /import \{ operate \} from '\.\.\/\.\.\/util\/lift';/);
});

/** The standard library of the machine's python3 (where its `email` and `test/test_email` live). */
function pythonStdlib(): string {
  const out = new Deno.Command("python3", {
    args: ["-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"],
  }).outputSync();
  assert.ok(out.success, "python3 runs");
  return new TextDecoder().decode(out.stdout).trim();
}

/** Copy a directory tree (skipping __pycache__). */
async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.name === "__pycache__") continue;
    if (e.isDirectory) await copyTree(`${from}/${e.name}`, `${to}/${e.name}`);
    else if (e.isFile) await Deno.copyFile(`${from}/${e.name}`, `${to}/${e.name}`);
  }
}

Deno.test("move_file() on Python's email package with test_email: `import email` + email.utils.x uses follow the module, and the tests still pass", async () => {
  const lib = pythonStdlib();
  const dir = await Deno.makeTempDir();
  try {
    await copyTree(`${lib}/email`, `${dir}/email`);
    await copyTree(`${lib}/test/test_email`, `${dir}/test/test_email`);
    // Our `test` package holds test_email and passes everything else on to the standard library's.
    await Deno.writeTextFile(
      `${dir}/test/__init__.py`,
      `__path__.append(${JSON.stringify(`${lib}/test`)})\n`,
    );
    const ws = await createWorkspace({ backend: createDiskBackend(), root: dir, wasm: createWasmLoader() });
    const res = ok(await ws.call("move_file", { from: "email/utils.py", to: "email/utils_soak.py" }));
    const updated = (res.data["imports"] as { updated: { path: string; before: string; after: string }[] })
      .updated;
    const suite = await Deno.readTextFile(`${dir}/test/test_email/test_email.py`);
    assert.match(suite, /^import email$/m, "the test module imports only the package");
    const code = suite.split("\n").filter((l) => !/^\s*#/.test(l)).join("\n");
    assert.ok(!/email\.utils\./.test(code), "no email.utils.x is left behind (comments keep their words)");
    assert.equal(code.match(/email\.utils_soak\.make_msgid\(/g)?.length, 3);
    assert.ok(updated.some((u) => u.path === "test/test_email/test_email.py" && u.before === "email.utils"));
    const out = await new Deno.Command("python3", {
      args: ["-m", "unittest", "-q", "test.test_email.test_email", "test.test_email.test_utils"],
      cwd: dir,
      env: { PYTHONDONTWRITEBYTECODE: "1" },
    }).output();
    const text = new TextDecoder().decode(out.stderr);
    assert.ok(out.success, text.slice(-2000));
    assert.match(text, /^OK/m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("move_file() out of a package: `import pkg` + pkg.mod.x becomes pkg.sub.mod.x with `import pkg.sub.mod`, and python3 runs it", async () => {
  const ws = await workspaceOf({}, {
    "pkg/__init__.py": "",
    "pkg/sub/__init__.py": "",
    "pkg/mod.py": "def x():\n    return 41\n",
    "pkg/other.py": "from pkg import mod\n",
    "main.py":
      "import pkg\nimport pkg.other\n\n\ndef later():\n    import pkg\n    return pkg.mod.x()\n\n\nprint(pkg.mod.x() + 1, pkg . mod.__name__, later())\n",
  });
  ok(await ws.call("move_file", { from: "pkg/mod.py", to: "pkg/sub/mod.py" }));
  const after = await storedFiles(ws, [
    "pkg/__init__.py",
    "pkg/sub/__init__.py",
    "pkg/sub/mod.py",
    "pkg/other.py",
    "main.py",
  ]);
  assert.equal(
    after["main.py"],
    "import pkg\nimport pkg.sub.mod\nimport pkg.other\n\n\ndef later():\n    import pkg\n    import pkg.sub.mod\n    return pkg.sub.mod.x()\n\n\nprint(pkg.sub.mod.x() + 1, pkg.sub.mod.__name__, later())\n",
  );
  assert.equal(await runIn(after, ["python3", "main.py"]), "42 pkg.sub.mod 41\n");
});

Deno.test("move_file() refuses unresolved, writing nothing, when a dotted use may reach the module through a variable or another module's import", async () => {
  const files = {
    "pkg/__init__.py": "import pkg.sub\nfrom pkg import sub as named\n\nheld = pkg.sub\n",
    "pkg/sub/__init__.py": "",
    "pkg/sub/mod.py": "def x():\n    return 1\n",
    "main.py": "import pkg\nimport pkg.sub.mod\n\nprint(pkg.held.mod.x(), pkg.named.mod.x())\n",
  };
  const ws = await workspaceOf({}, files);
  const before = await snapshot(ws.fs.raw, "/");
  const res = await ws.call("move_file", { from: "pkg/sub/mod.py", to: "pkg/sub/mod2.py" });
  assert.ok(!res.ok);
  assert.equal(res.error.code, "unresolved");
  assert.match(res.error.message, /main\.py:4 pkg\.held\.mod/);
  const sites = (res.error.details as { unresolved: { specifier: string; line: number }[] }).unresolved;
  assert.deepEqual(sites.map((s) => [s.specifier, s.line]), [["pkg.held.mod", 4], ["pkg.named.mod", 4]]);
  assert.match(res.error.hint, /update_imports: false/);
  assert.deepEqual(await snapshot(ws.fs.raw, "/"), before);
  assert.equal(await runIn(files, ["python3", "main.py"]), "1 1\n");
});
