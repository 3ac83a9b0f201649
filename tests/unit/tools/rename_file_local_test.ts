import assert from "node:assert/strict";
import { assertReparses, ok, textOf, workspaceOf } from "./_bindings_fixtures.ts";
import { edited, sample } from "./_language_fixtures.ts";

type Files = { path: string; references: { line: number; column: number }[] }[];

function fixture(rel: string): string {
  return Deno.readTextFileSync(new URL(`../../fixtures/${rel}`, import.meta.url));
}

/** Every "line:column" of a result's `files`, in order. */
function sites(files: unknown): string[] {
  return (files as Files).flatMap((f) => f.references.map((r) => `${r.line}:${r.column}`));
}

/** Rename in a one-file workspace (plus `extra` files) and return the result and the new text. */
async function rename(
  path: string,
  text: string,
  args: Record<string, unknown>,
  extra: Record<string, string> = {},
) {
  const ws = await workspaceOf({ [`/${path}`]: text }, extra);
  const res = await ws.call("edit_rename_symbol", { path, ...args });
  return { res, after: await textOf(ws, path), ws };
}

const JAVA = sample("java", "NativeSafeAreaContextSpec.java");
const CS = sample("c_sharp", "Find-VisualStudio.cs");
const C = sample("c", "scanner.c");
const CPP = fixture("bindings/cpp/extension.cpp");
const KOTLIN = sample("kotlin", "SafeAreaProvider.kt");
const RUBY = fixture("real/native_modules.rb");
const PHP = fixture("bindings/php/RequestLogIterator.php");

Deno.test("edit_rename_symbol() renames a Java local and leaves its look-alikes in strings alone", async () => {
  const { res, after } = await rename("Spec.java", JAVA, {
    target: { line: 40, column: 19 },
    new_name: "extraConstants",
  });
  ok(res);
  const lines = [40, 41, 42, 43, 45, 47, 48, 49, 51];
  const cols: Record<number, number> = { 40: 19, 43: 12, 45: 79, 49: 12, 51: 74 };
  assert.equal(
    after,
    edited(JAVA, lines.map((l) => [l, cols[l] ?? 7, "undeclaredConstants", "extraConstants"])),
  );
  await assertReparses("java", JAVA, after, "Spec.java");
});

Deno.test("edit_rename_symbol() renames a Java method in its file when no other Java file names it; refuses project scope when one does", async () => {
  const target = "NativeSafeAreaContextSpec/getTypedExportedConstants";
  const alone = await rename("Spec.java", JAVA, { target, new_name: "typedConstants" });
  ok(alone.res);
  assert.equal(
    alone.after,
    edited(JAVA, [[31, 42, "getTypedExportedConstants", "typedConstants"], [
      36,
      37,
      "getTypedExportedConstants",
      "typedConstants",
    ]]),
  );
  const other = { "Impl.java": "class Impl { Object getTypedExportedConstants() { return null; } }\n" };
  const refused = await rename("Spec.java", JAVA, { target, new_name: "typedConstants" }, other);
  assert.ok(
    !refused.res.ok && refused.res.error.code === "unsupported_language",
    JSON.stringify(refused.res),
  );
  assert.match(refused.res.error.message, /within one file only.*Impl\.java/);
  assert.deepEqual(refused.res.error.suggested_call?.args["scope"], "file");
  assert.equal(refused.after, JAVA, "a refused call writes nothing");
  const fileOnly = await rename(
    "Spec.java",
    JAVA,
    { target, new_name: "typedConstants", scope: "file" },
    other,
  );
  const data = ok(fileOnly.res).data;
  assert.equal(fileOnly.after, alone.after);
  assert.deepEqual(data["other_files_with_name"], ["Impl.java"]);
  assert.equal(await textOf(fileOnly.ws, "Impl.java"), other["Impl.java"]);
});

Deno.test("find_references() in C#: a local, not the interface parameter of the same name", async () => {
  const ws = await workspaceOf({ "/Find.cs": CS });
  const local = ok(await ws.call("find_references", { path: "Find.cs", target: { line: 197, column: 31 } }));
  assert.deepEqual(sites(local.data["files"]), ["197:31", "201:27", "210:48"]);
  const method = ok(await ws.call("find_references", { path: "Find.cs", target: "Main/JsonString" }));
  assert.deepEqual(sites(method.data["files"]), ["219:31", "232:27", "235:30", "241:29"]);
  const { res, after } = await rename("Find.cs", CS, { target: "Main/JsonString", new_name: "Quote" });
  ok(res);
  assert.equal(
    after,
    edited(CS, [[219, 31, "JsonString", "Quote"], [232, 27, "JsonString", "Quote"], [
      235,
      30,
      "JsonString",
      "Quote",
    ], [
      241,
      29,
      "JsonString",
      "Quote",
    ]]),
  );
  await assertReparses("c_sharp", CS, after, "Find.cs");
});

Deno.test("edit_rename_symbol() in C: a static function, not the struct member of the same name; macros refuse", async () => {
  const { res, after } = await rename("scanner.c", C, { target: { line: 11, column: 20 }, new_name: "step" });
  const data = ok(res).data;
  assert.equal(data["renamed"], 7, "the declaration and six calls");
  assert.ok(after.includes("static inline void step(TSLexer *lexer) { lexer->advance(lexer, false); }"));
  assert.equal((after.match(/lexer->advance\(/g) ?? []).length, 2, "the member keeps its name");
  assert.equal((after.match(/\bstep\(lexer\);/g) ?? []).length, 6);
  await assertReparses("c", C, after, "scanner.c");
  const param = await rename("scanner.c", C, { target: { line: 23, column: 68 }, new_name: "lx" });
  ok(param.res);
  assert.ok(param.after.includes("static inline void skip(TSLexer *lexer) {"), "other functions' lexer");
  assert.ok(param.after.includes("bool tree_sitter_css_external_scanner_scan(void *payload, TSLexer *lx,"));
  assert.ok(!/\blexer\b/.test(param.after.slice(param.after.indexOf("TSLexer *lx,"))));
  const macro = await rename("scanner.c", `${C}\n#define SKIP_ALL(l) skip(l)\n`, {
    target: { line: 13, column: 20 },
    new_name: "skip_one",
  });
  assert.ok(!macro.res.ok && macro.res.error.code === "unresolved", JSON.stringify(macro.res));
  assert.match(macro.res.error.message, /macro defined on line 102/);
});

Deno.test("edit_rename_symbol() in C++: a member through this->, its constructor initialiser and declaration", async () => {
  const { res, after } = await rename("extension.cpp", CPP, {
    target: { line: 53, column: 16 },
    new_name: "m_ref",
  });
  ok(res);
  assert.equal(
    after,
    edited(CPP, [[41, 32, "m_obj", "m_ref"], [42, 25, "m_obj", "m_ref"], [46, 25, "m_obj", "m_ref"], [
      50,
      54,
      "m_obj",
      "m_ref",
    ], [53, 15, "m_obj", "m_ref"]]),
  );
  await assertReparses("cpp", CPP, after, "extension.cpp");
  const cls = await rename("extension.cpp", CPP, { target: "StrongRef", new_name: "OwnedRef" });
  const data = ok(cls.res).data;
  assert.equal(data["renamed"], 4, "class, constructor, destructor, use");
  assert.ok(cls.after.includes("~OwnedRef() {"));
  assert.ok(cls.after.includes("// gh-92898: StrongRef doesn't inherit"), "comments are left alone");
});

Deno.test("edit_rename_symbol() in Kotlin, Ruby and PHP: locals and private members", async () => {
  const kt = await rename("SafeAreaProvider.kt", KOTLIN, {
    target: { line: 33, column: 9 },
    new_name: "bounds",
  });
  ok(kt.res);
  assert.equal(
    kt.after,
    edited(KOTLIN, [[33, 9, "frame", "bounds"], [35, 52, "frame", "bounds"], [41, 11, "frame", "bounds"], [
      44,
      20,
      "frame",
      "bounds",
    ]]),
  );
  const rb = await rename("native_modules.rb", RUBY, {
    target: { line: 43, column: 3 },
    new_name: "pods_found",
  });
  ok(rb.res);
  assert.equal((rb.after.match(/\bfound_pods\b/g) ?? []).length, 0);
  assert.ok(rb.after.includes('"module".pluralize(pods_found.size)'), "code in an interpolation is renamed");
  await assertReparses("ruby", RUBY, rb.after, "native_modules.rb");
  const php = await rename("RequestLogIterator.php", PHP, {
    target: { line: 43, column: 12 },
    new_name: "cursor",
  });
  const data = ok(php.res).data;
  assert.equal(data["renamed"], 8);
  assert.ok(php.after.includes("  private $cursor = 0;"));
  assert.ok(php.after.includes("$this->response->getLog($this->cursor)"));
  assert.ok(php.after.includes("// Remember start position"), "comments are left alone");
  await assertReparses("php", PHP, php.after, "RequestLogIterator.php");
});
