/**
 * Grammars: tree-sitter languages loaded from WASM — bytes, a URL or a
 * precompiled `WebAssembly.Module` — lazily on first use, then cached. Where
 * the wasm comes from is the adapter's business ({@linkcode WasmLoader}).
 * web-tree-sitter's JS itself is imported when the runtime starts
 * ({@linkcode initRuntime}), not when this module loads: a call that parses
 * nothing never evaluates it (and a bundle that splits code, like the workerd
 * worker's, keeps it out of the module evaluated at start).
 *
 * @module
 */
import type * as WebTreeSitter from "web-tree-sitter";
import type { Language, Parser } from "web-tree-sitter";
import manifest from "../../grammars/manifest.json" with { type: "json" };
import { PROFILES } from "../languages/profiles.ts";

/** One language of `grammars/manifest.json`. */
export interface GrammarEntry {
  /** npm package that ships the wasm. */
  package: string;
  /** Pinned package version. */
  version: string;
  /** Wasm file inside the package. */
  file: string;
  /** SHA-256 of the wasm file. */
  sha256: string;
  /** File extensions with the dot (".ts"). */
  extensions: string[];
  /** Exact file names (e.g. "Rakefile"). */
  filenames?: string[];
  /** Interpreter names after `#!` (e.g. "python3"). */
  shebangs?: string[];
}

/** The language manifest: id -> entry. */
export type GrammarManifest = Record<string, GrammarEntry>;

/** The manifest shipped in `grammars/manifest.json`. */
export const GRAMMARS: GrammarManifest = manifest.languages as GrammarManifest;

/** Wasm as an adapter can hand it over. */
export type WasmInput = Uint8Array | WebAssembly.Module | URL;

/** How an adapter provides the runtime and grammar wasm. */
export interface WasmLoader {
  /** The tree-sitter runtime wasm (`web-tree-sitter.wasm`). */
  runtime(): Promise<WasmInput>;
  /** A grammar's wasm by language id. */
  grammar(id: string, entry: GrammarEntry): Promise<WasmInput>;
}

let runtimeReady: Promise<void> | null = null;
let runtimeModule: typeof WebTreeSitter | null = null;

/**
 * web-tree-sitter's classes (`Query`, `Parser`, `Language`…) once the runtime has started: any code holding a
 * loaded `Language` may call this.
 *
 * @returns The module.
 * @throws TypeError before {@linkcode initRuntime} has finished (no language can be loaded before it).
 */
export function treeSitter(): typeof WebTreeSitter {
  if (!runtimeModule) {
    throw new TypeError("Cannot use web-tree-sitter before its runtime started: load a language first");
  }
  return runtimeModule;
}

/** How much of a file {@linkcode Grammars.languageOf} looks at (shebang, C++ markers in `.h` headers). */
export const HEAD_CHARS = 4096;

/**
 * Languages loaded in this process, by id and SHA-256 of their wasm: every
 * workspace shares one copy (a loaded language is never freed by tree-sitter,
 * so loading it per workspace would grow the wasm memory without end).
 */
const LOADED = new Map<string, Promise<Language>>();

/** Fetch wasm bytes from a URL (http(s) everywhere; file: where the runtime's fetch supports it). */
async function fetchWasm(url: URL): Promise<Uint8Array> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`Cannot fetch wasm from "${url.href}": HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/**
 * Start the tree-sitter runtime once per process (later calls share it).
 *
 * @param loader Supplies the runtime wasm.
 */
export function initRuntime(loader: WasmLoader): Promise<void> {
  runtimeReady ??= (async () => {
    const [wasm, ts] = await Promise.all([loader.runtime(), import("web-tree-sitter")]);
    if (wasm instanceof WebAssembly.Module) {
      // Runtimes that forbid compiling wasm from bytes (workerd) hand us a module.
      await ts.Parser.init({
        instantiateWasm(
          imports: WebAssembly.Imports,
          done: (i: WebAssembly.Instance, m: WebAssembly.Module) => void,
        ) {
          const instance = new WebAssembly.Instance(wasm, imports);
          done(instance, wasm);
          return instance.exports;
        },
      } as never);
    } else {
      const bytes = wasm instanceof URL ? await fetchWasm(wasm) : wasm;
      await ts.Parser.init({ wasmBinary: bytes, locateFile: (name: string) => name } as never);
    }
    runtimeModule = ts;
  })().catch((err) => {
    runtimeReady = null;
    throw err;
  });
  return runtimeReady;
}

/**
 * Language registry over a manifest and a loader: finds the language of a
 * path, loads it on first use and caches it.
 *
 * @example Find the language of a path
 * ```ts
 * import { Grammars } from "@graver/core";
 * import assert from "node:assert/strict";
 *
 * const grammars = new Grammars({ runtime: () => Promise.reject(), grammar: () => Promise.reject() });
 * assert.equal(grammars.languageOf("src/app.tsx"), "tsx");
 * assert.equal(grammars.languageOf("bin/run", "#!/usr/bin/env python3\n"), "python");
 * assert.equal(grammars.languageOf("notes.txt"), null);
 * ```
 */
export class Grammars {
  /** The manifest in use. */
  readonly manifest: GrammarManifest;
  readonly #loader: WasmLoader;
  readonly #languages = new Map<string, Promise<Language>>();
  readonly #byExt = new Map<string, string>();
  readonly #byName = new Map<string, string>();
  readonly #byShebang = new Map<string, string>();

  /**
   * Make a grammar registry; grammars load lazily on first use.
   *
   * @param loader Supplies wasm.
   * @param manifestIn Languages (default: the shipped manifest).
   */
  constructor(loader: WasmLoader, manifestIn: GrammarManifest = GRAMMARS) {
    this.#loader = loader;
    this.manifest = manifestIn;
    for (const [id, e] of Object.entries(manifestIn)) {
      for (const ext of e.extensions) if (!this.#byExt.has(ext)) this.#byExt.set(ext, id);
      for (const n of e.filenames ?? []) this.#byName.set(n, id);
      for (const s of e.shebangs ?? []) this.#byShebang.set(s, id);
    }
  }

  /** Language ids, in manifest order. */
  ids(): string[] {
    return Object.keys(this.manifest);
  }

  /**
   * The language id for a path (by file name, extension, then shebang).
   *
   * @param path A relative path.
   * @param head The start of the file ({@linkcode HEAD_CHARS} characters are enough): its shebang, and for a
   *   `.h` header whether it is C++ (templates, classes, namespaces, `::`), since C and C++ share the extension.
   * @returns The id, or null when no grammar applies.
   */
  languageOf(path: string, head?: string): string | null {
    const base = path.slice(path.lastIndexOf("/") + 1);
    const byName = this.#byName.get(base);
    if (byName) return byName;
    const dot = base.lastIndexOf(".");
    if (dot > 0 || (dot === 0 && this.#byName.has(base))) {
      const ext = base.slice(dot).toLowerCase();
      const byExt = this.#byExt.get(ext);
      const claimant = head === undefined
        ? undefined
        : PROFILES.find(({ id, claimsHeader: c }) =>
          c?.extension === ext && c.from === byExt && c.marker.test(head) && this.manifest[id]
        );
      if (claimant) return claimant.id;
      if (byExt) return byExt;
    }
    if (head?.startsWith("#!")) {
      const tokens = head.slice(2).split("\n", 1)[0]!.trim().split(/\s+/);
      let interp = tokens[0]?.slice(tokens[0].lastIndexOf("/") + 1);
      if (interp === "env") interp = tokens.slice(1).find((t) => !t.startsWith("-") && !t.includes("="));
      if (interp) {
        return this.#byShebang.get(interp) ?? this.#byShebang.get(interp.replace(/[\d.]+$/, "")) ?? null;
      }
    }
    return null;
  }

  /**
   * Load a language (first call loads, later calls share the result; so do
   * other registries of this process asking for the same wasm by SHA-256).
   *
   * @param id Language id from the manifest.
   * @returns The loaded language.
   */
  language(id: string): Promise<Language> {
    let p = this.#languages.get(id);
    if (p) return p;
    const entry = this.manifest[id];
    if (!entry) return Promise.reject(new TypeError(`Cannot load language "${id}": not in the manifest`));
    const key = entry.sha256 ? `${id}@${entry.sha256}` : null;
    p = (key ? LOADED.get(key) : undefined) ?? (async () => {
      await initRuntime(this.#loader);
      const wasm = await this.#loader.grammar(id, entry);
      const { Language } = treeSitter();
      if (wasm instanceof WebAssembly.Module) return Language.loadSync(wasm);
      return await Language.load(wasm instanceof URL ? await fetchWasm(wasm) : wasm);
    })();
    p.catch(() => {
      this.#languages.delete(id);
      if (key && LOADED.get(key) === p) LOADED.delete(key);
    });
    this.#languages.set(id, p);
    if (key) LOADED.set(key, p);
    return p;
  }

  /**
   * A parser set to a language.
   *
   * @param id Language id.
   * @returns A new parser (callers may keep and reuse it).
   */
  async parser(id: string): Promise<Parser> {
    const language = await this.language(id);
    const parser = new (treeSitter().Parser)();
    parser.setLanguage(language);
    return parser;
  }
}
