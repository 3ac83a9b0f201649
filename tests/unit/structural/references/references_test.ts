import assert from "node:assert/strict";
import { Stage } from "../../../../src/fs/stage.ts";
import { findReferences } from "../../../../src/structural/references/references.ts";
import { planRename } from "../../../../src/structural/rename/rename.ts";
import { RXJS, workspaceOf } from "../../tools/_bindings_fixtures.ts";
import { ok } from "../_fixtures.ts";
import { runIn, storedFiles } from "../_module_check.ts";

Deno.test("findReferences() reaches importers through `export * from` barrels", async () => {
  // rxjs@7.8.2: index.ts has `export * from './internal/types'`; internal/umd.ts has `export * from '../index'`.
  const ws = await workspaceOf(RXJS, {
    "app.ts": "import { Observer } from './internal/umd';\nexport const o: Observer<number> | null = null;\n",
  });
  const res = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path: "internal/types.ts",
    target: "Observer",
    tool: "test",
  });
  const app = res.sites.filter((s) => s.path === "app.ts");
  assert.deepEqual(app.map((s) => [s.line, s.kind]), [[1, "definition"], [2, "reference"]]);
  assert.ok(res.sites.some((s) => s.path === "internal/Subscriber.ts"), "a direct importer");
  assert.equal(res.target.kind, "binding");
});

Deno.test("findReferences() resolves ns.x through a namespace import", async () => {
  const ws = await workspaceOf(RXJS, {
    "app.ts": "import * as ops from './operators/index';\nexport const f = ops.map((x: number) => x);\n",
  });
  const res = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path: "internal/operators/map.ts",
    target: "map",
    tool: "test",
  });
  const app = res.sites.filter((s) => s.path === "app.ts");
  assert.deepEqual(app.map((s) => [s.line, s.column, s.kind]), [[2, 22, "member_property"]]);
  // From the use, the same symbol.
  const back = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path: "app.ts",
    target: { line: 2, column: 22 },
    tool: "test",
  });
  assert.deepEqual(
    back.sites.map((s) => `${s.path}:${s.start}`),
    res.sites.map((s) => `${s.path}:${s.start}`),
  );
});

Deno.test("findReferences() with scope file stays in the file", async () => {
  const ws = await workspaceOf(RXJS);
  const res = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path: "internal/operators/map.ts",
    target: "map",
    tool: "test",
    scope: "file",
  });
  assert.ok(res.sites.length > 0);
  assert.ok(res.sites.every((s) => s.path === "internal/operators/map.ts"));
});

Deno.test("findReferences() follows an exported alias to its importers (export { a as b })", async () => {
  // rxjs@7.8.2 webSocket/index.ts: `export { webSocket as webSocket } from '../internal/observable/dom/webSocket';`
  const ws = await workspaceOf({}, {
    "m.ts": "function impl() {}\nexport { impl as api };\n",
    "use.ts": "import { api } from './m';\napi();\n",
  });
  const res = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path: "m.ts",
    target: { line: 2, column: 18 },
    tool: "test",
  });
  assert.equal(res.target.kind, "export");
  assert.deepEqual(res.sites.map((s) => `${s.path}:${s.line}:${s.kind}`), [
    "m.ts:2:export_alias",
    "use.ts:1:definition",
    "use.ts:2:reference",
  ]);
  const local = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path: "m.ts",
    target: "impl",
    tool: "test",
  });
  assert.deepEqual(
    local.sites.map((s) => `${s.path}:${s.line}`),
    ["m.ts:1", "m.ts:2"],
    "the alias keeps importers apart",
  );
});

Deno.test("findReferences() resolves tsconfig paths and Python relative imports", async () => {
  const ws = await workspaceOf({}, {
    "tsconfig.json":
      '{\n  // path aliases\n  "compilerOptions": { "baseUrl": ".", "paths": { "@lib/*": ["src/lib/*"] } }\n}\n',
    "src/lib/util.ts": "export function clamp(n: number) { return n; }\n",
    "src/app.ts": 'import { clamp } from "@lib/util";\nclamp(1);\n',
    "pkg/__init__.py": "",
    "pkg/core.py": "def helper(x):\n    return x\n",
    "pkg/sub/use.py": "from ..core import helper\nhelper(x=1)\n",
  });
  const ts = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path: "src/lib/util.ts",
    target: "clamp",
    tool: "test",
  });
  assert.deepEqual(ts.sites.map((s) => `${s.path}:${s.line}`), [
    "src/app.ts:1",
    "src/app.ts:2",
    "src/lib/util.ts:1",
  ]);
  const py = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path: "pkg/core.py",
    target: { line: 1, column: 12 },
    tool: "test",
  });
  assert.deepEqual(py.sites.map((s) => `${s.path}:${s.line}:${s.kind}`), [
    "pkg/core.py:1:definition",
    "pkg/core.py:2:reference",
    "pkg/sub/use.py:2:keyword",
  ]);
});

Deno.test("findReferences() in JavaScript: a method's locals, shadowed names apart (diff@9.0.0 base.js)", async () => {
  const text = Deno.readTextFileSync(new URL("../../../fixtures/symbols/base.js", import.meta.url));
  const ws = await workspaceOf({}, { "base.js": text });
  // `let callback;` in Diff.diff: its uses in that method only, not diffWithOptionsObj's parameter of the same name.
  const line = text.split("\n").findIndex((l) => l.includes("let callback;")) + 1;
  const res = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path: "base.js",
    target: { line, column: 13 },
    tool: "test",
  });
  const lines = res.sites.map((s) => s.line);
  assert.deepEqual(lines, [5, 7, 11, 18]);
  const other =
    text.split("\n").findIndex((l) =>
      l.includes("diffWithOptionsObj(oldTokens, newTokens, options, callback) {")
    ) +
    1;
  assert.ok(!lines.includes(other));
});

Deno.test("findReferences() follows Python's `from m import *` re-exports (CPython's asyncio package), both ways", async () => {
  const dir = "/usr/lib/python3.11/asyncio/";
  const files: Record<string, string> = {};
  for (const e of Deno.readDirSync(dir)) {
    if (e.isFile && e.name.endsWith(".py")) files[`asyncio/${e.name}`] = Deno.readTextFileSync(dir + e.name);
  }
  // asyncio/__init__.py holds `from .tasks import *`; the app imports sleep from the package
  files["app.py"] = "from asyncio import sleep\n\n\nasync def main():\n    await sleep(1)\n";
  const ws = await workspaceOf({}, files);
  const tasks = files["asyncio/tasks.py"]!;
  const line = tasks.slice(0, tasks.indexOf("async def sleep(")).split("\n").length;
  const from = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path: "asyncio/tasks.py",
    target: {
      line,
      column: 11,
    },
    tool: "test",
  });
  const app = from.sites.filter((s) => s.path === "app.py").map((s) => `${s.line}:${s.column}`);
  assert.deepEqual(app, ["1:21", "5:11"]);
  // from the use: the declaration in tasks.py, through the package's star import
  const back = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path: "app.py",
    target: { line: 5, column: 11 },
    tool: "test",
  });
  assert.ok(
    back.sites.some((s) => s.path === "asyncio/tasks.py" && s.line === line && s.kind === "definition"),
  );
  assert.deepEqual(
    back.sites.map((s) => `${s.path}:${s.line}`).sort(),
    from.sites.map((s) => `${s.path}:${s.line}`).sort(),
  );
});

Deno.test("findReferences() lists an import of the name from a workspace module that shows no such name as a candidate", async () => {
  const ws = await workspaceOf({}, {
    // the package sets its names at run time: nothing graver can follow
    "pkg/__init__.py": "import importlib\nglobals().update(vars(importlib.import_module('pkg.core')))\n",
    "pkg/core.py": "def helper(x):\n    return x\n",
    "app.py": "from pkg import helper\nhelper(1)\n",
    "other.py": "from pkg.core import helper as h\nh(2)\n",
  });
  const res = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path: "pkg/core.py",
    target: "helper",
    tool: "test",
  });
  // the alias h is other.py's own name: the import's `helper` is the site
  assert.deepEqual(res.sites.map((s) => `${s.path}:${s.line}`), ["other.py:1", "pkg/core.py:1"]);
  assert.deepEqual(res.unresolved.map((s) => `${s.path}:${s.line}`), ["app.py:1"]);
  // change_signature cannot prove app.py's call: it refuses instead of leaving it behind
  const sig = await ws.call("edit_change_signature", {
    path: "pkg/core.py",
    name_path: "helper",
    params: ["x", { name: "y", value: "0" }],
  });
  assert.equal(sig.ok, false);
  if (!sig.ok) assert.equal(sig.error.code, "unresolved");
});

Deno.test("findReferences() at a position with no name says what the line holds, or how long the file is", async () => {
  const ws = await workspaceOf(RXJS);
  const args = RXJS["/internal/util/args.ts"]!;
  const line = args.split("\n").findIndex((l) => l.startsWith("export function popNumber")) + 1;
  const search = (target: { line: number; column: number }) =>
    findReferences(ws, new Stage(ws.fs, ws.sandbox), { path: "internal/util/args.ts", target, tool: "test" });
  await assert.rejects(search({ line, column: 2 }), (e: Error & { hint?: string }) => {
    assert.match(e.message, /names on that line: popNumber \(column 17\), args \(column 27\)/);
    assert.match(e.hint ?? "", /column of one of those names/);
    return true;
  });
  const lines = args.split("\n").length - (args.endsWith("\n") ? 1 : 0);
  await assert.rejects(search({ line: 999, column: 1 }), new RegExp(`the file has ${lines} line\\(s\\)`));
});

Deno.test("findReferences() counts a module's `__all__` entries as references to its names (CPython's json package)", async () => {
  const dir = "/usr/lib/python3.11/json/";
  const files: Record<string, string> = {};
  for (const e of Deno.readDirSync(dir)) {
    if (e.isFile && e.name.endsWith(".py")) files[`json/${e.name}`] = Deno.readTextFileSync(dir + e.name);
  }
  // A function's own `__all__` is no module's list, and a dotted string names no binding.
  files["json/extra.py"] =
    "from .decoder import JSONDecodeError\n\n__all__ = ['JSONDecodeError', 'json.JSONDecodeError']\n\n\n" +
    "def f():\n    __all__ = ['JSONDecodeError']\n    return __all__\n";
  const ws = await workspaceOf({}, files);
  const decoder = files["json/decoder.py"]!;
  const line = decoder.slice(0, decoder.indexOf("class JSONDecodeError(")).split("\n").length;
  const res = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path: "json/decoder.py",
    target: { line, column: 7 },
    tool: "test",
  });
  const entries = res.sites.filter((s) => {
    const text = files[s.path]!;
    return text[s.start - 1] === "'" && text[s.end] === "'";
  }).map((s) => `${s.path}:${s.line}`);
  // decoder.py's own list, the package's (for its `from .decoder import JSONDecodeError`), extra.py's module list.
  assert.deepEqual(entries.sort(), ["json/__init__.py:101", "json/decoder.py:11", "json/extra.py:3"]);
});

/** The item's package: helper reached as `pkg.utils.helper` (two ways) and as `utils.helper`. */
const DOTTED: Record<string, string> = {
  "pkg/__init__.py": "",
  "pkg/utils.py": "def helper(x):\n    return x\n",
  "a.py": "import pkg.utils\nprint(pkg.utils.helper(1))\n",
  "b.py": "import pkg\nimport pkg.utils\nprint(pkg.utils.helper(2))\n",
  "c.py": "from pkg import utils\nprint(utils.helper(3))\n",
  "d.py": "import pkg.utils as m\nprint(m.helper(4))\n",
};

Deno.test("findReferences() follows Python's dotted module access: import a.b, import a.b as m, from a import b", async () => {
  const ws = await workspaceOf({}, DOTTED);
  const expected = ["a.py:2:17", "b.py:3:17", "c.py:2:13", "d.py:2:9", "pkg/utils.py:1:5"];
  const res = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path: "pkg/utils.py",
    target: "helper",
    tool: "test",
  });
  assert.deepEqual(res.sites.map((s) => `${s.path}:${s.line}:${s.column}`), expected);
  assert.deepEqual(res.unresolved, []);
  // From a use reached through the package: the same symbol.
  const back = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path: "b.py",
    target: { line: 3, column: 17 },
    tool: "test",
  });
  assert.deepEqual(back.sites.map((s) => `${s.path}:${s.line}:${s.column}`), expected);
  // `utils` in `pkg.utils.helper` is the submodule, not a name pkg declares: refused, not an empty answer.
  await assert.rejects(
    findReferences(ws, new Stage(ws.fs, ws.sandbox), {
      path: "a.py",
      target: { line: 2, column: 11 },
      tool: "test",
    }),
    /"pkg\/__init__\.py" declares no "utils"/,
  );
  // Renamed everywhere, and the program still runs.
  const renamed = ok(
    await ws.call("edit_rename_symbol", { path: "pkg/utils.py", target: "helper", new_name: "assist" }),
  );
  assert.equal(renamed.renamed, 5);
  const files = await storedFiles(ws, Object.keys(DOTTED));
  for (const p of ["a.py", "b.py", "c.py", "d.py"]) assert.match(files[p]!, /\.assist\(/, p);
  for (const p of ["a.py", "b.py", "c.py", "d.py"]) await runIn(files, ["python3", p]);
  // change_signature counts every call.
  const ws2 = await workspaceOf({}, DOTTED);
  const sig = ok(
    await ws2.call("edit_change_signature", {
      path: "pkg/utils.py",
      name_path: "helper",
      params: ["x", { name: "y", value: "0" }],
    }),
  );
  assert.equal(sig.calls, 4);
});

Deno.test("findReferences() follows a package attribute through its __init__, or lists it when it cannot", async () => {
  const ws = await workspaceOf({}, {
    "pkg/__init__.py":
      "from . import utils as tools\nfrom .sub import *\nmaybe = tools\nfrom .utils import helper as helper\n",
    "pkg/utils.py": "def helper(x):\n    return x\n",
    "pkg/sub/__init__.py": "from .. import utils as more\n",
    "pkg/empty.py": "",
    "app.py": [
      "import pkg",
      "import pkg.empty",
      "pkg.tools.helper(1)",
      "pkg.more.helper(2)",
      "pkg.maybe.helper(3)",
      "pkg.empty.helper(4)",
      "pkg.utils.helper(5)",
      "pkg.helper(6)",
      "",
    ].join("\n"),
  });
  const res = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path: "pkg/utils.py",
    target: "helper",
    tool: "test",
  });
  assert.deepEqual(res.sites.map((s) => `${s.path}:${s.line}`), [
    "app.py:3",
    "app.py:4",
    "app.py:7",
    "app.py:8",
    "pkg/__init__.py:4",
    "pkg/__init__.py:4",
    "pkg/utils.py:1",
  ]);
  // an assignment may hold the module; a module with no such name may get it at run time
  assert.deepEqual(res.unresolved.map((s) => `${s.path}:${s.line}`), ["app.py:5", "app.py:6"]);
  await runIn(
    await storedFiles(ws, ["pkg/__init__.py", "pkg/utils.py", "pkg/sub/__init__.py", "pkg/empty.py"]),
    [
      "python3",
      "-c",
      "import pkg; pkg.tools.helper(1); pkg.more.helper(2); pkg.maybe.helper(3); pkg.helper(6)",
    ],
  );
});

Deno.test("findReferences() of a parameter property reaches the base class's member and its other subclasses' overrides (rxjs scheduler actions)", async () => {
  // rxjs@7.8.2: AsyncAction declares `constructor(protected scheduler: AsyncScheduler, …)` and uses
  // `this.scheduler`; AnimationFrameAction, AsapAction, QueueAction and VirtualAction extend it and each
  // redeclare `protected scheduler` (the TypeScript language service renames all of them together).
  const ws = await workspaceOf(RXJS);
  const path = "internal/scheduler/AnimationFrameAction.ts";
  const text = RXJS[`/${path}`]!;
  const line = text.split("\n").findIndex((l) => l.includes("constructor(protected scheduler")) + 1;
  const column = text.split("\n")[line - 1]!.indexOf("scheduler") + 1;
  const res = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path,
    target: { line, column },
    tool: "test",
  });
  const at = (p: string, needle: string) => {
    const t = RXJS[`/internal/scheduler/${p}`]!;
    return `internal/scheduler/${p}:${t.indexOf(needle) + needle.length - "scheduler".length}`;
  };
  const sites = new Set(res.sites.map((s) => `${s.path}:${s.start}`));
  for (
    const site of [
      at("AsyncAction.ts", "constructor(protected scheduler"),
      at("AsyncAction.ts", "const scheduler = this.scheduler"),
      at("AsyncAction.ts", "this.work = this.state = this.scheduler"),
      at("AsapAction.ts", "constructor(protected scheduler"),
      at("QueueAction.ts", "this.scheduler"),
      at("VirtualTimeScheduler.ts", "protected scheduler"),
      at("VirtualTimeScheduler.ts", "new VirtualAction(this.scheduler"),
    ]
  ) assert.ok(sites.has(site), `${site} is the same member`);
  // The schedulers' own `scheduler` names and unrelated classes stay out.
  assert.ok(res.sites.every((s) => s.path.startsWith("internal/scheduler/")), "only the actions' files");
  assert.ok(!res.sites.some((s) => s.path === "internal/scheduler/AsyncScheduler.ts"));
});

Deno.test("findReferences() of a static member leaves a subclass's same-named static alone (rxjs Observable.create)", async () => {
  // rxjs@7.8.2: `class Subject<T> extends Observable<T>` redeclares `static create`; statics are not
  // inherited members of instances, and the TypeScript language service renames Observable.create alone.
  const ws = await workspaceOf(RXJS);
  const path = "internal/Observable.ts";
  const lines = RXJS[`/${path}`]!.split("\n");
  const line = lines.findIndex((l) => l.includes("static create:")) + 1;
  const column = lines[line - 1]!.indexOf("create") + 1;
  const res = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path,
    target: { line, column },
    tool: "test",
  });
  assert.equal(res.target.kind, "member");
  assert.deepEqual(res.sites.map((s) => [s.path, s.line]), [[path, line]]);
  // Subject's instance members are still Observable's where Subject overrides one (`_subscribe`).
  const sub = lines.findIndex((l) => l.includes("protected _subscribe(")) + 1;
  const over = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path,
    target: {
      line: sub,
      column: lines[sub - 1]!.indexOf("_subscribe") + 1,
    },
    tool: "test",
  });
  assert.ok(over.sites.some((s) => s.path === "internal/Subject.ts" && s.kind === "member_definition"));
});

Deno.test("findReferences() of a member counts `const { x } = this` in its class, and a rename keeps the variable (rxjs Subject.observers)", async () => {
  // rxjs@7.8.2 Subject: `observers: Observer<T>[] = [];`, then `const { observers } = this;` in error() and
  // complete(), `const { hasError, isStopped, observers } = this;` in _innerSubscribe().
  const ws = await workspaceOf(RXJS);
  const path = "internal/Subject.ts";
  const text = RXJS[`/${path}`]!;
  const lines = text.split("\n");
  const line = lines.findIndex((l) => l.includes("observers: Observer<T>[]")) + 1;
  const target = { line, column: lines[line - 1]!.indexOf("observers") + 1 };
  const res = await findReferences(ws, new Stage(ws.fs, ws.sandbox), { path, target, tool: "test" });
  const keys = res.sites.filter((s) => s.kind === "shorthand_key").map((s) => s.start);
  const destructured = [...text.matchAll(/const \{ [^}]*\bobservers \} = this;/g)].map((m) =>
    m.index! + m[0].indexOf("observers")
  );
  assert.equal(destructured.length, 3);
  assert.deepEqual(keys, destructured);
  // The variable's own uses are not the member: `while (observers.length)` stays.
  assert.ok(!res.sites.some((s) => text.slice(s.start - 7, s.start) === "while ("));
  const plan = await planRename(ws, new Stage(ws.fs, ws.sandbox), {
    path,
    target,
    newName: "subscribers",
    tool: "test",
  });
  const renamed = plan.files.get(path)!.text;
  assert.match(renamed, /const \{ subscribers: observers \} = this;\n\s+while \(observers\.length\)/);
  assert.match(renamed, /const \{ hasError, isStopped, subscribers: observers \} = this;/);
});

Deno.test("findReferences() of an interface member lists object-literal keys and destructured keys of unknown type (rxjs groupBy options)", async () => {
  // Found by the refactor soak: renaming BasicGroupByOptions.duration answered ok with nothing unresolved, and
  // `({ duration, element, connector } = elementOrOptions)` in groupBy() no longer type-checked (TS2339).
  const ws = await workspaceOf(RXJS);
  const path = "internal/operators/groupBy.ts";
  const text = RXJS[`/${path}`]!;
  const line =
    text.split("\n").findIndex((l) => l.includes("duration?: (grouped: GroupedObservable<K, T>)")) + 1;
  const res = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path,
    target: { line, column: 3 },
    tool: "test",
  });
  const destructured = text.indexOf("({ duration, element, connector } = elementOrOptions)") + 3;
  assert.ok(
    res.unresolved.some((s) => s.path === path && s.start === destructured && s.kind === "shorthand_key"),
    JSON.stringify(res.unresolved.filter((s) => s.path === path)),
  );
  // An object literal's keys (`{ duration: …}`, `{ duration }`) and a typed parameter's destructuring are
  // candidates too: only types say which interface checks them.
  const files = {
    "/opts.ts": [
      "export interface Opts { duration?: number; name?: string }",
      "let duration = 1;",
      "export const a: Opts = { duration };",
      "export const b: Opts = { duration: 2, name: 'b' };",
      "export function f({ duration }: Opts) { return duration; }",
      "",
    ].join("\n"),
  };
  const small = await workspaceOf(files);
  const opts = await findReferences(small, new Stage(small.fs, small.sandbox), {
    path: "opts.ts",
    target: {
      line: 1,
      column: 27,
    },
    tool: "test",
  });
  assert.deepEqual(opts.sites.map((s) => s.line), [1]);
  assert.deepEqual(opts.unresolved.map((s) => [s.line, s.kind]), [
    [3, "shorthand_key"],
    [4, "member_property"],
    [5, "shorthand_key"],
  ]);
});

Deno.test("findReferences() of a member follows `implements` of a class and `super.x` (rxjs testing observables, Subject)", async () => {
  // rxjs@7.8.2: ColdObservable and HotObservable each `implements SubscriptionLoggable` (a class, mixed in)
  // and redeclare its `scheduler` field; Subject overrides Observable's `_trySubscribe` and calls
  // `super._trySubscribe(subscriber)`.
  const ws = await workspaceOf(RXJS);
  const search = async (path: string, needle: string) => {
    const lines = RXJS[`/${path}`]!.split("\n");
    const line = lines.findIndex((l) => l.includes(needle)) + 1;
    const column = lines[line - 1]!.indexOf(needle) + 1;
    return await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
      path,
      target: { line, column },
      tool: "test",
    });
  };
  const cold = await search("internal/testing/ColdObservable.ts", "scheduler: Scheduler");
  const defs = cold.sites.filter((s) => s.kind === "member_definition").map((s) => s.path).sort();
  assert.deepEqual(defs, [
    "internal/testing/ColdObservable.ts",
    "internal/testing/HotObservable.ts",
    "internal/testing/SubscriptionLoggable.ts",
  ]);
  const subject = RXJS["/internal/Subject.ts"]!;
  const superCall = subject.indexOf("super._trySubscribe") + "super.".length;
  for (
    const [path, needle] of [["internal/Subject.ts", "_trySubscribe("], [
      "internal/Observable.ts",
      "_trySubscribe(",
    ]]
  ) {
    const res = await search(path!, needle!);
    assert.ok(
      res.sites.some((s) => s.path === "internal/Subject.ts" && s.start === superCall),
      `from ${path}`,
    );
  }
});

Deno.test("findReferences() leaves `super.x` out where the base above the hierarchy's top is no part of it", async () => {
  const ws = await workspaceOf({}, {
    "a.js": [
      "class O {}",
      "class Base extends O { x() { return super.x; } }",
      "class A extends Base { x() { return super.x(); } }",
      "class B extends A { y() { return super.x() + this.x(); } }",
      "",
    ].join("\n"),
  });
  const res = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path: "a.js",
    target: { line: 3, column: 24 },
    tool: "test",
  });
  assert.deepEqual(res.sites.map((s) => [s.line, s.kind]), [
    [2, "member_definition"],
    [3, "member_definition"],
    [3, "member_property"],
    [4, "member_property"],
    [4, "member_this"],
  ]);
  assert.deepEqual(res.unresolved.map((s) => s.line), [2]);
});

Deno.test("findReferences() of a member reaches the interfaces a class implements and their other implementers (rxjs unsubscribe)", async () => {
  // rxjs@7.8.2 types.ts: `interface Unsubscribable { unsubscribe(): void }`,
  // `interface SubscriptionLike extends Unsubscribable { unsubscribe(): void; … }`; Subject and Subscription
  // both `implements SubscriptionLike`, WebSocketSubject extends AnonymousSubject extends Subject.
  const ws = await workspaceOf(RXJS);
  const path = "internal/observable/dom/WebSocketSubject.ts";
  const lines = RXJS[`/${path}`]!.split("\n");
  const line = lines.findIndex((l) => /^ {2}unsubscribe\(\) \{/.test(l)) + 1;
  const res = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path,
    target: { line, column: 3 },
    tool: "test",
  });
  const defs = res.sites.filter((s) => s.kind === "member_definition").map((s) => `${s.path}:${s.line}`)
    .sort();
  for (
    const d of [
      "internal/types.ts:79",
      "internal/types.ts:85",
      "internal/Subscription.ts",
      "internal/Subject.ts",
    ]
  ) assert.ok(defs.some((x) => x.startsWith(d)), `${d} declares the same member`);
  // `subscription: Subscription` in Subscriber.ts: a name declared with a class of the hierarchy.
  assert.ok(res.sites.some((s) => s.path === "internal/Subscriber.ts" && s.kind === "member_property"));
  // An object of unknown type stays a candidate (`subscriptions[s].unsubscribe()` in race).
  assert.ok(res.unresolved.some((s) => s.path === "internal/observable/race.ts"));
  assert.ok(!res.sites.some((s) => s.path === "internal/observable/race.ts"));
});

Deno.test("findReferences() takes a name declared `T | null` (or `undefined | T`) as a T (rxjs catchError, audit)", async () => {
  // rxjs@7.8.2: catchError.ts `let innerSub: Subscription | null = null; … innerSub.unsubscribe();`,
  // audit.ts `let durationSubscriber: Subscriber<any> | null = null; … durationSubscriber?.unsubscribe();`.
  const ws = await workspaceOf(RXJS);
  const path = "internal/Subscription.ts";
  const lines = RXJS[`/${path}`]!.split("\n");
  const line = lines.findIndex((l) => /^ {2}unsubscribe\(\): void \{/.test(l)) + 1;
  const res = await findReferences(ws, new Stage(ws.fs, ws.sandbox), {
    path,
    target: { line, column: 3 },
    tool: "test",
  });
  const at = (p: string, needle: string) =>
    RXJS[`/internal/operators/${p}`]!.indexOf(needle) + needle.indexOf("unsubscribe");
  for (
    const [p, needle] of [["catchError.ts", "innerSub.unsubscribe()"], [
      "audit.ts",
      "durationSubscriber?.unsubscribe()",
    ]]
  ) {
    const site = `internal/operators/${p}:${at(p!, needle!)}`;
    assert.ok(res.sites.some((s) => `${s.path}:${s.start}` === site), `${site} is a site`);
  }
});
