/**
 * The compass router as a dispatch `route` step: it shows the compass each
 * top-level call (tool name and validated args), hands it the facts of the
 * files the call names (language, text, version, read through a fresh
 * stage), applies its decision — a reminder, or a substituted tool call that
 * dispatch validates again — and, after the call, reports the outcome to the
 * reminder providers. The plan ops of edit_dry_run are left alone.
 *
 * @module
 */
import type { Compass } from "../compass/compass.ts";
import type { CompassFiles, FileFacts, ShapeHunk } from "../compass/types.ts";
import { Stage } from "../fs/stage.ts";
import { HEAD_CHARS } from "../syntax/grammars.ts";
import { versionOf } from "../fs/version.ts";
import type { SymbolInfo } from "../syntax/types.ts";
import { bindingsEngine, parseEngine, symbolsEngine } from "./_lazy.ts";
import { findTool } from "./catalogue.ts";
import type { CallInProgress, PipelineStep, ToolHost, ToolResult } from "./types.ts";

/** The files an apply_edits text edits and its replacements per file, or undefined when it does not parse. */
async function editsOf(
  args: Record<string, unknown>,
): Promise<{ paths: string[]; hunks: Record<string, ShapeHunk[]> } | undefined> {
  const text = args["text"];
  if (typeof text !== "string") return undefined;
  const { parseEdits } = await parseEngine();
  try {
    const format = args["format"];
    const parsed = parseEdits(
      text,
      format === "search-replace" || format === "udiff" || format === "apply-patch" || format === "auto"
        ? { format }
        : {},
    );
    const hunks: Record<string, ShapeHunk[]> = {};
    for (const op of parsed.ops) {
      if (op.kind !== "edit") continue;
      const blocks = op.blocks.map((b) => ({ oldText: b.search.join("\n"), newText: b.replace.join("\n") }));
      (hunks[op.path] ??= []).push(...blocks);
    }
    return { paths: Object.keys(hunks), hunks };
  } catch {
    return undefined; // the handler refuses it, with its own message
  }
}

/**
 * What the compass may know of the host's files: each path resolved by the
 * sandbox's rules, read from the backend (not the call's stage), its
 * language and version.
 *
 * @param host The tool host.
 * @returns The facts provider (one stage per call, discarded by the caller).
 */
function filesOf(host: ToolHost): CompassFiles & { close(): void } {
  const stage = new Stage(host.fs, host.sandbox);
  return {
    async facts(path: string): Promise<FileFacts | null> {
      let rel: string;
      try {
        rel = await stage.resolve(path);
      } catch {
        return null; // outside the root or protected: the handler refuses it
      }
      let text: string | null = null;
      let version: string | null = null;
      try {
        const file = await stage.readText(rel);
        [text, version] = [file.text, file.version];
      } catch {
        // absent, binary or not decodable: no text to route on
      }
      const language = host.grammars?.languageOf(rel, text?.slice(0, HEAD_CHARS)) ?? null;
      const facts: FileFacts = { path: rel, language, text, version };
      if (language !== null && text !== null && version !== null) {
        facts.outline = (t) => outlineOrNull(host, rel, t === text ? version : null, t);
        facts.declarations = () => declarationsOrNull(host, { path: rel, language, version, text });
      }
      return facts;
    },
    close: () => stage.discard(),
  };
}

/**
 * The definitions of a text of one file (its version when it is the file's
 * own text: the parse cache then serves the parse the handler makes), or null
 * when the file's language has no outline.
 */
async function outlineOrNull(
  host: ToolHost,
  rel: string,
  version: string | null,
  text: string,
): Promise<SymbolInfo[] | null> {
  const { outlineOf } = await symbolsEngine();
  try {
    const v = version ?? await versionOf(new TextEncoder().encode(text));
    return (await outlineOf(host, rel, { text, version: v })).symbols;
  } catch {
    return null; // no grammar or no symbol query: the router cannot tell
  }
}

/** The names a file declares (its binding query's definitions), or null when its language has none. */
async function declarationsOrNull(
  host: ToolHost,
  file: { path: string; language: string; version: string; text: string },
): Promise<{ name: string; start: number; end: number }[] | null> {
  const { fileBindings } = await bindingsEngine();
  try {
    const fb = await fileBindings(host, file);
    return fb
      ? fb.occurrences.filter((o) => o.kind === "definition" || o.kind === "member_definition")
        .map((o) => ({ name: o.name, start: o.start, end: o.end }))
      : null;
  } catch {
    return null;
  }
}

/** The path a result concerns: the refusal's `details.path`, else the call's `path`. */
function pathOf(call: CallInProgress, result: ToolResult): string | undefined {
  const fromError = result.ok ? undefined : result.error.details?.["path"];
  if (typeof fromError === "string") return fromError;
  const data = result.ok ? result.data["path"] : undefined;
  if (typeof data === "string") return data;
  const arg = call.args["path"];
  return typeof arg === "string" ? arg : undefined;
}

/**
 * The compass as a pipeline step. Put it after the embedder's own route
 * steps (createWorkspace does), so it sees the call they leave.
 *
 * @param compass The workspace's compass.
 * @returns The `route` step.
 *
 * @example Suggest mode on a workspace
 * ```ts
 * import { createMemoryBackend, createWorkspace } from "@graver/core";
 * import { createWasmLoader } from "@graver/core/adapters/deno";
 * import assert from "node:assert/strict";
 *
 * const ws = await createWorkspace({
 *   backend: createMemoryBackend({ "/a.ts": "export const total = 1;\n" }),
 *   wasm: createWasmLoader(),
 *   compass: { mode: "suggest" },
 * });
 * const r = await ws.call("edit_file", { path: "a.ts", old_string: "total", new_string: "sum" });
 * assert.ok(r.ok && r.status === "applied");
 * assert.match(r.reminders[0]!.text, /edit_rename_symbol/);
 * ```
 */
export function compassStep(compass: Compass): PipelineStep {
  return {
    name: "compass",
    stage: "route",
    async run(call, host) {
      if (call.nested || !compass.listens(call.session)) return;
      // A freeform edit text (apply_edits' `text`) names its files inside: parse them for the router.
      const edits = call.tool.kind === "freeform_edit" ? await editsOf(call.args) : undefined;
      const files = filesOf(host);
      try {
        const out = await compass.route({
          tool: call.tool.name,
          ...(call.tool.kind ? { kind: call.tool.kind } : {}),
          args: call.args,
          session: call.session,
          ...(edits ? { editPaths: edits.paths, editHunks: edits.hunks } : {}),
        }, files);
        call.reminders.push(...out.reminders);
        const tool = out.rewrite ? findTool(out.rewrite.tool) : undefined;
        if (out.rewrite && tool) {
          call.tool = tool;
          call.args = out.rewrite.args;
        }
      } finally {
        files.close();
      }
    },
    after(call, result) {
      if (call.nested || !compass.listens(call.session)) return;
      const path = pathOf(call, result);
      const outcome: { session: string; tool: string; ok: boolean; code?: string; path?: string } = {
        session: call.session,
        tool: call.tool.name,
        ok: result.ok,
      };
      if (!result.ok) outcome.code = result.error.code;
      if (path !== undefined) outcome.path = path;
      // The result is the envelope the caller receives: reminders about its outcome travel with it.
      result.reminders.push(...compass.observe(outcome));
    },
  };
}
