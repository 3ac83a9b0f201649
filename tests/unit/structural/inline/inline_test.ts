/**
 * Inline on real code: jsdiff's bundle and Python's textwrap and glob modules. Each result re-parses,
 * the replaced text is checked byte for byte on hand-checked cases, and a small program prints the same
 * before and after (node, python3). Plus every refusal.
 */
import assert from "node:assert/strict";
import { RecoverableError } from "../../../../src/errors.ts";
import { Stage } from "../../../../src/fs/stage.ts";
import { type InlinePlan, planInline } from "../../../../src/structural/inline/inline.ts";
import type { ReferenceTarget } from "../../../../src/structural/references/reference_target.ts";
import { assertReparses, RXJS, workspaceOf } from "../../tools/_bindings_fixtures.ts";
import { type Files, typeErrors } from "../_module_check.ts";
import { DIFF_JS, run, sameJs, samePy, TEXTWRAP } from "../_refactor_programs.ts";

const GLOB = Deno.readTextFileSync("/usr/lib/python3.11/glob.py");

/** The 1-based line and column of `needle` (plus `offset` characters) in `text`. */
function at(text: string, needle: string, offset = 0): { line: number; column: number } {
  const i = text.indexOf(needle);
  assert.ok(i >= 0, `"${needle}" not found`);
  const pos = i + offset;
  return {
    line: text.slice(0, pos).split("\n").length,
    column: pos - (text.lastIndexOf("\n", pos - 1) + 1) + 1,
  };
}

function language(path: string): string {
  return path.endsWith(".py") ? "python" : path.endsWith(".ts") ? "typescript" : "javascript";
}

async function inline(path: string, text: string, target: ReferenceTarget): Promise<InlinePlan> {
  const ws = await workspaceOf({ [`/${path}`]: text });
  const plan = await planInline(ws, new Stage(ws.fs, ws.sandbox), { path, target, tool: "test" });
  await assertReparses(language(path), text, plan.text, path);
  assert.equal(new TextDecoder().decode((await ws.fs.read(`/${path}`))!), text, "planning writes nothing");
  return plan;
}

async function refusal(path: string, text: string, target: ReferenceTarget): Promise<RecoverableError> {
  const ws = await workspaceOf({ [`/${path}`]: text });
  try {
    await planInline(ws, new Stage(ws.fs, ws.sandbox), { path, target, tool: "test" });
  } catch (e) {
    assert.ok(e instanceof RecoverableError, String(e));
    assert.ok(e.hint.length > 0);
    assert.match(e.message, new RegExp(`"${path.replace(".", "\\.")}"`));
    return e;
  }
  assert.fail("expected a refusal");
}

/** The lines of `text` that differ from `before`'s (same line count assumed when `strict`). */
function changedLines(before: string, after: string): string[] {
  const a = new Set(before.split("\n"));
  return after.split("\n").filter((l) => !a.has(l));
}

Deno.test("planInline() inlines jsdiff's removePrefix at every call and removes it; the program prints the same", async () => {
  const plan = await inline("diff.js", DIFF_JS, "removePrefix");
  assert.equal(plan.kind, "function");
  assert.deepEqual(plan.lines, [655, 656, 687, 691, 714]);
  assert.equal(plan.removed, true);
  assert.deepEqual(changedLines(DIFF_JS, plan.text), [
    "                deletion.value = replacePrefix(deletion.value, commonWsPrefix, '');",
    "                insertion.value = replacePrefix(insertion.value, commonWsPrefix, '');",
    "            deletion.value = replacePrefix(deletion.value, newWsStart, '');",
    "            const newWsEnd = longestCommonSuffix(replacePrefix(newWsFull, newWsStart, ''), delWsEnd);",
    "            deletion.value = replacePrefix(deletion.value, overlap, '');",
  ]);
  assert.ok(!plan.text.includes("function removePrefix("));
  assert.equal(plan.text.split("\n").length, DIFF_JS.split("\n").length - 3);
  await sameJs(plan);
});

Deno.test("planInline() inlines one call, or a variable into a loop condition, in jsdiff", async () => {
  const one = await inline("diff.js", DIFF_JS, at(DIFF_JS, "removeSuffix(deletion.value, newWsEnd)"));
  assert.deepEqual(one.lines, [692]);
  assert.equal(one.removed, false);
  assert.deepEqual(changedLines(DIFF_JS, one.text), [
    "            deletion.value = replaceSuffix(deletion.value, newWsEnd, '');",
  ]);
  await sameJs(one);
  const len = await inline("diff.js", DIFF_JS, at(DIFF_JS, "const componentLen", 6));
  assert.equal(len.kind, "variable");
  assert.equal(len.removed, true);
  assert.deepEqual(changedLines(DIFF_JS, len.text), [
    "            for (; componentPos < components.length; componentPos++) {",
  ]);
  await sameJs(len);
});

Deno.test("planInline() in Python: a wrapper into its return, a predicate into its three calls (glob runs the same)", async () => {
  const shorten = await inline(
    "textwrap.py",
    TEXTWRAP,
    at(TEXTWRAP, "    w = TextWrapper(width=width, max_lines=1", 4),
  );
  assert.equal(shorten.kind, "variable");
  assert.deepEqual(changedLines(TEXTWRAP, shorten.text), [
    "    return TextWrapper(width=width, max_lines=1, **kwargs).fill(' '.join(text.strip().split()))",
  ]);
  await samePy(shorten);
  const hidden = await inline("glob.py", GLOB, "_ishidden");
  assert.equal(hidden.removed, true);
  assert.deepEqual(changedLines(GLOB, hidden.text), [
    "    if include_hidden or not (pattern[0] in ('.', b'.'[0])):",
    "        names = (x for x in names if include_hidden or not (x[0] in ('.', b'.'[0])))",
    "        if include_hidden or not (x[0] in ('.', b'.'[0])):",
  ]);
  const program = [
    "-c",
    [
      "import os, globx",
      "for d in ['a', '.h', 'a/b', 'a/.c']: os.makedirs(d, exist_ok=True)",
      "for f in ['x.py', '.y.py', 'a/z.py', 'a/.w.py', 'a/b/v.py']: open(f, 'w').close()",
      "for pat in ['*', '*.py', '**/*.py', '.*', 'a/*', '**']:",
      "    print(pat, sorted(globx.glob(pat, recursive=True)), sorted(globx.glob(pat, recursive=True, include_hidden=True)))",
    ].join("\n"),
  ];
  const before = await run("python3", program, "globx.py", GLOB);
  assert.match(before, /^\*\.py \['globx\.py', 'x\.py'\] \['\.y\.py', 'globx\.py', 'x\.py'\]$/m);
  assert.equal(await run("python3", program, "globx.py", hidden.text), before);
});

Deno.test("planInline() parenthesises by precedence and keeps shorthand keys", async () => {
  const js = [
    "function area(w, h) { return w * h; }",
    "function sum(a, b) { return a + b; }",
    "export function report(x, y) {",
    "  const total = x + y;",
    "  const scaled = total * 2;",
    "  const doubled = area(x + 1, y) + sum(x, y) * 3 - sum(1, 2);",
    "  return { total, scaled, doubled, neg: -sum(x, y) };",
    "}",
    "",
  ].join("\n");
  const total = await inline("m.js", js, at(js, "total = x", 0));
  assert.deepEqual(changedLines(js, total.text), [
    "  const scaled = (x + y) * 2;",
    "  return { total: x + y, scaled, doubled, neg: -sum(x, y) };",
  ]);
  const area = await inline("m.js", js, "area");
  assert.deepEqual(changedLines(js, area.text), [
    "  const doubled = (x + 1) * y + sum(x, y) * 3 - sum(1, 2);",
  ]);
  const sum = await inline("m.js", js, "sum");
  assert.deepEqual(changedLines(js, sum.text), [
    "  const doubled = area(x + 1, y) + (x + y) * 3 - (1 + 2);",
    "  return { total, scaled, doubled, neg: -(x + y) };",
  ]);
  const program = (text: string) =>
    [`${text.replace(/^export /m, "")}`, "console.log(JSON.stringify(report(4, 5)));"].join("\n");
  const before = await run("node", ["m.js"], "m.js", program(js));
  for (const p of [total, area, sum]) {
    assert.equal(await run("node", ["m.js"], "m.js", program(p.text)), before);
  }
});

Deno.test("planInline() keeps a TypeScript variable's written type at its uses, and refuses a union (rxjs getXHRResponse)", async () => {
  // Found by the refactor soak: `const ieXHR: any = xhr;` inlined as `xhr.responseText`, where xhr is narrowed
  // to never (TS2339). Each use now gets the value as the written type.
  const path = "internal/ajax/getXHRResponse.ts";
  const text = RXJS[`/${path}`]!;
  const plan = await inline(path, text, at(text, "const ieXHR: any = xhr;\n        return JSON", 6));
  assert.ok(plan.text.includes("        return JSON.parse((xhr as any).responseText);\n"), plan.text);
  const rx: Files = Object.fromEntries(Object.entries(RXJS).map(([k, v]) => [k.slice(1), v]));
  assert.deepEqual(await typeErrors({ ...rx, [path]: plan.text }, [path]), []);
  // A non-atomic value is parenthesised inside the assertion.
  const sum = await inline("sum.ts", "const n: number = 1 + 2;\nexport const s = n.toFixed();\n", "n");
  assert.equal(sum.text, "export const s = ((1 + 2) as number).toFixed();\n");
  // A union is narrowed at each use to what the value holds; neither spelling keeps that.
  const union = await refusal("u.ts", "const m: 'a' | 'b' = 'a';\nexport const t: 'a' = m;\n", "m");
  assert.equal(union.code, "types_required");
  assert.match(union.message, /declared type `'a' \| 'b'` is a union/);
});

Deno.test("planInline() asserts a TypeScript function's arguments and result to their written types; a type predicate is refused", async () => {
  // The body was checked against `x: any` and the return type: an argument or the expression alone may not have
  // those types (`xhr.responseText` on `{ response: string }`, `['a']` as `string[]`).
  const text = [
    "function field(x: any) {",
    "  return x.responseText;",
    "}",
    "function mode(): 'a' | 'b' {",
    "  return 'a';",
    "}",
    "export function body(xhr: { response: string }): string {",
    "  return field(xhr);",
    "}",
    "export const modes: ('a' | 'b')[] = [mode()];",
    "",
  ].join("\n");
  const field = await inline("typed.ts", text, "field");
  assert.match(field.text, / {2}return \(xhr as any\)\.responseText;\n/);
  const mode = await inline("typed.ts", text, "mode");
  assert.match(mode.text, /export const modes: \('a' \| 'b'\)\[\] = \[\('a' as 'a' \| 'b'\)\];/);
  for (const t of [text, field.text, mode.text]) assert.deepEqual(await typeErrors({ "typed.ts": t }), [], t);
  // A type parameter's type is inferred per call: the argument goes in as written.
  const generic = await inline(
    "g.ts",
    "function first<T>(xs: T[]): T {\n  return xs[0];\n}\nexport const n = first([1]);\n",
    "first",
  );
  assert.equal(generic.text, "export const n = [1][0];\n");
  // `x is string` narrows the argument where it is called; `typeof x === 'string'` inlined would not always.
  const predicate = await refusal(
    "p.ts",
    "function isStr(x: unknown): x is string {\n  return typeof x === 'string';\n}\nexport const f = (v: unknown) => isStr(v) && v.length;\n",
    "isStr",
  );
  assert.equal(predicate.code, "types_required");
  assert.match(predicate.message, /its return type `x is string` narrows the argument/);
});

Deno.test("planInline() refuses what would behave differently, naming where", async () => {
  const multi = await refusal("diff.js", DIFF_JS, "replacePrefix");
  assert.equal(multi.code, "control_flow_escapes");
  assert.match(multi.message, /its body is 2 statements with 1 return, not one returned expression/);
  const reassigned = await refusal("diff.js", DIFF_JS, at(DIFF_JS, "let oldPos = basePath.oldPos", 4));
  assert.equal(reassigned.code, "unresolved");
  assert.match(reassigned.message, /it is assigned again at line \d+/);
  const effect = await refusal("diff.js", DIFF_JS, at(DIFF_JS, "linesAndNewlines = value.split"));
  assert.equal(effect.code, "unsupported_call_site");
  assert.match(effect.message, /its value has an effect .* and it is used \d+ times/);
  const far = await refusal("diff.js", DIFF_JS, at(DIFF_JS, "const hasTrailingNl", 6));
  assert.equal(far.code, "unsupported_call_site");
  assert.match(far.message, /its use is not in the statement right after it/);
  const value = await refusal("diff.js", DIFF_JS, "diffChars");
  assert.equal(value.code, "value_reference");
  assert.match(value.message, /used as a value at line 2295/);
  const statements = await refusal("textwrap.py", TEXTWRAP, at(TEXTWRAP, "def wrap(text, width=70", 4));
  assert.equal(statements.code, "control_flow_escapes", "a docstring, an assignment and a return");
  assert.match(statements.message, /its body is 2 statements with 1 return/);
  const js = [
    "let seen = 0;",
    "function next() { seen += 1; return seen; }",
    "function pair(a, b) { return [b, a]; }",
    "function twice(a) { return a + a; }",
    "function fact(n) { return n <= 1 ? 1 : n * fact(n - 1); }",
    "function maybe(a, c) { return c && a; }",
    "function shadow(v) { return [1].map((seen) => seen + v); }",
    "function run() {",
    "  const base = seen;",
    "  let seen2 = base;",
    "  seen = 5;",
    "  const first = pair(next(), next());",
    "  const t = twice(next());",
    "  const m = maybe(next(), false);",
    "  const s = shadow(seen);",
    "  return [base, seen2, first, t, m, fact(4), s];",
    "}",
    "function other(seen) { return seen2; }",
    "function rest(...xs) { return xs.length; }",
    "rest(1, 2);",
    "",
  ].join("\n");
  const code = async (target: ReferenceTarget) => (await refusal("r.js", js, target)).code;
  assert.equal(await code("pair"), "unsupported_call_site", "next() twice would run in another order");
  assert.equal(await code("twice"), "unsupported_call_site", "next() would run twice");
  assert.equal(await code("maybe"), "unsupported_call_site", "next() might not run");
  assert.equal(await code("fact"), "unsupported_call_site", "recursion");
  assert.equal(await code("rest"), "unsupported_call_site", "a rest parameter");
  assert.equal(await code("shadow"), "name_clash", "seen would be captured by the lambda's parameter");
  assert.equal(await code(at(js, "const base", 6)), "unsupported_call_site", "seen is assigned between");
  assert.equal(await code(at(js, "  seen = 5", 2)), "unresolved", "a module variable assigned again");
  const letOnce = await inline("r.js", js, at(js, "seen2 = base"));
  assert.deepEqual(
    changedLines(js, letOnce.text),
    ["  return [base, base, first, t, m, fact(4), s];"],
    "a let never reassigned",
  );
  const go = await workspaceOf({ "/m.go": "package m\n\nfunc f() int { return 1 }\n" });
  await assert.rejects(
    planInline(go, new Stage(go.fs, go.sandbox), { path: "m.go", target: "f", tool: "test" }),
    (e) => e instanceof RecoverableError && e.code === "unsupported_language",
  );
});
