/**
 * What the definition gate found, as data and as words: the finding and
 * verdict shapes a `definition_gate` refusal carries in its details, and the
 * refusal itself — what the edit does to which definition, where, and the
 * structural call to make instead.
 *
 * @module
 */
import { RecoverableError, type SuggestedCall } from "../errors.ts";

/** What kind of definition edit a finding is, and so which tool it routes to. */
export type DefinitionEditKind = "remove" | "insert" | "replace" | "rename";

/** A span of lines (1-based, inclusive). */
export interface LineSpan {
  /** First line. */
  start_line: number;
  /** Last line. */
  end_line: number;
}

/** A definition an edit touches. */
export interface TouchedDefinition {
  /** Symbol kind (`function`, `class` …); for a definition found by its keyword only, the keyword's kind. */
  kind: string;
  /** Its name ("" when the tree gives none). */
  name: string;
  /** Its name path in the file's outline (absent when the tags query does not list it). */
  name_path?: string;
  /** Which text it is in: the file before the edit or after it. */
  side: "before" | "after";
  /** Its lines in that text. */
  lines: LineSpan;
}

/** One refused (or, in warn mode, reported) hunk of an edit. */
export interface DefinitionFinding {
  /** What the hunk does to a definition. */
  edit: DefinitionEditKind;
  /** The lines of the old text the hunk removes or changes (absent for a pure insertion). */
  before_lines?: LineSpan;
  /** The lines of the new text the hunk adds (absent for a pure removal). */
  after_lines?: LineSpan;
  /** The definitions whose headers it touches. */
  definitions: TouchedDefinition[];
  /** For a rename: the definition's name path and its old and new names. */
  rename?: { name_path: string; from: string; to: string };
  /** The structural call that does the same, arguments filled in, when it can be inferred. */
  suggested_call?: SuggestedCall;
  /** The structural tool to use (also when no call could be filled in); null for a rename without a rename tool. */
  tool: string | null;
}

/** The gate's decision on one file. */
export interface DefinitionGateVerdict {
  /** Relative path. */
  path: string;
  /** Language id, or null when no grammar applies. */
  language: string | null;
  /** Why the gate did not look at the edit, when it did not. */
  skipped?: "unchanged" | "no_grammar" | "not_code";
  /** The hunks that edit definitions (empty: the edit passes). */
  findings: DefinitionFinding[];
}

function lines(s: LineSpan): string {
  return s.start_line === s.end_line ? `line ${s.start_line}` : `lines ${s.start_line}–${s.end_line}`;
}

function label(d: TouchedDefinition): string {
  return `${d.kind} "${d.name_path ?? d.name}"`;
}

/** What a finding does, said for a message: "lines 3–9 remove function "f"". */
function what(f: DefinitionFinding): string {
  const where = f.before_lines ? lines(f.before_lines) : `${lines(f.after_lines!)} (of the new text)`;
  const olds = f.definitions.filter((d) => d.side === "before");
  const news = f.definitions.filter((d) => d.side === "after");
  const main = olds[0] ?? news[0]!;
  switch (f.edit) {
    case "remove":
      return `${where} remove ${label(main)}`;
    case "insert":
      return `${lines(f.after_lines!)} of the new text add ${label(news[0] ?? main)}`;
    case "rename":
      return `${where} rename${
        f.before_lines && f.before_lines.start_line === f.before_lines.end_line ? "s" : ""
      } ${olds[0]?.kind ?? main.kind} "${f.rename!.name_path}" to "${f.rename!.to}"`;
    default:
      return `${where} rewrite the header of ${label(main)}`;
  }
}

function hintOf(f: DefinitionFinding): string {
  const call = f.suggested_call;
  const bodies = "edits inside a body that leave every definition's header alone pass as text";
  switch (f.edit) {
    case "remove":
      return call
        ? `Call remove_symbol with name_path "${
          call.args["name_path"]
        }" (the suggested call): it removes the definition with its decorators, doc comment and blank lines`
        : "Find the definition's name path with outline, then call remove_symbol";
    case "insert":
      return call
        ? `Call insert_code (the suggested call puts this code ${call.args["position"]} "${
          call.args["name_path"]
        }"); it re-indents the code and keeps the blank-line convention`
        : "Call insert_code with the name path of a neighbouring definition (see outline) and position before/after";
    case "rename":
      return call
        ? `Call ${call.tool} (the suggested call): it renames the definition and updates every reference`
        : `A rename needs the rename tool, which also updates every reference, and this workspace has none yet: keep the name "${
          f.rename!.from
        }" (${bodies}), or rewrite the whole definition with replace_symbol if nothing else refers to it`;
    default:
      return call
        ? `Call replace_symbol with name_path "${
          call.args["name_path"]
        }" and the whole new definition, signature included, as new_text (the suggested call carries the text this edit would leave); ${bodies}`
        : `Call replace_symbol with the name path of the definition (see outline) and the whole new definition as new_text; ${bodies}`;
  }
}

/**
 * The `definition_gate` refusal for a verdict with findings: what the edit
 * does to which definition, where (path, lines), and the structural call to
 * make instead (`suggested_call`, arguments filled in when inferable).
 *
 * @param verdict A verdict with at least one finding.
 * @param options `tool`: the freeform tool refused (for the message; default "a text edit").
 * @returns The error to throw.
 */
export function definitionGateError(
  verdict: DefinitionGateVerdict,
  options: { tool?: string } = {},
): RecoverableError {
  const first = verdict.findings[0];
  if (!first) throw new TypeError("definitionGateError needs a verdict with findings");
  const more = verdict.findings.length - 1;
  const use = first.tool ? `; use ${first.tool}` : "; a rename needs the rename tool";
  const message = `Cannot edit "${verdict.path}" with ${options.tool ?? "a text edit"}: ${what(first)}${use}${
    more > 0 ? ` (and ${more} more definition edit${more === 1 ? "" : "s"} in this file)` : ""
  }`;
  return new RecoverableError("definition_gate", message, {
    hint: hintOf(first),
    ...(first.suggested_call ? { suggestedCall: first.suggested_call } : {}),
    details: { path: verdict.path, language: verdict.language, findings: verdict.findings },
  });
}
