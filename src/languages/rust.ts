/**
 * Rust: modules are files reached by `mod` and `use` paths (`crate::`,
 * `super::`), every item is reachable by path, the edition gates generated
 * syntax. Extraction supports it; inline and change signature do not.
 *
 * @module
 */
import { AS_WRITTEN, defineProfile, PLAIN_FLOW, PLAIN_MODULES, WORD_IDENTIFIER, words } from "./_base.ts";
import { tomlString } from "./_config_text.ts";
import { dirOf, joinPath } from "./module_paths.ts";
import type { FlowRules, LanguageProfile, RustCrate, SyntaxFeature } from "./types.ts";

/**
 * The name a Cargo.toml's library crate goes by in paths: `[lib] name`, else `[package] name` with `-` as `_`.
 *
 * @param text The Cargo.toml text.
 * @returns The crate name, or null (a virtual workspace manifest).
 */
export function cargoCrateName(text: string): string | null {
  const section = (name: string) => {
    const m = new RegExp(`^\\[${name}\\][^]*?(?=^\\[|(?![^]))`, "m").exec(text);
    return m ? /^\s*name\s*=\s*"([^"]+)"/m.exec(m[0])?.[1] ?? null : null;
  };
  return (section("lib") ?? section("package"))?.replace(/-/g, "_") ?? null;
}

/** A Rust file cargo builds as a crate of its own, found by its directory (an integration test, example, bench, binary). */
const RUST_TARGET_FILE = /(?:^|\/)(?:tests|examples|benches|src\/bin)\/(?!mod\.rs$)[^/]+\.rs$/;

/**
 * Whether a Rust file is a crate root cargo finds by where it lies (`tests/x.rs`, `examples/x.rs`,
 * `benches/x.rs`, `src/bin/x.rs`): its `crate::` is itself, and its `mod y;` is `y.rs` beside it.
 *
 * @param path A relative path.
 * @returns True for such a file.
 */
export function isRustTargetFile(path: string): boolean {
  return RUST_TARGET_FILE.test(path);
}

/**
 * What moving a Rust file breaks: a module is named by its path (`mod x;`, or Cargo for `lib.rs`/`main.rs`), which
 * graver does not rewrite; only a file Cargo finds by its directory may be renamed within it.
 *
 * @param from The file's path (relative).
 * @param to The destination path (relative).
 * @returns Why the move breaks the build, and the hint; null when it does not.
 */
export function rustFileMoveBreaks(from: string, to: string): { why: string; hint: string } | null {
  if (dirOf(from) === dirOf(to) && isRustTargetFile(from) && isRustTargetFile(to)) return null;
  return {
    why: /(?:^|\/)(?:lib|main)\.rs$/.test(from)
      ? "it is a crate root that Cargo finds by this path"
      : "it is a module that a `mod` declaration (or Cargo) names by its path, and graver does not rewrite `mod` declarations or `use` paths",
    hint:
      'Keep the file where it is, or pass update_imports: false to move the bytes only and then point its `mod` declaration at the new file (`#[path = "…"]`) yourself',
  };
}

/** The directory holding a Rust file's child modules: its own directory for lib.rs, main.rs, mod.rs and target roots. */
function rustModuleDir(file: string): string {
  const name = file.slice(file.lastIndexOf("/") + 1);
  if (name === "lib.rs" || name === "main.rs" || name === "mod.rs" || isRustTargetFile(file)) {
    return dirOf(file);
  }
  return joinPath(dirOf(file), name.replace(/\.rs$/, ""));
}

/**
 * The Rust file of a module path within the crate: `crate::a::b` from the
 * crate root (the nearest `lib.rs` or `main.rs` above the file), `self::`,
 * `super::` and a bare first segment (a child module of the file's module),
 * each segment `x.rs` or `x/mod.rs`.
 *
 * A first segment that names a library crate of the workspace (`semver::Version` in semver's own tests, a
 * sibling crate of a cargo workspace) starts from that crate's `src/lib.rs`.
 *
 * @param files The workspace's files.
 * @param path The file the path is written in (`from`), the path (`source`: `crate::error`, `super`,
 *   `parse`), and the workspace's library crates (`crates`).
 * @returns The module's file, or null (another crate, or a path that goes on into items).
 */
export function resolveRustPath(
  files: ReadonlySet<string>,
  path: { from: string; source: string; crates?: readonly RustCrate[] },
): string | null {
  const { from, source, crates = [] } = path;
  const first = (list: string[]) => list.find((c) => files.has(c.replace(/^\//, ""))) ?? null;
  const moduleFile = (dir: string) =>
    first([`${dir}.rs`, `${dir}/mod.rs`, `${dir}/lib.rs`, `${dir}/main.rs`].map((c) => c.replace(/^\//, "")));
  const segments = source.split("::").map((s) => s.trim()).filter((s) => s !== "");
  let file: string | null = from;
  let dir = rustModuleDir(from);
  let i = 0;
  const crate = crates.find((c) => c.name === segments[0]);
  if (segments[0] === "crate") {
    file = isRustTargetFile(from) ? from : null;
    for (let d: string | null = dirOf(from); d !== null && !file; d = d === "" ? null : dirOf(d)) {
      file = first([joinPath(d, "lib.rs"), joinPath(d, "main.rs")]);
    }
    if (!file) return null;
    dir = dirOf(file);
    i = 1;
  } else if (segments[0] === "self") i = 1;
  else if (crate && !first([joinPath(dir, `${crate.name}.rs`), joinPath(dir, `${crate.name}/mod.rs`)])) {
    file = first([joinPath(crate.dir, "src/lib.rs")]);
    if (!file) return null;
    dir = dirOf(file);
    i = 1;
  }
  while (segments[i] === "super") {
    dir = dirOf(dir);
    file = moduleFile(dir);
    if (!file) return null;
    i++;
  }
  for (; i < segments.length; i++) {
    const next = first([joinPath(dir, `${segments[i]}.rs`), joinPath(dir, `${segments[i]}/mod.rs`)]);
    if (!next) return null;
    file = next;
    dir = joinPath(dir, segments[i]!);
  }
  return file;
}

/** Rust items: declared for the whole block, so they cannot move out of it. */
const RUST_ITEMS = [
  "function_item",
  "struct_item",
  "enum_item",
  "union_item",
  "trait_item",
  "impl_item",
  "type_item",
  "const_item",
  "static_item",
  "mod_item",
  "use_declaration",
  "macro_definition",
  "extern_crate_declaration",
  "foreign_mod_item",
];

/** Statements and what leaves them, for extraction. */
export const RUST_FLOW: FlowRules = {
  ...PLAIN_FLOW,
  family: "rust",
  typedSignatures: true,
  blockValues: true,
  selfType: "Self",
  outputsByReference: true,
  containers: new Set(["block"]),
  functions: new Set([...RUST_ITEMS, "closure_expression", "async_block"]),
  thisFunctions: new Set(RUST_ITEMS),
  loops: new Set(["loop_expression", "while_expression", "for_expression"]),
  switches: new Set(),
  awaits: new Set(["await_expression"]),
  asyncStatements: new Set(),
  yields: new Set(),
  immovable: new Set(RUST_ITEMS),
  receivers: new Set(["self"]),
  returns: new Set(["return_expression"]),
  jumps: new Set(["break_expression", "continue_expression"]),
  defers: new Set(),
  tries: new Set(["try_expression"]),
};

/** Syntax that needs an edition of at least some year. */
export const RUST_SYNTAX = {
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
} as const satisfies Record<string, SyntaxFeature>;

/** Rust. */
export const RUST: LanguageProfile = defineProfile({
  id: "rust",
  displayName: "Rust",
  commentStarts: ["//", "/*"],
  // Block comments nest in Rust: the test stops at one rather than find its end.
  skippableComments: { line: ["//"], block: [] },
  closedNodes: {
    field_expression: ["field_identifier"],
    call_expression: ["arguments"],
    arguments: [")"],
    parameters: [")"],
    index_expression: ["]"],
    block: ["}"],
  },
  moduleSystem: {
    name: "rust",
    moduleIsDirectory: false,
    modulesAreValues: false,
    exportsEveryTopLevelName: true,
    exportsByCapital: false,
    resolvesPerFile: true,
    submodule: (source, name) => `${source}::${name}`,
    declaredPackage: () => null,
    resolve: (context, from, source) =>
      resolveRustPath(context.files, { from, source, crates: context.rustCrates }),
    ...PLAIN_MODULES,
    itemPaths: true,
    fileMoveBreaks: rustFileMoveBreaks,
  },
  identifiers: {
    pattern: WORD_IDENTIFIER,
    reserved: words(
      "as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while abstract become box do final macro override priv typeof unsized virtual yield try",
    ),
  },
  definitionKeywords: {
    fn: ["function_item", "function_signature_item", "ERROR"],
    struct: ["struct_item", "ERROR"],
    impl: ["impl_item"],
    trait: ["trait_item", "ERROR"],
    enum: ["enum_item", "ERROR"],
  },
  patternWrappers: [
    ...AS_WRITTEN,
    { prefix: "fn __w() {\n", suffix: "\n}" },
    { prefix: "fn __w() {\n", suffix: ";\n}" },
    { prefix: "impl __W {\n", suffix: "\n}" },
    { prefix: "struct __W {\n", suffix: "\n}" },
    { prefix: "trait __W {\n", suffix: "\n}" },
  ],
  flow: RUST_FLOW,
  refactors: {
    extractFunction: true,
    inline: false,
    changeSignature: false,
    moveDeclarationInto: [],
    renameFromEdits: true,
  },
  targetVersion: {
    family: "rust",
    versionLabel: "edition ",
    configs: [
      {
        file: "Cargo.toml",
        field: "package.edition",
        read: (t) => tomlString(t, "package", "edition"),
        parse: (w) => /^\d{4}$/.test(w) ? [Number(w)] : null,
      },
    ],
    syntax: RUST_SYNTAX,
  },
  searchTypeAliases: ["rs"],
});
