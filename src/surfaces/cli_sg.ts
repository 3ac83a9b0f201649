/**
 * `graver sg -p PATTERN [-r REWRITE] [PATH]` (or `--rule JSON`, an ast-grep rule object): `search_structural`, or with `-r` `edit_rewrite_structural`,
 * with ast-grep's flag letters. A search prints `path:line:column:text` per match (further lines of a
 * multi-line match as `path-line-text`); a rewrite applies every match in one commit, as `ast-grep -U` does,
 * and prints each file's diff (`--dry-run` writes nothing); `--json` prints the ToolResult. Exit codes as
 * ast-grep's: 0 found (or rewritten), 1 nothing found, 2 an error. Registered at module load.
 *
 * @module
 */
import type { ToolResult } from "../tools/types.ts";
import { printJson, registerCliCommand, usageError, WORKSPACE_FLAGS } from "./cli.ts";
import type { Workspace } from "../workspace.ts";
import { type CliHost, type CliInvocation, VERSION } from "./_cli_contract.ts";
import {
  type CliScope,
  cliScopes,
  exitOfAll,
  oneRewritePath,
  type ScopeAnswer,
  searchEachScope,
  withShownPaths,
} from "./_cli_scope.ts";
import { resolveHostPath } from "./_cli_workspace.ts";
import {
  failureText,
  notesText,
  type Paint,
  paintDiff,
  painter,
  searchNotesText,
  sizeFlag,
  stoppedText,
} from "./cli_output.ts";
import { appendAll } from "../arrays.ts";
import { type InlineRule, toolArgsOf } from "./_sg_inline_rules.ts";
import { rulesOf } from "./_sg_project.ts";
import { withCommandPool } from "./_cli_pool.ts";
import {
  COLOR_FLAG,
  HEADING_FLAG,
  headingProblem,
  jsonStyleOf,
  styledJson,
  withColorFlag,
} from "./_cli_display.ts";
import { githubText, reportedOnly } from "./_sg_github.ts";
import { noIgnoreRead, withoutRunWord } from "./_sg_words.ts";
import { CONTEXT_OPTIONS, contextArgs, matchLines, type PrintedMatch } from "./_sg_lines.ts";
import type { StdinSource } from "./_sg_stdin.ts";
import { sarifOf, type ScanJsonMatch } from "./_sg_sarif.ts";
import { severitiesSet, SEVERITY_FLAGS } from "./_sg_severity.ts";
import {
  flagsOfOneRule,
  reportFormatProblem,
  reportText,
  rewrittenReport,
  scanExit,
  scanJsonOf,
} from "./_sg_scan.ts";

/**
 * Whether the matches are gathered in ast-grep's JSON shape: for `--format ast-grep`, and for `--format sarif`,
 * whose log is made from them.
 */
function astGrepShaped(flags: Readonly<Record<string, unknown>>): boolean {
  return flags["format"] === "ast-grep" || flags["format"] === "sarif";
}

/** Boolean flags and the argument each sets to true. */
const SWITCHES: Readonly<Record<string, string>> = { hidden: "hidden", "no-ignore": "no_ignore" };

/** The tool arguments a `graver sg` invocation stands for, or a usage problem. */
function sgArgs(
  invocation: {
    flags: Record<string, string | boolean>;
    values: Record<string, string[]>;
    config?: InlineRule;
  },
): Record<string, unknown> | { problem: string } {
  const { flags, values } = invocation;
  const query = queryArgs(flags, invocation.config);
  if ("problem" in query) return query;
  const { args, globs } = query;
  const format = flags["format"];
  if (format !== undefined && !["ast-grep", "graver", "github", "sarif"].includes(String(format))) {
    return {
      problem: `--format takes "ast-grep", "github" or "sarif" (with scan) or "graver", not ${
        JSON.stringify(format)
      }`,
    };
  }
  if (astGrepShaped(flags)) args["output_format"] = "ast-grep";
  if (typeof flags["rewrite"] === "string") args["rewrite"] = flags["rewrite"];
  const rewriting = typeof args["rewrite"] === "string";
  if (!rewriting || astGrepShaped(flags)) {
    // A CLI prints every match, as ast-grep does: the page and the character budget are only a guard.
    args["max_results"] = 10_000;
    args["max_chars"] = 50_000_000;
  } else if (invocation.config !== undefined) args["max_sites"] = 10_000; // a scan reports every site it fixes
  const debug = flags["debug-query"];
  if (debug !== undefined) {
    if (typeof debug !== "string" || !["", "pattern", "sexp", "ast", "cst"].includes(debug)) {
      return { problem: `--debug-query takes pattern, sexp, ast or cst, not ${JSON.stringify(debug)}` };
    }
    args["debug_query"] = true;
  }
  if (flags["files-with-matches"]) {
    if (rewriting || astGrepShaped(flags)) {
      return { problem: "--files-with-matches lists files: it takes neither -r nor --format ast-grep" };
    }
    args["output_mode"] = "files_with_matches";
  }
  if (values["lang"]) args["language"] = values["lang"];
  const context = contextArgs(flags, { rewriting, astGrep: astGrepShaped(flags) });
  if ("problem" in context) return context;
  Object.assign(args, context);
  const given = [...values["glob"] ?? [], ...values["globs"] ?? []]; // ast-grep names it --globs
  if (globs.length > 0 || given.length > 0) args["glob"] = [...globs, ...given];
  for (const [flag, arg] of Object.entries(SWITCHES)) if (flags[flag]) args[arg] = true;
  const size = sizeFlag(flags, "max-filesize");
  if (typeof size === "object") return size;
  if (size !== undefined) args["max_file_bytes"] = size;
  const max = flags["max-results"];
  if (max !== undefined && args["max_results"] !== undefined) {
    if (typeof max !== "string" || !/^\d+$/.test(max)) {
      return { problem: `option "--max-results" takes a whole number, not "${String(max)}"` };
    }
    args["max_results"] = Number(max);
  }
  return args;
}

/**
 * What to search by: `-p PATTERN`, `--rule JSON`, or one rule config (`--inline-rules`, a rule file: its
 * language, `fix` and globs too); one of them, and no `-r` beside a config's `fix`.
 */
function queryArgs(
  flags: Record<string, string | boolean>,
  config: InlineRule | undefined,
): { args: Record<string, unknown>; globs: string[] } | { problem: string } {
  const { pattern, rule, rewrite } = flags;
  const given = [pattern, rule, config].filter((f) => f !== undefined && f !== false).length;
  if (given === 0) return { problem: "missing -p PATTERN (or --rule JSON, or --inline-rules CONFIG)" };
  if (given > 1) return { problem: "give one of -p PATTERN, --rule JSON and --inline-rules CONFIG" };
  if (typeof pattern === "string") return { args: { pattern }, globs: [] };
  if (typeof rule === "string") return { args: { rule }, globs: [] }; // JSON or YAML: the tool reads it
  const c = config!;
  if (c.rewrite !== undefined && typeof rewrite === "string") {
    return { problem: '--inline-rules has a "fix": give the rewrite there or with -r, not both' };
  }
  return { args: toolArgsOf(c), globs: c.globs };
}

/**
 * The flags with `--dry-run` set for a rule config's `fix` without `-U`: ast-grep's scan only shows a fix
 * unless told to apply it, and one copied from it must not write where it wrote nothing (said on stderr).
 */
function fixPreviewed(
  flags: Record<string, string | boolean>,
  on: { args: Record<string, unknown>; host: CliHost; config: InlineRule | undefined },
): Record<string, string | boolean> {
  if (on.config?.rewrite === undefined) return flags;
  if (flags["update-all"] || flags["dry-run"]) return flags;
  if (astGrepShaped(flags)) return flags; // its replacements are shown in the output, and nothing is written
  on.host.stderr(
    "graver sg: the config's fix is previewed, nothing written (as ast-grep's scan shows it): add -U to apply it\n",
  );
  return { ...flags, "dry-run": true };
}

/**
 * The text a successful call prints: the matches (their paths as the command line named them), or each
 * changed file's diff and a count.
 */
function resultText(
  result: Extract<ToolResult, { ok: true }>,
  print: { paint: Paint; shown: (path: string) => string; report?: InlineRule | undefined; github?: boolean },
): string {
  const { paint, report } = print;
  if (result.tool === "search_structural") {
    const data = withShownPaths(result.data, print.shown);
    if (report && data["matches"]) {
      const matches = data["matches"] as PrintedMatch[];
      return print.github ? githubText(matches, report) : reportText(matches, report, paint);
    }
    const lines = matchLines((data["matches"] as PrintedMatch[] | undefined) ?? [], paint);
    for (const c of (data["counts"] as { path: string; count: number }[] | undefined) ?? []) {
      lines.push(`${paint.cyan(c.path)}:${c.count}`);
    }
    for (const f of (data["files"] as { path: string }[] | undefined) ?? []) {
      lines.push(paint.cyan(f.path));
    }
    return lines.length > 0 ? lines.join("\n") + "\n" : "";
  }
  const verb = result.status === "dry_run" ? "would rewrite" : "rewrote";
  // In scan mode, each site's report line first (as for a rule without a fix), then the diffs.
  const out = report ? rewrittenReport(result.data, { report, paint, shown: print.shown }) : [];
  appendAll(out, result.changes.map((c) => paintDiff(c.diff.trimEnd(), paint)));
  out.push(`${verb} ${result.data["rewritten"]} match(es) in ${result.changes.length} file(s)`);
  return out.join("\n") + "\n" + notesText(result, paint);
}

/** The exit code of a call: 0 found or rewritten, 1 nothing found, 2 an error. */
function exitOf(result: ToolResult): number {
  if (!result.ok) return result.error.code === "no_match" ? 1 : 2;
  if (result.tool !== "search_structural") return 0;
  const found = ["matches", "counts", "ast_grep", "files"].some((k) =>
    ((result.data[k] as unknown[] | undefined)?.length ?? 0) > 0
  );
  return found ? 0 : 1;
}

/** ast-grep's options `graver sg` does not take, as written, with what to do instead (`CliCommand.foreign`). */
const AST_GREP_OPTIONS_NOT_TAKEN: Readonly<Record<string, string>> = (() => {
  const interactive = "a rewrite here is all or nothing: preview it with --dry-run, then run it without";
  const strictness = "patterns match with ast-grep's default strictness (smart): trivia and unnamed tokens " +
    "the pattern leaves out are passed over";
  const selector = "write the pattern of the node itself, and what must surround it as inside in a rule: " +
    `--rule '{"pattern": "…", "inside": {"pattern": "…", "stopBy": "end"}}'`;
  const follow = "links inside the workspace root are followed already; a link leading out of it never is";
  return {
    "-i": interactive,
    "--interactive": interactive,
    "--strictness": strictness,
    "--selector": selector,
    "--follow": follow,
  };
})();

registerCliCommand({
  name: "sg",
  synopsis:
    "sg [run] -p PATTERN|--rule RULE|--inline-rules CONFIGS [-r REWRITE] [-l LANG]... [-g GLOB]... [PATH]... [--dry-run] [--files-with-matches] [--hidden] [--no-ignore] [--json] [--format ast-grep] | sg scan [--inline-rules CONFIGS|-r RULE_FILE|-c SGCONFIG] [-U] [PATH]...",
  summary: "Search by code pattern (search_structural), or rewrite every match, with ast-grep's flags",
  details: `
PATTERN is code in the files' language with metavariables: $X one node, $$$ARGS zero or more, $_ any node
(ast-grep's syntax). PATH narrows the search to a folder or file, written as ast-grep takes it (relative to
the current folder or absolute; outside the root it is searched as a workspace of its own unless --root is
given; several PATHs are searched one after another, as ast-grep does, and a rewrite takes one); -l LANG to languages (ts, tsx, js, py, go, rust …; default every file with a grammar the pattern
parses in); -g GLOB may repeat ("!" excludes). "graver sg run -p …" is taken as "ast-grep run -p …" is.
.gitignore is honoured and hidden files are skipped (--hidden, --no-ignore). --rule RULE takes an ast-grep rule
object instead of -p, as JSON or YAML ({"pattern": …, "kind": …, "regex": …, "inside"/"has": {…, "stopBy":
"end"}, "all", "any", "not"}).
"graver sg scan" is ast-grep's scan: its rules are rule configs as ast-grep writes them (YAML or JSON; several
separated by "---" lines: id, language, rule, constraints, utils, transform, fix, files, ignores, severity,
message, note), given with --inline-rules CONFIGS or in a rule file (-r FILE or --rule FILE: after scan these
name ast-grep's rule file), or without either those of the project: its sgconfig.yml (here or in the nearest
folder above, or -c FILE) lists ruleDirs (their .yml and .yaml files, at any depth) and utilDirs (utility rules
every rule of their language may name with matches); its folder is the root. Each match is printed as ast-grep's short report, path:line:column:
help[id]: message (note, warning or error by severity); --format ast-grep adds ruleId, severity, note, message and labels as ast-grep's scan
--json does. A config's fix is previewed unless -U is given (then each rule's fixes are one atomic commit, the
rules one after another). Exit codes as ast-grep's scan: 1 when a rule of severity error matched (and was not
fixed), else 0; a rule of severity off is not run. --error, --warning, --info, --hint and --off set the
severity of every rule, or with =RULE_ID of one (repeatable), as ast-grep's scan does. --format github prints
each finding as a GitHub Actions annotation (::error file=PATH,line=N,endLine=M,title=ID::message; info as a
notice, a hint not at all), as ast-grep's scan --format github; fixes are then neither written nor shown.
--format sarif prints one SARIF 2.1.0 log of the findings (a fix as a result's fixes, not written), as
ast-grep's scan --format sarif. --inline-rules without the word scan runs the configs as
run does (path:line:column:text, exit 1 when nothing is found).
Without -r: path:line:column:text per match. With -r REWRITE: every match is rewritten (its metavariables
filled in, a multi-line rewrite re-indented to its site) in one atomic commit, as ast-grep -U does (-U is
accepted); --dry-run prints the diffs and writes nothing. --json prints the ToolResult (each match with its
metavariables, its file's version and an occurrence id). --format ast-grep prints the matches as
\`ast-grep run --json\` does (with -r each one's replacement, and nothing is written, as ast-grep without -U).
--debug-query prints on stderr how each language's grammar read the pattern.
Exit codes as ast-grep: 0 found, 1 none, 2 an error.`,
  flags: {
    ...WORKSPACE_FLAGS,
    pattern: { kind: "string", short: "p", value: "PATTERN", help: "the code pattern to find" },
    rewrite: {
      kind: "string",
      short: "r",
      value: "REWRITE",
      help: "rewrite every match to this code (after scan: ast-grep's rule file)",
    },
    rule: {
      kind: "string",
      value: "RULE",
      help: "an ast-grep rule object (JSON or YAML) instead of -p (after scan: ast-grep's rule file)",
    },
    "inline-rules": {
      kind: "string",
      value: "CONFIGS",
      help:
        "ast-grep rule configs, YAML or JSON, several separated by --- (language, rule, constraints, utils, transform, fix, files, ignores, id, severity, message, note)",
    },
    filter: {
      kind: "string",
      value: "REGEX",
      help: "with scan: only the project's rules whose id matches REGEX (RE2), as ast-grep's --filter",
    },
    config: {
      kind: "string",
      short: "c",
      value: "FILE",
      help: "with scan: the project's sgconfig.yml (default: the one here or in the nearest folder above)",
    },
    "report-style": {
      kind: "string",
      value: "STYLE",
      help: "accepted as ast-grep's scan takes it: matches are printed in its short style",
    },
    ...SEVERITY_FLAGS,
    color: COLOR_FLAG,
    heading: HEADING_FLAG,
    lang: { kind: "string", short: "l", value: "LANG", help: "only files of this language; repeatable" },
    glob: {
      kind: "string",
      short: "g",
      value: "GLOB",
      help: "include (or with ! exclude) paths; repeatable",
    },
    ...CONTEXT_OPTIONS,
    globs: {
      kind: "string",
      value: "GLOB",
      help: "as --glob (ast-grep's name for it), after the --glob ones",
    },
    "update-all": {
      kind: "boolean",
      short: "U",
      help: "accepted: -r always applies (use --dry-run to preview)",
    },
    "dry-run": { kind: "boolean", help: "with -r: print the diffs, write nothing" },
    stdin: {
      kind: "boolean",
      help:
        "search the code read from standard input (give -l LANG), as ast-grep's --stdin; with -r, print it rewritten",
    },
    threads: {
      kind: "string",
      short: "j",
      value: "N",
      help:
        "accepted as ast-grep takes it: a one-shot search runs on one thread (a server's pool on several)",
    },
    "debug-query": {
      kind: "optional",
      value: "FORMAT",
      help: "print how each language's grammar read the pattern (on stderr), as ast-grep's --debug-query " +
        "(pattern, sexp, ast, cst: one S-expression of the pattern's nodes for each)",
    },
    "files-with-matches": {
      kind: "boolean",
      help: "print only the path of each file with a match (ast-grep's)",
    },
    hidden: { kind: "boolean", help: "also search hidden files and folders" },
    "no-ignore": {
      kind: "switch",
      value: "FILE_TYPE",
      help: "also search what .gitignore ignores; ast-grep's --no-ignore hidden (dot, vcs …) is taken too",
    },
    "max-results": { kind: "string", value: "N", help: "stop after N matches (default 10000)" },
    "max-filesize": {
      kind: "string",
      value: "SIZE",
      help: "skip larger files (bytes, or 50K, 10M, 1G; default 16M)",
    },
    "max-parse-size": {
      kind: "string",
      value: "SIZE",
      help: "parse files up to this size (bytes, or 50K, 10M; default 8M): a larger one is left out, said so",
    },
    json: {
      kind: "switch",
      value: "STYLE",
      help: "print the ToolResult as JSON; --json=pretty|compact|stream: ast-grep's JSON, in its style",
    },
    format: {
      kind: "string",
      value: "FORMAT",
      help: "ast-grep: print the matches as `ast-grep run --json` does (with -r: replacements, nothing " +
        "written); github, sarif: with scan, the findings as GitHub Actions annotations or a SARIF log, " +
        "as ast-grep's scan",
    },
  },
  foreign: AST_GREP_OPTIONS_NOT_TAKEN,
  maxPositional: Infinity, // PATHs, after ast-grep's `run` if that is given
  async run(invocation) {
    const parseSize = sizeFlag(invocation.flags, "max-parse-size");
    if (typeof parseSize === "object") {
      return usageError(invocation.host, "sg", { message: parseSize.problem });
    }
    const limit = parseSize === undefined ? {} : { maxParseBytes: parseSize };
    return await withCommandPool(invocation, (open) => runSg({ ...invocation, open }), limit);
  },
});

/** `graver sg`'s run (its workspaces opened with the command's pool and parse limit). */
async function runSg(call: CliInvocation): Promise<number> {
  const { flags: asGiven, values, positional: given, host: givenHost, open } = call;
  const host = withColorFlag(givenHost, asGiven);
  if ("problem" in host) return usageError(givenHost, "sg", { message: host.problem });
  const styled = jsonStyleOf(asGiven); // ast-grep's --json=STYLE: its JSON, as --format ast-grep prints it
  if ("problem" in styled) return usageError(host, "sg", { message: styled.problem });
  const heading = headingProblem(styled.flags);
  if (heading !== undefined) return usageError(host, "sg", { message: heading });
  const exists = (p: string) => host.backend.stat(resolveHostPath(host.cwd, p)).then(() => true, () => false);
  const words = await withoutRunWord(given, exists);
  const read = await noIgnoreRead(styled.flags, words.paths, exists); // ast-grep's --no-ignore FILE_TYPE
  if ("problem" in read) return usageError(host, "sg", { message: read.problem });
  if (read.note) host.stderr(`graver sg: ${read.note}\n`);
  const [{ flags: givenFlags, paths: givenPaths }, { scan }, { style }] = [read, words, styled];
  const found = severitiesSet(
    await rulesOf(givenFlags, { host, scan, paths: givenPaths }),
    { host, scan, values },
  );
  if ("problem" in found) return usageError(host, "sg", { message: found.problem });
  const { flags, paths } = found;
  const format = reportFormatProblem(flags, scan && found.rules !== null);
  if (format !== undefined) return usageError(host, "sg", { message: format });
  const rules = found.rules && flags["format"] === "github" ? reportedOnly(found.rules) : found.rules;
  // Loaded here: the structural engines are the tools' to load, on a scan's first need, not at the CLI's start.
  const unusable = scan && rules !== null
    ? await (await import("./_sg_validate.ts")).firstUnusableRule(rules, { open, flags })
    : null;
  if (unusable !== null) return usageError(host, "sg", { message: unusable });
  const stdin = flags["stdin"] === true
    ? await (await import("./_sg_stdin.ts")).openStdin(host, {
      languages: values["lang"] ?? [],
      rules: (rules ?? []).map((r) => r.language),
      paths,
    })
    : undefined;
  if (stdin && "problem" in stdin) return usageError(host, "sg", { message: stdin.problem });
  const astGrep: unknown[] = [];
  // A scan's --json: one array of each rule's results (its report keys beside each ToolResult).
  const results = scan && flags["json"] && rules !== null ? [] as unknown[] : undefined;
  const invocation = { values, paths, host, open, astGrep, ...(results ? { results } : {}), stdin };
  if (rules === null) {
    const codes = await sgQuery({ ...invocation, flags });
    if (typeof codes === "number") return codes;
    // One array for every PATH searched, as ast-grep prints it.
    if (astGrepShaped(flags) && codes.some((code) => code !== 2)) host.stdout(styledJson(astGrep, style));
    if (stdin?.written) host.stdout(await (await import("./_sg_stdin.ts")).rewrittenText(stdin));
    return exitOfAll(codes);
  }
  const runs: { codes: number[]; rule: InlineRule; fixed: boolean }[] = [];
  for (const rule of rules.filter((r) => r.severity !== "off")) {
    const one = { ...invocation, flags: flagsOfOneRule(flags, scan), config: rule, scan };
    const codes = await sgQuery(one);
    if (typeof codes === "number") return codes;
    // A fix written with -U (not previewed, not only shown in ast-grep's shape) leaves no finding behind.
    const fixed = rule.rewrite !== undefined && flags["update-all"] === true && !flags["dry-run"] &&
      !astGrepShaped(flags);
    runs.push({ codes, rule, fixed });
    if (codes.includes(2)) break;
  }
  if (astGrepShaped(flags) && runs.some((r) => r.codes.some((code) => code !== 2))) {
    if (flags["format"] === "sarif") printJson(host, sarifOf(astGrep as ScanJsonMatch[], VERSION));
    else host.stdout(styledJson(astGrep, style));
  }
  if (results) printJson(host, results);
  if (stdin?.written) host.stdout(await (await import("./_sg_stdin.ts")).rewrittenText(stdin));
  return scan ? scanExit(runs) : exitOfAll(runs.flatMap((r) => r.codes));
}

/**
 * One query of `graver sg` (a pattern, a rule object, or one rule config of several) over each PATH: each
 * PATH's exit code, or the command's own code when its arguments are refused (printed as a usage error).
 */
async function sgQuery(
  q: {
    flags: Record<string, string | boolean>;
    values: Record<string, string[]>;
    paths: string[];
    host: CliHost;
    open: (root: string | undefined) => Promise<Workspace>;
    astGrep: unknown[];
    results?: unknown[];
    config?: InlineRule;
    scan?: boolean;
    /** With --stdin: the text's workspace, searched in place of PATHs. */
    stdin?: StdinSource | undefined;
  },
): Promise<number[] | number> {
  const { host, config } = q;
  const args = sgArgs({ flags: q.flags, values: q.values, ...(config ? { config } : {}) });
  if ("problem" in args) return usageError(host, "sg", { message: args.problem as string });
  const flags = fixPreviewed(q.flags, { args, host, config });
  const astGrep = args["output_format"] === "ast-grep";
  // In ast-grep's shape a rewrite is shown, as `ast-grep run -r --json` shows it: nothing is written.
  const tool = args["rewrite"] === undefined || astGrep ? "search_structural" : "edit_rewrite_structural";
  // Only --json prints the whole result: the lines, reports and ast-grep's shapes name no enclosing symbol.
  if (tool === "search_structural" && !flags["json"]) args["symbols"] = false;
  const scopes = q.stdin
    ? [q.stdin.scope]
    : await cliScopes(host, { root: flags["root"] as string | undefined, paths: q.paths });
  if ("problem" in scopes) return usageError(host, "sg", { message: scopes.problem });
  if (tool === "edit_rewrite_structural" && scopes.length > 1) {
    return usageError(host, "sg", { message: await oneRewritePath(host, scopes) });
  }
  const report = q.scan && config ? config : undefined;
  const printed = { any: false };
  const search = (scope: CliScope, call: { ws: Workspace; args: Record<string, unknown> }) =>
    sgScope({ host, flags, tool, astGrep: q.astGrep, report, results: q.results, printed, stdin: q.stdin }, {
      scope,
      ...call,
    });
  const open = q.stdin ? () => Promise.resolve(q.stdin!.ws) : q.open;
  return await searchEachScope(scopes, { open, args, search });
}

/** One PATH's search or rewrite, printed as ast-grep prints it (ast-grep's JSON gathered); its exit code and result. */
async function sgScope(
  run: {
    host: CliHost;
    flags: Record<string, unknown>;
    tool: string;
    astGrep: unknown[];
    /** In scan mode, the rule whose matches are reported (ast-grep's short report, its scan JSON). */
    report: InlineRule | undefined;
    /** In scan mode with --json, where each result goes (printed as one array at the end). */
    results?: unknown[] | undefined;
    /** Whether an earlier PATH printed lines (with context, `--` stands between two PATHs' lines). */
    printed: { any: boolean };
    /** With --stdin: the text, whose rewrite is printed whole once the command is done, not as a diff. */
    stdin?: StdinSource | undefined;
  },
  search: { scope: CliScope; ws: Workspace; args: Record<string, unknown> },
): Promise<ScopeAnswer> {
  const { host, flags, tool } = run;
  const { scope, ws, args } = search;
  const astGrep = args["output_format"] === "ast-grep";
  // Every match whole, as ast-grep prints it: no result budget cuts a long one (or a diff).
  const result = await ws.call(tool, args, {
    resultChars: Infinity,
    ...(flags["dry-run"] ? { dryRun: true } : {}),
  });
  const paint = painter(host);
  if (astGrep && result.ok) {
    // Each file as the command line named it (under a PATH as written; `STDIN` for --stdin), as ast-grep's.
    const shown = (path: string) => scope.shown(path).replace(/^\.\//, "");
    const matches = (result.data["ast_grep"] as Record<string, unknown>[]).map((m) =>
      typeof m["file"] === "string" ? { ...m, file: shown(m["file"]) } : m
    );
    appendAll(run.astGrep, run.report ? scanJsonOf(matches, run.report) : matches);
  } else if (flags["json"]) {
    const rule = run.report;
    if (run.results && rule) {
      const { id, severity, message, note } = rule;
      run.results.push({
        rule: { id, severity, message, note },
        ...(search.scope.path ? { path: search.scope.path } : {}),
        result,
      });
    } else printJson(host, result);
  } else if (!result.ok) {
    // A scan's rule with a fix that matched nothing is a clean rule, not a failure (its code says none).
    if (!(run.report && result.error.code === "no_match")) host.stderr(failureText(result, paint));
  } else if (run.stdin && result.tool === "edit_rewrite_structural" && result.status !== "dry_run") {
    run.stdin.written = true;
  } else {
    // Paths as ast-grep prints them: under PATH as written, without a leading `./` (`./src` prints `src/a.ts`).
    const shown = (path: string) => scope.shown(path).replace(/^\.\//, "");
    const github = flags["format"] === "github";
    const text = resultText(result, { paint, shown, report: run.report, github });
    const context = ["context", "context_before", "context_after"].some((k) => Number(args[k] ?? 0) > 0);
    if (context && text !== "" && run.printed.any) host.stdout("--\n");
    if (text !== "") run.printed.any = true;
    host.stdout(text);
    // A search's notes (a file over the size limit) go to stderr; a rewrite prints them after its diffs.
    if (result.tool === "search_structural") host.stderr(searchNotesText(result, paint));
  }
  const summary = result.ok
    ? result.data["summary"] as
      | { truncated?: boolean; pattern_readings?: Record<string, string>; skipped?: { binary?: number } }
      | undefined
    : undefined;
  if (run.stdin && (summary?.skipped?.binary ?? 0) > 0) {
    host.stderr(
      "graver sg: the text read from stdin holds a NUL byte: it was taken as binary, not searched\n",
    );
  }
  for (const [language, reading] of Object.entries(summary?.pattern_readings ?? {})) {
    host.stderr(`graver sg: the ${language} grammar reads the pattern as ${reading}\n`);
  }
  if (result.ok && !flags["json"] && tool === "search_structural") {
    host.stderr(stoppedText("graver sg", result, args));
  }
  return { code: exitOf(result), result };
}
