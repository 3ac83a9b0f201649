/**
 * edit_file: the str_replace shape — replace `old_string` by `new_string` in
 * one file, exact first, then through the matching ladder.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import type { StrReplaceArgs, StrReplaceResult } from "../text/str_replace.ts";
import { strReplaceEngine } from "./_lazy.ts";
import { DRY_RUN, EXPECTED_VERSION, objectSchema, PATH } from "./_schema.ts";
import type { HandlerResult, ToolDefinition } from "./types.ts";
import { BLOCK, BOOLEAN, FILE_PATH, INTEGER, shape } from "./_result_schema.ts";

/** Arguments of edit_file (`old_str`/`old_text` and `new_str`/`new_text` are accepted aliases). */
export interface EditFileArgs {
  /** Relative path. */
  path: string;
  /** Text to replace. */
  old_string?: string;
  /** Alias of old_string. */
  old_str?: string;
  /** Alias of old_string. */
  old_text?: string;
  /** Replacement text. */
  new_string?: string;
  /** Alias of new_string. */
  new_str?: string;
  /** Alias of new_string. */
  new_text?: string;
  /** Replace every occurrence. */
  replace_all?: boolean;
  /** 1-based line near which old_string is expected. */
  start_line?: number;
  /** Let the low-confidence fuzzy tier write (default: the workspace's `fuzzy`, false). */
  fuzzy?: boolean;
  /** Version last read. */
  expected_version?: string;
  /** Several replacements in order, all or none (the MCP filesystem server's shape), instead of old/new_string. */
  edits?: { oldText: string; newText: string }[];
  /** Refuse (default) or warn on new syntax errors. */
  syntax_guard?: "refuse" | "warn" | "off";
  /** Preview only. */
  dry_run?: boolean;
}

const TEXT = { type: "string" };

function pick(
  args: EditFileArgs,
  names: ("old_string" | "old_str" | "old_text" | "new_string" | "new_str" | "new_text")[],
  role: string,
): string {
  const given = names.filter((n) => args[n] !== undefined);
  if (given.length !== 1) {
    throw new RecoverableError(
      "invalid_args",
      given.length === 0
        ? `Cannot call edit_file: ${role} is missing`
        : `Cannot call edit_file: ${given.map((g) => `"${g}"`).join(" and ")} both given`,
      { hint: `Pass exactly one of ${names.join(", ")}`, details: { given } },
    );
  }
  return args[given[0]!]!;
}

/** The (old, new) pairs of a call: its `edits`, or its one old_string/new_string pair. */
function replacements(args: EditFileArgs): [string, string][] {
  if (args.edits === undefined) {
    return [[
      pick(args, ["old_string", "old_str", "old_text"], "old_string"),
      pick(args, ["new_string", "new_str", "new_text"], "new_string"),
    ]];
  }
  const single = (["old_string", "old_str", "old_text", "new_string", "new_str", "new_text"] as const)
    .filter((k) => args[k] !== undefined);
  if (single.length > 0) {
    throw new RecoverableError(
      "invalid_args",
      `Cannot call edit_file: "edits" and ${single.map((k) => `"${k}"`).join(", ")} both given`,
      {
        hint: "Pass either edits: [{oldText, newText}, ...] or one old_string/new_string pair",
        details: { given: single },
      },
    );
  }
  return args.edits.map((e) => [e.oldText, e.newText]);
}

/** The edit_file tool. */
export const editFile: ToolDefinition<EditFileArgs> = {
  name: "edit_file",
  description:
    "Replace old_string with new_string in one file (aliases old_str/old_text, new_str/new_text), or several pairs at once as edits: [{oldText, newText}], applied in order, all or none. An exact match is used when there is exactly one; otherwise whole-line text is placed by the matching ladder (whitespace, indentation, Unicode punctuation, copied line numbers; fuzzy only with fuzzy: true). Refused: several matches (ambiguous, every candidate's lines listed) unless replace_all or start_line decides; no match (no_match, with the closest lines and a read_file call). An empty old_string creates a missing file. To replace a whole function or class use replace_symbol; for edits across files, apply_edits.",
  inputSchema: objectSchema({
    path: PATH,
    old_string: { ...TEXT, description: "The exact text to replace" },
    old_str: { ...TEXT, description: "Alias of old_string" },
    old_text: { ...TEXT, description: "Alias of old_string" },
    new_string: { ...TEXT, description: "The replacement text" },
    new_str: { ...TEXT, description: "Alias of new_string" },
    new_text: { ...TEXT, description: "Alias of new_string" },
    edits: {
      type: "array",
      minItems: 1,
      items: objectSchema({
        oldText: { ...TEXT, description: "Text to replace" },
        newText: { ...TEXT, description: "Its replacement" },
      }, ["oldText", "newText"]),
      description:
        "Several replacements in this file, applied in order, all or none (instead of old_string/new_string)",
    },
    replace_all: { type: "boolean", description: "Replace every occurrence (default false)" },
    start_line: { type: "integer", minimum: 1, description: "Line near which old_string is expected" },
    fuzzy: {
      type: "boolean",
      description:
        "Let the low-confidence fuzzy tier replace lines that differ from old_string in real tokens (default false: such an edit fails with the window as did-you-mean)",
    },
    expected_version: EXPECTED_VERSION,
    dry_run: DRY_RUN,
  }, ["path"]),
  kind: "freeform_edit",
  mutates: true,
  // Claude Code's Edit names the file file_path; the MCP filesystem server says dryRun.
  resultData: shape({
    path: FILE_PATH,
    replaced: INTEGER,
    created: BOOLEAN,
    block: BLOCK,
    blocks: { type: "array", items: BLOCK, description: "One per item of edits" },
  }, ["path", "replaced", "created"]),
  aliases: { file_path: "path", dryRun: "dry_run" },
  async handler(args, { stage, workspace, checkGuardable }) {
    const { strReplace } = await strReplaceEngine();
    const pairs = replacements(args);
    const rel = await stage.resolve(args.path);
    await checkGuardable([rel]);
    await stage.checkExpected(rel, args.expected_version);
    const results: StrReplaceResult[] = [];
    const warnings: string[] = [];
    for (const [i, [oldText, newText]] of pairs.entries()) {
      const call: StrReplaceArgs = { path: rel, oldText, newText };
      if (args.replace_all) call.replaceAll = true;
      if (args.start_line !== undefined) call.startLine = args.start_line;
      const result = await strReplace(stage, call, { fuzzy: args.fuzzy ?? workspace.fuzzy ?? false });
      if (args.edits) result.report.block = i + 1;
      results.push(result);
      if (result.report.tier === "fuzzy") {
        warnings.push(
          `${args.edits ? `edits[${i}].oldText` : "old_string"} was placed at lines ${
            result.report.lines!.start
          }-${
            result.report.lines!.end
          } by fuzzy matching (similarity ${result.report.similarity}); check the diff`,
        );
      }
    }
    const first = results[0]!;
    const data: Record<string, unknown> = {
      path: first.path,
      replaced: results.reduce((n, r) => n + r.replaced, 0),
      created: first.created,
    };
    if (args.edits) data["blocks"] = results.map((r) => r.report);
    else data["block"] = first.report;
    const out: HandlerResult = { data };
    if (warnings.length > 0) out.warnings = warnings;
    return out;
  },
};
