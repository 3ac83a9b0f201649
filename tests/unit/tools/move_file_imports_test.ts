import assert from "node:assert/strict";
import { snapshot } from "../../_helpers.ts";
import {
  assertSameTargets,
  type Files,
  pythonEmail,
  rxjsCjs,
  storedFiles,
} from "../structural/_module_check.ts";
import { ok, workspaceOf } from "./_bindings_fixtures.ts";

function prefixed(files: Files): Files {
  return Object.fromEntries(Object.entries(files).map(([k, v]) => [`/${k}`, v]));
}

async function runIn(files: Files, cmd: string[], cwdFile = ""): Promise<string> {
  const dir = await Deno.makeTempDir();
  try {
    for (const [p, t] of Object.entries(files)) {
      await Deno.mkdir(`${dir}/${p.slice(0, p.lastIndexOf("/") + 1)}`, { recursive: true });
      await Deno.writeTextFile(`${dir}/${p}`, t);
    }
    const out = await new Deno.Command(cmd[0]!, {
      args: cmd.slice(1),
      cwd: `${dir}/${cwdFile}`,
      env: { PYTHONPATH: dir },
    })
      .output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.ok(out.success, text);
    return text;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("move_file() on rxjs's CommonJS build: every require of a deep file follows it, and rxjs still runs", async () => {
  const before = rxjsCjs();
  const ws = await workspaceOf(prefixed(before));
  const from = "rxjs/internal/util/isFunction.js";
  const to = "rxjs/internal/helpers/predicates/isFunction.js";
  const res = ok(await ws.call("move_file", { from, to }));
  const imports = res.data["imports"] as {
    updated: { path: string }[];
    files: string[];
    unresolved: unknown[];
  };
  assert.deepEqual(imports.unresolved, []);
  assert.ok(imports.files.length >= 20, `${imports.files.length} files`);
  const paths = Object.keys(before).filter((p) => p !== from).concat([to]);
  const after = await storedFiles(ws, paths);
  await assertSameTargets(before, after, { [from]: to });
  assert.match(
    after["rxjs/internal/util/isScheduler.js"]!,
    /require\("\.\.\/helpers\/predicates\/isFunction"\)/,
  );
  assert.match(after[to]!, /^"use strict";/);
  const out = await runIn(after, [
    "node",
    "-e",
    'const r = require("./rxjs/index.js"); r.of(1, 2, 3).pipe(r.map((x) => x * 2), r.filter((x) => x > 2)).subscribe((x) => console.log(x));',
  ]);
  assert.equal(out, "4\n6\n");
});

Deno.test("move_file() on Python's email package: from-imports, import email.x chains, and python3 still runs it", async () => {
  const before = pythonEmail();
  const ws = await workspaceOf(prefixed(before));
  const from = "email/charset.py";
  const to = "email/codecs/charset.py";
  const res = ok(await ws.call("move_file", { from, to }));
  const imports = res.data["imports"] as { unresolved: unknown[] };
  assert.deepEqual(imports.unresolved, []);
  const paths = Object.keys(before).filter((p) => p !== from).concat([to]);
  const after = await storedFiles(ws, paths);
  await assertSameTargets(before, after, { [from]: to });
  assert.match(after["email/message.py"]!, /^from email\.codecs import charset as _charset$/m);
  assert.match(after["email/utils.py"]!, /^from email\.codecs\.charset import Charset$/m);
  const cm = after["email/contentmanager.py"]!;
  assert.match(cm, /^import email\.codecs\.charset$/m);
  assert.ok(!/email\.charset/.test(cm), "every email.charset chain follows the module");
  const out = await runIn(after, [
    "python3",
    "-c",
    [
      "import email, email.message, email.policy",
      "assert email.__file__.startswith(__import__('os').environ['PYTHONPATH'])",
      "m = email.message.EmailMessage(policy=email.policy.default)",
      "m['Subject'] = 'héllo'",
      "m.set_content('body é')",
      "print(m.get_content_charset(), 'Subject' in m.as_string())",
    ].join("\n"),
  ]);
  assert.equal(out, "utf-8 True\n");
});
