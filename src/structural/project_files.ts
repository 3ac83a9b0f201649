/**
 * The workspace as a cross-file name search sees it: the source files whose
 * language has a module system graver resolves, read and parsed to bindings
 * on demand (each at most once per search), the module resolver over them,
 * and the cheap text filter that skips files which cannot name a symbol.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import type { Stage } from "../fs/stage.ts";
import { walkProject } from "../fs/walk.ts";
import { type FileBindings, fileBindings } from "../syntax/bindings.ts";
import { HEAD_CHARS } from "../syntax/grammars.ts";
import { ModuleResolver, tsconfigMapping } from "../syntax/module_resolution.ts";
import type { Parsing } from "../syntax/types.ts";

/** Most source files a project-wide search walks (more is refused with `limit_exceeded`, never cut short). */
export const MAX_PROJECT_FILES = 20000;

const WORD = /[\p{L}\p{N}_$]/u;

/** Whether `text` holds `name` as a whole word. */
function hasWord(text: string, name: string): boolean {
  for (let i = text.indexOf(name); i >= 0; i = text.indexOf(name, i + 1)) {
    const before = i > 0 ? text[i - 1]! : "";
    const after = text[i + name.length] ?? "";
    if (!(before && WORD.test(before)) && !(after && WORD.test(after))) return true;
  }
  return false;
}

const STAR = /export\s*\*|import\s*\*/;

/** The workspace as the search sees it: files with a bindings grammar, read and parsed on demand. */
export class ProjectFiles {
  readonly #parsing: Parsing;
  readonly #stage: Stage;
  /** Source files and their languages, by relative path. */
  readonly files: Map<string, string> = new Map();
  readonly #texts = new Map<string, { text: string; version: string; language: string } | null>();
  /** Bindings of every file parsed so far, by relative path. */
  readonly parsed: Map<string, FileBindings> = new Map();
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
  }

  /** List the workspace's source files and build the module resolver (tsconfig `paths` when present). */
  async open(): Promise<void> {
    const grammars = this.#parsing.grammars!;
    const walked = await walkProject(this.#stage, "", {
      accept: (e) => e.kind === "file" && ModuleResolver.systemOf(grammars.languageOf(e.rel) ?? "") !== null,
      limit: MAX_PROJECT_FILES,
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
    for (const e of walked.entries) this.files.set(e.rel, grammars.languageOf(e.rel)!);
    let mapping = null;
    if (await this.#stage.exists("tsconfig.json")) {
      const tsconfig = await this.#stage.readText("tsconfig.json").catch(() => null);
      if (tsconfig) mapping = tsconfigMapping(tsconfig.text, "");
    }
    this.resolver = new ModuleResolver(this.files.keys(), mapping);
  }

  /**
   * A file's text, version and language (null when unreadable or of no known language).
   *
   * @param rel Relative path.
   * @returns The file, or null.
   */
  async text(rel: string): Promise<{ text: string; version: string; language: string } | null> {
    if (this.#texts.has(rel)) return this.#texts.get(rel)!;
    let out: { text: string; version: string; language: string } | null = null;
    try {
      const f = await this.#stage.readText(rel);
      const language = this.#parsing.grammars!.languageOf(rel, f.text.slice(0, HEAD_CHARS));
      if (language) out = { text: f.text, version: f.version, language };
    } catch {
      out = null;
    }
    this.#texts.set(rel, out);
    return out;
  }

  /**
   * A file's bindings, parsed once per search.
   *
   * @param rel Relative path.
   * @returns The bindings, or null when the file has no binding rules.
   */
  async bindings(rel: string): Promise<FileBindings | null> {
    const hit = this.parsed.get(rel);
    if (hit) return hit;
    const t = await this.text(rel);
    if (!t) return null;
    const fb = await fileBindings(this.#parsing, { path: rel, ...t });
    if (fb) this.parsed.set(rel, fb);
    return fb;
  }

  /**
   * Files of the same module system as `rel` whose text may name `name`
   * (it holds the whole word, or a star import/re-export).
   *
   * @param rel The file the search starts from.
   * @param name The name.
   * @returns Relative paths.
   */
  async candidates(rel: string, name: string): Promise<string[]> {
    const system = ModuleResolver.systemOf(this.files.get(rel) ?? "");
    const out: string[] = [];
    for (const [path, language] of this.files) {
      if (ModuleResolver.systemOf(language) !== system) continue;
      const t = await this.text(path);
      if (t && (hasWord(t.text, name) || STAR.test(t.text))) out.push(path);
    }
    return out;
  }
}
