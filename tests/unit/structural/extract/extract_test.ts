/**
 * Extract function on real code: jsdiff's UMD bundle (node_modules/diff/dist/diff.js, a pinned
 * dependency), Python's textwrap module (/usr/lib/python3.11, Debian), rxjs's TypeScript sources.
 * Each extraction re-parses, has the parameters and returns worked out by hand, and — for
 * JavaScript and Python — a small program prints the same before and after.
 */
import assert from "node:assert/strict";
import { RecoverableError } from "../../../../src/errors.ts";
import { Stage } from "../../../../src/fs/stage.ts";
import { type ExtractPlan, planExtract } from "../../../../src/structural/extract/extract.ts";
import ts from "typescript";
import { assertReparses, RXJS, workspaceOf } from "../../tools/_bindings_fixtures.ts";
import { DIFF_JS, linesAt, run, sameJs, samePy, TEXTWRAP } from "../_refactor_programs.ts";

async function extract(
  path: string,
  text: string,
  range: { start_line: number; end_line: number },
  name: string,
): Promise<ExtractPlan> {
  const ws = await workspaceOf({ [`/${path}`]: text });
  const plan = await planExtract(ws, new Stage(ws.fs, ws.sandbox), { path, range, name, tool: "test" });
  const language = path.endsWith(".py") ? "python" : path.endsWith(".ts") ? "typescript" : "javascript";
  await assertReparses(language, text, plan.text, path);
  assert.equal(new TextDecoder().decode((await ws.fs.read(`/${path}`))!), text, "planning writes nothing");
  return plan;
}

async function refusal(
  path: string,
  text: string,
  range: { start_line: number; end_line: number },
  name = "extracted",
): Promise<RecoverableError> {
  const ws = await workspaceOf({ [`/${path}`]: text });
  try {
    await planExtract(ws, new Stage(ws.fs, ws.sandbox), { path, range, name, tool: "test" });
  } catch (e) {
    assert.ok(e instanceof RecoverableError, String(e));
    assert.ok(e.hint.length > 0);
    return e;
  }
  assert.fail("expected a refusal");
}

/** Parsed sources shared by the type checks (the lib files are parsed once). */
const PARSED = new Map<string, ts.SourceFile>();

/** The TypeScript compiler's errors for one rxjs file after an edit (the other sources as shipped), strict. */
function typeErrors(path: string, text: string): string[] {
  const root = "/rxjs/";
  const files = new Map(Object.entries(RXJS).map(([k, v]) => [`/rxjs${k}`, v]));
  files.set(`${root}${path}`, text);
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    lib: ["lib.es2020.d.ts", "lib.dom.d.ts"],
    types: [],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  host.getSourceFile = (name, version) => {
    const source = files.get(name);
    const key = `${name}\0${source ?? ""}`;
    let sf = PARSED.get(key);
    if (!sf) {
      sf = source !== undefined ? ts.createSourceFile(name, source, version) : getSourceFile(name, version);
      if (sf) PARSED.set(key, sf);
    }
    return sf;
  };
  host.fileExists = (name) => files.has(name) || (!name.startsWith(root) && fileExists(name));
  host.directoryExists = (name) => name.startsWith("/rxjs") || ts.sys.directoryExists(name);
  host.readFile = (name) => files.get(name) ?? (name.startsWith(root) ? undefined : readFile(name));
  const program = ts.createProgram([`${root}${path}`], options, host);
  const file = program.getSourceFile(`${root}${path}`)!;
  return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map((d) =>
    ts.flattenDiagnosticMessageText(d.messageText, "\n")
  );
}

Deno.test("planExtract() moves jsdiff's line merging into a function: exact bytes, same output", async () => {
  const range = linesAt(DIFF_JS, "const retLines = [], linesAndNewlines", 15);
  const plan = await extract("diff.js", DIFF_JS, range, "mergeLines");
  assert.deepEqual(plan.parameters, ["value", "options"]);
  assert.deepEqual(plan.returns, ["retLines"]);
  assert.equal(plan.kind, "function");
  const start = DIFF_JS.indexOf("    function tokenize(value, options) {");
  const end = DIFF_JS.indexOf("    function isSentenceEndPunct");
  const expected = [
    "    function tokenize(value, options) {",
    "        if (options.stripTrailingCr) {",
    "            // remove one \\r before \\n to match GNU diff's --strip-trailing-cr behavior",
    "            value = value.replace(/\\r\\n/g, '\\n');",
    "        }",
    "        const retLines = mergeLines(value, options);",
    "        return retLines;",
    "    }",
    "",
    "    function mergeLines(value, options) {",
    "        const retLines = [], linesAndNewlines = value.split(/(\\n|\\r\\n)/);",
    "        // Ignore the final empty token that occurs if the string ends with a new line",
    "        if (!linesAndNewlines[linesAndNewlines.length - 1]) {",
    "            linesAndNewlines.pop();",
    "        }",
    "        // Merge the content and line separators into single tokens",
    "        for (let i = 0; i < linesAndNewlines.length; i++) {",
    "            const line = linesAndNewlines[i];",
    "            if (i % 2 && !options.newlineIsToken) {",
    "                retLines[retLines.length - 1] += line;",
    "            }",
    "            else {",
    "                retLines.push(line);",
    "            }",
    "        }",
    "        return retLines;",
    "    }",
    "",
    "",
  ].join("\n");
  assert.equal(plan.text.slice(start, plan.text.indexOf("    function isSentenceEndPunct")), expected);
  assert.equal(plan.text.slice(0, start), DIFF_JS.slice(0, start), "nothing before the function changes");
  assert.equal(plan.text.slice(plan.text.indexOf("    function isSentenceEndPunct")), DIFF_JS.slice(end));
  assert.equal(
    plan.line,
    expected.split("\n").indexOf("    function mergeLines(value, options) {") + 1 +
      DIFF_JS.slice(0, start).split("\n").length - 1,
  );
  await sameJs(plan);
});

Deno.test("planExtract() on jsdiff: methods for this, a trailing return, loop state in and out", async () => {
  // Statements using `this` become a method of Diff, called through this.
  const tokens = await extract(
    "diff.js",
    DIFF_JS,
    linesAt(DIFF_JS, "const oldString = this.castInput", 4),
    "tokens",
  );
  assert.equal(tokens.kind, "method");
  assert.deepEqual(tokens.parameters, ["oldStr", "options", "newStr"]);
  assert.deepEqual(tokens.returns, ["oldTokens", "newTokens"]);
  assert.equal(tokens.call, "const { oldTokens, newTokens } = this.tokens(oldStr, options, newStr);");
  assert.match(
    tokens.text,
    /\n {8}tokens\(oldStr, options, newStr\) \{\n {12}const oldString = this\.castInput/,
  );
  await sameJs(tokens);
  // The counters of a while loop: read before and assigned inside, used after → parameters and returns.
  const common = await extract(
    "diff.js",
    DIFF_JS,
    linesAt(DIFF_JS, "while (newPos + 1 < newLen", 8),
    "advance",
  );
  assert.equal(common.kind, "method");
  assert.deepEqual(common.parameters, [
    "newPos",
    "newLen",
    "oldPos",
    "oldLen",
    "oldTokens",
    "newTokens",
    "options",
    "commonCount",
    "basePath",
  ]);
  assert.deepEqual(common.returns, ["newPos", "oldPos", "commonCount"]);
  assert.match(common.call, /^\(\{ newPos, oldPos, commonCount \} = this\.advance\(/);
  await sameJs(common);
  // A range that ends the function body may return: the call returns the new function's result.
  const split = await extract(
    "diff.js",
    DIFF_JS,
    linesAt(DIFF_JS, "const result = text.split('\\n')", 8),
    "splitWith",
  );
  assert.equal(split.call, "return splitWith(text, hasTrailingNl);");
  assert.deepEqual(split.returns, []);
  await sameJs(split);
});

Deno.test("planExtract() moves textwrap.dedent's margin search into a function: exact bytes, same output", async () => {
  const range = linesAt(TEXTWRAP, "    margin = None", 24);
  const plan = await extract("textwrap.py", TEXTWRAP, range, "common_margin");
  assert.deepEqual(plan.parameters, ["text"]);
  assert.deepEqual(plan.returns, ["margin", "text"]);
  assert.equal(plan.call, "margin, text = common_margin(text)");
  const def = plan.text.indexOf("def common_margin(text):");
  assert.ok(def > plan.text.indexOf("def dedent(text):"), "after the enclosing function");
  const body = plan.text.slice(def, plan.text.indexOf("def indent("));
  assert.equal(
    body,
    [
      "def common_margin(text):",
      "    margin = None",
      "    text = _whitespace_only_re.sub('', text)",
      "    indents = _leading_whitespace_re.findall(text)",
      "    for indent in indents:",
      "        if margin is None:",
      "            margin = indent",
      "",
      "        # Current line more deeply indented than previous winner:",
      "        # no change (previous winner is still on top).",
      "        elif indent.startswith(margin):",
      "            pass",
      "",
      "        # Current line consistent with and no deeper than previous winner:",
      "        # it's the new winner.",
      "        elif margin.startswith(indent):",
      "            margin = indent",
      "",
      "        # Find the largest common whitespace between current line and previous",
      "        # winner.",
      "        else:",
      "            for i, (x, y) in enumerate(zip(margin, indent)):",
      "                if x != y:",
      "                    margin = margin[:i]",
      "                    break",
      "    return margin, text",
      "",
      "",
      "",
    ].join("\n"),
  );
  await samePy(plan);
});

Deno.test("planExtract() on textwrap: a method for self, a generator by yield from, a trailing return", async () => {
  const long = await extract(
    "textwrap.py",
    TEXTWRAP,
    linesAt(TEXTWRAP, "            # The current line is full, and", 10),
    "_trim_line",
  );
  assert.equal(long.kind, "method");
  assert.deepEqual(long.parameters, ["self", "chunks", "width", "cur_line", "cur_len"]);
  assert.equal(long.call, "cur_len = self._trim_line(chunks, width, cur_line, cur_len)");
  assert.match(
    long.text,
    /\n {4}def _trim_line\(self, chunks, width, cur_line, cur_len\):\n {8}# The current line/,
  );
  await samePy(long);
  // The body of the prefixed_lines generator: delegated to with yield from; the new function goes next to
  // prefixed_lines inside indent(), so text, prefix and predicate stay visible to it (no parameters); it takes
  // the gap prefixed_lines has to what follows it (none).
  const gen = await extract(
    "textwrap.py",
    TEXTWRAP,
    linesAt(TEXTWRAP, "        for line in text.splitlines(True):", 2),
    "_each",
  );
  assert.equal(gen.call, "yield from _each()");
  assert.equal(gen.generator, true);
  assert.deepEqual(gen.parameters, []);
  assert.ok(
    gen.text.includes(
      [
        "    def prefixed_lines():",
        "        yield from _each()",
        "    def _each():",
        "        for line in text.splitlines(True):",
        "            yield (prefix + line if predicate(line) else line)",
        "    return ''.join(prefixed_lines())",
      ].join("\n"),
    ),
  );
  await samePy(gen);
  // A trailing return in a method body.
  const fill = await extract(
    "textwrap.py",
    TEXTWRAP,
    linesAt(TEXTWRAP, '        return "\\n".join(self.wrap(text))', 1),
    "_joined",
  );
  assert.equal(fill.call, "return self._joined(text)");
  await samePy(fill);
});

Deno.test("planExtract() keeps a Python nonlocal: ast.unparse's precedence step, same output", async () => {
  const AST = Deno.readTextFileSync("/usr/lib/python3.11/ast.py");
  const plan = await extract(
    "ast.py",
    AST,
    linesAt(AST, "            operator_precedence = operator_precedence.next()", 3),
    "_step",
  );
  assert.deepEqual(plan.parameters, ["node"], "self and operator_precedence are visible where _step goes");
  assert.ok(
    plan.text.includes(
      [
        "        def increasing_level_traverse(node):",
        "            nonlocal operator_precedence",
        "            _step(node)",
        "",
        "        def _step(node):",
        "            nonlocal operator_precedence",
        "            operator_precedence = operator_precedence.next()",
        "            self.set_precedence(operator_precedence, node)",
        "            self.traverse(node)",
        "",
        "        with self.require_parens(operator_precedence, node):",
      ].join("\n"),
    ),
  );
  const program = [
    "-c",
    'import astx\nfor s in ["a and (b or c) and not d or e", "x or y or (z and w)"]:\n    print(astx.unparse(astx.parse(s)))',
  ];
  const before = await run("python3", program, "astx.py", AST);
  assert.equal(before, "a and (b or c) and (not d) or e\nx or y or (z and w)\n");
  assert.equal(await run("python3", program, "astx.py", plan.text), before);
});

Deno.test("planExtract() out of Python's __new__: a class method called on cls, same output (email's Terminal)", async () => {
  // The soak's case: `cls` taken for an instance receiver made `cls.f(value)` call an instance method on the class.
  const HVP = Deno.readTextFileSync("/usr/lib/python3.11/email/_header_value_parser.py");
  const plan = await extract(
    "hvp.py",
    HVP,
    linesAt(HVP, "        self = super().__new__(cls, value)", 1),
    "_make",
  );
  assert.equal(plan.call, "self = cls._make(value)");
  assert.ok(
    plan.text.includes(
      "    @classmethod\n    def _make(cls, value):\n        self = super().__new__(cls, value)",
    ),
    plan.text.slice(plan.text.indexOf("class Terminal"), plan.text.indexOf("class Terminal") + 600),
  );
  const program = [
    "-c",
    "import hvp\nt = hvp.ValueTerminal('.', 'dot')\nprint(repr(t), t.token_type, t.defects)",
  ];
  const before = await run("python3", program, "hvp.py", HVP);
  assert.equal(before, "ValueTerminal('.') dot []\n");
  assert.equal(await run("python3", program, "hvp.py", plan.text), before);
});

Deno.test("planExtract() of a Python try whose body and handler both assign: an output, never a parameter (email's get_bare_quoted_string)", async () => {
  // The soak's case: `token` passed in though this branch of the loop never bound it (UnboundLocalError).
  const HVP = Deno.readTextFileSync("/usr/lib/python3.11/email/_header_value_parser.py");
  const at = HVP.indexOf(
    "            valid_ew = False\n            try:\n                token, value = get_encoded_word(value)",
  );
  assert.ok(at > 0);
  const start = HVP.slice(0, at).split("\n").length;
  const plan = await extract("hvp.py", HVP, { start_line: start, end_line: start + 14 }, "_ew_or_qcontent");
  assert.deepEqual(plan.parameters, ["value", "bare_quoted_string"]);
  assert.equal(plan.call, "valid_ew, token, value = _ew_or_qcontent(value, bare_quoted_string)");
  const program = [
    "-c",
    "import hvp\nfor s in ['\"=?utf-8?q?a?= =?utf-8?q?b?=\"', '\"plain\"', '\" x\"']:\n    print(repr(hvp.get_bare_quoted_string(s)))",
  ];
  const before = await run("python3", program, "hvp.py", HVP);
  assert.equal(await run("python3", program, "hvp.py", plan.text), before);
});

Deno.test("planExtract() on rxjs TypeScript: parameter types copied from their declarations, type parameters kept", async () => {
  // map's projection call: the new function goes next to the subscribe call, inside the operator's closure,
  // where project, thisArg, index and map's T are visible; value's type is copied from the arrow's parameter.
  const mapTs = RXJS["/internal/operators/map.ts"]!;
  const emit = await extract(
    "internal/operators/map.ts",
    mapTs,
    linesAt(mapTs, "        subscriber.next(project.call(thisArg, value, index++));", 1),
    "emit",
  );
  assert.deepEqual(emit.parameters, ["value"]);
  assert.ok(
    emit.text.includes(
      [
        "        emit(value);",
        "      })",
        "    );",
        "    function emit(value: T) {",
        "      subscriber.next(project.call(thisArg, value, index++));",
        "    }",
        "  });",
      ].join("\n"),
    ),
    emit.text,
  );
  // A module-level function needs the type parameters its copied types name.
  const path = "internal/util/isReadableStreamLike.ts";
  const text = RXJS[`/${path}`]!;
  const reader = await extract(
    path,
    text,
    linesAt(text, "  const reader = readableStream.getReader();", 1),
    "readerOf",
  );
  assert.equal(reader.call, "const reader = readerOf(readableStream);");
  assert.match(
    reader.text,
    /\n}\n\nfunction readerOf<T>\(readableStream: ReadableStreamLike<T>\) \{\n {2}const reader = readableStream\.getReader\(\);\n {2}return reader;\n}\n/,
  );
  // The rest of the async generator: refused while reader's type is not written; once it is, an async
  // generator delegated to, its final return passed on.
  const typesNeeded = await refusal(path, text, linesAt(text, "  try {", 11), "pump");
  assert.equal(typesNeeded.code, "types_required");
  assert.match(
    typesNeeded.message,
    /the type of "reader" \(declared at line 5\) is not written in its declaration/,
  );
  const typed = text.replace(
    "const reader = readableStream.getReader();",
    "const reader: ReturnType<ReadableStreamLike<T>['getReader']> = readableStream.getReader();",
  );
  const pump = await extract(path, typed, linesAt(typed, "  try {", 11), "pump");
  assert.ok(pump.async && pump.generator);
  assert.equal(pump.call, "return yield* pump(reader);");
  assert.match(
    pump.text,
    /\nasync function\* pump<T>\(reader: ReturnType<ReadableStreamLike<T>\['getReader'\]>\): AsyncGenerator<T> \{\n {2}try \{/,
  );
  assert.deepEqual(typeErrors(path, text), [], "the check runs clean on the file as shipped");
  assert.notDeepEqual(
    typeErrors(path, text.replace("(readableStream: ReadableStreamLike<T>)", "(readableStream)")),
    [],
  );
  for (const [p, t] of [[path, reader.text], [path, pump.text], ["internal/operators/map.ts", emit.text]]) {
    assert.deepEqual(typeErrors(p!, t!), [], `${p} type-checks after the extraction`);
  }
  // An untyped arrow parameter cannot be written either.
  const scan = RXJS["/internal/operators/scanInternals.ts"]!;
  const untyped = await refusal(
    "internal/operators/scanInternals.ts",
    scan,
    linesAt(scan, "          // Always increment the index.", 13),
  );
  assert.equal(untyped.code, "types_required");
  assert.match(untyped.message, /"value"/);
});

Deno.test("planExtract() on rxjs's concat operator: statements ending a generic function keep its return type and type parameters", async () => {
  // Found by the refactor soak: without the enclosing `OperatorFunction<T, R>`, `operate(...)` in the new
  // function infers `OperatorFunction<unknown, unknown>`, which the call's `return` cannot give back as `<T, R>`.
  const path = "internal/operators/concat.ts";
  const text = RXJS[`/${path}`]!;
  const plan = await extract(
    path,
    text,
    linesAt(text, "  const scheduler = popScheduler(args);", 4),
    "concatOf",
  );
  assert.equal(plan.call, "return concatOf<T, R>(args);");
  assert.match(plan.text, /\nfunction concatOf<T, R>\(args: any\[\]\): OperatorFunction<T, R> \{\n/);
  assert.deepEqual(typeErrors(path, plan.text), []);
  // A type predicate is not copied: the new function returns a boolean the predicate function passes on.
  const guard = [
    "export function isPair<T>(x: unknown): x is [T, T] {",
    "  const ok = Array.isArray(x) && x.length === 2;",
    "  return ok;",
    "}",
    "",
  ].join("\n");
  const pair = await extract("internal/util/isPair.ts", guard, { start_line: 2, end_line: 3 }, "pairTest");
  assert.match(pair.text, /\nfunction pairTest\(x: unknown\) \{\n/);
  assert.deepEqual(typeErrors("internal/util/isPair.ts", pair.text), []);
  // An async function's Promise<…> does not fit a new function that awaits nothing: inferred instead.
  const later = "export async function later(): Promise<number> {\n  const n = 1;\n  return n;\n}\n";
  const sync = await extract("internal/util/later.ts", later, { start_line: 2, end_line: 3 }, "one");
  assert.match(sync.text, /\nfunction one\(\) \{\n/);
  assert.deepEqual(typeErrors("internal/util/later.ts", sync.text), []);
});

Deno.test("planExtract() refuses a TypeScript method on a class other classes implement (rxjs SubscriptionLoggable)", async () => {
  // Found by the refactor soak: HotObservable and ColdObservable `implements SubscriptionLoggable`, so a new
  // method on it leaves both incomplete (TS2720).
  const ws = await workspaceOf(RXJS);
  const path = "internal/testing/SubscriptionLoggable.ts";
  const text = RXJS[`/${path}`]!;
  const range = linesAt(text, "    const subscriptionLogs = this.subscriptions;", 1);
  const refused = await planExtract(ws, new Stage(ws.fs, ws.sandbox), {
    path,
    range,
    name: "logsOf",
    tool: "test",
  })
    .then(() => null, (e) => e);
  assert.ok(refused instanceof RecoverableError, String(refused));
  assert.equal(refused.code, "overrides_present");
  assert.match(
    refused.message,
    /"internal\/testing\/ColdObservable\.ts" line 11, "internal\/testing\/HotObservable\.ts" line 11 implement "SubscriptionLoggable"/,
  );
  // A class nothing implements still takes the method (rxjs's Subscriber).
  const sub = "internal/Subscriber.ts";
  const plan = await planExtract(
    ws,
    new Stage(ws.fs, ws.sandbox),
    {
      path: sub,
      range: linesAt(RXJS[`/${sub}`]!, "      this.isStopped = true;", 1),
      name: "stopNow",
      tool: "test",
    },
  );
  assert.equal(plan.kind, "method");
  // A subclass's member of that name (OperatorSubscriber's `private onFinalize` parameter property) clashes.
  const clash = await planExtract(
    ws,
    new Stage(ws.fs, ws.sandbox),
    {
      path: sub,
      range: linesAt(RXJS[`/${sub}`]!, "      this.isStopped = true;", 1),
      name: "onFinalize",
      tool: "test",
    },
  ).then(() => null, (e) => e);
  assert.ok(clash instanceof RecoverableError, String(clash));
  assert.equal(clash.code, "name_clash");
  assert.match(
    clash.message,
    /the subclass OperatorSubscriber \("internal\/operators\/OperatorSubscriber\.ts" line 51\)/,
  );
});

Deno.test("planExtract() refuses what it cannot prove, naming where", async () => {
  const loopBody = linesAt(DIFF_JS, "            const line = linesAndNewlines[i];", 7);
  const ok = await extract("diff.js", DIFF_JS, loopBody, "mergeOne");
  assert.deepEqual(ok.parameters, ["linesAndNewlines", "i", "options", "retLines"]);
  const straddle = await refusal(
    "diff.js",
    DIFF_JS,
    linesAt(DIFF_JS, "const retLines = [], linesAndNewlines", 14),
  );
  assert.equal(straddle.code, "invalid_args");
  assert.match(
    straddle.message,
    /for_statement at lines \d+-\d+ \("for \(let i = 0; i < linesAndNewlines\.len"\) straddles it/,
  );
  const brk = await refusal(
    "textwrap.py",
    TEXTWRAP,
    linesAt(TEXTWRAP, "                if cur_len + l <= width:", 7),
  );
  assert.equal(brk.code, "control_flow_escapes");
  assert.match(brk.message, /the break at line \d+ jumps to a loop outside them/);
  const ret = await refusal("diff.js", DIFF_JS, linesAt(DIFF_JS, "        if (hasTrailingNl) {", 1));
  assert.equal(ret.code, "invalid_args");
  const early = await refusal("textwrap.py", TEXTWRAP, linesAt(TEXTWRAP, "    if predicate is None:", 2));
  assert.equal(
    early.code,
    "invalid_args",
    "the def of predicate ends inside the if: a straddle is not a refusal to compute",
  );
  // an if without an else may leave it unbound (below); with an else every path assigns it (the next test)
  const unbound = await refusal("textwrap.py", TEXTWRAP, linesAt(TEXTWRAP, "        if self.width <= 0:", 9));
  assert.equal(unbound.code, "unresolved");
  assert.match(unbound.message, /"indent" is not given a value on every path there/);
  const clash = await refusal("textwrap.py", TEXTWRAP, linesAt(TEXTWRAP, "    margin = None", 24), "indent");
  assert.equal(clash.code, "name_clash");
  const member = await refusal(
    "textwrap.py",
    TEXTWRAP,
    linesAt(TEXTWRAP, "            # The current line is full, and", 10),
    "_split",
  );
  assert.equal(member.code, "name_clash");
  assert.match(member.message, /the class already has a member "_split"/);
  const TYPES = Deno.readTextFileSync("/usr/lib/python3.11/types.py");
  const asyncGen = await refusal("types.py", TYPES, linesAt(TYPES, "    yield\n_ag = _ag()", 1));
  assert.equal(asyncGen.code, "control_flow_escapes");
  assert.match(asyncGen.message, /yield inside an async generator/);
  const reserved = await refusal(
    "textwrap.py",
    TEXTWRAP,
    linesAt(TEXTWRAP, "    margin = None", 24),
    "lambda",
  );
  assert.equal(reserved.code, "invalid_args");
});

Deno.test("planExtract() on textwrap: a name assigned by both branches of an if/else is returned, and textwrap still wraps the same", async () => {
  const range = linesAt(TEXTWRAP, "        if width < 1:", 4);
  const plan = await extract("textwrap.py", TEXTWRAP, range, "space_for");
  assert.deepEqual(plan.parameters, ["width", "cur_len"]);
  assert.deepEqual(plan.returns, ["space_left"]);
  assert.equal(plan.call, "space_left = space_for(width, cur_len)");
  await samePy(plan);
});

Deno.test("planExtract() refuses declarations without a value that code after the range reads (rxjs retryWhen)", async () => {
  // Found by the refactor soak: `let errors$: Subject<any>;` moved into the new function and returned from it
  // unassigned — tsc: "Variable 'errors$' is used before being assigned".
  const path = "internal/operators/retryWhen.ts";
  const text = RXJS[`/${path}`]!;
  const declarations = linesAt(text, "    let innerSub: Subscription | null;", 3);
  const e = await refusal(path, text, declarations);
  assert.equal(e.code, "unresolved");
  assert.match(
    e.message,
    /"innerSub" is not given a value on every path there and is read after it \(line \d+\)/,
  );
  // With its value given in the range, a declaration still moves out.
  const mapTs = RXJS["/internal/operators/map.ts"]!;
  const index = await extract(
    "internal/operators/map.ts",
    mapTs,
    linesAt(mapTs, "    let index = 0;", 1),
    "start",
  );
  assert.deepEqual(index.returns, ["index"]);
});

Deno.test("planExtract() returns a name whose type is written with that type (rxjs connectable: `let connection: Subscription | null = null`)", async () => {
  // Found by the refactor soak: without a written return type the new function returned `connection` as `null`
  // (TypeScript narrows it at the return), and connectable.ts stopped type-checking.
  const path = "internal/observable/connectable.ts";
  const text = RXJS[`/${path}`]!;
  assert.deepEqual(typeErrors(path, text), []);
  const plan = await extract(
    path,
    text,
    linesAt(text, "  let connection: Subscription | null = null;", 3),
    "setUp",
  );
  assert.match(
    plan.text,
    /return \{ connection: connection as Subscription \| null, connector, resetOnDisconnect, subject \};/,
  );
  assert.deepEqual(typeErrors(path, plan.text), []);
});

Deno.test("planExtract() refuses a parameter-to-be whose type is narrowed by a test before the range (rxjs arrRemove)", async () => {
  // Found by the refactor soak: `arr.indexOf(item)` inside `if (arr)` became `function f(arr: T[] | undefined |
  // null, …)`, where tsc says "'arr' is possibly 'null' or 'undefined'".
  const path = "internal/util/arrRemove.ts";
  const text = RXJS[`/${path}`]!;
  const e = await refusal(path, text, linesAt(text, "    const index = arr.indexOf(item);", 1));
  assert.equal(e.code, "types_required");
  assert.match(e.message, /"arr" is tested or assigned before the range \(line 7: `if \(arr\) \{`\)/);
  // An early exit narrows what follows it too.
  const early =
    "export function f(s: string | null): number {\n  if (!s) return 0;\n  const n = s.length;\n  return n;\n}\n";
  const e2 = await refusal("early.ts", early, { start_line: 3, end_line: 3 });
  assert.equal(e2.code, "types_required");
  // The whole test in the range: extracted, and the file still type-checks.
  const whole = await extract(path, text, linesAt(text, "  if (arr) {", 4), "removeFrom");
  assert.deepEqual(typeErrors(path, whole.text), []);
});

Deno.test("planExtract() refuses `this.x` (and a parameter-to-be) narrowed by a test or an assignment before the range (rxjs Subject.next)", async () => {
  // Found by the refactor soak: the loop over `this.currentObservers`, set just before when null, became a method
  // where it is `Observer<T>[] | null` again (TS2531).
  const path = "internal/Subject.ts";
  const text = RXJS[`/${path}`]!;
  const loop = linesAt(text, "        for (const observer of this.currentObservers) {", 3);
  const e = await refusal(path, text, loop);
  assert.equal(e.code, "types_required");
  assert.match(e.message, /they read `this\.currentObservers`, which line 63 \(`!this\.currentObservers`\)/);
  // With the test in the range, the method type-checks.
  const whole = await extract(
    path,
    text,
    { start_line: loop.start_line - 3, end_line: loop.end_line },
    "emit",
  );
  assert.equal(whole.kind, "method");
  assert.deepEqual(typeErrors(path, whole.text), []);
  // A member whose type cannot narrow may be assigned before (`this.isStopped = true` in Subscriber.error).
  const sub = "internal/Subscriber.ts";
  const stop = await extract(
    sub,
    RXJS[`/${sub}`]!,
    linesAt(RXJS[`/${sub}`]!, "      this._error(err);", 1),
    "fail",
  );
  assert.equal(stop.kind, "method");
  // An assignment narrows a variable declared with a union too.
  const assigned = [
    "export function g(flag: boolean): number {",
    "  let s: string | null = null;",
    "  s = flag ? 'a' : 'b';",
    "  const n = s.length;",
    "  return n;",
    "}",
    "",
  ].join("\n");
  const e2 = await refusal("assigned.ts", assigned, { start_line: 4, end_line: 4 });
  assert.equal(e2.code, "types_required");
  assert.match(e2.message, /"s" is tested or assigned before the range \(line 3: `s = flag \? 'a' : 'b'`\)/);
});

Deno.test("planExtract() refuses a captured name narrowed before the range: the new function would not keep it (rxjs TestScheduler's map)", async () => {
  // Found by the refactor soak: `if (!map) throw …` then `map.set(handle, callback)` extracted; the new function
  // reads `map` where it is declared, as `Map<number, FrameRequestCallback> | undefined` (TS18048).
  const path = "internal/testing/TestScheduler.ts";
  const text = RXJS[`/${path}`]!;
  const e = await refusal(path, text, linesAt(text, "        const handle = ++lastHandle;", 3));
  assert.equal(e.code, "types_required");
  assert.match(e.message, /they read "map", which line 453 \(`!map`\) tests or assigns before them/);
  assert.match(e.message, /as its declared `Map<number, FrameRequestCallback> \| undefined`/);
  // With the test in the range, it type-checks.
  const whole = await extract(
    path,
    text,
    linesAt(
      text,
      "        if (!map) {\n          throw new Error('animate() was not called within run()');\n        }\n        const handle",
      6,
    ),
    "register",
  );
  assert.deepEqual(typeErrors(path, whole.text), []);
});

Deno.test("planExtract() refuses to pass in a Python name assigned only in a branch or loop before the range (email's get_parameter)", async () => {
  // Found by the refactor soak on CPython's email: `for t in token: …` extracted as `t = f(t, token)`, where `t`
  // was only bound by an earlier `for t in qstring:` on another path: UnboundLocalError in test_email.
  const text = [
    "def last(items, other, flag):",
    "    if flag:",
    "        for t in other:",
    "            pass",
    "    for t in items:",
    "        if t > 2:",
    "            break",
    "    return t",
    "",
  ].join("\n");
  const e = await refusal("m.py", text, { start_line: 5, end_line: 7 });
  assert.equal(e.code, "unresolved");
  assert.match(
    e.message,
    /"t" would be passed in, but it is only assigned in a branch or loop before the range \(line 3\)/,
  );
  // Bound on every path before the range: passed in as before.
  const bound = text.replace(
    "    if flag:\n        for t in other:\n            pass\n",
    "    t = None\n\n\n",
  );
  const plan = await extract("m.py", bound, { start_line: 5, end_line: 7 }, "scan");
  assert.deepEqual(plan.parameters, ["t", "items"]);
});

Deno.test("planExtract() refuses to pass in a Python name the try body assigns when the range is its except clause (email's get_mailbox_list)", async () => {
  // Found by the refactor soak on CPython's email: get_mailbox_list's `except errors.HeaderParseError:` body
  // extracted as `value, token = soak_extracted(value, mailbox_list, token)`, where `token` was bound only by the
  // try body's `token, value = get_mailbox(value)`, which had raised: UnboundLocalError in test_email.
  const source = Deno.readTextFileSync("/usr/lib/python3.11/email/_header_value_parser.py");
  const lines = source.split("\n");
  const def = lines.findIndex((l) => l.startsWith("def get_mailbox_list("));
  const handler = lines.findIndex((l, i) => i > def && l.trim() === "except errors.HeaderParseError:");
  const start = handler + 2; // 1-based: the first statement of the except clause
  let end = start;
  while (lines[end]!.startsWith("            ")) end++; // the clause's last line (1-based)
  const e = await refusal("_header_value_parser.py", source, { start_line: start, end_line: end });
  assert.equal(e.code, "unresolved");
  assert.match(
    e.message,
    /"token" would be passed in, but it is only assigned in a branch or loop before the range/,
  );
});

Deno.test("planExtract() returns a Python name the statements write and read again on the loop's next pass (email's decode_header)", async () => {
  // Found by the refactor soak on CPython's email: decode_header's `if first: …; first = False` inside
  // `while parts:` extracted without returning `first`, so every pass stripped its text again.
  const text = [
    "def strip_first(parts):",
    "    out = []",
    "    first = True",
    "    while parts:",
    "        word = parts.pop(0)",
    "        if first:",
    "            word = word.lstrip()",
    "            first = False",
    "        out.append(word)",
    "    return out",
    "",
  ].join("\n");
  const plan = await extract("m.py", text, { start_line: 6, end_line: 8 }, "strip");
  assert.ok(plan.returns.includes("first"), JSON.stringify(plan.returns));
});
