import assert from "node:assert/strict";
import { snapshot } from "../../_helpers.ts";
import {
  type Files,
  pythonClick,
  pythonEmail,
  runIn,
  rxjsCjs,
  storedFiles,
  typeErrors,
} from "../structural/_module_check.ts";
import { assertReparses, ok, RXJS, textOf, workspaceOf, ZOD } from "./_bindings_fixtures.ts";

const RX: Files = Object.fromEntries(Object.entries(RXJS).map(([k, v]) => [k.slice(1), v]));

/** A Python module's text without one `__all__` line (`    'name',`). */
function withoutAllEntry(text: string, name: string): string {
  const line = `    '${name}',\n`;
  assert.ok(text.includes(line), `__all__ lists ${name}`);
  return text.replace(line, "");
}

Deno.test("edit_move_decl() on rxjs: popScheduler leaves util/args.ts with its imports, every importer follows, and rxjs still type-checks", async () => {
  const ws = await workspaceOf(RXJS);
  const to = "internal/util/schedulerArgs.ts";
  const res = ok(
    await ws.call("edit_move_decl", {
      path: "internal/util/args.ts",
      name_path: "popScheduler",
      to_path: to,
    }),
  );
  assert.equal(res.data["destination_created"], true);
  // `last` was private to args.ts: exported now, and said so
  assert.deepEqual(res.data["source_exported"], ["last"]);
  assert.match(res.warnings.join("\n"), /"internal\/util\/args\.ts" now exports "last"/);
  assert.equal(
    await textOf(ws, to),
    [
      "import { SchedulerLike } from '../types';",
      "import { isScheduler } from './isScheduler';",
      "import { last } from './args';",
      "",
      "export function popScheduler(args: any[]): SchedulerLike | undefined {",
      "  return isScheduler(last(args)) ? args.pop() : undefined;",
      "}",
      "",
    ].join("\n"),
  );
  assert.equal(
    await textOf(ws, "internal/util/args.ts"),
    [
      "import { isFunction } from './isFunction';",
      "",
      "export function last<T>(arr: T[]): T | undefined {",
      "  return arr[arr.length - 1];",
      "}",
      "",
      "export function popResultSelector(args: any[]): ((...args: unknown[]) => unknown) | undefined {",
      "  return isFunction(last(args)) ? args.pop() : undefined;",
      "}",
      "",
      "export function popNumber(args: any[], defaultValue: number): number {",
      "  return typeof last(args) === 'number' ? args.pop()! : defaultValue;",
      "}",
      "",
    ].join("\n"),
  );
  const merge = await textOf(ws, "internal/operators/merge.ts");
  assert.match(
    merge,
    /^import \{ popNumber \} from '\.\.\/util\/args';\nimport \{ popScheduler \} from '\.\.\/util\/schedulerArgs';$/m,
  );
  const referrers = res.data["referrers"] as string[];
  assert.equal(referrers.length, 9, referrers.join(", "));
  const paths = [...Object.keys(RX), to];
  const after = await storedFiles(ws, paths);
  for (const p of [...referrers, "internal/util/args.ts"]) {
    await assertReparses("typescript", RX[p]!, after[p]!, p);
  }
  // The files that changed type-check exactly as before (the moved code's diagnostics, if any, move with it).
  const changed = [...referrers, "internal/util/args.ts"];
  const messages = (list: string[]) => list.map((l) => l.slice(l.indexOf(": ") + 2)).sort();
  assert.deepEqual(
    messages(await typeErrors(after, [...changed, to])),
    messages(await typeErrors(RX, changed)),
  );
});

Deno.test("edit_move_decl() on Python's email package: a function moves with its imports, utils.x users follow, python3 still parses dates", async () => {
  const before = pythonEmail();
  const ws = await workspaceOf(Object.fromEntries(Object.entries(before).map(([k, v]) => [`/${k}`, v])));
  const res = ok(
    await ws.call("edit_move_decl", {
      path: "email/utils.py",
      name_path: "parsedate_to_datetime",
      to_path: "email/_dates.py",
    }),
  );
  assert.equal(
    await textOf(ws, "email/_dates.py"),
    [
      "from email._parseaddr import _parsedate_tz",
      "import datetime",
      "",
      "",
      "def parsedate_to_datetime(data):",
      "    parsed_date_tz = _parsedate_tz(data)",
      "    if parsed_date_tz is None:",
      `        raise ValueError('Invalid date value or format "%s"' % str(data))`,
      "    *dtuple, tz = parsed_date_tz",
      "    if tz is None:",
      "        return datetime.datetime(*dtuple[:6])",
      "    return datetime.datetime(*dtuple[:6],",
      "            tzinfo=datetime.timezone(datetime.timedelta(seconds=tz)))",
      "",
    ].join("\n"),
  );
  const utils = await textOf(ws, "email/utils.py");
  assert.ok(!/def parsedate_to_datetime/.test(utils));
  // utils.py's __all__ lists it (its declared interface): the entry stays, and the module imports it back.
  assert.match(utils, /'parsedate_to_datetime',/, "__all__ still lists it");
  assert.match(utils, /^from email\._dates import parsedate_to_datetime$/m);
  assert.match(
    utils,
    /^from email\._parseaddr import parsedate, parsedate_tz$/m,
    "its private import went with it",
  );
  const registry = await textOf(ws, "email/headerregistry.py");
  assert.match(registry, /^from email import utils\nfrom email\._dates import parsedate_to_datetime$/m);
  assert.match(registry, / value = parsedate_to_datetime\(value\)/);
  assert.deepEqual(res.data["referrers"], ["email/headerregistry.py"]);
  const after = await storedFiles(ws, [...Object.keys(before), "email/_dates.py"]);
  for (const p of ["email/utils.py", "email/headerregistry.py"]) {
    await assertReparses("python", before[p]!, after[p]!, p);
  }
  const out = await runIn(after, [
    "python3",
    "-c",
    [
      "import email, email.policy",
      "assert email.__file__.startswith(__import__('os').environ['PYTHONPATH'])",
      "m = email.message_from_string('Date: Tue, 24 Nov 2026 00:11:37 +0100\\n\\nhi\\n', policy=email.policy.default)",
      "print(m['Date'].datetime.isoformat())",
    ].join("\n"),
  ]);
  assert.equal(out, "2026-11-24T00:11:37+01:00\n");
});

Deno.test("edit_move_decl() (Python) out of a package's __init__: `import email` then email.x is rewritten once and runs", async () => {
  // Found by the refactor soak on CPython's email: moving message_from_bytes out of email/__init__.py, a file
  // with `import email` and `email.message_from_bytes(...)` got that use rewritten twice (the namespace import
  // and the package-attribute chain each took it): an internal error, overlapping edits.
  const before = pythonEmail();
  before["app.py"] =
    "import email\n\nm = email.message_from_string('Subject: hi\\n\\nbody\\n')\nprint(m['Subject'])\n";
  const ws = await workspaceOf(Object.fromEntries(Object.entries(before).map(([k, v]) => [`/${k}`, v])));
  ok(
    await ws.call("edit_move_decl", {
      path: "email/__init__.py",
      name_path: "message_from_string",
      to_path: "email/_strings.py",
    }),
  );
  assert.equal(
    await textOf(ws, "app.py"),
    "import email\nfrom email._strings import message_from_string\n\nm = message_from_string('Subject: hi\\n\\nbody\\n')\nprint(m['Subject'])\n",
  );
  const after = await storedFiles(ws, [...Object.keys(before), "email/_strings.py"]);
  assert.equal(await runIn(after, ["python3", "app.py"]), "hi\n");
});

Deno.test("edit_move_decl() (Python) lists module attributes on values it cannot follow: charset.py's encoder_module.header_length", async () => {
  // Found by the refactor soak on CPython's email: moving base64mime.header_length answered ok with nothing
  // unresolved, and Charset.header_encode_lines's `encoder_module.header_length(...)` (the module as a value)
  // then raised AttributeError.
  const before = pythonEmail();
  const ws = await workspaceOf(Object.fromEntries(Object.entries(before).map(([k, v]) => [`/${k}`, v])));
  const res = ok(
    await ws.call("edit_move_decl", {
      path: "email/base64mime.py",
      name_path: "header_length",
      to_path: "email/_lengths.py",
    }),
  );
  const unresolved = res.data["unresolved"] as { path: string; line: number; reason: string }[];
  const line = before["email/charset.py"]!.split("\n")
    .findIndex((l) => l.includes("encoder_module.header_length(")) + 1;
  assert.ok(
    unresolved.some((u) =>
      u.path === "email/charset.py" && u.line === line && /encoder_module\.header_length/.test(u.reason)
    ),
    JSON.stringify(unresolved),
  );
  assert.match(await textOf(ws, "email/charset.py"), /len64 = header_length\(header_bytes\)/);
});

Deno.test("edit_move_decl() (Python) keeps the source's public imports: email.utils.quote still reaches message.py", async () => {
  // Found by the refactor soak on CPython's email: moving utils.decode_params dropped utils.py's
  // `from email._parseaddr import quote` (only decode_params used it there), and message.py's `utils.quote(...)`
  // raised AttributeError.
  const before = pythonEmail();
  // utils.py's __all__ lists decode_params, which would keep it importable from there: the two modules would
  // import each other (refused). Taken out of the interface first, as an agent that means to move it would.
  before["email/utils.py"] = withoutAllEntry(before["email/utils.py"]!, "decode_params");
  const ws = await workspaceOf(Object.fromEntries(Object.entries(before).map(([k, v]) => [`/${k}`, v])));
  ok(
    await ws.call("edit_move_decl", {
      path: "email/utils.py",
      name_path: "decode_params",
      to_path: "email/_params.py",
    }),
  );
  assert.match(await textOf(ws, "email/utils.py"), /^from email\._parseaddr import quote$/m);
  const after = await storedFiles(ws, [...Object.keys(before), "email/_params.py"]);
  const out = await runIn(after, [
    "python3",
    "-c",
    "import email.message\nm = email.message.Message()\nm.set_param('name', 'a b')\nprint(m.get_param('name'))",
  ]);
  assert.equal(out, "a b\n");
});

Deno.test("edit_move_decl() (Python) of a name the source's __all__ lists keeps it there, imported back: email.message_from_string and `from email import *` still work", async () => {
  // Found by the refactor soak: moving message_from_string out of email/__init__.py took it out of the package's
  // __all__ as well, and test_email's test__all__ (the package's public names) failed — as would any code outside
  // the workspace calling email.message_from_string.
  const before = pythonEmail();
  const ws = await workspaceOf(Object.fromEntries(Object.entries(before).map(([k, v]) => [`/${k}`, v])));
  ok(
    await ws.call("edit_move_decl", {
      path: "email/__init__.py",
      name_path: "message_from_string",
      to_path: "email/soak_moved.py",
    }),
  );
  const init = await textOf(ws, "email/__init__.py");
  assert.doesNotMatch(init, /def message_from_string/);
  assert.match(init, /^ {4}'message_from_string',$/m, "__all__ still lists it");
  assert.match(init, /^from email\.soak_moved import message_from_string$/m);
  const after = await storedFiles(ws, [...Object.keys(before), "email/soak_moved.py"]);
  const out = await runIn(after, [
    "python3",
    "-c",
    [
      "import email",
      "assert email.__file__.startswith(__import__('os').environ['PYTHONPATH'])",
      "assert 'message_from_string' in email.__all__",
      "from email import *",
      "print(message_from_string('Subject: hi\\n\\nbody\\n')['Subject'], email.message_from_string('Subject: ho\\n\\n')['Subject'])",
    ].join("\n"),
  ]);
  assert.equal(out, "hi ho\n");
  // Kept importable from utils.py, decode_params would make the two modules import each other: refused, naming
  // __all__ and what to do.
  const cycle = await ws.call("edit_move_decl", {
    path: "email/utils.py",
    name_path: "decode_params",
    to_path: "email/_params.py",
  });
  assert.ok(!cycle.ok && cycle.error.code === "import_cycle", JSON.stringify(cycle));
  assert.match(
    cycle.error.message,
    /\(for decode_params, which its __all__ lists: it stays importable from there\)/,
  );
  assert.match(cycle.error.hint, /take "decode_params" out of __all__ first/);
});

Deno.test("edit_move_decl() (Python) refuses to move a module's dunder name: email's __all__ stays where Python reads it", async () => {
  // Found by the refactor soak: moving email/__init__.py's __all__ to a new module answered ok, and
  // test_email's `email.__all__` check then failed (the package had no __all__ left).
  const before = pythonEmail();
  const ws = await workspaceOf(Object.fromEntries(Object.entries(before).map(([k, v]) => [`/${k}`, v])));
  const snap = await snapshot(ws.fs.raw, "/");
  const r = await ws.call("edit_move_decl", {
    path: "email/__init__.py",
    name_path: "__all__",
    to_path: "email/soak_moved.py",
  });
  assert.ok(!r.ok, JSON.stringify(r));
  assert.equal(r.error.code, "value_reference");
  assert.match(r.error.message, /"__all__" out of "email\/__init__\.py"/);
  assert.deepEqual(await snapshot(ws.fs.raw, "/"), snap);
});

Deno.test("edit_move_decl() refusals on real code write nothing: private names, CommonJS, missing names", async () => {
  const before = pythonEmail();
  const ws = await workspaceOf(Object.fromEntries(Object.entries(before).map(([k, v]) => [`/${k}`, v])));
  const snap = await snapshot(ws.fs.raw, "/");
  const code = async (args: Record<string, unknown>) => {
    const r = await ws.call("edit_move_decl", args);
    assert.ok(!r.ok, JSON.stringify(r));
    return r.error;
  };
  const priv = await code({
    path: "email/utils.py",
    name_path: "_format_timetuple_and_zone",
    to_path: "email/_text.py",
  });
  assert.equal(priv.code, "visibility_required");
  assert.match(priv.message, /"email\/utils\.py" still uses it/);
  const dep = await code({
    path: "email/utils.py",
    name_path: "format_datetime",
    to_path: "email/_dates.py",
  });
  assert.equal(dep.code, "visibility_required");
  assert.match(dep.message, /_format_timetuple_and_zone/);
  assert.equal(
    (await code({ path: "email/utils.py", name_path: "nope", to_path: "email/x.py" })).code,
    "not_found",
  );
  assert.equal(
    (await code({ path: "email/utils.py", name_path: "formataddr", to_path: "email/utils.py" })).code,
    "invalid_args",
  );
  assert.equal(
    (await code({ path: "email/utils.py", name_path: "formataddr", to_path: "email/x.txt" })).code,
    "unsupported_language",
  );
  assert.deepEqual(await snapshot(ws.fs.raw, "/"), snap);

  const cjs = await workspaceOf({ "/rxjs/args.js": rxjsCjs()["rxjs/internal/util/args.js"]! });
  const r = await cjs.call("edit_move_decl", {
    path: "rxjs/args.js",
    name_path: "popNumber",
    to_path: "rxjs/num.js",
  });
  assert.ok(
    !r.ok && r.error.code === "unsupported_language" && /CommonJS/.test(r.error.message),
    JSON.stringify(r),
  );
});

Deno.test("edit_move_decl() refuses destination_conflict, import_cycle and name_clash, writing nothing", async () => {
  const files = {
    "src/util.ts": [
      'import { pad } from "./pad.ts";',
      "",
      'const PREFIX = ">";',
      "",
      "export function format(s: string): string {",
      "  return PREFIX + pad(s);",
      "}",
      "",
      "export function twice(s: string): string {",
      "  return format(s) + format(s);",
      "}",
      "",
    ].join("\n"),
    "src/pad.ts": "export function pad(s: string): string {\n  return ` ${s}`;\n}\n",
    "src/other.ts": "export function format(): string {\n  return '';\n}\n",
    "src/globals.ts": "export const PREFIX2 = 1;\nexport function run(): string {\n  return format;\n}\n",
    "src/shadow.ts": "const pad = 1;\nexport { pad };\n",
  };
  const ws = await workspaceOf({}, files);
  const snap = await snapshot(ws.fs.raw, "/");
  const code = async (args: Record<string, unknown>) => {
    const r = await ws.call("edit_move_decl", args);
    assert.ok(!r.ok, JSON.stringify(r));
    return r.error;
  };
  const conflict = await code({ path: "src/util.ts", name_path: "format", to_path: "src/other.ts" });
  assert.equal(conflict.code, "destination_conflict");
  const cycle = await code({ path: "src/util.ts", name_path: "format", to_path: "src/text.ts" });
  assert.equal(cycle.code, "import_cycle");
  assert.match(cycle.message, /would import "src\/util\.ts" \(for PREFIX\)/);
  const captured = await code({ path: "src/util.ts", name_path: "format", to_path: "src/globals.ts" });
  assert.equal(captured.code, "name_clash", "globals.ts uses a free `format` the declaration would capture");
  const clash = await code({ path: "src/util.ts", name_path: "format", to_path: "src/shadow.ts" });
  assert.equal(clash.code, "name_clash", "format uses pad, which shadow.ts declares as something else");
  assert.deepEqual(await snapshot(ws.fs.raw, "/"), snap);
});

Deno.test("edit_move_decl() in an edit_dry_run plan: moved, then renamed in its new home, then the file moved — nothing written", async () => {
  const files = {
    "src/util.ts":
      "export function format(s: string): string {\n  return `[${s}]`;\n}\n\nexport const twice = (s: string) => format(s) + format(s);\n",
    "src/app.ts": 'import { format, twice } from "./util.ts";\n\nconsole.log(format("a"), twice("b"));\n',
  };
  const ws = await workspaceOf({}, files);
  const snap = await snapshot(ws.fs.raw, "/");
  const res = ok(
    await ws.call("edit_dry_run", {
      plan: [
        {
          tool: "edit_move_decl",
          args: { path: "src/util.ts", name_path: "format", to_path: "src/format.ts" },
        },
        {
          tool: "edit_rename_symbol",
          args: { path: "src/format.ts", target: "format", new_name: "bracket" },
        },
        { tool: "move_file", args: { from: "src/format.ts", to: "src/text/format.ts" } },
      ],
    }),
  );
  assert.equal((res.data as { status: string }).status, "ok");
  const diff = res.changes.map((c) => c.diff).join("\n");
  assert.match(diff, /\+import \{ bracket \} from "\.\/text\/format\.ts";/);
  assert.match(diff, /\+export function bracket\(s: string\): string \{/);
  assert.deepEqual(await snapshot(ws.fs.raw, "/"), snap, "a plan writes nothing");
  const dry = ok(
    await ws.call("edit_move_decl", {
      path: "src/util.ts",
      name_path: "format",
      to_path: "src/format.ts",
      dry_run: true,
    }),
  );
  assert.equal(dry.status, "dry_run");
  assert.deepEqual(dry.changes.map((c) => c.path).sort(), ["src/app.ts", "src/format.ts", "src/util.ts"]);
  assert.deepEqual(await snapshot(ws.fs.raw, "/"), snap, "dry_run writes nothing");
});

const CIRCLE = [
  "export default class Circle {",
  "  constructor(r) {",
  "    this.r = r;",
  "  }",
  "  area() {",
  "    return round(Math.PI * this.r * this.r);",
  "  }",
  "}",
];

Deno.test("edit_move_decl() on ES modules run by node: a class with a default export and a namespace importer", async () => {
  const ws = await workspaceOf({}, {
    "lib/shapes.mjs": [
      "import { round } from './math.mjs';",
      "",
      ...CIRCLE,
      "",
      "export function unit() {",
      "  return new Circle(1);",
      "}",
      "",
    ].join("\n"),
    "lib/math.mjs": "export const round = (x) => Math.round(x * 100) / 100;\n",
    "main.mjs": [
      "import Circle, { unit } from './lib/shapes.mjs';",
      "import * as shapes from './lib/shapes.mjs';",
      "",
      "console.log(new Circle(2).area(), unit().area(), new shapes.default(3).area());",
      "",
    ].join("\n"),
  });
  const res = await ws.call("edit_move_decl", {
    path: "lib/shapes.mjs",
    name_path: "Circle",
    to_path: "lib/circle.mjs",
  });
  ok(res);
  const names = ["lib/shapes.mjs", "lib/math.mjs", "lib/circle.mjs", "main.mjs"];
  const after = await storedFiles(ws, names);
  assert.equal(
    after["lib/circle.mjs"],
    [
      "import { round } from './math.mjs';",
      "",
      ...CIRCLE,
      "",
    ].join("\n"),
  );
  assert.equal(
    after["lib/shapes.mjs"],
    "import Circle from './circle.mjs';\n\nexport function unit() {\n  return new Circle(1);\n}\n",
  );
  assert.equal(
    after["main.mjs"],
    [
      "import { unit } from './lib/shapes.mjs';",
      "import Circle from './lib/circle.mjs';",
      "import * as shapes from './lib/shapes.mjs';",
      "",
      "console.log(new Circle(2).area(), unit().area(), new Circle(3).area());",
      "",
    ].join("\n"),
    "the default import is split off; shapes.default becomes the imported Circle",
  );
  assert.equal(await runIn(after, ["node", "main.mjs"]), "12.57 3.14 28.27\n");
});

Deno.test("edit_move_decl() on rxjs: every overload of `of` moves together (its name alone picks them), and the changed files type-check", async () => {
  const ws = await workspaceOf(RXJS);
  const to = "internal/observable/ofValues.ts";
  const res = ok(
    await ws.call("edit_move_decl", { path: "internal/observable/of.ts", name_path: "of", to_path: to }),
  );
  const moved = await textOf(ws, to);
  assert.equal(
    (moved.match(/^export function of\b/gm) ?? []).length,
    9,
    "8 overload signatures and the implementation",
  );
  assert.match(moved, /^import \{ Observable \} from '\.\.\/Observable';$/m);
  const source = await textOf(ws, "internal/observable/of.ts");
  assert.ok(
    source.startsWith("// Devs are more likely"),
    "the emptied import block leaves no blank line at the top",
  );
  assert.ok(!/^import /m.test(source));
  const referrers = res.data["referrers"] as string[];
  assert.ok(
    referrers.includes("index.ts") && referrers.includes("internal/operators/endWith.ts"),
    referrers.join(),
  );
  const after = await storedFiles(ws, [...Object.keys(RX), to]);
  const changed = [...referrers, "internal/observable/of.ts"];
  const messages = (list: string[]) => list.map((l) => l.slice(l.indexOf(": ") + 2)).sort();
  assert.deepEqual(
    messages(await typeErrors(after, [...changed, to])),
    messages(await typeErrors(RX, changed)),
  );
});

Deno.test("edit_move_decl() rewrites uses through a namespace re-export (zod's util.slugify) and says the namespace lost the name", async () => {
  const schemas = ZOD["/src/v4/classic/schemas.ts"]!.replace(
    'import en from "../locales/en.js";\n',
    'import en from "../locales/en.js";\nexport const slugTest = (s: string): string => util.slugify(s);\n',
  );
  const ws = await workspaceOf(ZOD, { "src/v4/classic/schemas.ts": schemas });
  const res = ok(
    await ws.call("edit_move_decl", {
      path: "src/v4/core/util.ts",
      name_path: "slugify",
      to_path: "src/v4/core/slug.ts",
    }),
  );
  assert.deepEqual(res.changes.map((c) => c.path).sort(), [
    "src/v4/classic/schemas.ts",
    "src/v4/core/api.ts",
    "src/v4/core/slug.ts",
    "src/v4/core/util.ts",
  ]);
  const after = await textOf(ws, "src/v4/classic/schemas.ts");
  assert.match(after, /import \{ slugify \} from "\.\.\/core\/slug\.js";/);
  assert.match(after, /export const slugTest = \(s: string\): string => slugify\(s\);/);
  assert.match(await textOf(ws, "src/v4/core/api.ts"), /_overwrite\(\(input\) => slugify\(input\)\)/);
  assert.deepEqual(res.data["namespaces"], [{ path: "src/v4/core/index.ts", name: "util" }]);
  assert.match(
    res.warnings.join("\n"),
    /"src\/v4\/core\/index\.ts" passes "src\/v4\/core\/util\.ts" on as the namespace util/,
  );
});

Deno.test("edit_move_decl() on rxjs: the file's only declaration moves, its removal and its imports' removal share a blank line", async () => {
  // Found by the refactor soak: `distinct`, `from` and `scheduled` answered internal ("overlapping edits").
  const ws = await workspaceOf(RXJS);
  const to = "internal/operators/distinctValues.ts";
  const res = ok(
    await ws.call("edit_move_decl", {
      path: "internal/operators/distinct.ts",
      name_path: "distinct",
      to_path: to,
    }),
  );
  assert.equal(await textOf(ws, "internal/operators/distinct.ts"), "");
  assert.match(
    await textOf(ws, to),
    /^import \{ noop \} from '\.\.\/util\/noop';$[\s\S]*^export function distinct</m,
  );
  const referrers = res.data["referrers"] as string[];
  assert.deepEqual(referrers.sort(), ["index.ts", "operators/index.ts"]);
  const after = await storedFiles(ws, [...Object.keys(RX), to]);
  const messages = (list: string[]) => list.map((l) => l.slice(l.indexOf(": ") + 2)).sort();
  assert.deepEqual(
    messages(await typeErrors(after, [...referrers, to])),
    messages(await typeErrors(RX, referrers)),
  );
});

Deno.test("edit_move_decl() on click: typing-only names come under the destination's own TYPE_CHECKING, __future__ comes along, click still imports", async () => {
  const before = pythonClick();
  const ws = await workspaceOf({}, before);
  ok(
    await ws.call("edit_move_decl", {
      path: "click/utils.py",
      name_path: "safecall",
      to_path: "click/_calls.py",
    }),
  );
  const moved = await textOf(ws, "click/_calls.py");
  // utils.py binds P only under `if t.TYPE_CHECKING:`: importing it at run time would raise ImportError
  assert.equal(
    moved.split("\n\n\ndef ")[0],
    [
      "from __future__ import annotations",
      "",
      "import typing as t",
      "from .utils import R",
      "from functools import update_wrapper",
      "",
      "if t.TYPE_CHECKING:",
      "    from .utils import P",
    ].join("\n"),
  );
  const after = await storedFiles(ws, [...Object.keys(before), "click/_calls.py"]);
  await runIn(after, [
    "python3",
    "-c",
    "import click, click._calls, click.types; assert click._calls.safecall(lambda: 1)() == 1",
  ]);
});

Deno.test("edit_move_decl() (Python) puts typing-only imports in the destination's TYPE_CHECKING block and the source's __future__ import after its docstring", async () => {
  const files: Files = {
    "app/__init__.py": "",
    "app/models.py": "class Model:\n    pass\n",
    "app/service.py": [
      '"""Services."""',
      "from __future__ import annotations",
      "",
      "from typing import TYPE_CHECKING",
      "",
      "if TYPE_CHECKING:",
      "    from .models import Model",
      "",
      "",
      "def describe(m: Model) -> str:",
      "    return type(m).__name__",
      "",
    ].join("\n"),
    "app/tools.py": [
      '"""Tools."""',
      "import typing",
      "",
      "if typing.TYPE_CHECKING:",
      "    from collections.abc import Sequence",
      "",
      "",
      "def first(xs: 'Sequence[int]') -> int:",
      "    return xs[0]",
      "",
    ].join("\n"),
  };
  const ws = await workspaceOf({}, files);
  ok(
    await ws.call("edit_move_decl", {
      path: "app/service.py",
      name_path: "describe",
      to_path: "app/tools.py",
    }),
  );
  assert.equal(
    await textOf(ws, "app/tools.py"),
    [
      '"""Tools."""',
      "from __future__ import annotations",
      "",
      "import typing",
      "",
      "if typing.TYPE_CHECKING:",
      "    from collections.abc import Sequence",
      "    from .models import Model",
      "",
      "",
      "def describe(m: Model) -> str:",
      "    return type(m).__name__",
      "",
      "",
      "def first(xs: 'Sequence[int]') -> int:",
      "    return xs[0]",
      "",
    ].join("\n"),
  );
  // The source's block lost its only statement: the block goes, not its body.
  assert.equal(
    await textOf(ws, "app/service.py"),
    '"""Services."""\nfrom __future__ import annotations\n\nfrom typing import TYPE_CHECKING\n',
  );
  const after = await storedFiles(ws, Object.keys(files));
  await runIn(after, [
    "python3",
    "-c",
    "import app.service, app.tools, app.models; assert app.tools.describe(app.models.Model()) == 'Model'",
  ]);
});

Deno.test("edit_move_decl() (Python) imports TYPE_CHECKING for a new block when the destination has no typing import", async () => {
  const files: Files = {
    "app/__init__.py": "",
    "app/models.py": "class Model:\n    pass\n",
    "app/service.py": [
      "from __future__ import annotations",
      "",
      "from typing import TYPE_CHECKING",
      "",
      "if TYPE_CHECKING:",
      "    from .models import Model",
      "",
      "",
      "def describe(m: Model) -> str:",
      "    return type(m).__name__",
      "",
      "",
      "def other(m: Model) -> int:",
      "    return 1",
      "",
    ].join("\n"),
  };
  const ws = await workspaceOf({}, files);
  ok(
    await ws.call("edit_move_decl", { path: "app/service.py", name_path: "describe", to_path: "app/new.py" }),
  );
  assert.equal(
    await textOf(ws, "app/new.py"),
    [
      "from __future__ import annotations",
      "",
      "from typing import TYPE_CHECKING",
      "",
      "if TYPE_CHECKING:",
      "    from .models import Model",
      "",
      "",
      "def describe(m: Model) -> str:",
      "    return type(m).__name__",
      "",
    ].join("\n"),
  );
  // the source still uses Model: its block stays
  assert.match(await textOf(ws, "app/service.py"), /if TYPE_CHECKING:\n {4}from \.models import Model\n/);
  await runIn(await storedFiles(ws, [...Object.keys(files), "app/new.py"]), [
    "python3",
    "-c",
    "import app.new, app.service",
  ]);
  // a destination whose TYPE_CHECKING is its own: refused, nothing written
  const clash = await workspaceOf({}, { ...files, "app/flags.py": "TYPE_CHECKING = False\n" });
  const res = await clash.call("edit_move_decl", {
    path: "app/service.py",
    name_path: "describe",
    to_path: "app/flags.py",
  });
  assert.ok(!res.ok && res.error.code === "name_clash", JSON.stringify(res));
  assert.equal(await textOf(clash, "app/flags.py"), "TYPE_CHECKING = False\n");
});

Deno.test("edit_move_decl() (Python) counts no import cycle for a name the destination takes only under TYPE_CHECKING", async () => {
  const files: Files = {
    "app/__init__.py": "",
    "app/helpers.py": "def helper(x: int) -> int:\n    return x + 1\n",
    "app/service.py": [
      "from __future__ import annotations",
      "",
      "from typing import TYPE_CHECKING",
      "",
      "from .helpers import helper",
      "",
      "if TYPE_CHECKING:",
      "    Number = int",
      "",
      "",
      "def describe(x: Number) -> int:",
      "    return helper(x)",
      "",
      "",
      "def run() -> int:",
      "    return describe(1)",
      "",
    ].join("\n"),
  };
  const ws = await workspaceOf({}, files);
  ok(
    await ws.call("edit_move_decl", {
      path: "app/service.py",
      name_path: "describe",
      to_path: "app/helpers.py",
    }),
  );
  assert.match(await textOf(ws, "app/helpers.py"), /\nif TYPE_CHECKING:\n {4}from \.service import Number\n/);
  await runIn(await storedFiles(ws, Object.keys(files)), [
    "python3",
    "-c",
    "import app.service; assert app.service.run() == 2",
  ]);
});

Deno.test("edit_move_decl() refuses to carry syntax newer than the destination's declared Python (ast.literal_eval's :=)", async () => {
  // Issue 27, item 4 (every generator): CPython 3.11's ast.literal_eval uses `if lno := getattr(...)`, which a
  // package declaring requires-python >=3.7 cannot run.
  const source = Deno.readTextFileSync("/root/.pyenv/versions/3.11.7/lib/python3.11/ast.py");
  const files = (floor: string) => ({
    "/ast.py": source,
    "/legacy/__init__.py": "",
    "/legacy/pyproject.toml": `[project]\nname = "legacy"\nrequires-python = "${floor}"\n`,
  });
  const args = { path: "ast.py", name_path: "literal_eval", to_path: "legacy/compat.py" };
  const old = await workspaceOf(files(">=3.7"));
  const res = await old.call("edit_move_decl", args);
  assert.ok(!res.ok, JSON.stringify(res));
  assert.equal(res.error.code, "destination_conflict");
  assert.match(
    res.error.message,
    /assignment expression `:=` \(PEP 572\) needs Python 3\.8, and legacy\/pyproject\.toml declares requires-python ">=3\.7"/,
  );
  assert.equal(await textOf(old, "ast.py"), source);
  const recent = await workspaceOf(files(">=3.8"));
  ok(await recent.call("edit_move_decl", args));
  assert.match(await textOf(recent, "legacy/compat.py"), /if lno := getattr\(node, 'lineno', None\):/);
});

Deno.test("edit_move_decl() refuses value_reference for a function its module registers through a decorator (email.mime.image's @rule), writing nothing", async () => {
  const before = pythonEmail();
  const ws = await workspaceOf(Object.fromEntries(Object.entries(before).map(([k, v]) => [`/${k}`, v])));
  const snap = await snapshot(ws.fs.raw, "/");
  const line = before["email/mime/image.py"]!.split("\n").indexOf("def _exr(h):");
  assert.ok(line > 0 && before["email/mime/image.py"]!.split("\n")[line - 1] === "@rule");
  const res = await ws.call("edit_move_decl", {
    path: "email/mime/image.py",
    name_path: "_exr",
    to_path: "email/mime/_exr.py",
  });
  assert.ok(!res.ok, JSON.stringify(res));
  assert.equal(res.error.code, "value_reference");
  assert.match(
    res.error.message,
    new RegExp(
      `its decorator @rule \\(line ${line}\\) receives the declaration when the module is imported; moved, it would no longer run there`,
    ),
  );
  assert.deepEqual(res.error.details, {
    path: "email/mime/image.py",
    name: "_exr",
    decorator: "@rule",
    line,
  });
  assert.deepEqual(await snapshot(ws.fs.raw, "/"), snap);
});

Deno.test("edit_move_decl() (Python) moves what wraps or annotates only: a @dataclass class with a property and its setter, an @lru_cache function; a workspace decorator on a method refuses", async () => {
  const files = {
    "shapes.py": [
      "import functools",
      "from dataclasses import dataclass",
      "",
      "",
      "def tracked(fn):",
      "    REGISTRY.append(fn.__name__)",
      "    return fn",
      "",
      "",
      "REGISTRY = []",
      "",
      "",
      "@dataclass(frozen=False)",
      "class Point:",
      "    x: int",
      "    y: int = 0",
      "",
      "    @property",
      "    def norm(self):",
      "        return abs(self.x) + abs(self.y)",
      "",
      "    @norm.setter",
      "    def norm(self, value):",
      "        self.x = value",
      "",
      "",
      "@functools.lru_cache(maxsize=None)",
      "def origin():",
      "    return Point(0, 0)",
      "",
      "",
      "class Shape:",
      "    @tracked",
      "    def area(self):",
      "        return 0",
      "",
    ].join("\n"),
    "main.py":
      "from shapes import Point, origin, REGISTRY\n\np = Point(3, -4)\np.norm = 5\nprint(p, p.norm, origin() is origin(), REGISTRY)\n",
  };
  const ws = await workspaceOf({}, files);
  ok(await ws.call("edit_move_decl", { path: "shapes.py", name_path: "Point", to_path: "point.py" }));
  ok(await ws.call("edit_move_decl", { path: "shapes.py", name_path: "origin", to_path: "point.py" }));
  const point = await textOf(ws, "point.py");
  assert.match(point, /^@dataclass\(frozen=False\)\nclass Point:/m);
  assert.match(point, /^@functools\.lru_cache\(maxsize=None\)\ndef origin\(\):/m);
  const snap = await snapshot(ws.fs.raw, "/");
  const res = await ws.call("edit_move_decl", { path: "shapes.py", name_path: "Shape", to_path: "shape.py" });
  assert.ok(!res.ok && res.error.code === "value_reference", JSON.stringify(res));
  assert.match(res.error.message, /its decorator @tracked \(line \d+\) receives a member of it/);
  assert.deepEqual(await snapshot(ws.fs.raw, "/"), snap);
  const after = await storedFiles(ws, ["shapes.py", "point.py", "main.py"]);
  assert.equal(
    await runIn(after, ["python3", "main.py"]),
    "Point(x=5, y=-4) 9 True ['area']\n",
  );
});

Deno.test("edit_move_decl() (TypeScript) refuses value_reference for a decorated class: graver cannot judge what a decorator does", async () => {
  const ws = await workspaceOf({}, {
    "src/registry.ts":
      "export const seen: string[] = [];\nexport function track(c: Function): void {\n  seen.push(c.name);\n}\n",
    "src/models.ts":
      'import { track } from "./registry";\n\n@track\nexport class User {}\n\nexport class Plain {}\n',
  });
  const res = await ws.call("edit_move_decl", {
    path: "src/models.ts",
    name_path: "User",
    to_path: "src/user.ts",
  });
  assert.ok(!res.ok && res.error.code === "value_reference", JSON.stringify(res));
  assert.match(res.error.message, /its decorator @track \(line 3\)/);
  ok(await ws.call("edit_move_decl", { path: "src/models.ts", name_path: "Plain", to_path: "src/plain.ts" }));
});

Deno.test("edit_move_decl() (Python) rewrites `import email` + email.header.make_header(...) uses, once per chain, and python3 runs them", async () => {
  // Found by the refactor soak on CPython's email and test_email: the uses through the package were left behind
  // (AttributeError), and a file with both `import email` and `import email.policy` rewrote each chain twice
  // (internal: overlapping edits).
  const email = pythonEmail();
  // Out of header.py's __all__ first (else refused: header.py would import the new module back, which imports it).
  email["email/header.py"] = withoutAllEntry(email["email/header.py"]!, "make_header");
  const files: Files = {
    ...email,
    "check_header.py": [
      "import email",
      "import email.policy",
      "",
      "h = email.header.make_header(email.header.decode_header('=?utf-8?q?caf=C3=A9?='))",
      "assert str(h) == 'café', str(h)",
      "assert email.policy.default is not None",
      "",
    ].join("\n"),
  };
  const ws = await workspaceOf(Object.fromEntries(Object.entries(files).map(([k, v]) => [`/${k}`, v])));
  ok(
    await ws.call("edit_move_decl", {
      path: "email/header.py",
      name_path: "make_header",
      to_path: "email/headers_made.py",
    }),
  );
  const check = await textOf(ws, "check_header.py");
  assert.match(check, /^from email\.headers_made import make_header$/m);
  assert.match(check, /^h = make_header\(email\.header\.decode_header\(/m);
  await runIn(await storedFiles(ws, [...Object.keys(files), "email/headers_made.py"]), [
    "python3",
    "check_header.py",
  ]);
});

Deno.test("edit_move_decl() (TypeScript) refuses a variable its file still assigns (rxjs errorContext's `let context`), writing nothing", async () => {
  // Found by the refactor soak: moved out, `context = null` in errorContext() assigns an import (TS2632).
  const ws = await workspaceOf(RXJS);
  const snap = await snapshot(ws.fs.raw, "/");
  const r = await ws.call("edit_move_decl", {
    path: "internal/util/errorContext.ts",
    name_path: "context",
    to_path: "internal/util/context.ts",
  });
  assert.ok(!r.ok, JSON.stringify(r));
  assert.equal(r.error.code, "visibility_required");
  assert.match(
    r.error.message,
    /"internal\/util\/errorContext\.ts" assigns to it \(line 16\), and an imported binding cannot be assigned/,
  );
  assert.deepEqual(await snapshot(ws.fs.raw, "/"), snap);
  // A variable only read where it stays still moves (rxjs's `config` is read by its importers).
  const moved = ok(
    await ws.call("edit_move_decl", {
      path: "internal/config.ts",
      name_path: "config",
      to_path: "internal/cfg.ts",
    }),
  );
  assert.equal(moved.status, "applied");
});
