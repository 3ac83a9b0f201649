/** Shared set-up for the structural tests: real fixture files in an in-memory workspace. @module */
import assert from "node:assert/strict";
import {
  createMemoryBackend,
  createWorkspace,
  Grammars,
  type ToolResult,
  type Workspace,
} from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { fixtureUrl } from "../../_helpers.ts";
import { Stage } from "../../../src/fs/stage.ts";
import { ProjectFiles } from "../../../src/structural/shared/project_files.ts";

/** One grammar registry for every test (wasm loads once). */
export const GRAMMARS = new Grammars(createWasmLoader());

/** The text of a fixture file (tests/fixtures/real/<name> or tests/fixtures/structural/<name>). */
export function fixture(name: string): string {
  return Deno.readTextFileSync(fixtureUrl("structural", name));
}

/** A workspace holding `files` (path -> text) at its root. */
export function workspaceWith(files: Record<string, string | Uint8Array>): Promise<Workspace> {
  const backend = createMemoryBackend(
    Object.fromEntries(Object.entries(files).map(([k, v]) => [`/${k}`, v])),
  );
  return createWorkspace({ backend, grammars: GRAMMARS });
}

/** A workspace holding the named fixtures (optionally transformed, e.g. to CRLF). */
export function fixtureWorkspace(
  names: string[],
  transform: (t: string) => string = (t) => t,
): Promise<Workspace> {
  return workspaceWith(Object.fromEntries(names.map((n) => [n, transform(fixture(n))])));
}

/** The current text of a file in the workspace store. */
export async function stored(ws: Workspace, path: string): Promise<string> {
  const bytes = await ws.fs.read(`/${path}`);
  assert.ok(bytes, `"${path}" is missing`);
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
}

/** The data of a successful result (fails the test otherwise). */
export function ok(r: ToolResult): Record<string, unknown> {
  assert.ok(r.ok, JSON.stringify(r, null, 1));
  return r.data;
}

/** The error of a refused result (fails the test otherwise). */
export function refused(r: ToolResult): NonNullable<Extract<ToolResult, { ok: false }>["error"]> {
  assert.ok(!r.ok, `expected a refusal, got ${JSON.stringify(r).slice(0, 400)}`);
  assert.ok(r.error.hint.length > 0, "every refusal says what to do next");
  return r.error;
}

/** A project (files, bindings, module resolution) over a memory workspace holding `files`, opened. */
export async function projectOf(files: Record<string, string>): Promise<ProjectFiles> {
  const ws = await workspaceWith(files);
  const project = new ProjectFiles(ws, new Stage(ws.fs, ws.sandbox));
  await project.open();
  return project;
}
