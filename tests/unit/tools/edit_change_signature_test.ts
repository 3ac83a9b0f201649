import assert from "node:assert/strict";
import { ok, RXJS, textOf, workspaceOf } from "./_bindings_fixtures.ts";
import type { Workspace } from "../../../src/workspace.ts";

/**
 * rxjs with arrRemove's type parameter written out as `any`: swapping the parameters of the generic original is
 * refused (T is inferred from both arguments, in their order).
 */
const RXJS_ANY = {
  ...RXJS,
  "/internal/util/arrRemove.ts": RXJS["/internal/util/arrRemove.ts"]!.replace(
    "arrRemove<T>(arr: T[] | undefined | null, item: T)",
    "arrRemove(arr: any[] | undefined | null, item: any)",
  ),
};

/** Assert that every file of `files` still holds its original text. */
async function unchanged(ws: Workspace, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) assert.equal(await textOf(ws, path.slice(1)), text, path);
}

Deno.test("edit_change_signature() applies through dispatch with its aliases, and reports the mapping and the calls", async () => {
  const ws = await workspaceOf(RXJS_ANY);
  const res = ok(
    await ws.call("edit_change_signature", {
      path: "internal/util/arrRemove.ts",
      target: "arrRemove",
      parameters: [{ name: "item" }, { name: "arr", new_name: "list" }],
    }),
  );
  assert.equal(res.status, "applied");
  assert.equal(res.changes.length, 9);
  assert.equal(res.data["before"], "(arr: any[] | undefined | null, item: any)");
  assert.equal(res.data["after"], "(item: any, list: any[] | undefined | null)");
  assert.equal(res.data["calls"], 9);
  assert.equal(res.data["updated"], 9);
  const sites = res.data["call_sites"] as { path: string; calls: { line: number }[] }[];
  assert.deepEqual(sites.find((s) => s.path === "internal/Subscription.ts")?.calls.map((c) => c.line), [
    169,
    189,
  ]);
  assert.match(await textOf(ws, "internal/Subject.ts"), /arrRemove\(subscriber, observers\);/);
});

Deno.test("edit_change_signature() dry_run previews the diff and writes nothing; refusals write nothing either", async () => {
  const ws = await workspaceOf(RXJS_ANY);
  const preview = ok(
    await ws.call("edit_change_signature", {
      path: "internal/util/arrRemove.ts",
      name_path: "arrRemove",
      params: ["item", "arr"],
      dry_run: true,
    }),
  );
  assert.equal(preview.status, "dry_run");
  const diff = preview.changes.find((c) => c.path === "internal/Subject.ts")!.diff;
  assert.match(diff, /^-\s+arrRemove\(observers, subscriber\);$/m);
  assert.match(diff, /^\+\s+arrRemove\(subscriber, observers\);$/m);
  await unchanged(ws, RXJS_ANY);
  // Renames are staged before the call sites are checked: a refusal then must still write nothing.
  const refused = await ws.call("edit_change_signature", {
    path: "internal/operators/raceWith.ts",
    name_path: "raceWith",
    params: [{ name: "otherSources", rename: "others" }],
  });
  assert.ok(!refused.ok && refused.error.code === "unsupported_call_site");
  assert.match(refused.error.message, /"internal\/operators\/race\.ts" line 19/);
  const value = await ws.call("edit_change_signature", {
    path: "internal/util/noop.ts",
    name_path: "noop",
    params: [{ name: "reason", default: 0 }],
  });
  assert.ok(!value.ok && value.error.code === "value_reference");
  await unchanged(ws, RXJS_ANY);
});

Deno.test("edit_change_signature() composes in an edit_dry_run plan with a rename of the same function", async () => {
  const ws = await workspaceOf(RXJS_ANY);
  const res = ok(
    await ws.call("edit_dry_run", {
      plan: [
        {
          tool: "edit_change_signature",
          args: { path: "internal/util/arrRemove.ts", name_path: "arrRemove", params: ["item", "arr"] },
        },
        {
          tool: "edit_rename_symbol",
          args: { path: "internal/util/arrRemove.ts", target: "arrRemove", new_name: "removeFromArray" },
        },
      ],
    }),
  );
  assert.equal(res.data["status"], "ok");
  const sub = res.changes.find((c) => c.path === "internal/Subscription.ts")!.diff;
  assert.match(sub, /^\+\s+_finalizers && removeFromArray\(teardown, _finalizers\);$/m);
  await unchanged(ws, RXJS_ANY);
});

Deno.test("edit_change_signature() refuses obj.m() candidates unless include_unresolved, then rewrites them too", async () => {
  const files = {
    "/shape.ts": [
      "export class Shape {",
      "  scale(x: number, y: number): number {",
      "    return x * y;",
      "  }",
      "  twice(): number {",
      "    return this.scale(2, 3);",
      "  }",
      "}",
      "",
    ].join("\n"),
    "/use.ts": [
      'import { Shape } from "./shape";',
      "export function area(s: Shape, shapes: Shape[]): number {",
      "  return s.scale(4, 5) + shapes[0].scale(6, 7);",
      "}",
      "",
    ].join("\n"),
  };
  const ws = await workspaceOf(files);
  const args = { path: "shape.ts", name_path: "Shape/scale", params: ["y", "x"] };
  const refused = await ws.call("edit_change_signature", args);
  assert.ok(!refused.ok && refused.error.code === "unresolved");
  // `s.scale` is Shape's (s: Shape); `shapes[0].scale` is on no name whose type is written: a candidate.
  assert.match(refused.error.message, /"use\.ts" line 3 column 36/);
  assert.deepEqual(refused.error.suggested_call?.args["include_unresolved"], true);
  await unchanged(ws, files);
  const res = ok(await ws.call("edit_change_signature", { ...args, include_unresolved: true }));
  assert.equal(
    await textOf(ws, "shape.ts"),
    files["/shape.ts"].replace("scale(x: number, y: number)", "scale(y: number, x: number)").replace(
      "this.scale(2, 3)",
      "this.scale(3, 2)",
    ),
  );
  assert.equal(
    await textOf(ws, "use.ts"),
    files["/use.ts"].replace("s.scale(4, 5)", "s.scale(5, 4)").replace("[0].scale(6, 7)", "[0].scale(7, 6)"),
  );
  const sites = res.data["call_sites"] as { path: string; calls: { candidate?: boolean }[] }[];
  assert.deepEqual(sites.find((s) => s.path === "use.ts")?.calls.map((c) => c.candidate ?? false), [
    false,
    true,
  ]);
});

Deno.test("edit_change_signature() changes constructors: new C(…) in TypeScript, C(…) in Python", async () => {
  const ts = {
    "/point.ts": "export class Point {\n  constructor(readonly x: number, readonly y: number) {}\n}\n",
    "/main.ts":
      'import { Point } from "./point";\nconst p: Point = new Point(1, 2);\nconsole.log(p instanceof Point);\n',
  };
  const ws = await workspaceOf(ts);
  ok(
    await ws.call("edit_change_signature", {
      path: "point.ts",
      name_path: "Point/constructor",
      params: ["y", "x", { name: "z", type: "number", value: "0" }],
    }),
  );
  assert.equal(
    await textOf(ws, "point.ts"),
    "export class Point {\n  constructor(readonly y: number, readonly x: number, z: number) {}\n}\n",
  );
  assert.match(await textOf(ws, "main.ts"), /new Point\(2, 1, 0\)/);
  const py = {
    "/geo/__init__.py": "",
    "/geo/point.py":
      "class Point:\n    def __init__(self, x, y=0, z=0):\n        self.x = x\n        self.y = y\n        self.z = z\n",
    "/main.py": "from geo.point import Point\n\np = Point(1, 2)\nq = Point(1, z=3)\n",
  };
  const ws2 = await workspaceOf(py);
  const res = ok(
    await ws2.call("edit_change_signature", {
      path: "geo/point.py",
      name_path: "Point",
      params: ["x", "z", "y"],
    }),
  );
  assert.equal((res.data["target"] as { kind: string }).kind, "constructor");
  assert.match(await textOf(ws2, "geo/point.py"), /def __init__\(self, x, z=0, y=0\):/);
  // y was passed by position after z's slot: it becomes a keyword argument; z=3 was already one.
  assert.equal(
    await textOf(ws2, "main.py"),
    "from geo.point import Point\n\np = Point(1, y=2)\nq = Point(1, z=3)\n",
  );
});

Deno.test("edit_change_signature() refuses a file of a language without signature support", async () => {
  const ws = await workspaceOf({}, {
    "main.go": "package main\n\nfunc add(a int, b int) int { return a + b }\n",
  });
  const res = await ws.call("edit_change_signature", {
    path: "main.go",
    name_path: "add",
    params: ["b", "a"],
  });
  assert.ok(!res.ok && res.error.code === "unsupported_language");
  assert.equal(res.error.suggested_call?.tool, "edit_capabilities");
});

Deno.test("edit_change_signature() fits a new argument inside an f-string field to the declared Python (click utils.py)", async () => {
  // Issue 27, item 4 (every generator): `"-"` added to `_posixify(app_name)` inside f"~/.{…}" is valid only on
  // Python >= 3.12; click declares >=3.10, so the argument is written with the other quote there.
  const utils = Deno.readTextFileSync(new URL("../../fixtures/real/click_utils.py", import.meta.url));
  const pyproject = '[project]\nname = "click"\nrequires-python = ">=3.10"\n';
  const ws = await workspaceOf({ "/pyproject.toml": pyproject, "/click/utils.py": utils });
  ok(
    await ws.call("edit_change_signature", {
      path: "click/utils.py",
      name_path: "_posixify",
      params: ["name", { name: "sep", value: '"-"' }],
    }),
  );
  const after = await textOf(ws, "click/utils.py");
  assert.ok(after.includes(`os.path.expanduser(f"~/.{_posixify(app_name, '-')}")`));
  assert.ok(
    after.includes(`        _posixify(app_name, "-"),\n`),
    "outside an f-string the text is as given",
  );
  const parsed = await new Deno.Command("python3.11", {
    args: ["-c", "import ast, sys; ast.parse(sys.stdin.read())"],
    stdin: "piped",
    stderr: "piped",
  }).spawn();
  const w = parsed.stdin.getWriter();
  await w.write(new TextEncoder().encode(after));
  await w.close();
  const out = await parsed.output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  // A value no quote can carry there is refused, naming the declared version; nothing is written.
  const ws2 = await workspaceOf({ "/pyproject.toml": pyproject, "/click/utils.py": utils });
  const res = await ws2.call("edit_change_signature", {
    path: "click/utils.py",
    name_path: "_posixify",
    params: ["name", { name: "sep", value: `"it's"` }],
  });
  assert.ok(!res.ok && res.error.code === "unsupported_call_site", JSON.stringify(res));
  assert.match(
    JSON.stringify(res.error),
    /needs Python 3\.12, and pyproject\.toml declares requires-python \\">=3\.10\\"/,
  );
  assert.equal(await textOf(ws2, "click/utils.py"), utils);
});
