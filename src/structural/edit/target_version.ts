/**
 * The language version a project declares, and which generated syntax it
 * allows: `requires-python` (pyproject.toml) or `python_requires`
 * (setup.cfg), `compilerOptions.target` (tsconfig.json, jsconfig.json) and
 * `edition` (Cargo.toml), read from the nearest configuration above the
 * edited file through the narrow file-reading interface the engines get (the
 * call's stage), never the Workspace. What each version allows is data: one
 * table per language of the syntax a generator may emit and the version that
 * introduced it.
 *
 * @module
 */

/** How the module reads configuration files (the call's `Stage` satisfies it). */
export interface ConfigReader {
  /** Whether a relative path holds a file. */
  exists(rel: string): Promise<boolean>;
  /** A file's decoded text. */
  readText(rel: string): Promise<{ text: string }>;
}

/** The version a project declares for one language. */
export interface DeclaredVersion {
  /** The language family: "python", "ecmascript" or "rust". */
  family: Family;
  /** The lowest version the declaration admits, as numbers (`[3, 10]`, `[2017]`, `[2021]`). */
  version: number[];
  /** The declaration as written (`>=3.10`, `ES2017`, `2021`). */
  written: string;
  /** The configuration file it comes from (relative path). */
  source: string;
  /** The field in it (`project.requires-python`). */
  field: string;
}

/** A language family whose version a project can declare. */
export type Family = "python" | "ecmascript" | "rust";

/** A piece of syntax a generator may emit, and the version that introduced it. */
export interface SyntaxFeature {
  /** The lowest version that accepts it. */
  since: number[];
  /** What it is, for a refusal's message. */
  what: string;
  /**
   * The tree-sitter nodes that are it: a node type, optionally with a child
   * token it must have (`except_clause` with `*`) or a text ending (`1n`).
   * Empty when only a structural check finds it (f-string fields).
   */
  nodes: readonly SyntaxMatcher[];
}

/** One node shape a {@linkcode SyntaxFeature} is recognised by. */
export interface SyntaxMatcher {
  /** The node type. */
  type: string;
  /** A child token (anonymous node) it must have. */
  child?: string;
  /** How its text must end. */
  textEnds?: string;
}

/** Syntax whose availability depends on the declared version, per family (data, not branches). */
export const SYNTAX_SINCE = {
  python: {
    assignment_expression: {
      since: [3, 8],
      what: "an assignment expression `:=` (PEP 572)",
      nodes: [{ type: "named_expression" }],
    },
    match_statement: {
      since: [3, 10],
      what: "a match statement (PEP 634)",
      nodes: [{ type: "match_statement" }],
    },
    except_star: {
      since: [3, 11],
      what: "`except*` (PEP 654)",
      nodes: [{ type: "except_clause", child: "*" }],
    },
    fstring_quote_reuse: {
      since: [3, 12],
      what: "an f-string replacement field that reuses the f-string's own quote (PEP 701)",
      nodes: [],
    },
    fstring_backslash: {
      since: [3, 12],
      what: "a backslash in an f-string replacement field (PEP 701)",
      nodes: [],
    },
    fstring_comment: {
      since: [3, 12],
      what: "a comment in an f-string replacement field (PEP 701)",
      nodes: [],
    },
    type_statement: {
      since: [3, 12],
      what: "a `type` alias statement (PEP 695)",
      nodes: [{ type: "type_alias_statement" }],
    },
  },
  ecmascript: {
    private_name: {
      since: [2015],
      what: "a private name `#x` (TypeScript needs target ES2015)",
      nodes: [{ type: "private_property_identifier" }],
    },
    bigint_literal: {
      since: [2020],
      what: "a BigInt literal `1n` (TypeScript needs target ES2020)",
      nodes: [{ type: "number", textEnds: "n" }],
    },
  },
  rust: {
    async_fn: {
      since: [2018],
      what: "`async fn` and async blocks (edition 2018)",
      nodes: [{ type: "function_modifiers", child: "async" }, { type: "async_block" }],
    },
    let_chains: {
      since: [2024],
      what: "`let` chains in `if` (edition 2024)",
      nodes: [{ type: "let_chain" }],
    },
  },
} as const satisfies Record<Family, Record<string, SyntaxFeature>>;

/** Where a family's version is declared, nearest first in each folder. */
interface ConfigField {
  file: string;
  field: string;
  read(text: string): string | null;
  parse(written: string): number[] | null;
}

const CONFIGS: Record<Family, ConfigField[]> = {
  python: [
    {
      file: "pyproject.toml",
      field: "project.requires-python",
      read: (t) => tomlString(t, "project", "requires-python"),
      parse: pythonFloor,
    },
    {
      file: "pyproject.toml",
      field: "tool.poetry.dependencies.python",
      read: (t) => tomlString(t, "tool.poetry.dependencies", "python"),
      parse: pythonFloor,
    },
    {
      file: "setup.cfg",
      field: "options.python_requires",
      read: (t) => iniValue(t, "options", "python_requires"),
      parse: pythonFloor,
    },
  ],
  ecmascript: [
    { file: "tsconfig.json", field: "compilerOptions.target", read: jsonTarget, parse: esYear },
    { file: "jsconfig.json", field: "compilerOptions.target", read: jsonTarget, parse: esYear },
  ],
  rust: [
    {
      file: "Cargo.toml",
      field: "package.edition",
      read: (t) => tomlString(t, "package", "edition"),
      parse: (w) => /^\d{4}$/.test(w) ? [Number(w)] : null,
    },
  ],
};

const FAMILY_OF: Record<string, Family> = {
  python: "python",
  typescript: "ecmascript",
  tsx: "ecmascript",
  javascript: "ecmascript",
  rust: "rust",
};

/**
 * The family whose declared version governs a language, or null.
 *
 * @param language A language id ("python", "tsx", …).
 * @returns The family.
 */
export function familyOfLanguage(language: string): Family | null {
  return FAMILY_OF[language] ?? null;
}

/**
 * The version the project declares for a file's language: the first
 * declaration found in the file's folder, then each folder above it up to
 * the root. Null when the language has no such setting or none is declared
 * (a configuration that cannot be read is treated as none).
 *
 * @param reader The call's stage (or any {@linkcode ConfigReader}).
 * @param path The edited file (relative path).
 * @param language The file's language id ("python", "typescript", "rust", …).
 * @returns The declaration, or null.
 *
 * @example A pyproject.toml above the file
 * ```ts
 * import { declaredVersion } from "./target_version.ts";
 * import assert from "node:assert/strict";
 *
 * const files: Record<string, string> = { "pyproject.toml": '[project]\nrequires-python = ">=3.10"\n' };
 * const reader = {
 *   exists: (rel: string) => Promise.resolve(rel in files),
 *   readText: (rel: string) => Promise.resolve({ text: files[rel]! }),
 * };
 * const v = await declaredVersion(reader, "click/utils.py", "python");
 * assert.deepEqual(v?.version, [3, 10]);
 * assert.equal(v?.source, "pyproject.toml");
 * ```
 */
export async function declaredVersion(
  reader: ConfigReader,
  path: string,
  language: string,
): Promise<DeclaredVersion | null> {
  const family = familyOfLanguage(language);
  if (!family) return null;
  const parts = path.replace(/\\/g, "/").split("/").filter((p) => p !== "" && p !== ".");
  for (let depth = parts.length - 1; depth >= 0; depth--) {
    const dir = parts.slice(0, depth).join("/");
    for (const config of CONFIGS[family]) {
      const rel = dir === "" ? config.file : `${dir}/${config.file}`;
      const written = await readField(reader, rel, config);
      const version = written === null ? null : config.parse(written);
      if (written !== null && version !== null) {
        return { family, version, written, source: rel, field: config.field };
      }
    }
  }
  return null;
}

/**
 * Whether generated code may use a piece of syntax under the declared
 * version (true when nothing is declared: the caller cannot know better).
 *
 * @param declared The project's declaration, or null.
 * @param feature The syntax, from {@linkcode SYNTAX_SINCE}.
 * @returns Whether the declared lowest version accepts it.
 *
 * @example
 * ```ts
 * import { allows, SYNTAX_SINCE } from "./target_version.ts";
 * import assert from "node:assert/strict";
 *
 * const declared = {
 *   family: "python" as const,
 *   version: [3, 10],
 *   written: ">=3.10",
 *   source: "pyproject.toml",
 *   field: "project.requires-python",
 * };
 * assert.equal(allows(declared, SYNTAX_SINCE.python.fstring_quote_reuse), false);
 * assert.equal(allows(declared, SYNTAX_SINCE.python.match_statement), true);
 * ```
 */
export function allows(declared: DeclaredVersion | null, feature: SyntaxFeature): boolean {
  if (declared === null) return true;
  const a = declared.version;
  const b = feature.since;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

/**
 * The reason a refusal gives: what the syntax is, the version it needs and
 * what the project declares (`... needs Python 3.12; pyproject.toml declares
 * requires-python ">=3.10"`).
 *
 * @param declared The project's declaration.
 * @param feature The syntax it does not allow.
 * @returns One clause.
 */
export function tooNew(declared: DeclaredVersion, feature: SyntaxFeature): string {
  const name = { python: "Python ", ecmascript: "ES", rust: "edition " }[declared.family];
  const key = declared.field.slice(declared.field.lastIndexOf(".") + 1);
  return `${feature.what} needs ${name}${
    feature.since.join(".")
  }, and ${declared.source} declares ${key} "${declared.written}"`;
}

async function readField(reader: ConfigReader, rel: string, config: ConfigField): Promise<string | null> {
  try {
    if (!(await reader.exists(rel))) return null;
    return config.read((await reader.readText(rel)).text);
  } catch {
    return null; // unreadable or outside the sandbox: no declaration
  }
}

/** The lowest Python version a PEP 440 specifier (or Poetry's `^3.10`) admits; null without a lower bound. */
function pythonFloor(spec: string): number[] | null {
  let floor: number[] | null = null;
  for (const clause of spec.split(/[,|]/)) {
    const m = /^\s*(>=|~=|==|\^|~|>)?\s*(\d+)(?:\.(\d+))?/.exec(clause);
    if (!m) continue; // an upper bound or an exclusion says nothing about the floor
    const v = [Number(m[2]), Number(m[3] ?? 0)];
    if (floor === null || v[0]! > floor[0]! || (v[0] === floor[0] && v[1]! > floor[1]!)) floor = v;
  }
  return floor;
}

/** ECMAScript target names as years: ES3, ES5, ES6 = ES2015 … ESNext. */
function esYear(target: string): number[] | null {
  const t = target.toLowerCase();
  if (t === "esnext") return [9999];
  if (t === "es6") return [2015];
  const m = /^es(\d+)$/.exec(t);
  return m ? [Number(m[1])] : null;
}

/** A string value `key = "..."` in a TOML table (`[table]`), without a full TOML parser. */
function tomlString(text: string, table: string, key: string): string | null {
  let current = "";
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[([^\][]+)\]\s*(?:#.*)?$/.exec(line);
    if (header) {
      current = header[1]!.trim().replace(/\s*\.\s*/g, ".").replace(/"/g, "");
      continue;
    }
    if (current !== table) continue;
    const m = /^\s*"?([\w.-]+)"?\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(line);
    if (m && m[1] === key) return m[2] ?? m[3] ?? null;
  }
  return null;
}

/** A value `key = value` in an INI section (setup.cfg). */
function iniValue(text: string, section: string, key: string): string | null {
  let current = "";
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[([^\]]+)\]/.exec(line);
    if (header) {
      current = header[1]!.trim();
      continue;
    }
    if (current !== section) continue;
    const m = /^\s*([\w.-]+)\s*[=:]\s*(.*?)\s*$/.exec(line);
    if (m && m[1] === key && m[2] !== "") return m[2]!;
  }
  return null;
}

/** `compilerOptions.target` of a tsconfig/jsconfig (JSON with comments and trailing commas). */
function jsonTarget(text: string): string | null {
  const plain = text.replace(
    /"(?:[^"\\]|\\.)*"|\/\/[^\n]*|\/\*[\s\S]*?\*\//g,
    (m) => m.startsWith('"') ? m : "",
  )
    .replace(/,(\s*[}\]])/g, "$1");
  try {
    const target = (JSON.parse(plain) as { compilerOptions?: { target?: unknown } }).compilerOptions?.target;
    return typeof target === "string" ? target : null;
  } catch {
    return null;
  }
}
