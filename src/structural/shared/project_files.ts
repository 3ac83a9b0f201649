/**
 * The workspace as a cross-file name search sees it: the source files whose
 * language has a module system graver resolves, read and parsed to bindings
 * on demand (each at most once per search), the module resolver over them,
 * and the cheap text filter that skips files which cannot name a symbol.
 * Where a language's module scope spans several files — a Go package (every
 * file of a directory with the same `package` clause), a Rust `use m::*` —
 * a file's free names declared at the top of those files are linked to them
 * when the file is loaded (its module scope gets a `linked` binding).
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";
import { RecoverableError } from "../../errors.ts";
import type { Stage } from "../../fs/stage.ts";
import { skippedCounts, type WalkSkipped } from "../../fs/walk.ts";
import { PROJECT_LIMITS } from "../../project/limits.ts";
import { openProject, type ProjectView } from "../../project/project_view.ts";
import { wordOffsets } from "../../project/words.ts";
import { type Binding, declare } from "../../syntax/binding_model.ts";
import { type FileBindings, fileBindings } from "../../syntax/bindings.ts";
import { onlyInComments } from "../../syntax/comment_spans.ts";
import {
  cargoCrateName,
  type GoModule,
  goModulePath,
  ModuleResolver,
  type RustCrate,
  tsconfigMapping,
} from "../../syntax/module_resolution.ts";
import type { Parsing } from "../../syntax/types.ts";

/** Most source files a project-wide search walks (more is refused with `limit_exceeded`, never cut short). */
export const MAX_PROJECT_FILES: number = PROJECT_LIMITS.resolve.files;

/** Languages whose comments {@linkcode onlyInComments} finds without a parse. */
const LEXED = new Set(["typescript"]);

const STAR = /export\s*\*|import\s*\*|::\s*\*/;
const ES_NAMESPACE_IMPORT = /import\s*\*\s*as\s+([\p{L}_$][\p{L}\p{N}_$]*)/gu;

/**
 * Whether a file may pass a module's names on without naming them: a star re-export (`export *`, Python's
 * `from m import *`, Rust's `use m::*`), or in TypeScript and JavaScript a namespace import the file exports
 * again (`import * as ns from "m"; export { ns }`). A TypeScript namespace import alone does not: `ns.x`
 * holds the name x.
 */
function passesNamesOn(text: string, language: string): boolean {
  if (!profileOf(language).moduleSystem?.namespaceImportsHoldNames) return STAR.test(text);
  if (/export\s*\*/.test(text)) return true;
  for (const m of text.matchAll(ES_NAMESPACE_IMPORT)) {
    const ns = m[1]!.replace(/\$/g, "\\$");
    if (
      new RegExp(
        `export\\s*(?:default\\s+${ns}(?![\\p{L}\\p{N}_$])|\\{[^}]*(?<![\\p{L}\\p{N}_$])${ns}(?![\\p{L}\\p{N}_$]))`,
        "u",
      ).test(text)
    ) {
      return true;
    }
  }
  return false;
}

/** The workspace as the search sees it: files with a bindings grammar, read and parsed on demand. */
export class ProjectFiles {
  readonly #parsing: Parsing;
  readonly #stage: Stage;
  /** The project walk, texts and word index this search reads through. */
  readonly #view: ProjectView;
  /** Source files and their languages, by relative path. */
  readonly files: Map<string, string> = new Map();
  /** Bindings of every file parsed so far, by relative path. */
  readonly parsed: Map<string, FileBindings> = new Map();
  /**
   * Files that name a searched name in their comments only (found without a parse, so left unparsed), with
   * their texts: what a rename's text sweep reports besides the parsed files. By name, then path.
   */
  readonly commented: Map<string, Map<string, string>> = new Map();
  /** Whether each file passes names on ({@linkcode passesNamesOn}): the same for every name searched. */
  readonly #passes = new Map<string, boolean>();
  /** Candidate files by module system and name (a search asks again for each module that re-exports it). */
  readonly #candidates = new Map<string, string[]>();
  readonly #linked = new Set<string>();
  /** What the walk left out (links that leave the root, special files), when anything; null until opened. */
  skipped: Partial<WalkSkipped> | null = null;
  /** Module resolution over the workspace's files (empty until opened). */
  resolver: ModuleResolver = new ModuleResolver([]);

  /**
   * A view of the stage (nothing is read until {@linkcode ProjectFiles.open}).
   *
   * @param parsing Grammars and parse cache.
   * @param stage The call's stage.
   */
  constructor(parsing: Parsing, stage: Stage) {
    this.#parsing = parsing;
    this.#stage = stage;
    this.#view = openProject({ stage, parsing, limits: PROJECT_LIMITS.resolve });
  }

  /** List the workspace's source files and build the module resolver (tsconfig `paths` when present). */
  async open(): Promise<void> {
    const grammars = this.#parsing.grammars!;
    const walked = await this.#view.list({
      accept: (e) => e.kind === "file" && ModuleResolver.systemOf(grammars.languageOf(e.real) ?? "") !== null,
    });
    if (walked.truncated) {
      throw new RecoverableError(
        "limit_exceeded",
        `Cannot search the workspace for references: it holds more than ${MAX_PROJECT_FILES} source files`,
        {
          hint: 'Call again with scope "file", or open the workspace on a smaller root',
          details: { limit: MAX_PROJECT_FILES },
        },
      );
    }
    this.skipped = skippedCounts(walked.skipped);
    // Real paths: a file reached through a link is read and written at its target, never at the link.
    for (const e of walked.entries) this.files.set(e.real, grammars.languageOf(e.real)!);
    let mapping = null;
    // A config that links out of the root is skipped like any such link (the stage refuses to read it).
    if (await this.#stage.exists("tsconfig.json").catch(() => false)) {
      const tsconfig = await this.#stage.readText("tsconfig.json").catch(() => null);
      if (tsconfig) mapping = tsconfigMapping(tsconfig.text, "");
    }
    const goModules: GoModule[] = [];
    if (await this.#stage.exists("go.mod").catch(() => false)) {
      const mod = await this.#stage.readText("go.mod").catch(() => null);
      const path = mod ? goModulePath(mod.text) : null;
      if (path) goModules.push({ dir: "", path });
    }
    this.resolver = new ModuleResolver(this.files.keys(), mapping, {
      goModules,
      rustCrates: await this.#rustCrates(),
    });
  }

  /** The library crates of the workspace: each `src/lib.rs` with a Cargo.toml beside its `src/`, and its name. */
  async #rustCrates(): Promise<RustCrate[]> {
    const out: RustCrate[] = [];
    for (const rel of this.files.keys()) {
      if (rel !== "src/lib.rs" && !rel.endsWith("/src/lib.rs")) continue;
      const dir = rel.slice(0, -"src/lib.rs".length).replace(/\/$/, "");
      const manifest = await this.#stage.readText(dir ? `${dir}/Cargo.toml` : "Cargo.toml").catch(() => null);
      const name = manifest ? cargoCrateName(manifest.text) : null;
      if (name) out.push({ dir, name });
    }
    return out;
  }

  /**
   * A file's text and language (null when unreadable or of no known language). Its version is computed
   * only when the file is parsed: most files a search reads do not contain the name.
   *
   * @param rel Relative path.
   * @returns The file, or null.
   */
  async text(rel: string): Promise<{ text: string; language: string } | null> {
    const read = await this.#view.read(rel);
    return read && read.language ? { text: read.text, language: read.language } : null;
  }

  /**
   * A file's bindings, parsed once per search.
   *
   * @param rel Relative path.
   * @returns The bindings, or null when the file has no binding rules.
   */
  async bindings(rel: string): Promise<FileBindings | null> {
    const fb = await this.#load(rel);
    if (fb && !this.#linked.has(rel)) {
      this.#linked.add(rel);
      await this.#link(fb);
    }
    return fb;
  }

  /** A file's bindings, parsed once per search, not linked to other files. */
  async #load(rel: string): Promise<FileBindings | null> {
    const hit = this.parsed.get(rel);
    if (hit) return hit;
    const t = await this.text(rel);
    if (!t) return null;
    const { version } = await this.#stage.readExisting(rel);
    const fb = await fileBindings(this.#parsing, { path: rel, ...t, version });
    if (fb) this.parsed.set(rel, fb);
    return fb;
  }

  /**
   * The files whose top-level names a file sees without importing them one by one: the other files of
   * its Go package, the modules a Rust file imports with `use m::*`.
   *
   * @param fb The file's bindings.
   * @returns Relative paths.
   */
  async sharedScopes(fb: FileBindings): Promise<string[]> {
    const system = profileOf(fb.language).moduleSystem;
    if (system?.moduleIsDirectory) {
      const dir = ModuleResolver.moduleOf(fb.path, fb.language);
      const name = system.declaredPackage(fb.text);
      const out: string[] = [];
      for (const [rel, language] of this.files) {
        if (rel === fb.path || language !== fb.language || ModuleResolver.moduleOf(rel, language) !== dir) {
          continue;
        }
        const t = await this.text(rel);
        if (t && system.declaredPackage(t.text) === name) out.push(rel);
      }
      return out;
    }
    const out: string[] = [];
    for (const g of fb.globs ?? []) {
      const hit = this.resolver.resolve(fb.path, fb.language, g);
      if (hit) out.push(hit);
    }
    return out;
  }

  /**
   * The top-level binding of `name` in each file that shares its scope with `fb` ({@linkcode sharedScopes}).
   *
   * @param fb The file's bindings.
   * @param name The name.
   * @returns Each such file's bindings and its binding of the name.
   */
  async sharedBindings(fb: FileBindings, name: string): Promise<{ fb: FileBindings; binding: Binding }[]> {
    const out: { fb: FileBindings; binding: Binding }[] = [];
    for (const rel of await this.sharedScopes(fb)) {
      const other = await this.bindings(rel);
      const b = other ? other.scopes[0]!.bindings.get(name) : undefined;
      if (other && b && b.kind !== "import") out.push({ fb: other, binding: b });
    }
    return out;
  }

  /** Link a file's free names to the top-level declarations of the files sharing its scope. */
  async #link(fb: FileBindings): Promise<void> {
    const shared = await this.sharedScopes(fb);
    if (shared.length === 0) return;
    const declared = new Set<string>();
    for (const rel of shared) {
      const other = await this.#load(rel);
      if (!other) continue;
      for (const [name, b] of other.scopes[0]!.bindings) {
        if (b.kind !== "import" && !b.linked) declared.add(name);
      }
    }
    const module = fb.scopes[0]!;
    for (const occ of fb.occurrences) {
      if (occ.binding !== null || !declared.has(occ.name)) continue;
      if (occ.kind !== "reference" && occ.kind !== "shorthand") continue;
      const b = declare(module, occ.name, "lexical");
      if (!b.import) b.linked = true;
      occ.binding = b;
    }
  }

  /**
   * The files of a module as {@linkcode ModuleResolver.resolve} names it: the file, or a Go package's files.
   *
   * @param key A resolved module.
   * @returns Relative paths.
   */
  moduleFiles(key: string): string[] {
    if (this.files.has(key)) return [key];
    const out: string[] = [];
    for (const [rel, language] of this.files) {
      if (
        profileOf(language).moduleSystem?.moduleIsDirectory && ModuleResolver.moduleOf(rel, language) === key
      ) {
        out.push(rel);
      }
    }
    return out;
  }

  #passesNamesOn(path: string, t: { text: string; language: string }): boolean {
    let known = this.#passes.get(path);
    if (known === undefined) this.#passes.set(path, known = passesNamesOn(t.text, t.language));
    return known;
  }

  /**
   * Files of the same module system as `rel` that may export `name` again without using it: an export clause
   * naming it (`export { ns }`, `export { ns } from "m"`), or a file that passes names on
   * ({@linkcode passesNamesOn}).
   *
   * @param rel The file the search starts from.
   * @param name The exported name.
   * @returns Relative paths.
   */
  async reexporters(rel: string, name: string): Promise<string[]> {
    const system = ModuleResolver.systemOf(this.files.get(rel) ?? "");
    const word = name.replace(/\$/g, "\\$");
    const clause = new RegExp(`export\\s*\\{[^}]*(?<![\\p{L}\\p{N}_$])${word}(?![\\p{L}\\p{N}_$])`, "u");
    const out: string[] = [];
    for (const [path, language] of this.files) {
      if (ModuleResolver.systemOf(language) !== system) continue;
      const t = await this.text(path);
      if (
        t && (this.#passesNamesOn(path, t) || (await this.#view.mentions(path, name) && clause.test(t.text)))
      ) {
        out.push(path);
      }
    }
    return out;
  }

  /**
   * Files of the same module system as `rel` whose text may name `name`
   * (it holds the whole word, or passes names on: {@linkcode passesNamesOn}). A TypeScript file
   * whose every mention of the name is in a comment (a lexer is sure of it:
   * {@linkcode onlyInComments}) cannot name the symbol: it is recorded in
   * {@linkcode ProjectFiles.commented} and not returned, so it is not parsed.
   *
   * @param rel The file the search starts from.
   * @param name The name.
   * @returns Relative paths.
   */
  async candidates(rel: string, name: string): Promise<string[]> {
    const system = ModuleResolver.systemOf(this.files.get(rel) ?? "");
    const key = `${system}\0${name}`;
    const known = this.#candidates.get(key);
    if (known) return known;
    const out: string[] = [];
    for (const [path, language] of this.files) {
      if (ModuleResolver.systemOf(language) !== system) continue;
      const t = await this.text(path);
      if (!t) continue;
      if (this.#passesNamesOn(path, t)) out.push(path);
      else if (!(await this.#view.mentions(path, name))) continue;
      else if (
        LEXED.has(t.language) && !this.parsed.has(path) &&
        onlyInComments(t.text, wordOffsets(t.text, name), name.length)
      ) {
        let byPath = this.commented.get(name);
        if (!byPath) this.commented.set(name, byPath = new Map());
        byPath.set(path, t.text);
      } else out.push(path);
    }
    this.#candidates.set(key, out);
    return out;
  }
}
