/**
 * The definition gate as a dispatch step: a `review` step that judges what a
 * freeform text tool staged ({@linkcode judgeDefinitionEdit}) and refuses an
 * edit that rewrites, removes, adds or renames a definition with
 * `definition_gate`, naming the structural call that does the same. Only the
 * freeform text tools are gated — `edit_file` (the str_replace shape) and
 * `apply_edits` (SEARCH/REPLACE blocks, unified-diff hunks, `*** Begin Patch`)
 * — never `write_file`/`create_file` (a whole file is the ledger's business),
 * `edit_safe_text_patch` (the explicit text tool) or the structural tools. It
 * reads that from each tool's kind (`freeform_edit`), never from its name.
 * Every surface, and every op of an `edit_dry_run` plan, goes through it.
 *
 * Plug it into a workspace:
 *
 * ```ts ignore
 * const ws = await createWorkspace({ backend, wasm, steps: [definitionGate({ mode: "refuse" })] });
 * ```
 *
 * @module
 */
import type { DefinitionGateOptions } from "../guards/definition_gate.ts";
import { definitionGateEngine } from "./_lazy.ts";
import { afterVersionOf, decodedSide } from "../fs/change_facts.ts";
import { findTool, TOOLS } from "./catalogue.ts";
import type { PipelineStep, ToolDefinition } from "./types.ts";

/** What the gate does with a definition edit: refuse it, let it through with a warning, or not look. */
export type DefinitionGateMode = "refuse" | "warn" | "off";

/**
 * The catalogue's freeform text tools (kind `freeform_edit`), which the gate applies to by default.
 *
 * @deprecated The gate reads each tool's kind instead of this list; kept for embedders that build a
 * `tools` option from it.
 */
export const FREEFORM_TEXT_TOOLS: readonly string[] = Object.freeze(
  TOOLS.filter((t) => t.kind === "freeform_edit").map((t) => t.name),
);

/** Whether the gate judges a tool: one of `names` when the embedder listed them, else a freeform edit. */
function gated(tool: ToolDefinition | undefined, names: ReadonlySet<string> | null, name: string): boolean {
  return names ? names.has(name) : tool?.kind === "freeform_edit";
}

/** Options of {@linkcode definitionGate}. */
export interface DefinitionGateStepOptions extends DefinitionGateOptions {
  /** "refuse" (default), "warn" (a warning on the result, the edit lands) or "off". */
  mode?: DefinitionGateMode;
  /** The tools to gate, by name (default: every tool of kind `freeform_edit`). */
  tools?: readonly string[];
  /**
   * Judge only calls that name a session (`CallInProgress.explicitSession`) or ask for the gate
   * (`gate` per call): the workspace's built-in gate. Default false: every call.
   */
  sessionsOnly?: boolean;
}

/**
 * A `review` step applying the definition gate to the freeform text tools.
 * Each trigger counts `graver.guard.triggers` (the read guard's counter) with
 * `reason: "definition_gate"`, `outcome`, `language` and `tool` — and, under its
 * first name, `graver.guard.triggered` with `mode` instead of `outcome`.
 *
 * @param options Mode (default "refuse"), the tools gated, the rename tool to suggest.
 * @returns The step, for `createWorkspace({ steps })`.
 *
 * @example Refuse a function removed through edit_file
 * ```ts
 * import { createMemoryBackend, createWorkspace } from "@graver/core";
 * import { definitionGate } from "./definition_gate_step.ts";
 * import { createWasmLoader } from "@graver/core/adapters/deno";
 * import assert from "node:assert/strict";
 *
 * const ws = await createWorkspace({
 *   backend: createMemoryBackend({ "/a.py": "def f():\n    return 1\n\n\ndef g():\n    return 2\n" }),
 *   wasm: createWasmLoader(),
 *   steps: [definitionGate({ mode: "refuse" })],
 * });
 * const res = await ws.call("edit_file", {
 *   path: "a.py",
 *   old_string: "\n\ndef g():\n    return 2\n",
 *   new_string: "",
 * });
 * assert.ok(!res.ok && res.error.code === "definition_gate");
 * assert.deepEqual(res.error.suggested_call, { tool: "remove_symbol", args: { path: "a.py", name_path: "g" } });
 * ```
 */
export function definitionGate(options: DefinitionGateStepOptions = {}): PipelineStep {
  const base = options.mode ?? "refuse";
  const names = options.tools ? new Set(options.tools) : null;
  const judging: DefinitionGateOptions = options.renameTool === undefined
    ? {}
    : { renameTool: options.renameTool };
  return {
    name: "definition_gate",
    stage: "review",
    async run(call, host) {
      // the tool the agent called counts too: a route step's substitute (compass rewrite) is still gated
      const mode = call.gate ?? (options.sessionsOnly && !call.explicitSession ? "off" : base);
      if (mode === "off") return;
      const called = findTool(call.calledTool);
      if (!gated(call.tool, names, call.tool.name) && !gated(called, names, call.calledTool)) return;
      for (const change of call.changes) {
        // a new file, a deleted one or a whole-file write is not a definition edit
        if (change.before === null || change.after === null) continue;
        let before: string;
        let after: string;
        try {
          before = decodedSide(change, "before").text;
          after = decodedSide(change, "after").text;
        } catch {
          continue; // binary or not UTF-8: the text tools refuse those themselves
        }
        const { definitionGateError, judgeDefinitionEdit } = await definitionGateEngine();
        const verdict = await judgeDefinitionEdit(host, {
          path: change.path,
          before,
          after,
          ...(change.baseVersion !== null ? { beforeVersion: change.baseVersion } : {}),
          afterVersion: await afterVersionOf(change),
        }, judging);
        if (verdict.findings.length === 0) continue;
        const attrs = {
          reason: "definition_gate",
          language: verdict.language ?? "none",
          tool: call.calledTool,
        };
        // One counter for every guard (the read guard's name), plus the gate's first name, kept for dashboards.
        host.telemetry.counter("graver.guard.triggers", 1, {
          ...attrs,
          outcome: mode === "refuse" ? "refused" : "warned",
        });
        host.telemetry.counter("graver.guard.triggered", 1, { ...attrs, mode });
        const err = definitionGateError(verdict, { tool: call.calledTool });
        if (mode === "refuse") throw err;
        call.warnings.push(
          `${err.message} (definition gate in warn mode: the edit was applied). ${err.hint}`,
        );
      }
    },
  };
}
