/**
 * edit_capabilities: what the structural tools can do for each language of
 * the grammar manifest, computed from data alone — the manifest, the
 * workspace's wasm loader and graver's embedded queries — without loading any
 * grammar's wasm; each gap with the fallback to use.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import { GRAMMARS } from "../syntax/grammars.ts";
import { ModuleResolver } from "../syntax/module_resolution.ts";
import {
  extractLanguages,
  inlineLanguages,
  movableSystem,
  SIGNATURE_LANGUAGES,
} from "../structural/shared/refactor_languages.ts";
import { queryIndexEngine } from "./_lazy.ts";
import { objectSchema } from "./_schema.ts";
import type { ToolDefinition } from "./types.ts";
import { shape, STRING } from "./_result_schema.ts";

/** Arguments of edit_capabilities. */
export interface EditCapabilitiesArgs {
  /** Only this language id. */
  language?: string;
}

/** A capability name. */
export type Capability =
  | "syntax_check"
  | "outline"
  | "find_symbol"
  | "name_path_edits"
  | "node_selectors"
  | "patterns"
  | "anchors"
  | "safe_text_patch"
  | "find_references"
  | "rename_symbol"
  | "change_signature"
  | "move_decl"
  | "move_file_imports"
  | "extract_function"
  | "inline";

/** One row of the matrix. */
export interface LanguageCapabilities {
  /** Language id. */
  language: string;
  /** File extensions and names it applies to. */
  extensions: string[];
  /** Whether this workspace has its grammar: a wasm loader and a manifest entry naming the wasm file (loaded on first use, not by this tool). */
  grammar: boolean;
  /** Why it has not, when it has not. */
  grammar_error?: string;
  /** Whether graver has a tags query (outline, name paths) for it. */
  tags_query: boolean;
  /** Whether graver has a binding query (scopes, imports: find_references, edit_rename_symbol) for it. */
  bindings_query: boolean;
  /**
   * How far find_references and edit_rename_symbol follow a name: "project" (imports and modules across the
   * workspace's files) or "file" (within one file); absent without a binding query.
   */
  reference_scope?: "project" | "file";
  /** Capability -> available. */
  capabilities: Record<Capability, boolean>;
  /** Available capabilities that work only in part, with what is refused. */
  limits?: { capability: Capability; limit: string }[];
  /** Every missing capability with what to use instead. */
  gaps: { capability: Capability; fallback: string }[];
}

/** What each capability needs, and what to use when it is missing. */
const NEEDS: Record<
  Capability,
  {
    needs: "grammar" | "tags" | "bindings" | "nothing" | "modules" | "bindings_modules";
    fallback: string;
    /** Only these languages among those with what `needs` names. */
    languages?: () => readonly string[];
  }
> = {
  syntax_check: { needs: "grammar", fallback: "no parse check at commit: review the diff before committing" },
  outline: { needs: "tags", fallback: "read_file, or a tree-sitter query selector to list nodes" },
  find_symbol: { needs: "tags", fallback: "list_files + read_file" },
  name_path_edits: {
    needs: "tags",
    fallback: 'edit_apply_node / edit_insert_at_anchor with a {"pattern": ...} or {"query": ...} selector',
  },
  node_selectors: { needs: "grammar", fallback: "edit_safe_text_patch" },
  patterns: { needs: "grammar", fallback: "edit_safe_text_patch" },
  anchors: { needs: "grammar", fallback: "edit_safe_text_patch" },
  safe_text_patch: { needs: "nothing", fallback: "write_file" },
  find_references: {
    needs: "bindings",
    fallback: "find_symbol for the declaration, then a text search: matches are not resolved through scopes",
  },
  rename_symbol: {
    needs: "bindings",
    fallback:
      'edit_apply_node with {"pattern": ...} and select "all" on each file, after checking every match by hand (no scope resolution)',
  },
  change_signature: {
    needs: "bindings",
    languages: () => SIGNATURE_LANGUAGES,
    fallback:
      "replace_symbol on the declaration, then edit each call site (find_references lists them where supported)",
  },
  move_decl: {
    needs: "bindings_modules",
    fallback: "remove_symbol + insert_code in the destination, then fix the imports of every user by hand",
  },
  move_file_imports: {
    needs: "modules",
    fallback: "move_file with update_imports: false, then fix the imports that named the file by hand",
  },
  extract_function: {
    needs: "bindings",
    languages: extractLanguages,
    fallback:
      "insert_code the new function next to the enclosing one, then edit_safe_text_patch the statements into a call (parameters and returns worked out by hand)",
  },
  inline: {
    needs: "bindings",
    languages: inlineLanguages,
    fallback:
      "find_symbol for the value or body, then edit_safe_text_patch at each use (check shadowing and side effects by hand)",
  },
};

const FILE_SCOPE_LIMIT =
  'names are resolved within one file: scope "project" is refused (unsupported_language) for a symbol another file of the language names; call with scope "file"';
const FILE_SCOPE_LIMITS: { capability: Capability; limit: string }[] = [
  { capability: "find_references", limit: FILE_SCOPE_LIMIT },
  { capability: "rename_symbol", limit: FILE_SCOPE_LIMIT },
];

/** The edit_capabilities tool. */
export const editCapabilities: ToolDefinition<EditCapabilitiesArgs> = {
  name: "edit_capabilities",
  description:
    "Which structural edits and refactors work for each language — outline, name-path edits, node selectors, code patterns, anchors, safe text patch; find_references and edit_rename_symbol (across files for TypeScript, TSX, JavaScript, Python, Go and Rust; within one file for Java, C#, C, C++, Kotlin, Ruby and PHP — reference_scope and limits say which); edit_change_signature, edit_extract_function, edit_inline, edit_move_decl and move_file's import updates (TypeScript, TSX, JavaScript, Python; edit_extract_function also Go and Rust) — from data (the grammar manifest, this workspace's wasm loader, graver's queries; no grammar is loaded), with the fallback for every gap. Files of no listed language: only edit_safe_text_patch and the whole-file tools.",
  inputSchema: objectSchema({
    language: { type: "string", minLength: 1, description: 'Only this language id (e.g. "python")' },
  }),
  kind: "read",
  mutates: false,
  resultData: shape({
    languages: { type: "array", items: shape({ language: STRING }, ["language"]) },
    other_files: { type: "object" },
  }, ["languages"]),
  async handler(args, { workspace }) {
    const manifest = workspace.grammars?.manifest ?? GRAMMARS;
    const ids = Object.keys(manifest);
    if (args.language !== undefined && !ids.includes(args.language)) {
      throw new RecoverableError(
        "not_found",
        `Cannot describe "${args.language}": it is not a manifest language`,
        {
          hint: `Known languages: ${ids.join(", ")}; any other file: edit_safe_text_patch`,
          details: { languages: ids },
        },
      );
    }
    const queries = await queryIndexEngine();
    const tags = new Set(queries.languagesWithTags());
    const bindings = new Set(queries.languagesWithQuery("bindings"));
    const rows: LanguageCapabilities[] = [];
    for (const id of args.language ? [args.language] : ids) {
      const entry = manifest[id]!;
      let grammarError: string | undefined;
      if (!workspace.grammars) grammarError = "the workspace was opened without a wasm loader";
      else if (!entry.file) grammarError = `the manifest names no wasm file for "${id}"`;
      const grammar = grammarError === undefined;
      const hasTags = grammar && tags.has(id);
      const hasBindings = grammar && bindings.has(id);
      const modules = grammar && movableSystem(id) !== null;
      const capabilities = {} as Record<Capability, boolean>;
      const gaps: LanguageCapabilities["gaps"] = [];
      for (const [cap, need] of Object.entries(NEEDS) as [Capability, (typeof NEEDS)[Capability]][]) {
        const ok = (need.needs === "nothing" ||
          (need.needs === "grammar"
            ? grammar
            : need.needs === "tags"
            ? hasTags
            : need.needs === "modules"
            ? modules
            : need.needs === "bindings_modules"
            ? hasBindings && hasTags && modules
            : hasBindings)) &&
          (need.languages === undefined || need.languages().includes(id));
        capabilities[cap] = ok;
        if (!ok) gaps.push({ capability: cap, fallback: need.fallback });
      }
      const row: LanguageCapabilities = {
        language: id,
        extensions: [...entry.extensions, ...(entry.filenames ?? [])],
        grammar,
        tags_query: tags.has(id),
        bindings_query: bindings.has(id),
        capabilities,
        gaps,
      };
      if (grammarError !== undefined) row.grammar_error = grammarError;
      if (hasBindings) {
        const scope = ModuleResolver.systemOf(id) === null ? "file" : "project";
        row.reference_scope = scope;
        if (scope === "file") row.limits = FILE_SCOPE_LIMITS;
      }
      rows.push(row);
    }
    return {
      data: {
        languages: rows,
        other_files: {
          capabilities: ["safe_text_patch"],
          fallback: "edit_safe_text_patch (exact old_text -> new_text, hash-guarded) or write_file",
        },
      },
    };
  },
};
