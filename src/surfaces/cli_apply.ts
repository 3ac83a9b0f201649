/**
 * `graver apply [FILE|-] [--root DIR] [--format auto|search-replace|udiff|apply-patch]
 * [--dry-run] [--partial] [--json]`: apply a model's edit response from a
 * file or stdin through `apply_edits`. Prints a summary, or exactly one JSON
 * object with `--json`. Exit codes as `graver call`: 0 applied, 1 refused
 * (nothing written), 2 usage error. Registered at module load.
 *
 * @module
 */
import type { ToolResult } from "../tools/types.ts";
import { type CliHost, parseFlags, registerCliCommand, resolveRoot } from "./cli.ts";

const USAGE =
  "graver apply [FILE|-] [--root DIR] [--format auto|search-replace|udiff|apply-patch] [--dry-run] [--partial] [--json]";
const FORMATS = ["auto", "search-replace", "udiff", "apply-patch"];

function usageError(host: CliHost, message: string): number {
  host.stdout(
    JSON.stringify(
      {
        ok: false,
        error: {
          code: "invalid_args",
          message: `Cannot run graver apply: ${message}`,
          hint: `Usage: ${USAGE}`,
        },
      },
      null,
      2,
    ) + "\n",
  );
  return 2;
}

interface BlockLine {
  block: number;
  path: string;
  status: string;
  tier?: string;
  confidence?: string;
  lines?: { start: number; end: number };
  error?: { code: string; message: string; details?: Record<string, unknown> };
}

/** A short human summary of an apply_edits result. */
export function summarizeApply(result: ToolResult): string {
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
    for (const c of result.changes) out.push(c.diff.trimEnd());
  } else {
    out.push(`error ${result.error.code}: ${result.error.message}`);
    out.push(`hint: ${result.error.hint}`);
    const dym = result.error.details?.["did_you_mean"] as { diff?: string } | undefined;
    if (dym?.diff) out.push(dym.diff);
  }
  return out.join("\n") + "\n";
}

registerCliCommand("apply", USAGE, async (argv, host, open) => {
  const { flags, rest, error } = parseFlags(argv, {
    root: "string",
    format: "string",
    session: "string",
    "dry-run": "boolean",
    partial: "boolean",
    json: "boolean",
  });
  if (error) return usageError(host, error);
  if (rest.length > 1) return usageError(host, `expected one FILE or -, got ${rest.length}`);
  const format = (flags["format"] as string | undefined) ?? "auto";
  if (!FORMATS.includes(format)) {
    return usageError(host, `unknown format "${format}" (use ${FORMATS.join(", ")})`);
  }
  const source = rest[0] ?? "-";
  let text: string;
  try {
    text = source === "-" ? await host.readStdin() : await host.readHostFile(resolveRoot(host.cwd, source));
  } catch (err) {
    return usageError(host, `cannot read "${source}" (${err instanceof Error ? err.message : String(err)})`);
  }
  const ws = await open(flags["root"] as string | undefined);
  const args: Record<string, unknown> = { text, format };
  if (flags["partial"]) args["partial"] = true;
  const options: { session?: string; dryRun?: boolean } = {};
  if (typeof flags["session"] === "string") options.session = flags["session"];
  if (flags["dry-run"]) options.dryRun = true;
  const result = await ws.call("apply_edits", args, options);
  host.stdout(flags["json"] ? JSON.stringify(result, null, 2) + "\n" : summarizeApply(result));
  return result.ok ? 0 : 1;
});
