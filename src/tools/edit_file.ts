/**
 * edit_file: the str_replace shape — replace `old_string` by `new_string` in
 * one file, exact first, then through the matching ladder.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { strReplace, type StrReplaceArgs } from "../text/str_replace.ts";
import { DRY_RUN, EXPECTED_VERSION, objectSchema, PATH } from "./_schema.ts";
import type { HandlerResult, ToolDefinition } from "./types.ts";

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

/** The edit_file tool. */
export const editFile: ToolDefinition<EditFileArgs> = {
  name: "edit_file",
  description:
    "Replace old_string with new_string in one file (aliases old_str/old_text, new_str/new_text). An exact match is used when there is exactly one; otherwise whole-line text is placed by the matching ladder (whitespace, indentation, Unicode punctuation, copied line numbers; fuzzy only with fuzzy: true). Several matches are refused unless replace_all or start_line decides. An empty old_string creates a missing file.",
  inputSchema: objectSchema({
    path: PATH,
    old_string: { ...TEXT, description: "The exact text to replace" },
    old_str: { ...TEXT, description: "Alias of old_string" },
    old_text: { ...TEXT, description: "Alias of old_string" },
    new_string: { ...TEXT, description: "The replacement text" },
    new_str: { ...TEXT, description: "Alias of new_string" },
    new_text: { ...TEXT, description: "Alias of new_string" },
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
  mutates: true,
  async handler(args, { stage, workspace }) {
    const oldText = pick(args, ["old_string", "old_str", "old_text"], "old_string");
    const newText = pick(args, ["new_string", "new_str", "new_text"], "new_string");
    const rel = await stage.resolve(args.path);
    await stage.checkExpected(rel, args.expected_version);
    const call: StrReplaceArgs = { path: rel, oldText, newText };
    if (args.replace_all) call.replaceAll = true;
    if (args.start_line !== undefined) call.startLine = args.start_line;
    const result = await strReplace(stage, call, { fuzzy: args.fuzzy ?? workspace.fuzzy ?? false });
    const out: HandlerResult = {
      data: { path: result.path, replaced: result.replaced, created: result.created, block: result.report },
    };
    if (result.report.tier === "fuzzy") {
      out.warnings = [
        `old_string was placed at lines ${result.report.lines!.start}-${
          result.report.lines!.end
        } by fuzzy matching (similarity ${result.report.similarity}); check the diff`,
      ];
    }
    return out;
  },
};
