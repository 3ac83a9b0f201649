import assert from "node:assert/strict";
import { after, plan, refusal } from "./_signature_fixtures.ts";
import { assertReparses, RXJS, workspaceOf } from "../../tools/_bindings_fixtures.ts";

/** Every `name(` call's argument count per file, before and after (calls stay calls). */
function callCount(text: string, name: string): number {
  return text.split(new RegExp(`\\b${name}\\(`)).length - 1;
}

/** rxjs's arrRemove without its type parameter: T is inferred from both arguments, which a swap may change. */
const UNTYPED_ARR_REMOVE = RXJS["/internal/util/arrRemove.ts"]!.replace(
  "arrRemove<T>(arr: T[] | undefined | null, item: T)",
  "arrRemove(arr: any[] | undefined | null, item: any)",
);

Deno.test("planChangeSignature() swaps and renames (a non-generic) arrRemove's parameters at all 9 rxjs call sites", async () => {
  const ws = await workspaceOf({ ...RXJS, "/internal/util/arrRemove.ts": UNTYPED_ARR_REMOVE });
  const p = await plan(ws, "internal/util/arrRemove.ts", "arrRemove", ["item", {
    name: "arr",
    rename: "list",
  }]);
  assert.equal(p.before, "(arr: any[] | undefined | null, item: any)");
  assert.equal(p.after, "(item: any, list: any[] | undefined | null)");
  assert.deepEqual(p.mapping.map((m) => [m.old_name, m.new_name, m.change]), [
    ["item", "item", "moved"],
    ["arr", "list", "renamed_and_moved"],
  ]);
  assert.equal(
    await after(p, "internal/util/arrRemove.ts"),
    UNTYPED_ARR_REMOVE.replace(" * @param arr The array", " * @param list The array")
      .replace(
        "export function arrRemove(arr: any[] | undefined | null, item: any) {\n  if (arr) {\n    const index = arr.indexOf(item);\n    0 <= index && arr.splice(index, 1);",
        "export function arrRemove(item: any, list: any[] | undefined | null) {\n  if (list) {\n    const index = list.indexOf(item);\n    0 <= index && list.splice(index, 1);",
      ),
  );
  const sub = await after(p, "internal/Subscription.ts");
  assert.equal(
    sub,
    RXJS["/internal/Subscription.ts"]!.replace(
      "arrRemove(_parentage, parent);",
      "arrRemove(parent, _parentage);",
    )
      .replace(
        "_finalizers && arrRemove(_finalizers, teardown);",
        "_finalizers && arrRemove(teardown, _finalizers);",
      ),
  );
  assert.equal(p.callSites.length, 9);
  assert.ok(p.callSites.every((c) => c.updated));
  // Every call in the project has its two arguments swapped, and nothing else changed.
  for (const path of p.files) {
    const before = RXJS[`/${path}`]!;
    const now = await after(p, path);
    if (path.endsWith("arrRemove.ts")) continue;
    const swapped = before.replace(/\barrRemove\((\w+), (\w+)\)/g, "arrRemove($2, $1)");
    assert.equal(now, swapped, path);
  }
  assert.equal(p.files.length, 9, "8 files call it, Subscription.ts twice");
});

Deno.test("planChangeSignature() refuses to swap two parameters a type parameter is inferred from (rxjs arrRemove<T>)", async () => {
  // Found by the refactor soak: `arrRemove(actions, this)` in AsyncAction infers T = AsyncAction<any>; swapped,
  // `arrRemove(this, actions)` infers T = this, and `actions` no longer fits `this[]`.
  const ws = await workspaceOf(RXJS);
  const swap = await refusal(plan(ws, "internal/util/arrRemove.ts", "arrRemove", ["item", "arr"]));
  assert.equal(swap.code, "types_required");
  assert.match(swap.message, /type parameter T is inferred from both "arr" and "item"/);
  assert.match(swap.hint, /Keep "arr" before "item"/);
  assert.deepEqual(swap.details!["parameters"], ["arr", "item"]);
  // Renames and moves that keep the two in order are fine; so is a reorder of parameters naming no T.
  const renamed = await plan(ws, "internal/util/arrRemove.ts", "arrRemove", [
    { name: "arr", rename: "list" },
    "item",
  ]);
  assert.equal(renamed.after, "(list: T[] | undefined | null, item: T)");
  const onNext = await plan(ws, "internal/operators/OperatorSubscriber.ts", "createOperatorSubscriber", [
    "destination",
    "onNext",
    "onFinalize",
    "onComplete",
    "onError",
  ]);
  assert.ok(onNext.callSites.length > 0);
});

Deno.test("planChangeSignature() reorders createOperatorSubscriber's callbacks in 46 files, comments riding along", async () => {
  const ws = await workspaceOf(RXJS);
  const p = await plan(ws, "internal/operators/OperatorSubscriber.ts", "createOperatorSubscriber", [
    "destination",
    "onNext",
    "onError",
    "onComplete",
    "onFinalize",
  ]);
  assert.equal(p.callSites.length, 81);
  assert.equal(
    p.callSites.filter((c) => c.updated).length,
    61,
    "calls passing neither callback keep their text",
  );
  assert.equal(p.files.length, 46);
  const forkJoin = await after(p, "internal/observable/forkJoin.ts");
  assert.ok(
    forkJoin.includes(
      "            values[sourceIndex] = value;\n          },\n          undefined,\n          () => remainingCompletions--,\n          () => {",
    ),
  );
  const audit = await after(p, "internal/operators/audit.ts");
  assert.ok(audit.includes("createOperatorSubscriber(subscriber, endDuration, undefined, cleanupDuration)"));
  const bufferCount = await after(p, "internal/operators/bufferCount.ts");
  assert.ok(
    bufferCount.includes(
      "        },\n        // Pass all errors through to consumer.\n        undefined,\n        () => {",
    ),
  );
  for (const path of p.files) {
    const now = await after(p, path);
    assert.equal(
      callCount(now, "createOperatorSubscriber"),
      callCount(RXJS[`/${path}`]!, "createOperatorSubscriber"),
    );
    await assertReparses("typescript", RXJS[`/${path}`]!, now, path);
  }
});

Deno.test("planChangeSignature() adds a typed defaulted parameter to executeSchedule and its overloads; calls unchanged", async () => {
  const ws = await workspaceOf(RXJS);
  const p = await plan(ws, "internal/util/executeSchedule.ts", "executeSchedule", [
    "parentSubscription",
    "scheduler",
    "work",
    "delay",
    "repeat",
    { name: "label", type: "string", default: "''" },
  ]);
  assert.deepEqual(p.files, ["internal/util/executeSchedule.ts"]);
  assert.equal(p.callSites.length, 14);
  assert.ok(p.callSites.every((c) => !c.updated));
  assert.equal(
    await after(p, "internal/util/executeSchedule.ts"),
    RXJS["/internal/util/executeSchedule.ts"]!
      .replace("  repeat: true\n): void;", "  repeat: true,\n  label?: string\n): void;")
      .replace("  repeat?: false\n): Subscription;", "  repeat?: false,\n  label?: string\n): Subscription;")
      .replace(
        "  repeat = false\n): Subscription | void {",
        "  repeat = false,\n  label: string = ''\n): Subscription | void {",
      ),
  );
});

Deno.test("planChangeSignature() refuses what it cannot prove on rxjs, with the sites", async () => {
  const ws = await workspaceOf(RXJS);
  const noop = await refusal(plan(ws, "internal/util/noop.ts", "noop", [{ name: "x", default: "0" }]));
  assert.equal(noop.code, "value_reference");
  assert.match(noop.message, /"internal\/Subscriber\.ts" line 267 column 9/);
  assert.ok((noop.details!["sites"] as unknown[]).length > 5);
  const unsub = await refusal(
    plan(ws, "internal/Subscription.ts", "Subscription/unsubscribe", [{ name: "x", default: "0" }]),
  );
  assert.equal(unsub.code, "overrides_present");
  // Its class implements SubscriptionLike (the bases are checked first; Subscriber also overrides it): the
  // refusal names the interface's member.
  assert.match(
    unsub.message,
    /overrides \(or implements\) "SubscriptionLike\.unsubscribe" \("internal\/types\.ts" line 85\)/,
  );
  const add = await refusal(
    plan(ws, "internal/Subscription.ts", "Subscription/add", ["teardown", { name: "x", default: "0" }]),
  );
  assert.equal(add.code, "unresolved");
  assert.equal(add.suggestedCall?.args["include_unresolved"], true);
  const inUse = await refusal(
    plan(ws, "internal/util/executeSchedule.ts", "executeSchedule", [
      "parentSubscription",
      "scheduler",
      "work",
      "delay",
    ]),
  );
  assert.equal(inUse.code, "parameter_in_use");
  assert.match(inUse.message, /"repeat".*lines 28, 37/);
  const clash = await refusal(plan(ws, "internal/util/executeSchedule.ts", "executeSchedule", [
    "parentSubscription",
    "scheduler",
    "work",
    "delay",
    "repeat",
    { name: "scheduleSubscription", type: "number", default: "0" },
  ]));
  assert.equal(clash.code, "name_clash");
  assert.match(clash.message, /line 26/);
  const renameClash = await refusal(plan(ws, "internal/util/executeSchedule.ts", "executeSchedule", [
    { name: "parentSubscription", rename: "scheduleSubscription" },
    "scheduler",
    "work",
    "delay",
    "repeat",
  ]));
  assert.equal(renameClash.code, "name_clash", "the rename engine's own clash check");
  const untyped = await refusal(
    plan(ws, "internal/util/arrRemove.ts", "arrRemove", ["arr", "item", { name: "n", value: "1" }]),
  );
  assert.equal(untyped.code, "types_required");
  const typo = await refusal(plan(ws, "internal/util/arrRemove.ts", "arrRemove", ["arr", "itme"]));
  assert.equal(typo.code, "invalid_args");
  assert.match(typo.message, /its parameters: arr, item/);
  const restLast = await refusal(
    plan(ws, "internal/operators/zipWith.ts", "zipWith", [
      "otherInputs",
      { name: "x", type: "number", default: "0" },
    ]),
  );
  assert.equal(restLast.code, "invalid_args", "a rest parameter must stay last");
  const spread = await refusal(
    plan(ws, "internal/operators/raceWith.ts", "raceWith", [
      { name: "x", type: "number", default: "0" },
      "otherSources",
    ]),
  );
  assert.equal(spread.code, "unsupported_call_site");
  assert.match(
    spread.message,
    /"internal\/operators\/race\.ts" line 19 column 10 \(it is called with \.\.\.argsOrArgArray\(args\)/,
  );
});

Deno.test("planChangeSignature() keeps side effects: dropped or reordered impure arguments refuse, pure ones move", async () => {
  const ws = await workspaceOf({}, {
    "calc.js": [
      "export function mix(a, b, c) {",
      "  return a + b;",
      "}",
      "let n = 0;",
      "const tick = () => ++n;",
      "mix(1, 2, tick());",
      "mix(tick(), tick(), 3);",
      "mix(n, () => tick(), 4);",
      "",
    ].join("\n"),
  });
  const drop = await refusal(plan(ws, "calc.js", "mix", ["a", "b"]));
  assert.equal(drop.code, "unsupported_call_site");
  assert.match(
    drop.message,
    /line 6 column 1 \(removing "c" would drop the argument tick\(\), which has side effects\)/,
  );
  const swap = await refusal(plan(ws, "calc.js", "mix", ["b", "a", "c"]));
  assert.equal(swap.code, "unsupported_call_site");
  assert.match(
    swap.message,
    /line 7 column 1 \(reordering tick\(\) and tick\(\) would change what they compute/,
  );
  const reads = await workspaceOf({}, {
    "r.js": "function put(a, b) {\n  return [a, b];\n}\nlet n = 0;\nput(n, ++n);\n",
  });
  const read = await refusal(plan(reads, "r.js", "put", ["b", "a"]));
  assert.equal(read.code, "unsupported_call_site");
  assert.match(read.message, /reordering n and \+\+n would change what they compute/);
  const deletes = await workspaceOf({}, {
    "d.js": "function keep(a, b) {\n  return a;\n}\nconst o = { x: 1 };\nkeep(1, delete o.x);\n",
  });
  const del = await refusal(plan(deletes, "d.js", "keep", ["a"]));
  assert.equal(del.code, "unsupported_call_site", "a `delete` argument is an effect: dropping it is refused");
  const ok = await plan(ws, "calc.js", "mix", ["c", "a", "b"]);
  const text = await after(ok, "calc.js");
  assert.ok(text.includes("mix(tick(), 1, 2);\nmix(3, tick(), tick());\nmix(4, n, () => tick());"), text);
});

Deno.test("planChangeSignature() in Python: arguments after a gap become keywords; positional-only ones refuse; parameter properties stay", async () => {
  const ws = await workspaceOf({}, {
    "m.py": [
      "def f(a, b=1, c=2):",
      "    return a + b + c",
      "",
      "f(1, 2)",
      "f(1, 2, 3)",
      "f(1, c=5)",
      "",
      "def g(a, b=1, /):",
      "    return a + b",
      "",
      "g(1, 2)",
      "",
    ].join("\n"),
    "p.ts": "export class P {\n  constructor(private x: number, y: number) {\n    console.log(y);\n  }\n}\n",
  });
  const p = await plan(ws, "m.py", "f", ["a", { name: "d", default: "0" }, "c", "b"]);
  assert.ok(
    (await after(p, "m.py")).includes(
      "def f(a, d=0, c=2, b=1):\n    return a + b + c\n\nf(1, b=2)\nf(1, c=3, b=2)\nf(1, c=5)\n",
    ),
  );
  const posOnly = await refusal(plan(ws, "m.py", "g", ["a", { name: "d", default: "0" }, "b", "/"]));
  assert.equal(posOnly.code, "unsupported_call_site");
  assert.match(posOnly.message, /line 11 column 1 \("b" is positional-only/);
  const member = await refusal(plan(ws, "p.ts", "P/constructor", ["y"]));
  assert.equal(member.code, "parameter_in_use");
  assert.match(member.message, /"x" .*declares a class member/);
});

Deno.test("planChangeSignature() refuses default exports, whose importers it does not follow", async () => {
  const ws = await workspaceOf({}, {
    "a.js": "export default function f(a, b) {\n  return a - b;\n}\n",
    "b.js": "function g(a, b) {\n  return a - b;\n}\nexport { g as default };\n",
    "main.js": 'import f from "./a.js";\nimport g from "./b.js";\nconsole.log(f(1, 2), g(3, 4));\n',
  });
  const f = await refusal(plan(ws, "a.js", "f", ["b", "a"]));
  assert.equal(f.code, "value_reference");
  assert.match(f.message, /"a\.js" line 1 column 25 \(it is the module's default export/);
  const g = await refusal(plan(ws, "b.js", "g", ["b", "a"]));
  assert.equal(g.code, "value_reference");
  assert.match(g.message, /"b\.js" line 4 column 10 \(it is exported as default/);
});

Deno.test("planChangeSignature() edits arrow functions bound to names (TSX, bare JS parameter) and Python's explicit receivers", async () => {
  const ws = await workspaceOf({}, {
    "view.tsx": [
      "export const label = (name: string, count: number) => `${name}: ${count}`;",
      "export const View = () => <p>{label('a', 1)}</p>;",
      "",
    ].join("\n"),
    "inc.js": "export const inc = x => x + 1;\nconsole.log(inc(2));\n",
    "k.py": [
      "class K:",
      "    def m(self, a, b):",
      "        return a - b",
      "",
      "    def run(self):",
      "        return self.m(1, 2) + K.m(self, 3, 4)",
      "",
    ].join("\n"),
  });
  const tsx = await plan(ws, "view.tsx", "label", ["count", "name"]);
  assert.equal(
    await after(tsx, "view.tsx"),
    "export const label = (count: number, name: string) => `${name}: ${count}`;\nexport const View = () => <p>{label(1, 'a')}</p>;\n",
  );
  const js = await plan(ws, "inc.js", "inc", ["x", { name: "step", default: "1" }]);
  assert.equal(
    await after(js, "inc.js"),
    "export const inc = (x, step = 1) => x + 1;\nconsole.log(inc(2));\n",
  );
  const py = await plan(ws, "k.py", "K/m", ["self", "b", "a"]);
  assert.ok(
    (await after(py, "k.py")).includes(
      "def m(self, b, a):\n        return a - b\n\n    def run(self):\n        return self.m(2, 1) + K.m(self, 4, 3)\n",
    ),
  );
});

Deno.test("planChangeSignature() refuses Python calls whose extra keywords would lose **kwargs or hit a new parameter", async () => {
  const ws = await workspaceOf({}, {
    "o.py": "def opts(a, **extra):\n    return a\n\nopts(1, color=2)\n",
  });
  const gone = await refusal(plan(ws, "o.py", "opts", ["a"]));
  assert.equal(gone.code, "unsupported_call_site");
  assert.match(gone.message, /line 4 column 1 \(it passes color= to \*\*extra, which is removed\)/);
  const taken = await refusal(plan(ws, "o.py", "opts", ["a", { name: "color", default: "0" }, "extra"]));
  assert.equal(taken.code, "unsupported_call_site");
  assert.match(taken.message, /it already passes color=/);
});

Deno.test("planChangeSignature() refuses overloads that do not line up with the implementation, and keeps a longer overload's parameters", async () => {
  // Found by the refactor soak on rxjs: pipe's overloads (fn1 … fn9 over `...fns`) lost fn2 … fn9 and calls
  // with two functions stopped compiling; fromFetch reordered put `input` after `init?` in an overload.
  const ws = await workspaceOf(RXJS);
  const fetch = await refusal(
    plan(ws, "internal/observable/dom/fetch.ts", "fromFetch", ["initWithSelector", "input"]),
  );
  assert.equal(fetch.code, "unsupported_call_site");
  assert.match(
    fetch.message,
    /"input" would follow the optional "init\?" in an overload \(overload signature at line 13\)/,
  );
  const same = await plan(ws, "internal/util/pipe.ts", "pipe", ["fns"]);
  assert.equal(await after(same, "internal/util/pipe.ts"), RXJS["/internal/util/pipe.ts"]);
  const appended = await plan(ws, "internal/observable/dom/fetch.ts", "fromFetch", [
    "input",
    "initWithSelector",
    { name: "z", type: "number", default: "0" },
  ]);
  const text = await after(appended, "internal/observable/dom/fetch.ts");
  assert.match(
    text,
    /export function fromFetch\(input: string \| Request, init\?: RequestInit, z\?: number\)/,
  );
  assert.match(text, /\} = \{\},\n {2}z: number = 0\n\): Observable<Response \| T> \{/);
});
