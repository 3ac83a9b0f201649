import assert from "node:assert/strict";
import { assertReparses, GYP, ok, RXJS, textOf, workspaceOf, ZOD } from "./_bindings_fixtures.ts";

function lineCol(text: string, needle: string, offsetInNeedle = 0): { line: number; column: number } {
  const i = text.indexOf(needle);
  assert.ok(i >= 0, `"${needle}" not found`);
  const at = i + offsetInNeedle;
  return {
    line: text.slice(0, at).split("\n").length,
    column: at - (text.lastIndexOf("\n", at - 1) + 1) + 1,
  };
}

Deno.test("edit_rename_symbol() renames an rxjs operator in every file, and nothing else named map", async () => {
  const ws = await workspaceOf(RXJS);
  const clash = await ws.call("edit_rename_symbol", {
    path: "internal/operators/map.ts",
    target: "map",
    new_name: "project",
  });
  assert.ok(!clash.ok && clash.error.code === "name_clash", "exhaustMap.ts has a parameter named project");
  assert.match(clash.error.message, /exhaustMap\.ts" line 69/);
  const res = ok(
    await ws.call("edit_rename_symbol", {
      path: "internal/operators/map.ts",
      target: "map",
      new_name: "mapValues",
    }),
  );
  assert.equal(res.status, "applied");
  const changed = res.changes.map((c) => c.path).sort();
  assert.ok(changed.includes("index.ts") && changed.includes("operators/index.ts"));
  assert.ok(changed.length >= 8, `${changed.length} files`);
  assert.match(await textOf(ws, "index.ts"), /export \{ mapValues \} from '\.\/internal\/operators\/map';/);
  const mapTo = await textOf(ws, "internal/operators/mapTo.ts");
  assert.match(mapTo, /import \{ mapValues \} from '\.\/map';/);
  assert.match(mapTo, /return mapValues\(\(\) => value\);/);
  assert.match(
    mapTo,
    /Use \{@link mapValues\} instead: `map\(\(\) => value\)`/,
    "JSDoc links follow, code in prose does not",
  );
  // Array.prototype.map and other operators' own `map` names are not this symbol.
  const untouched = await textOf(ws, "internal/util/mapOneOrManyArgs.ts");
  assert.match(untouched, /import \{ mapValues \} from "\.\.\/operators\/map";/);
  const combine = await textOf(ws, "internal/observable/combineLatest.ts");
  assert.equal(
    (combine.match(/\.map\(/g) ?? []).length,
    (RXJS["/internal/observable/combineLatest.ts"]!.match(/\.map\(/g) ?? []).length,
  );
  for (const path of changed) {
    await assertReparses("typescript", RXJS[`/${path}`]!, await textOf(ws, path), path);
  }
  const tsv = (res.data["text_occurrences"] as { in: string }[]).every((t) =>
    t.in === "comment" || t.in === "string"
  );
  assert.ok(tsv, "the text sweep reports comments and strings only");
});

Deno.test("edit_rename_symbol() keeps import aliases: the imported name changes, the local alias does not", async () => {
  const ws = await workspaceOf(RXJS);
  ok(
    await ws.call("edit_rename_symbol", {
      path: "internal/symbol/iterator.ts",
      target: "iterator",
      new_name: "iter",
    }),
  );
  const isIterable = await textOf(ws, "internal/util/isIterable.ts");
  assert.match(isIterable, /import \{ iter as Symbol_iterator \} from '\.\.\/symbol\/iterator';/);
  assert.match(isIterable, /input\?\.\[Symbol_iterator\]/);
  const ws2 = await workspaceOf(RXJS);
  const text = RXJS["/internal/util/isIterable.ts"]!;
  ok(
    await ws2.call("edit_rename_symbol", {
      path: "internal/util/isIterable.ts",
      target: lineCol(text, "Symbol_iterator }"),
      new_name: "SYM",
    }),
  );
  const after = await textOf(ws2, "internal/util/isIterable.ts");
  assert.match(after, /import \{ iterator as SYM \}/);
  assert.match(after, /input\?\.\[SYM\]/);
  assert.equal(await textOf(ws2, "internal/symbol/iterator.ts"), RXJS["/internal/symbol/iterator.ts"]);
});

Deno.test("edit_rename_symbol() expands shorthand properties and destructuring", async () => {
  const ws = await workspaceOf(RXJS);
  const sched = RXJS["/internal/testing/TestScheduler.ts"]!;
  ok(
    await ws.call("edit_rename_symbol", {
      path: "internal/testing/TestScheduler.ts",
      target: lineCol(sched, "animate = (marbles"),
      new_name: "runAnimation",
    }),
  );
  const after = await textOf(ws, "internal/testing/TestScheduler.ts");
  assert.match(after, /return \{ animate: runAnimation, delegate \};/);
  assert.match(after, /const runAnimation = \(marbles/);
  assert.match(after, /animate: \(marbles: string\) => void;/, "the interface's property is another symbol");
  await assertReparses("typescript", sched, after, "TestScheduler.ts");

  const args = RXJS["/internal/util/mapOneOrManyArgs.ts"]!;
  ok(
    await ws.call("edit_rename_symbol", {
      path: "internal/util/mapOneOrManyArgs.ts",
      target: lineCol(args, "isArray }"),
      new_name: "isArr",
    }),
  );
  const out = await textOf(ws, "internal/util/mapOneOrManyArgs.ts");
  assert.match(out, /const \{ isArray: isArr \} = Array;/);
  assert.match(out, /isArr\(args\)/);
});

Deno.test("edit_rename_symbol() handles Python keyword arguments and leaves dict(a=a)'s key alone", async () => {
  const ws = await workspaceOf(GYP);
  const res = ok(
    await ws.call("edit_rename_symbol", {
      path: "gyp/easy_xml.py",
      target: lineCol(GYP["/gyp/easy_xml.py"]!, "pretty=False):"),
      new_name: "indent",
    }),
  );
  assert.match(await textOf(ws, "gyp/easy_xml_test.py"), /\n {16}indent=True,\n/);
  const easy = await textOf(ws, "gyp/easy_xml.py");
  assert.match(easy, /def XmlToString\(content, encoding="utf-8", indent=False\):/);
  assert.match(easy, /encoding="utf-8", pretty=False, win32=/, "WriteXmlIfChanged's own pretty is untouched");
  assert.match(easy, /xml_string = XmlToString\(content, encoding, pretty\)/);
  const sweep = res.data["text_occurrences"] as { path: string; in: string; text: string }[];
  assert.ok(sweep.some((t) => t.path === "gyp/easy_xml.py" && t.text.includes("pretty: True if")));
  for (const c of res.changes) {
    await assertReparses("python", GYP[`/${c.path}`]!, await textOf(ws, c.path), c.path);
  }

  const kw = await workspaceOf({}, { "k.py": "def f(a):\n    return dict(a=a)\n\nf(a=1)\n" });
  ok(await kw.call("edit_rename_symbol", { path: "k.py", target: { line: 1, column: 7 }, new_name: "b" }));
  assert.equal(await textOf(kw, "k.py"), "def f(b):\n    return dict(a=b)\n\nf(b=1)\n");
});

Deno.test("edit_rename_symbol() renames self.x members in Python and this.x in TypeScript", async () => {
  const ws = await workspaceOf(GYP);
  const text = GYP["/gyp/MSVSToolFile.py"]!;
  ok(
    await ws.call("edit_rename_symbol", {
      path: "gyp/MSVSToolFile.py",
      target: lineCol(text, "rules_section = ", 0),
      new_name: "rules",
    }),
  );
  const after = await textOf(ws, "gyp/MSVSToolFile.py");
  assert.doesNotMatch(after, /rules_section/);
  assert.equal(
    (after.match(/self\.rules\b/g) ?? []).length,
    (text.match(/self\.rules_section\b/g) ?? []).length,
  );
});

Deno.test("edit_rename_symbol() treats a TypeScript parameter property as the parameter and the member", async () => {
  const ws = await workspaceOf(RXJS);
  const text = RXJS["/internal/BehaviorSubject.ts"]!;
  ok(
    await ws.call("edit_rename_symbol", {
      path: "internal/BehaviorSubject.ts",
      target: lineCol(text, "_value: T)"),
      new_name: "current",
    }),
  );
  const after = await textOf(ws, "internal/BehaviorSubject.ts");
  assert.match(after, /constructor\(private current: T\)/);
  assert.equal((after.match(/this\.current\b/g) ?? []).length, (text.match(/this\._value\b/g) ?? []).length);
  // `const { …, _value } = this`: the key names the member, the variable keeps its name.
  assert.match(after, /const \{ hasError, thrownError, current: _value \} = this;/);
  assert.doesNotMatch(after, /this\._value\b/);
});

Deno.test("edit_rename_symbol() refuses a parameter property that redeclares a base class's member, naming its declaration (rxjs scheduler actions)", async () => {
  // AnimationFrameAction's `constructor(protected scheduler: …, protected work: …)` redeclares the members
  // AsyncAction declares the same way (so do AsapAction, QueueAction and VirtualAction): renaming one was a
  // parameter's rename, checked against nothing in the hierarchy.
  const ws = await workspaceOf(RXJS);
  const frame = RXJS["/internal/scheduler/AnimationFrameAction.ts"]!;
  const res = await ws.call("edit_rename_symbol", {
    path: "internal/scheduler/AnimationFrameAction.ts",
    target: lineCol(frame, "scheduler: AnimationFrameScheduler"),
    new_name: "sched",
  });
  assert.ok(!res.ok && res.error.code === "overrides_present", JSON.stringify(res));
  assert.match(
    res.error.message,
    /it overrides \(or implements\) "AsyncAction\.scheduler" \("internal\/scheduler\/AsyncAction\.ts" line 16\)/,
  );
  const base = RXJS["/internal/scheduler/AsyncAction.ts"]!;
  const work = await ws.call("edit_rename_symbol", {
    path: "internal/scheduler/AsyncAction.ts",
    target: lineCol(base, "work: (this"),
    new_name: "task",
  });
  assert.ok(!work.ok && work.error.code === "overrides_present", JSON.stringify(work));
  assert.match(work.error.message, /overrides it \("internal\/scheduler\/\w+Action\.ts" line 8\)/);
  assert.equal(await textOf(ws, "internal/scheduler/AsyncAction.ts"), base, "nothing written");
});

Deno.test("edit_rename_symbol() refuses a name clash and says where", async () => {
  const gyp = await workspaceOf(GYP);
  const res = await gyp.call("edit_rename_symbol", {
    path: "gyp/easy_xml.py",
    target: lineCol(GYP["/gyp/easy_xml.py"]!, "pretty=False):"),
    new_name: "encoding",
  });
  assert.ok(!res.ok && res.error.code === "name_clash", JSON.stringify(res));
  assert.match(res.error.message, /gyp\/easy_xml\.py" line 12/);
  const ts = await workspaceOf({}, {
    "a.ts":
      "const limit = 10;\nfunction f(n: number) {\n  const max = 5;\n  return n > limit ? max : limit;\n}\n",
  });
  const shadow = await ts.call("edit_rename_symbol", { path: "a.ts", target: "limit", new_name: "max" });
  assert.ok(!shadow.ok && shadow.error.code === "name_clash", "the inner max would shadow it");
  const capture = await ts.call("edit_rename_symbol", {
    path: "a.ts",
    target: { line: 2, column: 12 },
    new_name: "limit",
  });
  assert.ok(!capture.ok && capture.error.code === "name_clash", "limit used inside f would be captured");
  const fine = ok(
    await ts.call("edit_rename_symbol", { path: "a.ts", target: { line: 2, column: 12 }, new_name: "count" }),
  );
  assert.equal(fine.changes.length, 1);
  const bad = await ts.call("edit_rename_symbol", { path: "a.ts", target: "limit", new_name: "class" });
  assert.ok(!bad.ok && bad.error.code === "invalid_args");
});

Deno.test("edit_rename_symbol() scope file: refused for an exported symbol used elsewhere, fine for a local", async () => {
  const ws = await workspaceOf(RXJS);
  const res = await ws.call("edit_rename_symbol", {
    path: "internal/operators/map.ts",
    target: "map",
    new_name: "project",
    scope: "file",
  });
  assert.ok(!res.ok && res.error.code === "visibility_required", JSON.stringify(res));
  assert.equal((res.error.suggested_call?.args as { scope: string }).scope, "project");
  const text = RXJS["/internal/operators/map.ts"]!;
  const local = ok(
    await ws.call("edit_rename_symbol", {
      path: "internal/operators/map.ts",
      target: lineCol(text, "index = 0"),
      new_name: "i",
      scope: "file",
    }),
  );
  assert.deepEqual(local.changes.map((c) => c.path), ["internal/operators/map.ts"]);
});

Deno.test("edit_rename_symbol() leaves unresolved obj.x alone unless asked, and previews with dry_run", async () => {
  // `ks[0].size`: the object is no name whose type is written (`k: K` would be K's member).
  const files = {
    "k.ts":
      "export class K {\n  size = 0;\n  grow() { this.size++; }\n}\nexport function measure(ks: K[]) { return ks[0].size; }\n",
  };
  const ws = await workspaceOf({}, files);
  const dry = ok(
    await ws.call("edit_rename_symbol", {
      path: "k.ts",
      target: "K/size",
      new_name: "length",
      dry_run: true,
    }),
  );
  assert.equal(dry.status, "dry_run");
  assert.equal(await textOf(ws, "k.ts"), files["k.ts"], "nothing written");
  assert.deepEqual(
    (dry.data["unresolved"] as { references: { line: number }[] }[])[0]!.references.map((r) => r.line),
    [5],
  );
  assert.equal(dry.warnings.length, 1);
  assert.match(
    dry.warnings[0]!,
    /1 occurrence of "size" could not be tied .*\(k\.ts:5; see data\.unresolved\).*include_unresolved: true/,
  );
  const applied = ok(
    await ws.call("edit_rename_symbol", { path: "k.ts", target: "K/size", new_name: "length" }),
  );
  assert.match(await textOf(ws, "k.ts"), /length = 0;[\s\S]*this\.length\+\+[\s\S]*return ks\[0\]\.size;/);
  assert.match(applied.warnings[0]!, /k\.ts:5.*change it to "length"/);
  const ws2 = await workspaceOf({}, files);
  const all = ok(
    await ws2.call("edit_rename_symbol", {
      path: "k.ts",
      target: "K/size",
      new_name: "length",
      include_unresolved: true,
    }),
  );
  assert.match(await textOf(ws2, "k.ts"), /return ks\[0\]\.length;/);
  assert.deepEqual(all.warnings, [], "nothing left behind, nothing to warn about");
});

Deno.test("edit_rename_symbol() composes in an edit_dry_run plan", async () => {
  const ws = await workspaceOf({}, {
    "a.ts": "export const a = 1;\n",
    "b.ts": "import { a } from './a';\nconsole.log(a);\n",
  });
  const res = ok(
    await ws.call("edit_dry_run", {
      plan: [
        { tool: "edit_rename_symbol", args: { path: "a.ts", target: "a", new_name: "first" } },
        {
          tool: "edit_rename_symbol",
          args: { path: "b.ts", target: { line: 2, column: 13 }, new_name: "second" },
        },
      ],
    }),
  );
  const diffs = res.changes.map((c) => c.diff).join("\n");
  assert.match(diffs, /\+export const second = 1;/);
  assert.match(diffs, /\+import \{ second \} from '\.\/a';/);
  assert.equal(await textOf(ws, "a.ts"), "export const a = 1;\n");
});

Deno.test("edit_rename_symbol() leaves unparsed the files that name the symbol in comments only, and reports those comments", async () => {
  const ws = await workspaceOf(RXJS);
  const res = ok(
    await ws.call("edit_rename_symbol", {
      path: "internal/Observable.ts",
      target: "Observable",
      new_name: "Stream",
      dry_run: true,
    }),
  );
  const changed = new Set(res.changes.map((c) => c.path));
  const sweep = res.data["text_occurrences"] as { path: string; line: number; in: string; text: string }[];
  // AnyCatcher.ts mentions Observable in its doc comment only (the sweep reports 200 at most, in path order).
  const docsOnly = "internal/AnyCatcher.ts";
  const text = RXJS[`/${docsOnly}`]!;
  assert.match(text, /\bObservable\b/);
  assert.ok(!changed.has(docsOnly));
  const reported = sweep.filter((t) => t.path === docsOnly);
  assert.ok(reported.length > 0, "its comments are reported");
  for (const t of reported) {
    assert.equal(t.in, "comment");
    assert.equal(t.text, text.split("\n")[t.line - 1]);
  }
  // The files with the word only in comments were not parsed: fewer trees than files holding the word.
  const withWord = Object.values(RXJS).filter((t) => /(?<![\w$])Observable(?![\w$])/.test(t)).length;
  assert.ok(
    ws.trees!.size < withWord - 50,
    `${ws.trees!.size} trees for ${withWord} files naming Observable`,
  );
  assert.ok(changed.size >= 70, `${changed.size} files renamed`);
});

Deno.test("edit_rename_symbol() follows a namespace re-export: zod's util.normalizeParams through `export * as util`", async () => {
  const ws = await workspaceOf(ZOD);
  const res = ok(
    await ws.call("edit_rename_symbol", {
      path: "src/v4/core/util.ts",
      target: "normalizeParams",
      new_name: "normaliseParams",
    }),
  );
  const changed = res.changes.map((c) => c.path).sort();
  // classic/schemas.ts imports { util } from core/index.ts, which has `export * as util from "./util.js"`.
  assert.deepEqual(changed, [
    "src/v4/classic/schemas.ts",
    "src/v4/core/api.ts",
    "src/v4/core/util.ts",
    "src/v4/mini/schemas.ts",
  ]);
  const classic = await textOf(ws, "src/v4/classic/schemas.ts");
  assert.equal((classic.match(/util\.normaliseParams\(/g) ?? []).length, 22);
  // Only the two commented-out calls keep the old name, and the sweep reports them.
  assert.deepEqual(classic.match(/.*normalizeParams.*/g)!.map((l) => l.trim()), [
    "// ...util.normalizeParams(params),",
    "// ...util.normalizeParams(params),",
  ]);
  assert.equal(
    (res.data["text_occurrences"] as { in: string }[]).filter((t) => t.in === "comment").length,
    2,
  );
  assert.deepEqual(res.data["unresolved"], []);
  for (const path of changed) {
    await assertReparses("typescript", ZOD[`/${path}`]!, await textOf(ws, path), path);
  }

  // The same symbol from one of those uses.
  const line = ZOD["/src/v4/classic/schemas.ts"]!.split("\n").findIndex((l) =>
    l.includes("util.normalizeParams(")
  );
  const column = ZOD["/src/v4/classic/schemas.ts"]!.split("\n")[line]!.indexOf("normalizeParams") + 1;
  const fresh = await workspaceOf(ZOD);
  const refs = ok(
    await fresh.call("find_references", {
      path: "src/v4/classic/schemas.ts",
      target: { line: line + 1, column },
    }),
  );
  assert.equal(refs.data["total"], res.data["renamed"] as number);
});

Deno.test("edit_rename_symbol() renames a namespace re-export's name where it is imported, in code and in types", async () => {
  const ws = await workspaceOf(ZOD);
  const index = ZOD["/src/v4/core/index.ts"]!;
  const res = ok(
    await ws.call("edit_rename_symbol", {
      path: "src/v4/core/index.ts",
      target: lineCol(index, 'export * as util from "./util.js"', "export * as ".length),
      new_name: "utils",
    }),
  );
  assert.match(await textOf(ws, "src/v4/core/index.ts"), /export \* as utils from "\.\/util\.js";/);
  // `core.util.AnyFunc` in a type (parse.ts imports core as a namespace).
  const parse = await textOf(ws, "src/v4/classic/parse.ts");
  assert.match(parse, /callee\?: core\.utils\.AnyFunc;/);
  assert.doesNotMatch(parse.replace(/\/\/.*$/gm, ""), /core\.util\./);
  assert.match(await textOf(ws, "src/v4/classic/schemas.ts"), /import \{ utils, type \$ZodNumberFormats \}/);
  // mini/schemas.ts has its own `util`: `import * as util from "../core/util.js"`, not this export.
  const mini = await textOf(ws, "src/v4/mini/schemas.ts");
  assert.match(mini, /import \* as util from "\.\.\/core\/util\.js";/);
  assert.match(mini, /core\.utils\.constantCatch\(/);
  assert.ok((mini.match(/\butil\.normalizeParams\(/g) ?? []).length > 10);
  assert.ok((res.data["renamed"] as number) > 90);
});

Deno.test("edit_rename_symbol() follows a property of a namespace import (core.util.AnyFunc), and names what it cannot tie", async () => {
  const ws = await workspaceOf(ZOD, {
    // The object of `.util` is not a name here: graver cannot tell which module it is.
    "src/v4/odd.ts":
      'import * as core from "./core/index.js";\nexport const f: core.util.AnyFunc = (core).util.cached;\n',
  });
  const res = ok(
    await ws.call("edit_rename_symbol", {
      path: "src/v4/core/util.ts",
      target: "AnyFunc",
      new_name: "AnyFunction",
      dry_run: true,
    }),
  );
  const changes = new Map(res.changes.map((c) => [c.path, c]));
  assert.ok(changes.has("src/v4/classic/parse.ts"));
  assert.ok(changes.has("src/v4/odd.ts"));
  assert.deepEqual(res.data["unresolved"], []);
  const renamed = ok(
    await ws.call("edit_rename_symbol", {
      path: "src/v4/core/util.ts",
      target: "AnyFunc",
      new_name: "AnyFunction",
    }),
  );
  assert.equal(renamed.data["renamed"] as number, 13);
  const parse = await textOf(ws, "src/v4/classic/parse.ts");
  assert.equal((parse.match(/callee\?: core\.util\.AnyFunction;/g) ?? []).length, 6);
  const cached = ok(
    await ws.call("edit_rename_symbol", {
      path: "src/v4/core/util.ts",
      target: "cached",
      new_name: "memo",
      dry_run: true,
    }),
  );
  const unresolved = cached.data["unresolved"] as { path: string; references: { line: number }[] }[];
  assert.deepEqual(unresolved.map((u) => [u.path, u.references.map((r) => r.line)]), [["src/v4/odd.ts", [
    2,
  ]]]);
  assert.match(
    cached.warnings.join("\n"),
    /1 occurrence of "cached" could not be tied to this symbol.*include_unresolved: true/,
  );
});

Deno.test('edit_rename_symbol() follows TypeScript\'s `import m = require("./m")` as a namespace import', async () => {
  const ws = await workspaceOf({}, {
    "m.ts": "export function helper(n: number): number {\n  return n + 1;\n}\n",
    "use.ts": 'import m = require("./m");\nexport const v = m.helper(1);\n',
  });
  const res = ok(await ws.call("edit_rename_symbol", { path: "m.ts", target: "helper", new_name: "bump" }));
  assert.equal(res.data["renamed"], 2);
  assert.equal(await textOf(ws, "use.ts"), 'import m = require("./m");\nexport const v = m.bump(1);\n');
});

Deno.test('edit_rename_symbol() names what a run-time import("./m") may reach, and renames it when asked', async () => {
  const use =
    'export async function run() {\n  const m = await import("./m");\n  const { helper } = await import("./m");\n' +
    "  return m.helper(1) + helper(2);\n}\n";
  const files = {
    "m.ts": "export function helper(n: number): number {\n  return n + 1;\n}\n",
    "use.ts": use,
    // The module's own member, read off `import("./m")` itself: that one is certain.
    "types.ts": 'export type H = typeof import("./m").helper;\n',
    // Destructured with another local name: from the run-time import, and from a namespace import.
    "alias.ts":
      'export async function g() {\n  const { helper: h } = await import("./m");\n  return h(1);\n}\n',
    "ns.ts": 'import * as mm from "./m";\nconst { helper: hh } = mm;\nexport const z = hh(3);\n',
  };
  const ws = await workspaceOf({}, files);
  const dry = ok(
    await ws.call("edit_rename_symbol", { path: "m.ts", target: "helper", new_name: "bump", dry_run: true }),
  );
  const unresolved = dry.data["unresolved"] as { path: string; references: { line: number }[] }[];
  assert.deepEqual(unresolved.map((u) => [u.path, u.references.map((r) => r.line)]), [
    ["alias.ts", [2]],
    ["ns.ts", [2]],
    ["use.ts", [3, 4]],
  ]);
  assert.match(dry.warnings.join("\n"), /4 occurrences of "helper" could not be tied/);
  ok(
    await ws.call("edit_rename_symbol", {
      path: "m.ts",
      target: "helper",
      new_name: "bump",
      include_unresolved: true,
    }),
  );
  assert.equal(
    await textOf(ws, "use.ts"),
    use.replace("const { helper }", "const { bump: helper }").replace("m.helper(1)", "m.bump(1)"),
  );
  assert.equal(await textOf(ws, "types.ts"), 'export type H = typeof import("./m").bump;\n');
  assert.match(await textOf(ws, "alias.ts"), /const \{ bump: h \} = await import\("\.\/m"\);/);
  assert.match(await textOf(ws, "ns.ts"), /const \{ bump: hh \} = mm;/);
  assert.ok(dry.changes.some((c) => c.path === "types.ts"), "renamed without include_unresolved");
});

Deno.test("edit_rename_symbol() lists a method parameter's keyword arguments at calls on objects of unknown type (email's Message.get_param header=)", async () => {
  // Found by the refactor soak on CPython's email: renaming get_param's `header` renamed `self.get_param(…,
  // header=…)` but left test_email's `msg.get_param('charset', header='X-Jimmy')` (TypeError) unlisted.
  const message = Deno.readTextFileSync("/usr/lib/python3.11/email/message.py");
  const app = "from email import message_from_string\n\n" +
    "msg = message_from_string('Content-Type: text/plain; charset=us-ascii\\n\\nhi\\n')\n" +
    "print(msg.get_param('charset', header='content-type'))\n";
  const ws = await workspaceOf({ "/email/message.py": message, "/app.py": app });
  const res = ok(
    await ws.call("edit_rename_symbol", {
      path: "email/message.py",
      target: lineCol(message, "header='content-type',\n                  unquote=True):"),
      new_name: "header_name",
    }),
  );
  assert.deepEqual(res.data["unresolved"], [{
    path: "app.py",
    references: [{
      line: 4,
      column: 32,
      kind: "keyword",
      text: "print(msg.get_param('charset', header='content-type'))",
    }],
  }]);
  assert.equal(await textOf(ws, "app.py"), app, "a candidate is left alone");
  assert.match(await textOf(ws, "email/message.py"), /self\.get_param\(param, header_name=header\)/);
});

Deno.test("edit_rename_symbol() keeps a member that a Python class body imports: email's Message.walk stays walk, aliased", async () => {
  // Found by the refactor soak on CPython's email: renaming email/iterators.py's walk rewrote Message's
  // `from email.iterators import walk` (the method Message.walk) to `import walk_soak`: msg.walk() broke.
  const files = {
    "/email/iterators.py": Deno.readTextFileSync("/usr/lib/python3.11/email/iterators.py"),
    "/email/message.py": Deno.readTextFileSync("/usr/lib/python3.11/email/message.py"),
  };
  const ws = await workspaceOf(files);
  ok(
    await ws.call("edit_rename_symbol", {
      path: "email/iterators.py",
      target: lineCol(files["/email/iterators.py"], "def walk(", 4),
      new_name: "walk_soak",
    }),
  );
  const message = await textOf(ws, "email/message.py");
  assert.match(message, /\n {4}from email\.iterators import walk_soak as walk\n/);
  assert.match(await textOf(ws, "email/iterators.py"), /\ndef walk_soak\(self\):/);
});

Deno.test("edit_rename_symbol() refuses a Python method a getattr built from a prefix may reach (email.generator's _handle_*)", async () => {
  // The soak's case: renaming Generator._handle_multipart_signed left `getattr(self, '_handle_' + specific)`
  // missing it, and signed messages were written as plain multiparts.
  const generator = Deno.readTextFileSync("/usr/lib/python3.11/email/generator.py");
  const ws = await workspaceOf({ "/email/generator.py": generator });
  const res = await ws.call("edit_rename_symbol", {
    path: "email/generator.py",
    target: "Generator/_handle_multipart_signed",
    new_name: "_handle_signed",
  });
  assert.ok(!res.ok && res.error.code === "unresolved", JSON.stringify(res));
  assert.match(
    res.error.message,
    /email\/generator\.py:214 \(meth = getattr\(self, '_handle_' \+ specific, None\)\)/,
  );
  assert.equal(await textOf(ws, "email/generator.py"), generator, "nothing written");
  // A method no lookup can reach still renames.
  const other = ok(
    await ws.call("edit_rename_symbol", {
      path: "email/generator.py",
      target: "Generator/_write",
      new_name: "_write_message",
    }),
  );
  assert.ok(other.changes.length === 1);
  // _write_lines, renamed here before, left BytesGenerator._handle_text's `self._write_lines(…)` to fail at run
  // time: the subclass's use through self is the same member, renamed with it.
  const lines = ok(
    await ws.call("edit_rename_symbol", {
      path: "email/generator.py",
      target: "Generator/_write_lines",
      new_name: "_emit_lines",
    }),
  );
  assert.equal(lines.data["renamed"] as number, 5);
  const after = await textOf(ws, "email/generator.py");
  assert.doesNotMatch(after, /_write_lines/);
  assert.match(after, /^ {12}self\._emit_lines\(msg\._payload\)$/m, "BytesGenerator's call");
});

Deno.test("edit_rename_symbol() refuses a Python class attribute a call passes by keyword (email's EmailPolicy.refold_source)", async () => {
  // The soak's case: renaming EmailPolicy.refold_source answered ok, and `policy.clone(refold_source='none')`
  // then raised TypeError: _PolicyBase sets attributes from the keywords' names (hasattr, then setattr).
  const policy = Deno.readTextFileSync("/usr/lib/python3.11/email/policy.py");
  const caller = "from email.policy import default\n\nstrict = default.clone(refold_source='none')\n";
  const ws = await workspaceOf({
    "/email/policy.py": policy,
    "/email/_policybase.py": Deno.readTextFileSync("/usr/lib/python3.11/email/_policybase.py"),
    "/use_policy.py": caller,
  });
  const res = await ws.call("edit_rename_symbol", {
    path: "email/policy.py",
    target: "EmailPolicy/refold_source",
    new_name: "refold_mode",
  });
  assert.ok(!res.ok && res.error.code === "unresolved", JSON.stringify(res));
  assert.match(res.error.message, /use_policy\.py:3 \(strict = default\.clone\(refold_source='none'\)\)/);
  assert.equal(await textOf(ws, "email/policy.py"), policy, "nothing written");
  // A class attribute no call passes by keyword still renames.
  ok(
    await ws.call("edit_rename_symbol", {
      path: "email/policy.py",
      target: "EmailPolicy/content_manager",
      new_name: "contents",
    }),
  );
});
