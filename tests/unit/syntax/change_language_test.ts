import assert from "node:assert/strict";
import { changeLanguage } from "../../../src/syntax/change_language.ts";
import type { PendingChange } from "../../../src/fs/stage.ts";
import { GRAMMARS } from "../structural/_fixtures.ts";

const change = (path: string, after: Uint8Array | null): PendingChange => ({
  path,
  baseVersion: null,
  before: null,
  after,
});
const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("changeLanguage() names the grammar of a change's new text: by name, else by its first line", () => {
  const ws = { grammars: GRAMMARS } as never;
  assert.deepEqual(changeLanguage(ws, change("src/a.ts", bytes("let a = 1;\n"))), {
    language: "typescript",
    text: "let a = 1;\n",
  });
  assert.equal(
    changeLanguage(ws, change("bin/tool", bytes("#!/usr/bin/env python3\nprint(1)\n")))?.language,
    "python",
  );
});

Deno.test("changeLanguage() gives nothing to parse for a deletion, binary bytes, an unknown file or no grammars", () => {
  const ws = { grammars: GRAMMARS } as never;
  assert.equal(changeLanguage(ws, change("a.ts", null)), null);
  assert.equal(changeLanguage(ws, change("a.ts", new Uint8Array([0, 159, 146, 150]))), null);
  assert.equal(changeLanguage(ws, change("notes.unknownext", bytes("text\n"))), null);
  assert.equal(changeLanguage({ grammars: undefined } as never, change("a.ts", bytes("x\n"))), null);
});
