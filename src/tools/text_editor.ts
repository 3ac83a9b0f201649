/**
 * Anthropic's text editor tool as a compatibility alias: the
 * `str_replace_based_edit_tool` (Claude 4's `text_editor_20250728`) and
 * `str_replace_editor` (`text_editor_20250124` / `_20241022`) call shapes,
 * each `command` forwarded by dispatch to the graver tool that does the work —
 * `view` to read_file (list_files for a directory), `create` to create_file
 * (write_file when an `expected_version` says which file to replace),
 * `str_replace` and `insert` to edit_file — so validation, the guards, the
 * compass and the syntax check treat it as that tool. `undo_edit` is
 * checkpoint_undo of the file when the workspace records checkpoints, refused otherwise.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { forwardedOnly } from "./_alias.ts";
import { DRY_RUN, EXPECTED_VERSION, objectSchema } from "./_schema.ts";
import type { ForwardContext, ForwardedCall, ToolDefinition } from "./types.ts";

/** The commands of Anthropic's text editor tool. */
export type TextEditorCommand = "view" | "create" | "str_replace" | "insert" | "undo_edit";

/** Arguments of the text editor aliases, as Anthropic documents them (plus graver's version guard). */
export interface TextEditorArgs {
  /** What to do. */
  command: TextEditorCommand;
  /** The file or directory (relative to the root, or absolute inside it). */
  path: string;
  /** `view`: [first line, last line] (1-based, inclusive; -1 for the end of the file). */
  view_range?: number[];
  /** `str_replace`: the exact text to replace. */
  old_str?: string;
  /** `str_replace`: its replacement (default empty); `insert`: the text to insert. */
  new_str?: string;
  /** `create`: the whole content. */
  file_text?: string;
  /** `insert`: the line after which the text goes (0: the start of the file). */
  insert_line?: number;
  /** `insert`: the text to insert (the newer spelling of new_str). */
  insert_text?: string;
  /** Mutating commands: the version read; a file changed since is refused with stale_base. */
  expected_version?: string;
  /** Mutating commands: preview, write nothing. */
  dry_run?: boolean;
  /** Mutating commands: what the syntax guard does with new parse errors. */
  syntax_guard?: "refuse" | "warn" | "off";
}

/** The arguments each command takes besides `command` and `path`. */
const COMMAND_ARGS: Readonly<Record<TextEditorCommand, readonly (keyof TextEditorArgs)[]>> = {
  view: ["view_range"],
  create: ["file_text", "expected_version", "dry_run", "syntax_guard"],
  str_replace: ["old_str", "new_str", "expected_version", "dry_run", "syntax_guard"],
  insert: ["insert_line", "new_str", "insert_text", "expected_version", "dry_run", "syntax_guard"],
  undo_edit: [],
};

/** The args of the forwarded call that the alias passes through unchanged when given. */
const PASSED = ["expected_version", "dry_run", "syntax_guard"] as const;

function refuse(name: string, args: TextEditorArgs, message: string, hint: string): RecoverableError {
  return new RecoverableError(
    "invalid_args",
    `Cannot call ${name} ${args.command} on "${args.path}": ${message}`,
    {
      hint,
      details: { command: args.command, path: args.path },
    },
  );
}

/** Refuse arguments the command does not take, and a missing required one. */
function checkArgs(name: string, args: TextEditorArgs, required: (keyof TextEditorArgs)[]): void {
  const allowed = new Set<string>(["command", "path", ...COMMAND_ARGS[args.command]]);
  const extra = Object.keys(args).filter((k) => !allowed.has(k));
  const takes = [...allowed].filter((k) => k !== "command").join(", ");
  if (extra.length > 0) {
    throw refuse(
      name,
      args,
      `${extra.map((e) => `"${e}"`).join(", ")} ${extra.length === 1 ? "is" : "are"} not an argument of ${
        JSON.stringify(args.command)
      }`,
      `${args.command} takes ${takes}`,
    );
  }
  for (const r of required) {
    if (args[r] === undefined) {
      throw refuse(name, args, `"${r}" is required`, `${args.command} takes ${takes}`);
    }
  }
}

function passThrough(args: TextEditorArgs, into: Record<string, unknown>): Record<string, unknown> {
  for (const k of PASSED) if (args[k] !== undefined) into[k] = args[k];
  return into;
}

async function view(name: string, args: TextEditorArgs, { stage }: ForwardContext): Promise<ForwardedCall> {
  const rel = (await stage.sandbox.resolve(stage.fs, args.path, { allowRoot: true })).rel;
  const kind = rel === "" ? "dir" : await stage.fs.kind(stage.sandbox.abs(rel));
  if (kind === "dir") {
    if (args.view_range !== undefined) {
      throw refuse(name, args, "view_range applies to files, and this is a directory", "Drop view_range");
    }
    return { tool: "list_files", args: { path: rel, recursive: true } };
  }
  const out: Record<string, unknown> = { path: rel };
  if (args.view_range !== undefined) {
    const [start, end] = args.view_range as [number, number];
    if (start < 1 || (end !== -1 && end < start)) {
      throw refuse(
        name,
        args,
        `view_range [${start}, ${end}] is not a range of lines`,
        "Pass [first, last] with 1 <= first <= last (1-based, inclusive), or [first, -1] for the rest of the file",
      );
    }
    out["start_line"] = start;
    if (end !== -1) out["end_line"] = end;
  }
  return { tool: "read_file", args: out };
}

/** `insert`: the edit_file call that puts the text after line `insert_line` (or write_file for an empty file). */
async function insert(name: string, args: TextEditorArgs, { stage }: ForwardContext): Promise<ForwardedCall> {
  const given = (["insert_text", "new_str"] as const).filter((k) => args[k] !== undefined);
  if (given.length !== 1) {
    throw refuse(
      name,
      args,
      given.length === 0 ? "the text to insert is missing" : '"insert_text" and "new_str" both given',
      "Pass the text to insert as insert_text (or new_str, its older name), not both",
    );
  }
  const text = args[given[0]!]!;
  const rel = await stage.resolve(args.path);
  const file = await stage.readText(rel);
  // Each line with its own ending, as the file has it.
  const lines = file.text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const at = args.insert_line!;
  if (at > lines.length) {
    throw refuse(
      name,
      args,
      `insert_line ${at} is past the end: the file has ${lines.length} line${lines.length === 1 ? "" : "s"}`,
      `Pass insert_line between 0 (the start) and ${lines.length} (after the last line)`,
    );
  }
  const body = text === "" || text.endsWith("\n") ? text : `${text}\n`;
  const guard = passThrough(args, {});
  if (lines.length === 0) {
    return {
      tool: "write_file",
      args: { path: rel, content: body, expected_version: file.version, ...guard },
    };
  }
  // Anchor on the line before the insertion point (the first line for insert_line 0), picked by start_line.
  const anchor = lines[Math.max(at, 1) - 1]!;
  let newText: string;
  if (at === 0) newText = body + anchor;
  else if (anchor.endsWith("\n")) newText = anchor + body;
  else newText = `${anchor}\n${body.replace(/\n$/, "")}`; // after a last line without a newline: keep it so
  return {
    tool: "edit_file",
    args: { path: rel, old_string: anchor, new_string: newText, start_line: Math.max(at, 1), ...guard },
  };
}

/** Map one text editor call to the graver call that does its work. */
async function forwardTextEditor(
  name: string,
  args: TextEditorArgs,
  ctx: ForwardContext,
): Promise<ForwardedCall> {
  switch (args.command) {
    case "view":
      checkArgs(name, args, []);
      return await view(name, args, ctx);
    case "create":
      checkArgs(name, args, ["file_text"]);
      // As Anthropic's editor: create refuses an existing file, unless a version says which one to replace.
      return {
        tool: args.expected_version === undefined ? "create_file" : "write_file",
        args: passThrough(args, { path: args.path, content: args.file_text }),
      };
    case "str_replace":
      checkArgs(name, args, ["old_str"]);
      return {
        tool: "edit_file",
        args: passThrough(args, {
          path: args.path,
          old_string: args.old_str,
          new_string: args.new_str ?? "",
        }),
      };
    case "insert":
      checkArgs(name, args, ["insert_line"]);
      return await insert(name, args, ctx);
    case "undo_edit":
      if (ctx.workspace.checkpoints) return { tool: "checkpoint_undo", args: { path: args.path } };
      throw new RecoverableError(
        "invalid_args",
        `Cannot call ${name} undo_edit on "${args.path}": this workspace records no checkpoints`,
        {
          hint:
            "Open the workspace with checkpoints: true to undo through checkpoint_undo; until then undo by hand: the diff of the edit you want to revert shows the old text; put it back with command str_replace, or view the file and re-create it",
          suggestedCall: { tool: "read_file", args: { path: args.path } },
          details: { command: "undo_edit", path: args.path },
        },
      );
  }
}

const SCHEMA = objectSchema({
  command: {
    type: "string",
    enum: ["view", "create", "str_replace", "insert", "undo_edit"],
    description:
      "view a file (numbered lines) or a directory; create a new file (replace one: add expected_version); str_replace exact text; insert text after a line; undo_edit reverts the newest checkpoint of the file (refused when the workspace records no checkpoints)",
  },
  path: {
    type: "string",
    minLength: 1,
    description:
      'File or directory, relative to the workspace root (or absolute inside it), e.g. "src/main.py"',
  },
  view_range: {
    type: "array",
    items: { type: "integer" },
    minItems: 2,
    maxItems: 2,
    description: "view: [first, last] line, 1-based and inclusive; [first, -1] reads to the end",
  },
  old_str: {
    type: "string",
    description: "str_replace: the text to replace, copied exactly (it must occur once)",
  },
  new_str: { type: "string", description: "str_replace: the replacement (default empty); insert: the text" },
  file_text: { type: "string", description: "create: the whole content of the file" },
  insert_line: {
    type: "integer",
    minimum: 0,
    description: "insert: the line after which the text goes; 0 inserts at the start of the file",
  },
  insert_text: { type: "string", description: "insert: the text to insert (or new_str)" },
  expected_version: EXPECTED_VERSION,
  dry_run: DRY_RUN,
}, ["command", "path"]);

function textEditorTool(name: string, flavour: string): ToolDefinition<TextEditorArgs> {
  return {
    name,
    description:
      `Anthropic's text editor tool (${flavour}), for models trained on it; each command runs the graver tool behind it. view: read_file (or list_files for a directory); create: create_file (an existing file is refused; with expected_version, write_file replaces it); str_replace: edit_file (old_str must match once; whitespace drift is tolerated); insert: edit_file after insert_line. undo_edit: checkpoint_undo of the file (refused when the workspace records no checkpoints: revert with str_replace). Guards and refusals are those of the tool behind each command; the result names that tool. Prefer graver's own tools (replace_symbol, edit_apply_node) for whole definitions.`,
    inputSchema: SCHEMA,
    kind: "alias",
    mutates: true,
    forwardsTo: ["read_file", "list_files", "create_file", "write_file", "edit_file", "checkpoint_undo"],
    forward: (args, ctx) => forwardTextEditor(name, args, ctx),
    handler: forwardedOnly(name),
  };
}

/** Anthropic's text editor tool under its Claude 4 name (`text_editor_20250728`). */
export const strReplaceBasedEditTool: ToolDefinition<TextEditorArgs> = textEditorTool(
  "str_replace_based_edit_tool",
  "text_editor_20250728, Claude 4",
);

/** Anthropic's text editor tool under its earlier name (`text_editor_20250124` / `text_editor_20241022`). */
export const strReplaceEditor: ToolDefinition<TextEditorArgs> = textEditorTool(
  "str_replace_editor",
  "text_editor_20250124 and _20241022",
);
