/**
 * `graver call TOOL [ARGS|-]`: one tool call through dispatch, its
 * ToolResult printed as one JSON object (the stable contract harnesses use).
 * With `--session` the call belongs to a session whose ledger persists in
 * `.graver/sessions/`. Registered at module load.
 *
 * @module
 */
import { withCommandPool } from "./_cli_pool.ts";
import type { DispatchOptions } from "../tools/dispatch.ts";
import type { ToolResult } from "../tools/types.ts";
import { exitCodeOf, printJson, registerCliCommand, usageError, WORKSPACE_FLAGS } from "./cli.ts";
import { loadSession, saveSession, sessionCallOptions, sessionFlagsProblem } from "./cli_session.ts";

registerCliCommand({
  name: "call",
  synopsis: "call <tool> ['<json args>'|-] [--root DIR] [--session ID] [--guard MODE] [--dry-run]",
  summary: "Run one tool through dispatch and print its ToolResult as one JSON object",
  details: `
The args are one JSON object (quote it as one argument), or "-" to read it from stdin; without them, {}.
"graver tools" lists the tools; "graver tools NAME" shows one tool's arguments.
With --session ID the call belongs to a session whose read ledger persists in .graver/sessions/ID.json:
an edit of lines the session never read is refused (unread_range, with those lines' content, which then
count as read: the same call again succeeds). --guard warn|off relaxes it (docs/safety.md).`,
  flags: {
    ...WORKSPACE_FLAGS,
    "dry-run": { kind: "boolean", help: "stage and check, write nothing; the result has the diffs" },
    json: { kind: "boolean", help: "accepted everywhere; call always prints one JSON object" },
  },
  maxPositional: 2,
  async run({ flags, positional, host, open }) {
    const sessionProblem = sessionFlagsProblem(flags);
    if (sessionProblem) return usageError(host, "call", { message: sessionProblem });
    const [tool, json] = positional;
    if (!tool) {
      return usageError(host, "call", {
        message: "missing tool name",
        hint: 'Run "graver tools" to list them',
      });
    }
    let args: unknown = {};
    if (json !== undefined) {
      const text = json === "-" ? await host.readStdin() : json;
      try {
        args = JSON.parse(text);
      } catch (err) {
        return usageError(host, "call", {
          message: `args are not valid JSON (${err instanceof Error ? err.message : String(err)})`,
          hint: `Pass one JSON object as one argument, e.g. graver call ${tool} '{"path":"a.ts"}'`,
        });
      }
    }
    const call = async (opener: typeof open) => {
      const ws = await opener(flags["root"] as string | undefined);
      const options: DispatchOptions = sessionCallOptions(flags);
      if (flags["dry-run"]) options.dryRun = true;
      if (options.session !== undefined) await loadSession(ws, options.session);
      const result: ToolResult = await ws.call(tool, args, options);
      if (options.session !== undefined) await saveSession(ws, options.session);
      printJson(host, result);
      return exitCodeOf(result);
    };
    // A structural search or rewrite parses in a pool as `graver sg` does.
    return POOLED_TOOLS.has(tool) ? await withCommandPool({ host, open }, call) : await call(open);
  },
});

/** The tools that match a pattern over many files, and parse them in the host's pool where it has one. */
const POOLED_TOOLS: ReadonlySet<string> = new Set(["search_structural", "edit_rewrite_structural"]);
