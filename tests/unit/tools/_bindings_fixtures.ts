/**
 * Shared set-up for the find_references and edit_rename_symbol tests: real
 * code bases in memory workspaces — rxjs@7.8.2's TypeScript sources (from
 * node_modules/rxjs/src, a pinned dependency) and node-gyp@11.4.2's `gyp`
 * Python package (tests/fixtures/bindings/gyp) — and a check that an edited
 * file parses with no more errors than before.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../../../src/fs/memory_backend.ts";
import { Grammars } from "../../../src/syntax/grammars.ts";
import { syntaxProblems } from "../../../src/syntax/trees.ts";
import type { ToolResult } from "../../../src/tools/types.ts";
import { createWorkspace, type Workspace } from "../../../src/workspace.ts";

/** One grammar registry for every test. */
export const GRAMMARS = new Grammars(createWasmLoader());

function readTree(dir: URL, prefix: string, out: Record<string, string>): void {
  for (const e of Deno.readDirSync(dir)) {
    if (e.isDirectory) readTree(new URL(`${e.name}/`, dir), `${prefix}${e.name}/`, out);
    else if (/\.(ts|py)$/.test(e.name)) {
      out[`/${prefix}${e.name}`] = Deno.readTextFileSync(new URL(e.name, dir));
    }
  }
}

/** rxjs@7.8.2's `src/` (251 .ts files), path -> text. */
export const RXJS: Record<string, string> = {};
readTree(new URL("../../../node_modules/rxjs/src/", import.meta.url), "", RXJS);

/** node-gyp@11.4.2's `gyp/pylib/gyp/` subset, as the package `gyp/`. */
export const GYP: Record<string, string> = {};
readTree(new URL("../../fixtures/bindings/gyp/", import.meta.url), "gyp/", GYP);
// The package's MSVSUserFile.py is kept once, with the other real files (tests/fixtures/real).
GYP["/gyp/MSVSUserFile.py"] = Deno.readTextFileSync(
  new URL("../../fixtures/real/MSVSUserFile.py", import.meta.url),
);

/**
 * zod@4.6.7's v4 sources (core, classic, mini; their tests left out), as `src/v4/...`: a code base that
 * reaches a module through a namespace re-export (`export * as util from "./util.js"` in core/index.ts,
 * then `import { util } from "../core/index.js"` and `util.normalizeParams(...)`), with `.js` specifiers.
 */
export const ZOD: Record<string, string> = {};
{
  const root = new URL("../../../node_modules/.deno/zod@4.6.7/node_modules/zod/src/v4/", import.meta.url);
  for (const part of ["core", "classic", "mini"]) {
    const all: Record<string, string> = {};
    readTree(new URL(`${part}/`, root), `src/v4/${part}/`, all);
    for (const [k, v] of Object.entries(all)) if (!k.includes("/tests/")) ZOD[k] = v;
  }
}

/** A workspace over `files` (memory backend) plus extra files. */
export function workspaceOf(
  files: Record<string, string>,
  extra: Record<string, string> = {},
): Promise<Workspace> {
  const more = Object.fromEntries(Object.entries(extra).map(([k, v]) => [`/${k}`, v]));
  return createWorkspace({ backend: createMemoryBackend({ ...files, ...more }), grammars: GRAMMARS });
}

/** The text of a file in a workspace. */
export async function textOf(ws: Workspace, path: string): Promise<string> {
  return new TextDecoder().decode((await ws.fs.read(`/${path}`))!);
}

/** The result, failing the test when it is not ok. */
export function ok(res: ToolResult): ToolResult & { ok: true } {
  if (!res.ok) assert.fail(`${res.tool} failed: ${JSON.stringify(res.error)}`);
  return res as ToolResult & { ok: true };
}

/** Assert that `after` parses with no more syntax problems than `before`. */
export async function assertReparses(
  language: string,
  before: string,
  after: string,
  path: string,
): Promise<void> {
  const parser = await GRAMMARS.parser(language);
  try {
    const a = parser.parse(before)!;
    const b = parser.parse(after)!;
    const n = (t: typeof a) => syntaxProblems(t.rootNode, 1000).length;
    assert.ok(n(b) <= n(a), `${path}: ${n(b)} syntax problems after the rename, ${n(a)} before`);
    a.delete();
    b.delete();
  } finally {
    parser.delete();
  }
}
