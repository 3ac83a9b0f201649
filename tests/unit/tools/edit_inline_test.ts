import assert from "node:assert/strict";
import { ok, RXJS, textOf, workspaceOf } from "./_bindings_fixtures.ts";

const DIFF_JS = Deno.readTextFileSync(new URL("../../../node_modules/diff/dist/diff.js", import.meta.url));
const TEXTWRAP = Deno.readTextFileSync("/usr/lib/python3.11/textwrap.py");

function lineCol(text: string, needle: string, offset = 0): { line: number; column: number } {
  const i = text.indexOf(needle) + offset;
  return { line: text.slice(0, i).split("\n").length, column: i - (text.lastIndexOf("\n", i - 1) + 1) + 1 };
}

Deno.test("edit_inline() commits the inlined calls and the removed declaration, with its data", async () => {
  const ws = await workspaceOf({ "/diff.js": DIFF_JS });
  const res = ok(await ws.call("edit_inline", { path: "diff.js", target: "removeSuffix" }));
  assert.equal(res.status, "applied");
  assert.deepEqual(res.data, {
    kind: "function",
    name: "removeSuffix",
    inlined: 4,
    lines: [661, 662, 692, 705],
    removed: true,
    kept_for: [],
  });
  const after = await textOf(ws, "diff.js");
  assert.match(after, /insertion\.value = replaceSuffix\(insertion\.value, commonWsSuffix, ''\);/);
  assert.ok(!after.includes("removeSuffix"));
});

Deno.test("edit_inline() dry_run writes nothing; name_path and position aliases work", async () => {
  const ws = await workspaceOf({ "/textwrap.py": TEXTWRAP });
  const target = lineCol(TEXTWRAP, "    w = TextWrapper(width=width, max_lines=1", 4);
  const res = ok(await ws.call("edit_inline", { path: "textwrap.py", position: target, dry_run: true }));
  assert.equal(res.status, "dry_run");
  assert.match(
    res.changes[0]!.diff,
    /\+ {4}return TextWrapper\(width=width, max_lines=1, \*\*kwargs\)\.fill\(/,
  );
  assert.equal(await textOf(ws, "textwrap.py"), TEXTWRAP);
  const byName = await ws.call("edit_inline", { path: "diff.js", name_path: "removeSuffix", dry_run: true });
  assert.ok(!byName.ok && byName.error.code === "not_found", "the path is checked first");
});

Deno.test("edit_inline() composes with edit_extract_function in an edit_dry_run plan: extract, then inline back", async () => {
  const ws = await workspaceOf({ "/textwrap.py": TEXTWRAP });
  const start =
    TEXTWRAP.slice(0, TEXTWRAP.indexOf("    return w.fill(' '.join(text.strip().split()))")).split("\n")
      .length;
  const res = ok(
    await ws.call("edit_dry_run", {
      plan: [
        {
          tool: "edit_extract_function",
          args: { path: "textwrap.py", range: { start_line: start, end_line: start }, name: "_short" },
        },
        { tool: "edit_inline", args: { path: "textwrap.py", target: "_short" } },
      ],
    }),
  );
  assert.equal(res.data["status"], "ok");
  const ops = res.data["ops"] as { data: Record<string, unknown> }[];
  assert.equal(ops[1]!.data["removed"], true);
  assert.deepEqual(res.changes, [], "inlining the extracted function gives back the original bytes");
  assert.equal(await textOf(ws, "textwrap.py"), TEXTWRAP);
});

Deno.test("edit_inline() refusals carry their code and hint, and write nothing", async () => {
  const ws = await workspaceOf({ "/diff.js": DIFF_JS, "/m.rb": "def f\n  1\nend\n" });
  const cases: [Record<string, unknown>, string][] = [
    [{ path: "diff.js", target: "replacePrefix" }, "control_flow_escapes"],
    [{ path: "diff.js", target: "diffChars" }, "value_reference"],
    [{ path: "diff.js", target: lineCol(DIFF_JS, "const hasTrailingNl", 6) }, "unsupported_call_site"],
    [{ path: "diff.js", target: lineCol(DIFF_JS, "let oldPos = basePath.oldPos", 4) }, "unresolved"],
    [{ path: "m.rb", target: "f" }, "unsupported_language"],
  ];
  for (const [args, code] of cases) {
    const before = await textOf(ws, args["path"] as string);
    const res = await ws.call("edit_inline", args);
    assert.ok(!res.ok, JSON.stringify(res).slice(0, 300));
    assert.equal(res.error.code, code, res.error.message);
    assert.ok(res.error.hint.length > 0);
    assert.equal(await textOf(ws, args["path"] as string), before);
  }
});

Deno.test("edit_inline() on rxjs: other files' uses keep the declaration and are named; a use through an import or a declaration used only elsewhere is refused with where to look", async () => {
  const ws = await workspaceOf(RXJS);
  // isFunction is declared in util/isFunction.ts and used only by other files
  const refused = await ws.call("edit_inline", { path: "internal/util/isFunction.ts", target: "isFunction" });
  assert.equal(refused.ok, false);
  if (refused.ok) return;
  assert.equal(refused.error.code, "no_match");
  assert.match(refused.error.message, /this file does not use it/);
  assert.match(refused.error.message, /internal\/Notification\.ts:\d+/);
  assert.equal(refused.error.suggested_call?.tool, "find_references");
  // a call through an import: refused, naming the module it comes from
  const args = RXJS["/internal/util/args.ts"]!;
  const merge = RXJS["/internal/observable/merge.ts"]!;
  const viaImport = await ws.call("edit_inline", {
    path: "internal/observable/merge.ts",
    target: lineCol(merge, "popScheduler(args)"),
  });
  assert.equal(viaImport.ok, false);
  if (!viaImport.ok) {
    assert.equal(viaImport.error.code, "invalid_args");
    assert.match(viaImport.error.message, /imported from "\.\.\/util\/args"/);
  }
  // an exported one-return function used in its file and elsewhere: its file's calls go, the declaration stays
  const ws2 = await workspaceOf({
    ...RXJS,
    "/internal/util/args.ts": args.replace("function last<T>", "export function last<T>"),
    "/internal/util/lastOf.ts":
      "import { last } from './args';\n\nexport const lastOf = (xs: number[]) => last(xs);\n",
  });
  const res = ok(await ws2.call("edit_inline", { path: "internal/util/args.ts", target: "last" }));
  assert.equal(res.data["inlined"], 3);
  assert.equal(res.data["removed"], false);
  assert.deepEqual(res.data["kept_for"], [
    { path: "internal/util/lastOf.ts", line: 1 },
    { path: "internal/util/lastOf.ts", line: 3 },
  ]);
  assert.match(res.warnings.join("\n"), /The declaration stays: 2 reference\(s\) in other files/);
  const after = await textOf(ws2, "internal/util/args.ts");
  assert.match(after, /^export function last<T>/m);
  assert.match(after, /return isFunction\(args\[args\.length - 1\]\) \? args\.pop\(\) : undefined;/);
});

Deno.test("edit_inline() keeps a function the module lists in __all__ (public), inlining its calls", async () => {
  const text = '__all__ = ["scale", "double"]\n\n\ndef scale(x):\n    return x * 2\n\n\ndef double(y):\n' +
    "    return scale(y) + 1\n";
  const ws = await workspaceOf({ "/mod.py": text });
  const res = ok(await ws.call("edit_inline", { path: "mod.py", target: "scale" }));
  assert.equal(res.data["inlined"], 1);
  assert.equal(res.data["removed"], false);
  const after = await textOf(ws, "mod.py");
  assert.match(after, /return y \* 2 \+ 1\n/);
  assert.match(after, /^__all__ = \["scale", "double"\]\n\n\ndef scale\(x\):/);
  // Not listed: the declaration goes.
  const ws2 = await workspaceOf({ "/mod.py": text.replace('"scale", ', "") });
  assert.equal(ok(await ws2.call("edit_inline", { path: "mod.py", target: "scale" })).data["removed"], true);
});

const CLICK_DIR = "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/click";
const CLICK_UTILS = Deno.readTextFileSync(new URL("../../fixtures/real/click_utils.py", import.meta.url));

/** Run python3.11 on `code` with `dir` on the import path; its stdout, or the failure. */
async function python(dir: string, code: string): Promise<{ code: number; out: string }> {
  const r = await new Deno.Command("python3.11", {
    args: ["-c", code],
    env: { PYTHONPATH: dir, PYTHONDONTWRITEBYTECODE: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: r.code, out: dec.decode(r.stdout) + dec.decode(r.stderr) };
}

Deno.test("edit_inline() writes no syntax newer than the project's requires-python: click's _posixify into an f-string", async () => {
  // Issue 27, item 4: inlining _posixify wrote f"~/.{"-".join(app_name.split()).lower()}", valid only on
  // Python >= 3.12, while click declares requires-python >=3.10.
  const files = {
    "/pyproject.toml": '[project]\nname = "click"\nrequires-python = ">=3.10"\n',
    "/click/utils.py": CLICK_UTILS,
  };
  const ws = await workspaceOf(files);
  const call = lineCol(CLICK_UTILS, '_posixify(app_name)}"');
  const res = ok(await ws.call("edit_inline", { path: "click/utils.py", target: call }));
  const after = await textOf(ws, "click/utils.py");
  assert.ok(
    after.includes(`os.path.expanduser(f"~/.{'-'.join(app_name.split()).lower()}")`),
    res.changes[0]!.diff,
  );
  // The real check: the package runs on Python 3.11 with the edited module.
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/click`);
    for (const e of Deno.readDirSync(CLICK_DIR)) {
      if (e.isFile) await Deno.copyFile(`${CLICK_DIR}/${e.name}`, `${dir}/click/${e.name}`);
    }
    await Deno.writeTextFile(`${dir}/click/utils.py`, after);
    const run = await python(
      dir,
      "import os, click.utils as u; print(u.get_app_dir('Foo Bar', force_posix=True) == os.path.expanduser('~/.foo-bar'))",
    );
    assert.deepEqual(run, { code: 0, out: "True\n" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("edit_inline() refuses an f-string substitution it cannot write for the declared Python, naming the version", async () => {
  const source = 'def tag(name):\n    return "it\'s " + name\n\n\nprint(f"{tag(\'x\')}")\n';
  for (const [spec, expect] of [[">=3.10", "refused"], [">=3.12", "applied"]] as const) {
    const ws = await workspaceOf({
      "/pyproject.toml": `[project]\nrequires-python = "${spec}"\n`,
      "/m.py": source,
    });
    const res = await ws.call("edit_inline", { path: "m.py", target: "tag" });
    if (expect === "refused") {
      assert.ok(!res.ok, JSON.stringify(res));
      assert.equal(res.error.code, "unsupported_call_site");
      assert.match(
        res.error.message,
        /needs Python 3\.12, and pyproject\.toml declares requires-python ">=3\.10"/,
      );
      assert.match(res.error.message, /\(line 5\)$/);
      assert.equal(await textOf(ws, "m.py"), source);
    } else {
      ok(res);
      assert.equal(await textOf(ws, "m.py"), 'print(f"{"it\'s " + \'x\'}")\n');
    }
  }
});

Deno.test("edit_inline() keeps a set comprehension inlined at an f-string field's start an expression, not an escaped brace", async () => {
  const source = 'S = {n for n in range(2)}\nprint(f"{S}")\n';
  const ws = await workspaceOf({ "/m.py": source });
  ok(await ws.call("edit_inline", { path: "m.py", target: "S" }));
  const after = await textOf(ws, "m.py");
  assert.equal(after, 'print(f"{ {n for n in range(2)}}")\n');
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/m.py`, after);
    assert.deepEqual(await python(dir, "import m"), { code: 0, out: "{0, 1}\n" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("edit_inline() into an f-string field: re-quoted when nothing is declared, kept as written on Python >= 3.12", async () => {
  const call = lineCol(CLICK_UTILS, '_posixify(app_name)}"');
  const cases = [
    [{}, `f"~/.{'-'.join(app_name.split()).lower()}"`],
    [
      { "/pyproject.toml": '[project]\nrequires-python = ">=3.12"\n' },
      `f"~/.{"-".join(app_name.split()).lower()}"`,
    ],
  ] as const;
  for (const [config, expected] of cases) {
    const ws = await workspaceOf({ ...config, "/click/utils.py": CLICK_UTILS });
    ok(await ws.call("edit_inline", { path: "click/utils.py", target: call }));
    assert.ok((await textOf(ws, "click/utils.py")).includes(`os.path.expanduser(${expected})`), expected);
  }
});

Deno.test("edit_inline() parenthesises a lambda that becomes an f-string field's whole expression", async () => {
  // `f"{lambda x: x}"` is a SyntaxError in every Python (the `:` starts a format spec); it was answered ok.
  const ws = await workspaceOf({ "/m.py": 'F = lambda x: x\nprint(f"{F}")\n' });
  ok(await ws.call("edit_inline", { path: "m.py", target: "F" }));
  const after = await textOf(ws, "m.py");
  assert.equal(after, 'print(f"{(lambda x: x)}")\n');
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/m.py`, after);
    const run = await python(dir, "import m");
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, /^<function <lambda> at 0x[0-9a-f]+>\n$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("edit_inline() refuses a value that reads an attribute a del, a call or an attribute assignment may change before the use (email's Generator._write)", async () => {
  // Found by the refactor soak on CPython's email: `munge_cte = self._munge_cte` then `del self._munge_cte`
  // in the same finally block; inlining wrote `if self._munge_cte:` after the del (AttributeError at run time).
  const generator = Deno.readTextFileSync("/usr/lib/python3.11/email/generator.py");
  const ws = await workspaceOf({ "/generator.py": generator });
  const at = lineCol(generator, "munge_cte = self._munge_cte");
  const r = await ws.call("edit_inline", { path: "generator.py", target: at });
  assert.ok(!r.ok, JSON.stringify(r));
  assert.equal(r.error.code, "unsupported_call_site");
  assert.match(
    r.error.message,
    /reads "self\._munge_cte", and line \d+ \(del self\._munge_cte\) may change it/,
  );
  assert.equal(await textOf(ws, "generator.py"), generator);

  const src = [
    "class C:",
    "    def f(self, items):",
    "        first = self.items[0]",
    "        self.items[0] = 2",
    "        return first",
    "",
    "    def g(self):",
    "        n = self.n",
    "        self.bump()",
    "        return n",
    "",
    "    def h(self, xs):",
    "        n = self.n",
    "        for x in xs:",
    "            last = n",
    "            self.n = x",
    "",
    "    def k(self):",
    "        n = self.n",
    "        m = 2",
    "        return n + m",
    "",
  ].join("\n");
  const ws2 = await workspaceOf({ "/c.py": src });
  const cases: [string, string][] = [["first =", "self.items[0] = 2"], [
    "n = self.n\n        self",
    "self.bump()",
  ]];
  for (const [needle, change] of cases) {
    const res = await ws2.call("edit_inline", { path: "c.py", target: lineCol(src, needle) });
    assert.ok(!res.ok, JSON.stringify(res));
    assert.ok(res.error.message.includes(`(${change})`), res.error.message);
  }
  // A loop after the value reads it again after the body's assignment ran.
  const loop = await ws2.call("edit_inline", {
    path: "c.py",
    target: lineCol(src, "n = self.n\n        for"),
  });
  assert.ok(!loop.ok, JSON.stringify(loop));
  assert.match(loop.error.message, /\(self\.n = x\)/);
  // Assigning a plain name changes no attribute: inlined.
  ok(await ws2.call("edit_inline", { path: "c.py", target: lineCol(src, "n = self.n\n        m") }));
  assert.match(await textOf(ws2, "c.py"), /return self\.n \+ m/);
});

Deno.test("edit_inline() refuses a copy or a new object where a use changes the object (email's quoprimime body map)", async () => {
  // Found by the refactor soak on CPython's email: `_QUOPRI_BODY_ENCODE_MAP = _QUOPRI_BODY_MAP[:]` then
  // `_QUOPRI_BODY_ENCODE_MAP[c] = chr(c)`; inlining wrote `_QUOPRI_BODY_MAP[:][c] = chr(c)` (a throwaway copy)
  // and quoted-printable bodies lost their line breaks.
  const quopri = Deno.readTextFileSync("/usr/lib/python3.11/email/quoprimime.py");
  const ws = await workspaceOf({ "/quoprimime.py": quopri });
  const r = await ws.call("edit_inline", {
    path: "quoprimime.py",
    target: lineCol(quopri, "_QUOPRI_BODY_ENCODE_MAP = "),
  });
  assert.ok(!r.ok, JSON.stringify(r));
  assert.equal(r.error.code, "unsupported_call_site");
  assert.equal(await textOf(ws, "quoprimime.py"), quopri);

  const src = [
    "def f(a, b, x):",
    "    parts = a + b",
    "    parts.append(x)",
    "    return len(parts)",
    "",
    "def g(self, x):",
    "    items = self.items",
    "    items.append(x)",
    "",
  ].join("\n");
  const ws2 = await workspaceOf({ "/c.py": src });
  const fresh = await ws2.call("edit_inline", { path: "c.py", target: lineCol(src, "parts =") });
  assert.ok(!fresh.ok, JSON.stringify(fresh));
  assert.match(fresh.error.message, /line 3 changes the object "parts" holds, and its value \(a \+ b\)/);
  // The same object however often it runs: inlined.
  ok(await ws2.call("edit_inline", { path: "c.py", target: lineCol(src, "items =") }));
  assert.match(await textOf(ws2, "c.py"), / {4}self\.items\.append\(x\)/);
});

Deno.test("edit_inline() keeps a TypeScript variable that a condition narrows for the uses after it (rxjs's argsArgArrayOrObject)", async () => {
  // The soak's case: `const first = args[0]` inlined into `isArray(args[0])` … `keys.map((key) => args[0][key])`
  // answered ok and tsc failed (TS7053): `args[0]` is not narrowed inside the callback as `first` was.
  const ws = await workspaceOf(RXJS);
  const path = "internal/util/argsArgArrayOrObject.ts";
  const before = RXJS[`/${path}`]!;
  const res = await ws.call("edit_inline", { path, target: { line: 12, column: 11 } });
  assert.ok(!res.ok, JSON.stringify(res));
  assert.equal(res.error.code, "types_required");
  assert.match(res.error.message, /line 13 tests "first" \(isArray\(first\)\)/);
  assert.equal(await textOf(ws, path), before, "nothing written");
  // The use before any test is still inlined on its own; a literal needs no narrowing.
  const one = ok(await ws.call("edit_inline", { path, target: { line: 13, column: 17 } }));
  assert.ok((one.data["sites"] as unknown[] ?? [1]).length >= 1);
  assert.match(
    await textOf(ws, path),
    /if \(isArray\(args\[0\]\)\) \{\n\s+return \{ args: first, keys: null \};/,
  );
  const literal = await workspaceOf({
    "/a.ts":
      'export function f(x: unknown): string {\n  const tag = "a";\n  if (x === tag) return tag;\n  return "";\n}\n',
  });
  ok(await literal.call("edit_inline", { path: "a.ts", target: { line: 2, column: 9 } }));
  assert.match(await textOf(literal, "a.ts"), /if \(x === "a"\) return "a";/);
});

Deno.test("edit_inline() keeps a TypeScript call that omits an argument the body tests as it is (rxjs's animationFramesFactory())", async () => {
  // The soak's case: inlining `animationFramesFactory` wrote `undefined || performanceTimestampProvider` for the
  // call without an argument, which TypeScript refuses (TS2873: this kind of expression is always falsy).
  const ws = await workspaceOf(RXJS);
  const path = "internal/observable/dom/animationFrames.ts";
  const before = RXJS[`/${path}`]!;
  const line = before.split("\n").findIndex((l) => l.startsWith("function animationFramesFactory")) + 1;
  const res = await ws.call("edit_inline", { path, target: { line, column: 10 } });
  assert.ok(!res.ok, JSON.stringify(res).slice(0, 300));
  assert.equal(res.error.code, "unsupported_call_site");
  assert.match(
    res.error.message,
    /passes no value for "timestampProvider".*timestampProvider \|\| performanceTimestampProvider/,
  );
  assert.equal(await textOf(ws, path), before, "nothing written");
  // The same function in JavaScript, where `undefined || x` is fine, is inlined.
  const js = await workspaceOf({
    "/a.js": "function pick(p) {\n  return p || 1;\n}\nexport const a = pick();\nexport const b = pick(2);\n",
  });
  ok(await js.call("edit_inline", { path: "a.js", target: { line: 1, column: 10 } }));
  assert.match(await textOf(js, "a.js"), /export const a = undefined \|\| 1;/);
});
