/**
 * `graver apply [FILE|-] [--root DIR] [--format auto|search-replace|udiff|apply-patch]
 * [--dry-run] [--partial] [--fuzzy] [--json] [--stream [--stop-on-refusal]]`: apply a model's
 * edit response from a file or stdin through `apply_edits`. Prints a summary, or exactly one
 * JSON object with `--json`; with `--stream`, each block as it is decided (`cli_stream.ts`). Exit codes as `graver call`: 0 applied, 1 refused
 * (nothing written), 2 usage error (an empty input included), 3 applied in
 * part (`--partial` with failed blocks). Registered at module load.
 *
 * @module
 */
import type { ToolResult } from "../tools/types.ts";
import type { DispatchOptions } from "../tools/dispatch.ts";
import { loadSession, saveSession, sessionCallOptions, sessionFlagsProblem } from "./cli_session.ts";
import {
  type CliInvocation,
  exitCodeOf,
  registerCliCommand,
  resolveRoot,
  usageError,
  WORKSPACE_FLAGS,
} from "./cli.ts";
import { type Paint, paintDiff, painter } from "./cli_output.ts";

const FORMATS = ["auto", "search-replace", "udiff", "apply-patch"];

interface BlockLine {
  block: number;
  path: string;
  status: string;
  tier?: string;
  confidence?: string;
  lines?: { start: number; end: number };
  error?: { code: string; message: string; details?: Record<string, unknown> };
}

/**
 * A short human summary of an apply_edits result.
 *
 * @param result The result.
 * @param paint Styles for the diffs (default: none).
 * @returns Lines ending in a newline.
 */
export function summarizeApply(result: ToolResult, paint: Paint = painter({})): string {
  const out: string[] = [];
  if (result.ok) {
    const blocks = (result.data["blocks"] as BlockLine[] | undefined) ?? [];
    const verb = result.status === "dry_run"
      ? "would apply"
      : result.status === "no_change"
      ? "no change from"
      : "applied";
    out.push(
      `${verb} ${
        blocks.filter((b) => b.status === "applied").length
      } block(s) to ${result.changes.length} file(s)`,
    );
    for (const b of blocks) {
      const where = b.lines ? `:${b.lines.start}-${b.lines.end}` : "";
      out.push(
        b.status === "applied"
          ? `  block ${b.block} ${b.path}${where} ${b.tier} (${b.confidence})`
          : `  block ${b.block} ${b.path} FAILED ${b.error?.code}: ${b.error?.message}`,
      );
    }
    for (const w of result.warnings) out.push(`warning: ${w}`);
    for (const c of result.changes) out.push(paintDiff(c.diff.trimEnd(), paint));
  } else {
    out.push(`error ${result.error.code}: ${result.error.message}`);
    out.push(`hint: ${result.error.hint}`);
    const dym = result.error.details?.["did_you_mean"] as { diff?: string } | undefined;
    if (dym?.diff) out.push(paintDiff(dym.diff, paint));
  }
  return out.join("\n") + "\n";
}

/** `apply --stream`: the response fed to an edit stream as it comes (from stdin) or line by line (a FILE). */
async function streamApply(
  { flags, positional, host, open }: Pick<CliInvocation, "flags" | "positional" | "host" | "open">,
  format: string,
): Promise<number> {
  const source = positional[0] ?? "-";
  let text: string | undefined;
  if (source !== "-") {
    try {
      text = await host.readHostFile(resolveRoot(host.cwd, source));
    } catch (err) {
      return usageError(host, "apply", {
        message: `cannot read "${source}" (${err instanceof Error ? err.message : String(err)})`,
      });
    }
  }
  const ws = await open(flags["root"] as string | undefined);
  const args: Record<string, unknown> = { format };
  if (flags["partial"]) args["partial"] = true;
  if (flags["fuzzy"]) args["fuzzy"] = true;
  const dispatch: DispatchOptions = sessionCallOptions(flags, true);
  if (flags["dry-run"]) dispatch.dryRun = true;
  if (dispatch.session !== undefined) await loadSession(ws, dispatch.session);
  // The stream feed loads with the command that feeds one, not with every other command.
  const { runStreamApply } = await import("./cli_stream.ts");
  const code = await runStreamApply({
    host,
    ws,
    tool: "apply_edits",
    args,
    dispatch,
    stopOnRefusal: flags["stop-on-refusal"] === true,
    json: flags["json"] === true,
    ...(text !== undefined ? { text } : {}),
    summarize: summarizeApply,
  });
  if (dispatch.session !== undefined) await saveSession(ws, dispatch.session);
  return code;
}

registerCliCommand({
  name: "apply",
  synopsis:
    "apply [FILE|-] [--root DIR] [--session ID] [--guard MODE] [--format auto|search-replace|udiff|apply-patch] [--dry-run] [--partial] [--fuzzy] [--json] [--stream [--stop-on-refusal]]",
  summary:
    "Apply a model's edit response (SEARCH/REPLACE blocks, a unified diff or a *** Begin Patch envelope)",
  details: `
Reads the response from FILE, or from stdin ("-", the default), and runs it through the apply_edits tool:
all blocks or none, unless --partial. Without --json it prints a line per block (file, lines, matching
tier, confidence) and the diffs; with --json exactly one JSON object (the ToolResult, whose data.blocks
says per block "applied" or "failed" with the error's code).
With --partial, blocks that fail are skipped and the others land: exit 3 when any failed.
A block that only the low-confidence fuzzy tier can place fails (its window is the did-you-mean) unless
--fuzzy: such a block is usually written against an older version of the code.
With --session ID the session's read ledger (.graver/sessions/ID.json) records what the edits wrote; the
read guard stays off for a response written for another harness unless --guard warn|refuse asks for it.
With --stream it reads stdin as it comes (pipe a model's output straight in) and reports each block as soon
as it is decided: a line per event ("✓ block 1 placed at a.ts:10-14 (exact)"), or with --json one JSON
object per line per event and the result last ({"type": "result", "result": {...}}). Nothing is written
until stdin closes; then all or nothing, as without it. --stop-on-refusal stops reading at the first
refused block, so a harness can cancel the generation.`,
  flags: {
    ...WORKSPACE_FLAGS,
    format: { kind: "string", value: "FORMAT", help: "auto (default), search-replace, udiff or apply-patch" },
    "dry-run": { kind: "boolean", help: "stage and check, write nothing; show the diffs" },
    partial: {
      kind: "boolean",
      help: "land the blocks that apply, skip the others (exit 3 when any failed)",
    },
    fuzzy: {
      kind: "boolean",
      help: "let the low-confidence fuzzy tier write (off by default: it mostly places stale blocks)",
    },
    json: {
      kind: "boolean",
      help: "print the ToolResult as one JSON object (--stream: one JSON line per event)",
    },
    stream: { kind: "boolean", help: "read the response as it comes and report each block as it is decided" },
    "stop-on-refusal": {
      kind: "boolean",
      help:
        "with --stream: stop at the first refused block (nothing written; the generation can be cancelled)",
    },
  },
  maxPositional: 1,
  async run({ flags, positional, host, open }) {
    const sessionProblem = sessionFlagsProblem(flags);
    if (sessionProblem) return usageError(host, "apply", { message: sessionProblem });
    const format = (flags["format"] as string | undefined) ?? "auto";
    if (!FORMATS.includes(format)) {
      return usageError(host, "apply", { message: `unknown format "${format}" (use ${FORMATS.join(", ")})` });
    }
    const source = positional[0] ?? "-";
    if (flags["stop-on-refusal"] && !flags["stream"]) {
      return usageError(host, "apply", { message: "--stop-on-refusal needs --stream" });
    }
    if (flags["stream"]) return await streamApply({ flags, positional, host, open }, format);
    const shown = source === "-" ? "stdin" : `"${source}"`;
    let text: string;
    try {
      text = source === "-" ? await host.readStdin() : await host.readHostFile(resolveRoot(host.cwd, source));
    } catch (err) {
      return usageError(host, "apply", {
        message: `cannot read ${shown} (${err instanceof Error ? err.message : String(err)})`,
      });
    }
    if (text.trim() === "") {
      return usageError(host, "apply", {
        message: `the input from ${shown} is empty`,
        hint:
          'Give it a model\'s edit response: SEARCH/REPLACE blocks, a unified diff or a "*** Begin Patch" envelope, as FILE or on stdin',
      });
    }
    const ws = await open(flags["root"] as string | undefined);
    const args: Record<string, unknown> = { text, format };
    if (flags["partial"]) args["partial"] = true;
    if (flags["fuzzy"]) args["fuzzy"] = true;
    const options: DispatchOptions = sessionCallOptions(flags, true);
    if (flags["dry-run"]) options.dryRun = true;
    if (options.session !== undefined) await loadSession(ws, options.session);
    const result = await ws.call("apply_edits", args, options);
    if (options.session !== undefined) await saveSession(ws, options.session);
    host.stdout(
      flags["json"] ? JSON.stringify(result, null, 2) + "\n" : summarizeApply(result, painter(host)),
    );
    return exitCodeOf(result);
  },
});
