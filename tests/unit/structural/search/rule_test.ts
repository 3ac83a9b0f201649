/**
 * ast-grep's rule objects in a structural search: each key on real grammars (kind, regex, pattern, inside and
 * has with each stopBy, all, any, not), what a rule's patterns bind, the texts the prefilter may require, and
 * the refusals (unknown and unbuilt keys, an empty rule, look-around in a regex).
 */
import assert from "node:assert/strict";
import { createMemoryBackend, createWorkspace } from "../../../../src/mod.ts";
import { createWasmLoader } from "../../../../src/adapters/deno/mod.ts";
import { RecoverableError } from "../../../../src/errors.ts";
import { patternMatcherOf } from "../../../../src/structural/search/mod.ts";
import { MAX_RELATION_VISITS, MAX_RULE_DEPTH } from "../../../../src/structural/search/rule.ts";

const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
const matcher = patternMatcherOf(ws);

const TEXT = [
  "async function load(urls) {",
  "  for (const u of urls) {",
  "    if (u) { await fetch(u); }",
  "  }",
  "  await done();",
  "  console.log('ok');",
  "}",
  "",
].join("\n");

let version = 0;
async function found(rule: Record<string, unknown>): Promise<string[]> {
  const program = await matcher.compile("javascript", { rule });
  const sites = await program.match({ path: "r.js", text: TEXT, version: `r${version++}` });
  return sites.map((s) => TEXT.slice(s.start, s.end));
}

Deno.test("inside looks one level by default, all the way with stopBy end, up to a rule's node otherwise", async () => {
  assert.deepEqual(await found({ pattern: "await $X", inside: { kind: "expression_statement" } }), [
    "await fetch(u)",
    "await done()",
  ]);
  assert.deepEqual(
    await found({ pattern: "await $X", inside: { kind: "for_in_statement", stopBy: "end" } }),
    [
      "await fetch(u)",
    ],
  );
  // Stopped at the if statement, the search never reaches the loop above it.
  assert.deepEqual(
    await found({
      pattern: "await $X",
      inside: { kind: "for_in_statement", stopBy: { kind: "if_statement" } },
    }),
    [],
  );
});

Deno.test("has, kind, regex, all, any and not combine as ast-grep's keys do; patterns bind metavariables", async () => {
  assert.deepEqual(await found({ kind: "if_statement", has: { pattern: "fetch($U)", stopBy: "end" } }), [
    "if (u) { await fetch(u); }",
  ]);
  assert.deepEqual(await found({ kind: "call_expression", regex: "^console\\." }), ["console.log('ok')"]);
  assert.deepEqual(
    await found({
      all: [{ kind: "await_expression" }, { not: { inside: { kind: "expression_statement" } } }],
    }),
    [],
  );
  assert.deepEqual(await found({ any: [{ pattern: "done()" }, { pattern: "fetch($U)" }] }), [
    "fetch(u)",
    "done()",
  ]);
  const program = await matcher.compile("javascript", {
    rule: { pattern: "fetch($U)", inside: { pattern: "await $CALL" } },
  });
  const [site] = await program.match({ path: "r.js", text: TEXT, version: "bind" });
  assert.equal(site!.metavariables["U"]!.text, "u");
  assert.equal(site!.metavariables["CALL"]!.text, "fetch(u)");
  // What every match holds: the pattern's texts and those of the node it must be inside.
  assert.deepEqual(program.literals, ["fetch", "await"]);
  // And their token runs: a file must hold `fetch(`; an `any`'s patterns are not required.
  assert.equal(program.mayHold!("await fetch (u)"), true);
  assert.equal(program.mayHold!("await x; fetch.call(u)"), false);
  const either = await matcher.compile("javascript", {
    rule: { any: [{ pattern: "done()" }, { pattern: "f(x)" }] },
  });
  assert.equal(either.mayHold, undefined);
});

Deno.test("precedes and follows look at later and earlier siblings, as far as stopBy says", async () => {
  // The body of load(): for, await done(), console.log — statements are siblings.
  assert.deepEqual(await found({ kind: "expression_statement", follows: { kind: "for_in_statement" } }), [
    "await done();",
  ]);
  assert.deepEqual(
    await found({ kind: "expression_statement", follows: { kind: "for_in_statement", stopBy: "end" } }),
    ["await done();", "console.log('ok');"],
  );
  assert.deepEqual(await found({ kind: "for_in_statement", precedes: { pattern: "console.log($$$A)" } }), []);
  assert.deepEqual(
    await found({ kind: "for_in_statement", precedes: { pattern: "console.log($$$A);", stopBy: "end" } }),
    ["for (const u of urls) {\n    if (u) { await fetch(u); }\n  }"],
  );
  // A stopBy rule stops at the first sibling it matches, that sibling included.
  assert.deepEqual(
    await found({
      kind: "for_statement",
      precedes: { pattern: "console.log($$$A);", stopBy: { pattern: "await done();" } },
    }),
    [],
  );
});

Deno.test("constraints: a metavariable's node must match its rule; a $$$ list is not checked", async () => {
  assert.deepEqual(await found({ pattern: "$F($$$A)", constraints: { F: { regex: "^(fetch|done)$" } } }), [
    "fetch(u)",
    "done()",
  ]);
  assert.deepEqual(await found({ pattern: "$F($$$A)", constraints: { F: { kind: "member_expression" } } }), [
    "console.log('ok')",
  ]);
  assert.deepEqual(
    await found({ pattern: "$F($$$A)", constraints: { A: { kind: "number" }, $F: { regex: "^done$" } } }),
    ["done()"],
  );
});

Deno.test("a rule with an unknown or unbuilt key, no key, or look-around in a regex is refused invalid_args", async () => {
  for (
    const rule of [
      { pattern: "f()", matches: "utility" },
      { kind: "call_expression", nthChild: "2n+" },
      { kind: "call_expression", range: { start: { line: 0, column: 0 } } },
      { kind: "call_expression", has: { kind: "identifier", constraints: { A: { kind: "x" } } } },
      { pattern: "f($A)", constraints: ["A"] },
      { kinds: "call_expression" },
      {},
      { kind: "identifier", regex: "(?=a)" },
      { has: "call_expression" },
    ]
  ) {
    await assert.rejects(
      matcher.compile("javascript", { rule }),
      (e: unknown) => e instanceof RecoverableError && e.code === "invalid_args",
      JSON.stringify(rule),
    );
  }
});

Deno.test("a kind the grammar does not have is refused invalid_query with the nearest kinds it has", async () => {
  for (
    const [rule, near] of [
      [{ kind: "function_definition" }, "function_declaration"],
      [{ pattern: "f($A)", inside: { kind: "for_statment", stopBy: "end" } }, "for_statement"],
      [{ any: [{ kind: "call_expression" }, { kind: "calls_expression" }] }, "call_expression"],
    ] as const
  ) {
    await assert.rejects(
      matcher.compile("javascript", { rule }),
      (e: unknown) =>
        e instanceof RecoverableError && e.code === "invalid_query" &&
        /not a node kind of the javascript grammar/.test(e.message) &&
        (e.hint ?? "").includes(`"${near}"`),
      JSON.stringify(rule),
    );
  }
  // Every kind the grammar has is taken, ERROR among them (a search for what does not parse).
  for (const kind of ["call_expression", "ERROR", "template_string"]) {
    await matcher.compile("javascript", { rule: { kind } });
  }
  assert.equal((await matcher.compile("python", { rule: { kind: "function_definition" } })) !== null, true);
});

Deno.test("a rule nested past MAX_RULE_DEPTH is refused limit_exceeded, not a stack overflow", async () => {
  const nested = (depth: number) =>
    JSON.parse('{"not":'.repeat(depth) + '{"kind":"identifier"}' + "}".repeat(depth));
  for (const depth of [MAX_RULE_DEPTH, 20_000]) {
    await assert.rejects(
      matcher.compile("javascript", { rule: nested(depth) }),
      (e: unknown) =>
        e instanceof RecoverableError && e.code === "limit_exceeded" && /nests more than 64/.test(e.message),
      `${depth} deep`,
    );
  }
  // Just within it: compiled (an even number of nots is the rule itself).
  const within = await matcher.compile("javascript", { rule: nested(MAX_RULE_DEPTH - 2) });
  assert.ok(within !== null);
});

Deno.test("relations that bind nothing are answered once per node: a deep tree costs its size, not its square", async () => {
  const depth = 5000;
  const deep = `x = ${"f(".repeat(depth)}1${")".repeat(depth)};\ny = g(zz);\n`;
  const program = await matcher.compile("javascript", {
    rule: { kind: "call_expression", has: { kind: "identifier", regex: "^zz$", stopBy: "end" } },
  });
  const started = performance.now();
  const sites = await program.match({ path: "deep.js", text: deep, version: "deep" });
  assert.deepEqual(sites.map((s) => deep.slice(s.start, s.end)), ["g(zz)"]);
  const inside = await matcher.compile("javascript", {
    rule: { kind: "number", inside: { kind: "assignment_expression", stopBy: "end" } },
  });
  assert.equal((await inside.match({ path: "deep.js", text: deep, version: "deep" })).length, 1);
  // Each node is looked at a few times, so the two take milliseconds to a few seconds, not minutes; the bound
  // is loose (a loaded machine), the square of the depth would be 25,000,000 looks.
  assert.ok(performance.now() - started < 60_000);
  // The same answers as the look from each candidate gives, on the small tree (bindings force that way).
  assert.deepEqual(
    await found({ kind: "call_expression", has: { kind: "identifier", regex: "^u$", stopBy: "end" } }),
    [
      "fetch(u)",
    ],
  );
  assert.deepEqual(
    await found({ pattern: "$F($$$A)", inside: { kind: "for_in_statement", stopBy: "end" } }),
    ["fetch(u)"],
  );
  // A stopBy rule bounds the look as before: the loop's call lies below the if statement, where the look stops.
  const loop = (stopBy: unknown) => ({ kind: "for_in_statement", has: { kind: "call_expression", stopBy } });
  assert.equal((await found(loop("end"))).length, 1);
  assert.deepEqual(await found(loop({ kind: "if_statement" })), []);
  assert.deepEqual(await found(loop({ kind: "return_statement" })), await found(loop("end")));
});

Deno.test("a relation that binds is looked for from each candidate, and refused past MAX_RELATION_VISITS", async () => {
  const depth = 5000;
  const deep = `x = ${"f(".repeat(depth)}1${")".repeat(depth)};\n`;
  const program = await matcher.compile("javascript", {
    rule: { kind: "call_expression", has: { pattern: "$F(2)", stopBy: "end" } },
  });
  await assert.rejects(
    Promise.resolve(program.match({ path: "deep.js", text: deep, version: "deep2" })),
    (e: unknown) =>
      e instanceof RecoverableError && e.code === "limit_exceeded" &&
      e.message.startsWith(
        `Cannot match the rule in "deep.js" at line 1: its inside/has/precedes/follows look at`,
      ) &&
      e.details?.["max_visits"] === MAX_RELATION_VISITS,
  );
});

Deno.test("precedes and follows that bind nothing are answered once per node: a long run of siblings costs its length", async () => {
  const flat = `import x from "y";\n${Array.from({ length: 5000 }, (_, i) => `f${i}();\n`).join("")}`;
  const program = await matcher.compile("javascript", {
    rule: { kind: "expression_statement", follows: { kind: "import_statement", stopBy: "end" } },
  });
  // From each candidate back to the import: 12,500,000 looks, past MAX_RELATION_VISITS; once per node, 10,000.
  assert.equal((await program.match({ path: "flat.js", text: flat, version: "flat" })).length, 5000);
  const before = await matcher.compile("javascript", {
    rule: { kind: "import_statement", precedes: { regex: "^f4999", stopBy: "end" } },
  });
  assert.equal((await before.match({ path: "flat.js", text: flat, version: "flat" })).length, 1);
  // A neighbour only: the first statement follows the import, the others do not.
  const next = await matcher.compile("javascript", {
    rule: { kind: "expression_statement", follows: { kind: "import_statement" } },
  });
  assert.equal((await next.match({ path: "flat.js", text: flat, version: "flat" })).length, 1);
});

/** A TypeScript function with an if/else, a while condition, arrow functions and a for-of. */
const FIELDS = [
  "function f(a: number) {",
  "  if (a > 1) {",
  "    return a + 1;",
  "  } else {",
  "    g(a);",
  "  }",
  "  while (check(a)) a--;",
  "  return 2;",
  "}",
  "const h = (x) => x * 2;",
  "const k = (x) => { return x; };",
  "for (const v of list(a)) use(v);",
  "",
].join("\n");

/** The texts a TypeScript rule matches in FIELDS. */
async function inFields(rule: Record<string, unknown>): Promise<string[]> {
  const program = await matcher.compile("typescript", { rule });
  const sites = await program.match({ path: "f.ts", text: FIELDS, version: `f${version++}` });
  return sites.map((s) => FIELDS.slice(s.start, s.end));
}

Deno.test("inside with a field: the target lies in that field of the enclosing node (as ast-grep 0.51 finds)", async () => {
  const inIf = (field: string) => ({
    kind: "return_statement",
    inside: { kind: "if_statement", field, stopBy: "end" },
  });
  assert.deepEqual(await inFields(inIf("consequence")), ["return a + 1;"]);
  assert.deepEqual(await inFields(inIf("alternative")), []);
  assert.deepEqual(
    await inFields({
      kind: "call_expression",
      inside: { kind: "if_statement", field: "alternative", stopBy: "end" },
    }),
    ["g(a)"],
  );
  // In the loop's condition, not its body; the for-of's iterated value, not its body (one step: the parent).
  const call = (inside: Record<string, unknown>) => inFields({ kind: "call_expression", inside });
  assert.deepEqual(await call({ kind: "while_statement", field: "condition", stopBy: "end" }), ["check(a)"]);
  assert.deepEqual(await call({ kind: "while_statement", field: "body", stopBy: "end" }), []);
  assert.deepEqual(await call({ kind: "for_in_statement", field: "right" }), ["list(a)"]);
  assert.deepEqual(await call({ kind: "for_in_statement", field: "body", stopBy: "end" }), ["use(v)"]);
  assert.deepEqual(
    await inFields({ kind: "identifier", inside: { kind: "function_declaration", field: "name" } }),
    [
      "f",
    ],
  );
  // A relation that binds looks from each candidate, one that binds nothing once per node: the same answers.
  assert.deepEqual(
    await inFields({
      pattern: "$F($$$A)",
      inside: { pattern: "while ($C) $B", field: "condition", stopBy: "end" },
    }),
    ["check(a)"],
  );
});

Deno.test("has with a field: the target's child in that field holds, or with stopBy a node below it", async () => {
  const ifHas = (has: Record<string, unknown>) => inFields({ kind: "if_statement", has });
  const ifText = FIELDS.slice(FIELDS.indexOf("if ("), FIELDS.indexOf("  while") - 1);
  assert.deepEqual(await ifHas({ field: "condition", kind: "parenthesized_expression" }), [ifText]);
  assert.deepEqual(await ifHas({ field: "condition", kind: "binary_expression" }), []);
  assert.deepEqual(await ifHas({ field: "condition", kind: "binary_expression", stopBy: "end" }), [ifText]);
  assert.deepEqual(await ifHas({ field: "consequence", pattern: "return $X;", stopBy: "end" }), [ifText]);
  assert.deepEqual(await ifHas({ field: "alternative", pattern: "return $X;", stopBy: "end" }), []);
  assert.deepEqual(
    await inFields({ kind: "arrow_function", has: { field: "body", kind: "statement_block" } }),
    [
      "(x) => { return x; }",
    ],
  );
  // A stopBy rule: the field's child itself, then below it down to (and into) the first node the rule matches.
  const fn = (stopBy: unknown) =>
    inFields({ kind: "function_declaration", has: { field: "body", kind: "binary_expression", stopBy } });
  assert.equal((await fn({ kind: "class_declaration" })).length, 1);
  assert.deepEqual(await fn({ kind: "if_statement" }), []);
});

Deno.test("a field is refused on precedes and follows, outside a relation, misspelt or not a string", async () => {
  const refused = async (rule: Record<string, unknown>, code: string, message: RegExp) => {
    await assert.rejects(
      matcher.compile("typescript", { rule }),
      (e: unknown) => e instanceof RecoverableError && e.code === code && message.test(e.message),
      JSON.stringify(rule),
    );
  };
  await refused(
    { kind: "return_statement", precedes: { kind: "return_statement", field: "body" } },
    "invalid_args",
    /rule\.precedes\.field is taken only by inside and has/,
  );
  await refused(
    { kind: "return_statement", follows: { kind: "if_statement", field: "body" } },
    "invalid_args",
    /rule\.follows\.field is taken only by inside and has/,
  );
  await refused(
    { kind: "if_statement", field: "body" },
    "invalid_args",
    /rule\.field is taken only in an inside or has/,
  );
  await refused(
    { kind: "if_statement", has: { field: 7, kind: "identifier" } },
    "invalid_args",
    /must be a string/,
  );
  await assert.rejects(
    matcher.compile("typescript", {
      rule: { kind: "if_statement", has: { field: "conditon", kind: "identifier" } },
    }),
    (e: unknown) =>
      e instanceof RecoverableError && e.code === "invalid_query" &&
      /rule\.has\.field "conditon" is not a field name of the typescript grammar/.test(e.message) &&
      (e.hint ?? "").startsWith('Did you mean "condition"?'),
  );
});

Deno.test("nthChild and range in rules: where a node stands among its siblings, and its exact span", async () => {
  const text = "const xs = [1, 2, 3, 4, 5];\nf(a, /* c */ b, c);\nlet s = '🦄'; let t = \"x\";\n";
  const matched = async (rule: Record<string, unknown>) => {
    const program = await matcher.compile("typescript", { rule });
    const sites = await program.match({ path: "p.ts", text, version: `p${version++}` });
    return sites.map((s) => text.slice(s.start, s.end));
  };
  // As ast-grep 0.51 answers each of these on the same text.
  assert.deepEqual(await matched({ kind: "number", nthChild: 3 }), ["3"]);
  assert.deepEqual(await matched({ kind: "number", nthChild: "2n+1" }), ["1", "3", "5"]);
  assert.deepEqual(await matched({ kind: "number", nthChild: { position: "-n+2", reverse: true } }), [
    "4",
    "5",
  ]);
  assert.deepEqual(await matched({ kind: "number", nthChild: { position: 2, ofRule: { regex: "[24]" } } }), [
    "4",
  ]);
  assert.deepEqual(await matched({ kind: "identifier", nthChild: 3 }), ["b"]); // the comment is the second
  assert.deepEqual(await matched({ kind: "comment", nthChild: 2 }), ["/* c */"]);
  assert.deepEqual(
    await matched({
      kind: "string",
      range: { start: { line: 2, column: 21 }, end: { line: 2, column: 24 } },
    }),
    ['"x"'],
  );
  // A range alone (ast-grep asks for a kind or a pattern beside it): every named node of that span.
  assert.deepEqual(
    await matched({ range: { start: { line: 2, column: 8 }, end: { line: 2, column: 11 } } }),
    [
      "'🦄'",
    ],
  );
});

Deno.test("a range on a minified line of 100,000 numbers is one compare a node, not a walk of the line", async () => {
  const text = `x = [${Array.from({ length: 100_000 }, (_, i) => i % 10).join(",")}];\n`;
  const last = text.lastIndexOf("]") - 1; // the last number, one character
  const program = await matcher.compile("javascript", {
    rule: { kind: "number", range: { start: { line: 0, column: last }, end: { line: 0, column: last + 1 } } },
  });
  const sites = await program.match({ path: "min.js", text, version: "min" });
  assert.deepEqual(sites.map((s) => s.start), [last]);
});

Deno.test("matches names a utility rule of the top's utils; one may name another; what it binds is the match's", async () => {
  assert.deepEqual(
    await found({
      kind: "call_expression",
      has: { matches: "awaited-url", stopBy: "end" },
      utils: { "awaited-url": { kind: "identifier", regex: "^u$", inside: { kind: "arguments" } } },
    }),
    ["fetch(u)"],
  );
  // A utility naming another, and a pattern's metavariable bound through matches.
  const program = await matcher.compile("javascript", {
    rule: {
      matches: "awaited-call",
      utils: {
        "awaited-call": { pattern: "await $C", has: { matches: "call" } },
        call: { kind: "call_expression" },
      },
    },
  });
  const sites = await program.match({ path: "r.js", text: TEXT, version: `r${version++}` });
  assert.deepEqual(sites.map((s) => s.metavariables["C"]!.text), ["fetch(u)", "done()"]);
});

Deno.test("utils are refused in a cycle, under a name none has, below the top, or not as an object of rules", async () => {
  const refused = async (rule: Record<string, unknown>, message: RegExp) => {
    await assert.rejects(
      matcher.compile("javascript", { rule }),
      (e: unknown) => e instanceof RecoverableError && e.code === "invalid_args" && message.test(e.message),
      JSON.stringify(rule),
    );
  };
  await refused(
    { matches: "a", utils: { a: { matches: "b" }, b: { any: [{ kind: "identifier" }, { matches: "a" }] } } },
    /makes utils "a" match itself at the same node \(a → b → a\)/,
  );
  await refused(
    { matches: "cal", utils: { call: { kind: "call_expression" } } },
    /names no rule of the top's utils/,
  );
  await refused(
    { kind: "identifier", has: { matches: "x", utils: { x: { kind: "number" } } } },
    /rule\.has\.utils is only taken at the top/,
  );
  await refused({ matches: "x", utils: ["x"] }, /rule\.utils must map names to rules/);
  // A utility rule no rule names is checked too (its kind is wrong).
  await assert.rejects(
    matcher.compile("javascript", {
      rule: { kind: "identifier", utils: { unused: { kind: "no_such_kind" } } },
    }),
    (e: unknown) =>
      e instanceof RecoverableError && e.code === "invalid_query" &&
      /rule\.utils\.unused\.kind/.test(e.message),
  );
});

Deno.test("a utility rule named many times is answered once per node: a doubling chain of thirty utils answers at once", async () => {
  // u0 names u1 twice, u1 names u2 twice, … : evaluated naively, each node costs 2^30 looks.
  const utils: Record<string, unknown> = { u30: { kind: "identifier" } };
  for (let i = 0; i < 30; i++) utils[`u${i}`] = { all: [{ matches: `u${i + 1}` }, { matches: `u${i + 1}` }] };
  const program = await matcher.compile("javascript", { rule: { matches: "u0", utils } });
  const text = Array.from({ length: 200 }, (_, i) => `let v${i} = w${i};`).join("\n") + "\n";
  const sites = await program.match({ path: "chain.js", text, version: "chain" });
  assert.equal(sites.length, 400);
});

Deno.test("has looks at comments below too, as ast-grep's does, where a code pattern passes over them", async () => {
  const text = [
    "function a() {",
    "  // TODO: retry",
    "  if (x) { y(); }",
    "}",
    "function b() { if (x) { /* fine */ y(); } }",
    "function c() { y(); }",
    "",
  ].join("\n");
  const program = await matcher.compile("javascript", {
    rule: { kind: "function_declaration", has: { kind: "comment", regex: "TODO", stopBy: "end" } },
  });
  const sites = await program.match({ path: "c.js", text, version: "c1" });
  assert.deepEqual(sites.map((s) => text.slice(s.start, s.end).split("(")[0]), ["function a"]);
  const direct = await matcher.compile("javascript", {
    rule: { kind: "statement_block", has: { kind: "comment" } },
  });
  const blocks = await direct.match({ path: "c.js", text, version: "c1" });
  assert.deepEqual(blocks.map((s) => text.slice(s.start, s.end)), [
    "{\n  // TODO: retry\n  if (x) { y(); }\n}",
    "{ /* fine */ y(); }",
  ]);
  // A code pattern still passes over the comment: `if ($C) { $F(); }` matches b's if with its comment inside.
  const pattern = await matcher.compile("javascript", { pattern: "if ($C) { $F(); }" });
  assert.equal((await pattern.match({ path: "c.js", text, version: "c1" })).length, 2);
});

Deno.test("a pattern object reads its context whole and matches the first node of the selector's type in it", async () => {
  const text = "class A {\n  count = 0;\n  name: string = 'x';\n  other;\n}\nlet count = 1;\n";
  const sites = async (rule: Record<string, unknown>, language = "typescript") => {
    const program = await matcher.compile(language, { rule });
    return (await program.match({ path: "a.ts", text, version: `p${version++}` })).map((s) =>
      text.slice(s.start, s.end)
    );
  };
  const field = { context: "class A { $F = $I }", selector: "public_field_definition" };
  assert.deepEqual(await sites({ pattern: field }), ["count = 0"]);
  assert.deepEqual(await sites({ pattern: { ...field, strictness: "smart" } }), ["count = 0"]);
  // Without a selector the context is the pattern, as a string pattern would be.
  assert.deepEqual(await sites({ pattern: { context: "let $X = 1" } }), ["let count = 1;"]);
  const refused = async (rule: Record<string, unknown>) => {
    try {
      await sites(rule);
    } catch (err) {
      return err as RecoverableError;
    }
    throw new Error(`not refused: ${JSON.stringify(rule)}`);
  };
  const relaxed = await refused({ pattern: { ...field, strictness: "relaxed" } });
  assert.equal(relaxed.code, "invalid_args");
  assert.match(relaxed.message, /rule\.pattern\.strictness "relaxed" is not built/);
  assert.match(
    (await refused({ pattern: { ...field, selectr: "x" } })).message,
    /rule\.pattern\.selectr is not a key/,
  );
  assert.match(
    (await refused({ pattern: { selector: "x" } })).message,
    /rule\.pattern\.context must be code/,
  );
  const misspelt = await refused({ pattern: { ...field, selector: "field_definitio" } });
  assert.equal(misspelt.code, "invalid_query");
  assert.match(misspelt.hint ?? "", /public_field_definition/);
  const absent = await refused({ pattern: { context: "class A { $F = $I }", selector: "if_statement" } });
  assert.equal(absent.code, "invalid_query");
  assert.match(absent.hint ?? "", /The context has no if_statement node/);
  const broken = await refused({
    pattern: { context: "class A { $F = ", selector: "public_field_definition" },
  });
  assert.match(broken.hint ?? "", /Write a context the typescript grammar reads whole/);
});
