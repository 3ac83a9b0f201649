/**
 * The CLI's read-only views, each one tool call through dispatch:
 * `graver read PATH` (read_file), `graver outline PATH` (outline) and
 * `graver find NAME_PATH` (find_symbol). Human output (numbered lines, an
 * indented tree, `path:lines kind name`) coloured on a terminal; `--json`
 * prints the ToolResult as `graver call` would. Exit 0 when read, 1 when
 * refused, 2 on a usage error. Registered at module load.
 *
 * @module
 */
import { symbolLabel } from "../syntax/name_path.ts";
import type { ToolResult } from "../tools/types.ts";
import {
  type CliHost,
  type CliInvocation,
  exitCodeOf,
  printJson,
  registerCliCommand,
  usageError,
  WORKSPACE_FLAGS,
} from "./cli.ts";
import { failureText, integerFlag, notesText, type Paint, painter, startProgress } from "./cli_output.ts";
import { loadSession, saveSession, sessionCallOptions, sessionFlagsProblem } from "./cli_session.ts";

type Success = Extract<ToolResult, { ok: true }>;

const JSON_FLAG = {
  kind: "boolean",
  help: "print the ToolResult as one JSON object (as graver call does)",
} as const;

/**
 * Run one tool for a view command: usage problems first, then the call (with
 * a progress line when `progress` names the work), then `--json` or `render`.
 */
async function view(
  inv: CliInvocation,
  command: string,
  call: { tool: string; args: Record<string, unknown>; progress?: string },
  render: (result: Success, paint: Paint) => string,
): Promise<number> {
  const { flags, host } = inv;
  const sessionProblem = sessionFlagsProblem(flags);
  if (sessionProblem) return usageError(host, command, { message: sessionProblem });
  const ws = await inv.open(flags["root"] as string | undefined);
  // With --session, what the view showed counts as read in the session's ledger.
  const options = sessionCallOptions(flags);
  if (options.session !== undefined) await loadSession(ws, options.session);
  const progress = call.progress ? startProgress(host, call.progress) : undefined;
  let result: ToolResult;
  try {
    result = await ws.call(call.tool, call.args, options);
  } finally {
    progress?.stop();
  }
  if (options.session !== undefined) await saveSession(ws, options.session);
  if (flags["json"]) printJson(host, result);
  else {
    const paint = painter(host);
    host.stdout(result.ok ? render(result, paint) + notesText(result, paint) : failureText(result, paint));
  }
  return exitCodeOf(result);
}

/** Numbers and options of one command: an integer flag's problem is a usage error. */
function integers(
  host: CliHost,
  command: string,
  flags: Record<string, string | boolean>,
  names: Record<string, string>,
): Record<string, number> | number {
  const out: Record<string, number> = {};
  for (const [flag, arg] of Object.entries(names)) {
    const n = integerFlag(flags, flag);
    if (typeof n === "object") return usageError(host, command, { message: n.problem });
    if (n !== undefined) out[arg] = n;
  }
  return out;
}

function needPath(host: CliHost, command: string, what: string, positional: string[]): string | number {
  const [path] = positional;
  if (path === undefined || path === "") return usageError(host, command, { message: `missing ${what}` });
  return path;
}

registerCliCommand({
  name: "read",
  synopsis: "read PATH [--start N] [--end N] [--root DIR] [--json]",
  summary: "Print a file's numbered lines and its version (read_file)",
  details: `
Runs read_file: numbered lines, then a footer with the line range, the total, the file's version (pass it as
expected_version to an edit), its language and line endings. A read stops after 2000 lines; the footer then
says how to read on. Binary and non-UTF-8 files are refused (exit 1).`,
  flags: {
    ...WORKSPACE_FLAGS,
    start: { kind: "string", value: "N", help: "first line (1-based, default 1)" },
    end: {
      kind: "string",
      value: "N",
      help: "last line, inclusive (default: the end, at most 2000 lines on)",
    },
    json: JSON_FLAG,
  },
  maxPositional: 1,
  async run(inv) {
    const path = needPath(inv.host, "read", "PATH (the file to read)", inv.positional);
    if (typeof path === "number") return path;
    const range = integers(inv.host, "read", inv.flags, { start: "start_line", end: "end_line" });
    if (typeof range === "number") return range;
    return await view(inv, "read", { tool: "read_file", args: { path, ...range } }, (r, paint) => {
      const d = r.data;
      const content = String(d["content"]);
      const body = content === "" ? "" : content.split("\n").map((l) => {
        const tab = l.indexOf("\t");
        return tab === -1 ? l : paint.dim(l.slice(0, tab)) + "  " + l.slice(tab + 1);
      }).join("\n") + "\n";
      const footer = [
        `${d["path"]}: lines ${d["start_line"]}-${d["end_line"]} of ${d["total_lines"]}`,
        `version ${String(d["version"]).slice(0, 12)}`,
        ...(d["language"] ? [String(d["language"])] : []),
        String(d["eol"]),
        ...(d["bom"] ? ["BOM"] : []),
      ].join(", ");
      const more = d["truncated"]
        ? `\n${paint.yellow("truncated:")} graver read ${d["path"]} --start ${Number(d["end_line"]) + 1}`
        : "";
      return `${body}${paint.dim(footer)}${more}\n`;
    });
  },
});

interface OutlineNode {
  name_path: string;
  kind: string;
  start_line: number;
  end_line: number;
  children?: OutlineNode[];
}

function tree(nodes: OutlineNode[], paint: Paint, depth = 0): string[] {
  return nodes.flatMap((n) => {
    const name = n.name_path.slice(n.name_path.lastIndexOf("/") + 1);
    const lines = n.start_line === n.end_line ? `${n.start_line}` : `${n.start_line}-${n.end_line}`;
    // The kind once: a Rust impl block's name already starts with it ("impl Display for Point").
    const label = symbolLabel(n.kind, name);
    const kind = label === name ? "" : `${paint.cyan(n.kind)} `;
    const row = `${"  ".repeat(depth)}${kind}${paint.bold(name)}  ${paint.dim(lines)}`;
    return [row, ...tree(n.children ?? [], paint, depth + 1)];
  });
}

function countNodes(nodes: OutlineNode[]): number {
  return nodes.reduce((n, s) => n + 1 + countNodes(s.children ?? []), 0);
}

registerCliCommand({
  name: "outline",
  synopsis: "outline PATH [--depth N] [--root DIR] [--json]",
  summary: "Print a file's definitions as a tree with kinds and lines (outline)",
  details: `
Runs outline: one line per definition (kind, name, lines), children indented under their parent. The name
paths (Class/method) are what find_symbol, replace_symbol, remove_symbol and insert_code take; --json shows
them. A file without a grammar is refused with unsupported_language (exit 1).`,
  flags: {
    ...WORKSPACE_FLAGS,
    depth: { kind: "string", value: "N", help: "levels to show (1: top level only; default: all)" },
    json: JSON_FLAG,
  },
  maxPositional: 1,
  async run(inv) {
    const path = needPath(inv.host, "outline", "PATH (the file to outline)", inv.positional);
    if (typeof path === "number") return path;
    const opts = integers(inv.host, "outline", inv.flags, { depth: "depth" });
    if (typeof opts === "number") return opts;
    return await view(inv, "outline", { tool: "outline", args: { path, ...opts } }, (r, paint) => {
      const symbols = r.data["symbols"] as OutlineNode[];
      const head = `${paint.bold(String(r.data["path"]))}  ${
        paint.dim(`${r.data["language"]}, ${countNodes(symbols)} definitions`)
      }`;
      const cut = r.data["truncated"] as { total: number; shown: number } | undefined;
      const more = cut
        ? [paint.yellow(`(${cut.shown} of ${cut.total} shown: pass --depth or read --json)`)]
        : [];
      return [head, ...tree(symbols, paint), ...more].join("\n") + "\n";
    });
  },
});

interface Match {
  path: string;
  name_path: string;
  kind: string;
  start_line: number;
  end_line: number;
  body?: string;
}

registerCliCommand({
  name: "find",
  synopsis:
    "find NAME_PATH [--path DIR|FILE] [--body] [--substring] [--max N] [--include-ignored] [--root DIR] [--json]",
  summary: "Find definitions by name path across the project (find_symbol)",
  details: `
Runs find_symbol: NAME_PATH is a name at any depth ("render"), a path ("App/render"), anchored at the top
("/App") or an overload ("f[1]"). Prints one line per match, path:lines kind name path, and with --body the
definition's source under it. What .gitignore ignores and node_modules are searched only with
--include-ignored. On a terminal a progress line shows while the project is searched.`,
  flags: {
    ...WORKSPACE_FLAGS,
    path: { kind: "string", value: "DIR", help: "search only this file or directory" },
    body: { kind: "boolean", help: "print each match's source" },
    substring: { kind: "boolean", help: "let the last segment match part of a name" },
    max: { kind: "string", value: "N", help: "most matches (default 50)" },
    "include-ignored": { kind: "boolean", help: "also search what .gitignore ignores and node_modules" },
    json: JSON_FLAG,
  },
  maxPositional: 1,
  async run(inv) {
    const namePath = needPath(inv.host, "find", "NAME_PATH (what to find, e.g. App/render)", inv.positional);
    if (typeof namePath === "number") return namePath;
    const opts = integers(inv.host, "find", inv.flags, { max: "max_results" });
    if (typeof opts === "number") return opts;
    const args: Record<string, unknown> = { name_path: namePath, ...opts };
    if (inv.flags["path"] !== undefined) args["path"] = inv.flags["path"];
    if (inv.flags["body"]) args["include_body"] = true;
    if (inv.flags["substring"]) args["substring"] = true;
    if (inv.flags["include-ignored"]) args["include_ignored"] = true;
    const progress = `graver find: searching for ${namePath}`;
    return await view(inv, "find", { tool: "find_symbol", args, progress }, (r, paint) => {
      const matches = r.data["matches"] as Match[];
      const out: string[] = [];
      for (const m of matches) {
        out.push(
          `${paint.bold(`${m.path}:${m.start_line}-${m.end_line}`)}  ${
            symbolLabel(m.kind, m.name_path) === m.name_path ? "" : `${paint.cyan(m.kind)}  `
          }${m.name_path}`,
        );
        if (m.body !== undefined) {
          out.push(
            ...m.body.split("\n").map((l, i) => `${paint.dim(String(m.start_line + i).padStart(6))}  ${l}`),
          );
        }
      }
      const count = Number(r.data["count"]);
      const searched = r.data["files_searched"];
      out.push(paint.dim(
        `${count} match${count === 1 ? "" : "es"} in ${searched} file${searched === 1 ? "" : "s"} searched${
          count > matches.length ? `, ${matches.length} shown (pass --max)` : ""
        }${
          r.data["capped"]
            ? `, stopped at ${(r.data["capped"] as { limit: number }).limit} files (pass --path)`
            : ""
        }`,
      ));
      return out.join("\n") + "\n";
    });
  },
});
