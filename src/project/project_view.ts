/**
 * The project as the engines see it: one walk over the workspace and what
 * they need of the files it finds. A {@linkcode ProjectView} lists files
 * through the project walk (`fs/walk.ts`: version-control folders and
 * `.graver/` never entered, `.gitignore` honoured, `node_modules` skipped,
 * links that leave the root skipped and counted), reads their texts through
 * the call's stage (staged edits that are not committed are seen), parses
 * on demand through the tree cache, and answers which files mention a word
 * (`words.ts`). Every bound comes from one {@linkcode ProjectLimits} set
 * (`limits.ts`), and what a bound or a rule left out is counted in the
 * view's {@linkcode ProjectReach}.
 *
 * Engines take a `ProjectView`, not a workspace: references, imports
 * rewriting, the file-local check, find_symbol and did-you-mean all walk
 * through it.
 *
 * @module
 */
import { RecoverableError } from "../errors.ts";
import type { Stage } from "../fs/stage.ts";
import { decodeText } from "../fs/text.ts";
import {
  GITIGNORE_ONLY,
  skippedCounts,
  type WalkEntry,
  walkProject,
  type WalkSkipped,
  type WalkSource,
} from "../fs/walk.ts";
import { HEAD_CHARS } from "../syntax/grammars.ts";
import { type ParsedFile, utf8LengthUpTo } from "../syntax/trees.ts";
import type { Parsing } from "../syntax/types.ts";
import { PROJECT_LIMITS, type ProjectLimits } from "./limits.ts";
import type { ReadCache } from "./read_cache.ts";
import { WalkRecord } from "./walk_record.ts";
import { WordIndex } from "./words.ts";

/** Which entries a listing walks and keeps. */
export interface FileQuery {
  /** Folder to walk (a real relative path, "" for the root: the default). */
  under?: string;
  /** Enter subfolders (default true). */
  recursive?: boolean;
  /** Also list what `.gitignore` ignores and `node_modules` (default false). */
  includeIgnored?: boolean;
  /** Leave out names that start with a dot, counted as ignored (default false). */
  skipHidden?: boolean;
  /** The ignore files read in each folder, later ones winning (default only `.gitignore`). */
  ignoreFiles?: readonly string[];
  /** Which entries to keep (default: files only); folders are entered either way. */
  accept?: (entry: WalkEntry) => boolean;
  /** Most entries kept (default: the view's file limit). */
  limit?: number;
  /**
   * A session's read cache: folders whose stat is unchanged keep their listing (a read-only search passes
   * it; a listing an edit depends on never does).
   */
  cache?: ReadCache;
  /**
   * Told the entries accepted so far as the walk goes on (`WalkOptions.progress`); a listing answered from the
   * cache's memory comes whole, without a call.
   */
  progress?: (entries: readonly WalkEntry[], ignoredBefore: readonly number[]) => void;
  /** Asked before each folder: true ends the walk there (`WalkOptions.stopped`); such a listing is not remembered. */
  stopped?: () => boolean;
}

/** What one listing found. */
export interface Listing {
  /** Accepted entries, in walk order (depth first, names in order, what links reach last). */
  entries: WalkEntry[];
  /** The real paths of the accepted files, in walk order: where to read them. */
  files: string[];
  /** True when the listing stopped at its limit. */
  truncated: boolean;
  /** The limit it was given. */
  limit: number;
  /** Entries left out by ignore rules (and hidden ones when asked). */
  ignored: number;
  /** For each entry, how many were ignored before the walk reached it (`WalkResult.ignoredBefore`). */
  ignoredBefore?: number[];
  /** Entries left out as unsafe to follow or open, or unreadable. */
  skipped: WalkSkipped;
  /** Folders it could not read (the first few). */
  unreadable: string[];
}

/** Files a view did not read, by cause (beside the walk's own causes). */
export interface ReadSkipped {
  /** Larger than the file-size limit. */
  too_large: number;
  /** Binary (a NUL byte where text would have none). */
  binary: number;
  /** Not valid UTF-8. */
  not_utf8: number;
  /** The read failed (permission denied, or gone since it was listed). */
  unreadable_file: number;
  /** Past the total-bytes limit. */
  over_budget: number;
}

/** How far a view reached: what it listed and what it left out, and why. */
export interface ProjectReach {
  /** Files listed by the last listing. */
  listed: number;
  /** Whether that listing stopped at its limit. */
  truncated: boolean;
  /** Its file limit. */
  limit: number;
  /** Entries it left out by ignore rules. */
  ignored: number;
  /** What the walk and the reads left out, by cause (only causes that happened), or null. */
  skipped: Partial<WalkSkipped & ReadSkipped> | null;
  /** Folders the walk could not read. */
  unreadable: string[];
}

/** A file's text as a view read it. */
export interface ProjectText {
  /** The decoded text (BOM stripped). */
  text: string;
  /** Its language by name and first characters, or null when no grammar knows it. */
  language: string | null;
}

/** The narrow view of a workspace that project-wide engines take. */
export interface ProjectView {
  /** The limits this view applies. */
  readonly limits: ProjectLimits;
  /** Walk the workspace (the one walk) and list what `query` accepts. */
  list(query?: FileQuery): Promise<Listing>;
  /** The real paths of the files `query` accepts. */
  files(query?: FileQuery): Promise<string[]>;
  /** A file's text through the stage, or null when absent, unreadable or over a limit (then counted). */
  read(path: string): Promise<ProjectText | null>;
  /** A file's parse through the tree cache, or null when it has no grammar or cannot be read. */
  tree(path: string): Promise<ParsedFile | null>;
  /** Whether a file holds `word` as a whole word. */
  mentions(path: string, word: string): Promise<boolean>;
  /** The files of `paths` that hold `word` as a whole word (the word index). */
  filesMentioning(word: string, paths: Iterable<string>): Promise<string[]>;
  /** A file's language by its name, or null. */
  languageOf(path: string): string | null;
  /** What the last listing and every read reached and left out. */
  reach(): ProjectReach;
}

/** How to open a {@linkcode ProjectView}. */
export interface ProjectViewOptions {
  /** The call's stage: listings and reads go through it. */
  stage: Stage;
  /** Grammars and the tree cache (default none: languages unknown, no parse; a plain text search). */
  parsing?: Parsing;
  /** The limits (default {@linkcode PROJECT_LIMITS}.resolve). */
  limits?: ProjectLimits;
}

/** Why a read failed, as the reach counts it. */
function readFailure(err: unknown): "binary" | "not_utf8" | "unreadable_file" {
  const code = err instanceof RecoverableError ? err.code : null;
  return code === "binary_file" ? "binary" : code === "encoding" ? "not_utf8" : "unreadable_file";
}

/** Whether an entry is a file (what a listing keeps by default). */
const isFile = (e: WalkEntry): boolean => e.kind === "file";

/** A view over a stage: listings walked on request, texts read once and kept for the view's life. */
class StagedProject implements ProjectView {
  readonly limits: ProjectLimits;
  readonly #stage: Stage;
  readonly #parsing: Parsing;
  readonly #texts = new Map<string, ProjectText | null>();
  readonly #words: WordIndex;
  readonly #unread: ReadSkipped = {
    too_large: 0,
    binary: 0,
    not_utf8: 0,
    unreadable_file: 0,
    over_budget: 0,
  };
  #bytesRead = 0;
  #last: Listing | null = null;

  constructor(options: ProjectViewOptions) {
    this.#stage = options.stage;
    this.#parsing = options.parsing ?? { grammars: null, trees: null };
    this.limits = options.limits ?? PROJECT_LIMITS.resolve;
    this.#words = new WordIndex(async (path) => (await this.read(path))?.text ?? null);
  }

  async list(query: FileQuery = {}): Promise<Listing> {
    const memo = this.#memoKey(query);
    if (memo) {
      const known = await memo.cache.recallWalk<Listing>(memo.key);
      if (known) return this.#last = known;
    }
    const record = memo ? new WalkRecord() : undefined;
    const limit = query.limit ?? this.limits.files;
    const walked = await walkProject(await this.#source(query, record), query.under ?? "", {
      recursive: query.recursive ?? true,
      includeIgnored: query.includeIgnored === true,
      skipHidden: query.skipHidden === true,
      ...(query.ignoreFiles ? { ignoreFiles: query.ignoreFiles } : {}),
      accept: query.accept ?? isFile,
      limit,
      ...(query.progress ? { progress: query.progress } : {}),
      ...(query.stopped ? { stopped: query.stopped } : {}),
    });
    const files = walked.entries.filter(isFile).map((e) => e.real);
    this.#last = { ...walked, files, limit };
    if (memo && record && walked.skipped.unreadable === 0 && walked.stopped !== true) {
      await memo.cache.noteFiles(record, this.#ignoreFilesRead(query, record));
      memo.cache.rememberWalk(memo.key, this.#last, record);
    }
    return this.#last;
  }

  /**
   * Where a listing may be remembered in the query's read cache, and under what key: only a listing of files
   * (no `accept` of the caller's, whose effects a remembered answer would skip) over a stage with nothing
   * staged.
   */
  #memoKey(query: FileQuery): { cache: ReadCache; key: string } | null {
    const cache = query.cache;
    if (!cache || query.accept || this.#stage.hasWrites()) return null;
    // The root too: entries are named relative to it, and sessions over one backend may have nested roots.
    const key = JSON.stringify([
      this.#stage.sandbox.root,
      this.#stage.sandbox.abs(query.under ?? ""),
      query.recursive ?? true,
      query.includeIgnored === true,
      query.skipHidden === true,
      query.ignoreFiles ?? null,
      query.limit ?? this.limits.files,
    ]);
    return { cache, key };
  }

  /**
   * The ignore files a walk read or looked for: those its listed folders hold, and those of the start
   * folder's parents (read whether they exist or not).
   */
  #ignoreFilesRead(query: FileQuery, record: WalkRecord): string[] {
    if (query.includeIgnored === true) return [];
    const names = query.ignoreFiles ?? GITIGNORE_ONLY;
    const out: string[] = [];
    const parts = (query.under ?? "") === "" ? [] : query.under!.split("/");
    for (let i = 0; i < parts.length; i++) {
      const parent = this.#stage.sandbox.abs(parts.slice(0, i).join("/"));
      for (const name of names) out.push(`${parent === "/" ? "" : parent}/${name}`);
    }
    for (const [abs, names_] of record.ignoreFiles) for (const name of names_) out.push(`${abs}/${name}`);
    return out;
  }

  /**
   * What the walk lists and reads through: the stage, its folder listings through the cache if given (noting
   * in `record` each folder, the ignore files it holds, and any link followed).
   */
  async #source(query: FileQuery, record?: WalkRecord): Promise<WalkSource> {
    const stage = this.#stage;
    const cache = query.cache;
    if (!cache) return stage;
    await cache.primeFolders(stage.sandbox.abs(query.under ?? ""));
    const names = query.includeIgnored === true ? [] : query.ignoreFiles ?? GITIGNORE_ONLY;
    const listTyped = async (abs: string) => {
      const entries = await cache.listTyped(abs, record, stage.landing);
      const held = names.filter((n) => entries.some((e) => e.name === n));
      if (record && held.length > 0) record.ignoreFiles.set(abs === "/" ? "" : abs, held);
      return entries;
    };
    return {
      list: (dir) => stage.list(dir, { listTyped }),
      read: (rel) => stage.read(rel),
      follow: (rel) => {
        // A link is resolved at each use: a walk that followed one is never answered from memory.
        if (record) record.usable = false;
        return stage.follow(rel);
      },
    };
  }

  async files(query: FileQuery = {}): Promise<string[]> {
    return (await this.list(query)).files;
  }

  async read(path: string): Promise<ProjectText | null> {
    if (this.#texts.has(path)) return this.#texts.get(path)!;
    const out = await this.#readOnce(path);
    this.#texts.set(path, out);
    return out;
  }

  /** Read a file within the limits, counting what they leave out. */
  async #readOnce(path: string): Promise<ProjectText | null> {
    // A stat per file only when a size limit is set: a resolving walk reads every source file anyway.
    const bounded = Number.isFinite(this.limits.fileBytes) || Number.isFinite(this.limits.totalBytes);
    let size = bounded ? await this.#stage.size(path).catch(() => null) : null;
    if (size !== null && !this.#withinLimits(size)) return null;
    let text: string;
    try {
      const file = await this.#stage.peekText(path);
      if (!file) return null;
      text = file.text;
    } catch (err) {
      this.#unread[readFailure(err)]++;
      return null;
    }
    if (bounded && size === null) {
      // The backend gave no size: measure the text instead.
      size = utf8LengthUpTo(text, this.limits.fileBytes);
      if (!this.#withinLimits(size)) return null;
    }
    this.#bytesRead += size ?? 0;
    const language = this.#parsing.grammars?.languageOf(path, text.slice(0, HEAD_CHARS)) ?? null;
    return { text, language };
  }

  /** Whether a file of `size` bytes may be read; when not, the cause is counted. */
  #withinLimits(size: number): boolean {
    if (size > this.limits.fileBytes) this.#unread.too_large++;
    else if (this.#bytesRead + size > this.limits.totalBytes) this.#unread.over_budget++;
    else return true;
    return false;
  }

  async tree(path: string): Promise<ParsedFile | null> {
    const trees = this.#parsing.trees;
    const read = await this.read(path);
    if (!trees || !read?.language) return null;
    const file = await this.#stage.read(path);
    if (!file) return null;
    const { text } = decodeText(file.bytes, path);
    return await trees.parse(path, read.language, file.version, text);
  }

  mentions(path: string, word: string): Promise<boolean> {
    return this.#words.mentions(path, word);
  }

  filesMentioning(word: string, paths: Iterable<string>): Promise<string[]> {
    return this.#words.filesMentioning(word, paths);
  }

  languageOf(path: string): string | null {
    return this.#parsing.grammars?.languageOf(path) ?? null;
  }

  reach(): ProjectReach {
    const last = this.#last;
    const walked = last?.skipped ?? { outside_root: 0, special_file: 0, unreadable: 0 };
    const skipped: Partial<WalkSkipped & ReadSkipped> = skippedCounts(walked) ?? {};
    for (const [key, n] of Object.entries(this.#unread) as [keyof ReadSkipped, number][]) {
      if (n > 0) skipped[key] = n;
    }
    return {
      listed: last?.files.length ?? 0,
      truncated: last?.truncated ?? false,
      limit: last?.limit ?? this.limits.files,
      ignored: last?.ignored ?? 0,
      skipped: Object.keys(skipped).length > 0 ? skipped : null,
      unreadable: last?.unreadable ?? [],
    };
  }
}

/**
 * Open a view of the workspace through a stage (nothing is walked or read until asked).
 *
 * @param options The stage, grammars and limits.
 * @returns The view.
 */
export function openProject(options: ProjectViewOptions): ProjectView {
  return new StagedProject(options);
}
