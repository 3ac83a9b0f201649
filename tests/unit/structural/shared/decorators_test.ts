import assert from "node:assert/strict";
import { RecoverableError } from "../../../../src/errors.ts";
import { versionOf } from "../../../../src/fs/version.ts";
import { fileBindings } from "../../../../src/syntax/bindings.ts";
import {
  refuseRegisteringDecorators,
  registeringDecorator,
} from "../../../../src/structural/shared/decorators.ts";
import { GRAMMARS, workspaceWith } from "../_fixtures.ts";

const TEXT = [
  "import functools",
  "from app import registry",
  "",
  "@functools.lru_cache(maxsize=8)",
  "def cached(x):",
  "    return x",
  "",
  "@registry.rule",
  "def ruled(x):",
  "    return x",
  "",
].join("\n");

async function sourceOf(text: string) {
  const ws = await workspaceWith({ "m.py": text });
  const fb = await fileBindings(ws, {
    path: "m.py",
    language: "python",
    version: await versionOf(new TextEncoder().encode(text)),
    text,
  });
  const parser = await GRAMMARS.parser("python");
  const root = parser.parse(text)!.rootNode;
  const spanOf = (name: string) => {
    const def = root.descendantsOfType("decorated_definition").find((d) => d?.text.includes(`def ${name}`))!;
    return { fullStart: def.startIndex, fullEnd: def.endIndex };
  };
  return { source: { rel: "m.py", text, language: "python", root }, fb: fb!, spanOf, parser };
}

Deno.test("registeringDecorator() lets a known wrapper through and names one that may register its function", async () => {
  const { source, fb, spanOf, parser } = await sourceOf(TEXT);
  const inWorkspace = (module: string) => module === "app";
  assert.equal(registeringDecorator(source, fb, { spans: [spanOf("cached")], inWorkspace }), null);
  assert.deepEqual(registeringDecorator(source, fb, { spans: [spanOf("ruled")], inWorkspace }), {
    written: "@registry.rule",
    line: 8,
    own: true,
  });
  parser.delete();
});

Deno.test("refuseRegisteringDecorators() refuses the move with the decorator's line", async () => {
  const { source, fb, spanOf, parser } = await sourceOf(TEXT);
  assert.throws(
    () =>
      refuseRegisteringDecorators(source, fb, {
        name: "ruled",
        spans: [spanOf("ruled")],
        inWorkspace: () => true,
      }),
    (e: unknown) =>
      e instanceof RecoverableError && e.code === "value_reference" && /@registry\.rule/.test(e.message),
  );
  parser.delete();
});
