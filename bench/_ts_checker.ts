/**
 * An in-process TypeScript checker for the refactor soak: a semantic-diagnostics
 * builder program (TypeScript's own incremental checking) over an in-memory copy
 * of a project, so a trial re-checks only the files a change affects.
 *
 * @module
 */
import ts from "typescript";

/**
 * The compiler options rxjs@7.8.2's `src/` type-checks with here (strict; `rxjs` and `rxjs/*` mapped onto the
 * sources), shared by the rename oracle and the refactor soak.
 *
 * @param root The virtual root the sources sit under ("/rx/").
 * @returns The options.
 */
export function rxjsCompilerOptions(root: string): ts.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2018,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    lib: ["lib.es2018.d.ts", "lib.dom.d.ts"],
    strict: true,
    baseUrl: root,
    paths: { "rxjs": ["./"], "rxjs/*": ["./*"] },
    noEmit: true,
  };
}

/** Diagnostics counted by "file|code". */
export type DiagnosticCounts = Map<string, number>;

/** Checks versions of a project held in memory against its unchanged baseline. */
export class TsChecker {
  readonly #root: string;
  readonly #options: ts.CompilerOptions;
  readonly #base: Map<string, string>;
  readonly #baseBuilder: ts.SemanticDiagnosticsBuilderProgram;
  readonly baseline: DiagnosticCounts;
  readonly #sources = new Map<string, ts.SourceFile>();
  #versions = 0;

  /**
   * @param root Virtual root ("/p/").
   * @param files Relative path -> text.
   * @param options Compiler options.
   */
  constructor(root: string, files: Map<string, string>, options: ts.CompilerOptions) {
    this.#root = root;
    this.#options = options;
    this.#base = new Map(files);
    this.#baseBuilder = this.#build(this.#base, undefined);
    this.baseline = this.#drain(this.#baseBuilder, true);
  }

  /**
   * New diagnostics of a changed project: (file, code) counts above the baseline's.
   *
   * @param changed Relative path -> new text (null: deleted).
   * @returns One line per new diagnostic kind, with a sample message.
   */
  check(changed: Map<string, string | null>): string[] {
    const files = new Map(this.#base);
    for (const [p, t] of changed) t === null ? files.delete(p) : files.set(p, t);
    const builder = this.#build(files, this.#baseBuilder);
    const counts = new Map(this.baseline);
    for (const p of changed.keys()) {
      for (const k of [...counts.keys()]) if (k.startsWith(`${p}|`)) counts.delete(k);
    }
    const samples = new Map<string, string>();
    const fresh = this.#drain(builder, false, samples);
    // affected files replace their baseline counts
    for (const k of [...counts.keys()]) if (fresh.has(`${k.split("|")[0]}|*`)) counts.delete(k);
    // A deleted file's own diagnostics may reappear in a new file (a moved file keeps what it had).
    const carried = new Map<string, number>();
    for (const [p, t] of changed) {
      if (t !== null) continue;
      for (const [k, n] of this.baseline) {
        if (k.startsWith(`${p}|`)) carried.set(k.slice(p.length), (carried.get(k.slice(p.length)) ?? 0) + n);
      }
    }
    const out: string[] = [];
    for (const [k, n] of fresh) {
      if (k.endsWith("|*")) continue;
      let before = this.baseline.get(k) ?? 0;
      const code = k.slice(k.lastIndexOf("|"));
      if (!this.#base.has(k.slice(0, -code.length)) && (carried.get(code) ?? 0) > 0) {
        const take = Math.min(carried.get(code)!, n - before);
        carried.set(code, carried.get(code)! - take);
        before += take;
      }
      if (n > before) out.push(`${k}: ${n - before} new — ${samples.get(k) ?? ""}`);
    }
    return out;
  }

  #build(files: Map<string, string>, old: ts.SemanticDiagnosticsBuilderProgram | undefined) {
    const root = this.#root;
    const host = ts.createCompilerHost(this.#options);
    const inRoot = (f: string) => f.startsWith(root);
    const rel = (f: string) => f.slice(root.length);
    const dirs = new Set<string>();
    for (const f of files.keys()) {
      for (let d = f; d.includes("/");) dirs.add(root + (d = d.slice(0, d.lastIndexOf("/"))));
    }
    host.fileExists = (f) => inRoot(f) ? files.has(rel(f)) : ts.sys.fileExists(f);
    host.readFile = (f) => inRoot(f) ? files.get(rel(f)) : ts.sys.readFile(f);
    host.directoryExists = (d) =>
      inRoot(d) ? dirs.has(d.replace(/\/$/, "")) || d === root : ts.sys.directoryExists(d);
    host.getSourceFile = (f, lang) => {
      const text = inRoot(f) ? files.get(rel(f)) : ts.sys.readFile(f);
      if (text === undefined) return undefined;
      const cached = this.#sources.get(f);
      if (cached && cached.text === text) return cached;
      const sf = ts.createSourceFile(f, text, lang, true) as ts.SourceFile & { version: string };
      sf.version = String(++this.#versions);
      if (!inRoot(f) || this.#base.get(rel(f)) === text) this.#sources.set(f, sf);
      return sf;
    };
    host.getCurrentDirectory = () => root;
    const names = [...files.keys()].filter((f) => /\.tsx?$/.test(f)).map((f) => root + f);
    return ts.createSemanticDiagnosticsBuilderProgram(names, this.#options, host, old);
  }

  #drain(
    builder: ts.SemanticDiagnosticsBuilderProgram,
    all: boolean,
    samples?: Map<string, string>,
  ): DiagnosticCounts {
    const counts: DiagnosticCounts = new Map();
    const add = (d: ts.Diagnostic) => {
      const file = d.file ? d.file.fileName.slice(this.#root.length) : "(global)";
      const k = `${file}|${d.code}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
      samples?.set(k, ts.flattenDiagnosticMessageText(d.messageText, " ").slice(0, 160));
    };
    for (const d of builder.getSyntacticDiagnostics()) add(d);
    for (const d of builder.getGlobalDiagnostics()) add(d);
    for (;;) {
      const next = builder.getSemanticDiagnosticsOfNextAffectedFile();
      if (!next) break;
      const sf = next.affected as ts.SourceFile;
      if (!all && "fileName" in sf) counts.set(`${sf.fileName.slice(this.#root.length)}|*`, 0);
      for (const d of next.result) add(d);
    }
    return counts;
  }
}
