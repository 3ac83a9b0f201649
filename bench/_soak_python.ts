/**
 * The refactor soak's Python corpus: CPython's `email` package with its test suite (`test.test_email`), from
 * the Python that runs this machine's `python3`, and the checker that decides whether a trial broke it.
 *
 * Running all 1,667 tests after every trial costs seconds (most of it one stress test and the test bodies
 * that cannot reach the change), so a trial runs what can see it, and the full suite confirms a sample:
 * 1. every file under `email/` and `test/` byte-compiles (compileall);
 * 2. every changed module imports, and every test module imports (an import-time break anywhere fails here);
 * 3. the tests that call a function the change can affect pass. Which test calls which function comes from
 *    one profiled run of the whole suite on the unchanged copy (`bench/_soak_python_runner.py cover`). A
 *    function is affected when a changed line lies in it, or when it holds a word whose count the diff
 *    changed (a renamed name's missed use keeps its line but loses its binding; a string spelling a renamed
 *    attribute is such a word too); code outside functions runs at import, which step 2 covers;
 * 4. every `fullEvery`-th applied trial that step 3 passed also runs the full suite; a failure there is a
 *    selection miss, counted apart and reported (it would mean steps 1–3 are weaker than the full run).
 *
 * test_email's stress test (message ids from five threads for three seconds) runs for 0.05 s, or in full when
 * the change touched the module it hammers.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { promises as fsp } from "node:fs";
import { join } from "node:path";

const PY = "python3";
const RUNNER = new URL("./_soak_python_runner.py", import.meta.url).pathname;
const STRESS_ENV = "GRAVER_SOAK_MSGID_SECONDS";
const SHORT_STRESS = "0.05";
const STRESSED = ["email/utils.py"];

/** What the soak's driver hands the corpus: copying and committing the base tree. */
export interface PythonCorpusHooks {
  /** Copy `from` into `to`, files whose name `keep` accepts. */
  copyTree(from: string, to: string, keep: (name: string) => boolean): Promise<void>;
  /** `git init` and commit the copy as the base every trial resets to. */
  commitBase(dir: string): Promise<void>;
  /** Run every `fullEvery`-th applied trial's full suite as well (0: never). */
  fullEvery: number;
}

/** The checker of one corpus copy. */
export interface PythonChecker {
  /** `python3 -V`. */
  version: string;
  /** Problems after a change (empty: clean). `changed` maps each changed file to its text (null: deleted). */
  check(changed: Map<string, string | null>): Promise<string[]>;
  /** Stop the test server. */
  close(): Promise<void>;
  /** Applied trials the targeted check passed and the full suite failed (should stay 0). */
  selectionMisses: number;
  /** How many trials ran the full suite as confirmation. */
  fullRuns: number;
}

function pythonLib(): string {
  const code = "import sysconfig; print(sysconfig.get_paths()['stdlib'])";
  return spawnSync(PY, ["-c", code], { encoding: "utf8" }).stdout.trim();
}

/** The stress test's loop reads its duration from the environment (three seconds when unset, as shipped). */
async function shortenStressTest(dir: string): Promise<void> {
  const file = join(dir, "test/test_email/test_email.py");
  const text = await fsp.readFile(file, "utf8");
  const loop = "tfin = clock() + 3.0";
  if (!text.includes(loop)) throw new Error(`test_email.py has no \`${loop}\` to shorten`);
  const seconds = `float(__import__("os").environ.get(${JSON.stringify(STRESS_ENV)}, "3.0"))`;
  await fsp.writeFile(file, text.replace(loop, `tfin = clock() + ${seconds}`));
}

/** Which tests call which functions of the copy, from one profiled run. */
interface Coverage {
  /** Per file, its called functions: first and last line, and the tests that call it. */
  functions: Map<string, { first: number; last: number; tests: string[] }[]>;
  all: string[];
}

function readCoverage(dir: string): Coverage {
  const out = join(dir, "..", `${dir.split("/").pop()}-coverage.json`);
  const ran = spawnSync(PY, [RUNNER, "cover", out], {
    cwd: dir,
    encoding: "utf8",
    env: { ...Deno.env.toObject(), [STRESS_ENV]: SHORT_STRESS },
  });
  if (ran.status !== 0) throw new Error(`profiling test_email failed:\n${ran.stderr.slice(-800)}`);
  const raw = JSON.parse(Deno.readTextFileSync(out)) as {
    functions: [string, number, number][];
    tests: Record<string, number[]>;
  };
  const callers = raw.functions.map(() => [] as string[]);
  for (const [test, ids] of Object.entries(raw.tests)) for (const id of ids) callers[id]!.push(test);
  const functions = new Map<string, { first: number; last: number; tests: string[] }[]>();
  raw.functions.forEach(([file, first, last], id) => {
    const list = functions.get(file) ?? [];
    list.push({ first, last, tests: callers[id]! });
    functions.set(file, list);
  });
  return { functions, all: Object.keys(raw.tests) };
}

const WORD = /[A-Za-z_][A-Za-z0-9_]*/g;

/**
 * Words whose count in some file differs between its removed and its added lines (per file: code that moves
 * keeps its words but changes the module they live in).
 */
function changedWords(lines: Map<string, { removed: string[]; added: string[] }>): Set<string> {
  const out = new Set<string>();
  for (const { removed, added } of lines.values()) {
    const count = new Map<string, number>();
    for (const [list, sign] of [[removed, -1], [added, 1]] as const) {
      for (const line of list) {
        for (const w of line.match(WORD) ?? []) count.set(w, (count.get(w) ?? 0) + sign);
      }
    }
    for (const [w, n] of count) if (n !== 0) out.add(w);
  }
  return out;
}

/** Per base file, the lines (1-based) a change can affect: its changed lines and those holding a changed word. */
function affectedLines(
  dir: string,
  base: Map<string, string[]>,
  changed: Map<string, string | null>,
): Map<string, Set<number>> {
  const affected = new Map<string, Set<number>>();
  const mark = (rel: string, line: number) => affected.set(rel, (affected.get(rel) ?? new Set()).add(line));
  const perFile = new Map<string, { removed: string[]; added: string[] }>();
  const linesOf = (rel: string) => perFile.get(rel) ?? perFile.set(rel, { removed: [], added: [] }).get(rel)!;
  let removed: string[] = [];
  let added: string[] = [];
  const diff = spawnSync("git", ["diff", "-U0", "HEAD"], { cwd: dir, encoding: "utf8", maxBuffer: 1 << 28 });
  let file = "";
  for (const line of diff.stdout.split("\n")) {
    if (line.startsWith("--- ")) {
      file = line.slice(6);
      ({ removed, added } = linesOf(file));
    } else if (line.startsWith("+++ ")) continue;
    else if (line.startsWith("@@")) {
      const [, start, len] = /^@@ -(\d+)(?:,(\d+))?/.exec(line)!;
      const n = len === undefined ? 1 : Number(len);
      // A pure insertion (`-a,0`) lands after line a: that line's function is the one that changes.
      for (let l = Number(start); l < Number(start) + Math.max(n, 1); l++) mark(file, l);
    } else if (line.startsWith("-")) removed.push(line.slice(1));
    else if (line.startsWith("+")) added.push(line.slice(1));
  }
  for (const [rel, text] of changed) {
    if (!base.has(rel) && text !== null) linesOf(rel).added.push(...text.split("\n"));
  }
  for (const word of changedWords(perFile)) {
    const re = new RegExp(`(?<![A-Za-z0-9_])${word}(?![A-Za-z0-9_])`);
    for (const [rel, lines] of base) lines.forEach((l, i) => re.test(l) && mark(rel, i + 1));
  }
  return affected;
}

function selectTests(coverage: Coverage, affected: Map<string, Set<number>>): Set<string> {
  const tests = new Set<string>();
  for (const [rel, lines] of affected) {
    for (const fn of coverage.functions.get(rel) ?? []) {
      for (const l of lines) {
        if (l < fn.first || l > fn.last) continue;
        for (const t of fn.tests) tests.add(t);
        break;
      }
    }
  }
  return tests;
}

/**
 * Copy `email` and `test_email` into `dir`, commit them as the base and profile the suite.
 *
 * @param dir An empty directory.
 * @param hooks The driver's tree copy and commit, and how often to confirm with the full suite.
 * @returns The checker.
 * @throws Error when the suite fails before any change.
 */
export async function pythonCorpus(dir: string, hooks: PythonCorpusHooks): Promise<PythonChecker> {
  const lib = pythonLib();
  await hooks.copyTree(join(lib, "email"), join(dir, "email"), (n) => n.endsWith(".py"));
  await hooks.copyTree(join(lib, "test/test_email"), join(dir, "test/test_email"), () => true);
  // Our `test` package holds test_email and passes everything else on to the standard library's.
  await fsp.writeFile(
    join(dir, "test/__init__.py"),
    `__path__.append(${JSON.stringify(join(lib, "test"))})\n`,
  );
  await shortenStressTest(dir);
  await hooks.commitBase(dir);
  const coverage = readCoverage(dir);
  const base = new Map<string, string[]>();
  for (
    const rel of spawnSync("git", ["ls-files", "*.py"], { cwd: dir, encoding: "utf8" }).stdout.split("\n")
  ) {
    if (rel) base.set(rel, (await fsp.readFile(join(dir, rel), "utf8")).split("\n"));
  }
  const server = new TestServer(dir);
  const baseline = await server.run(coverage.all, "3.0", []);
  if (baseline.status !== 0) {
    throw new Error(`test_email fails before any change:\n${baseline.output.slice(-800)}`);
  }
  const tail = (s: string, n: number) => s.split("\n").slice(-n).join("\n");
  // The last lines of a failure rarely hold the traceback's file names, and the driver reads which files a
  // failure names (a rename's string occurrence listed there is a warned-of break, not a silent one).
  const named = (s: string) => {
    const files = new Set([...s.matchAll(/File "([^"]+)"/g)].map((m) => m[1]!.replace(`${dir}/`, "")));
    return files.size === 0 ? "" : `\n(files in the traceback: ${[...files].join(", ")})`;
  };
  let applied = 0;
  const checker: PythonChecker = {
    version: spawnSync(PY, ["-V"], { encoding: "utf8" }).stdout.trim(),
    selectionMisses: 0,
    fullRuns: 0,
    async check(changed) {
      const modules = [...changed].filter(([rel, text]) => text !== null && rel.endsWith(".py"))
        .map(([rel]) => rel.slice(0, -3).replace(/\/__init__$/, "").replaceAll("/", "."));
      const stress = [...changed.keys()].some((rel) => STRESSED.includes(rel)) ? "3.0" : SHORT_STRESS;
      const selected = selectTests(coverage, affectedLines(dir, base, changed));
      const targeted = await server.run(selected, stress, modules);
      if (targeted.status !== 0) {
        return [
          `compile, import, ${selected.size} tests: ${tail(targeted.output, 12)}${named(targeted.output)}`,
        ];
      }
      if (hooks.fullEvery <= 0 || ++applied % hooks.fullEvery !== 0) return [];
      checker.fullRuns++;
      const full = await server.run(coverage.all, stress, []);
      if (full.status === 0) return [];
      checker.selectionMisses++;
      return [
        `unittest (full suite; the ${selected.size} selected passed): ${tail(full.output, 12)}${
          named(full.output)
        }`,
      ];
    },
    close: () => server.close(),
  };
  return checker;
}

/** The runner's `serve` mode: one interpreter with the test dependencies loaded, a forked child per run. */
class TestServer {
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #buffered = "";
  #ids: string;
  #out: string;

  constructor(dir: string) {
    this.#child = new Deno.Command(PY, { args: [RUNNER, "serve"], cwd: dir, stdin: "piped", stdout: "piped" })
      .spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#reader = this.#child.stdout.getReader();
    this.#ids = join(dir, "..", `${dir.split("/").pop()}-ids.txt`);
    this.#out = join(dir, "..", `${dir.split("/").pop()}-out.txt`);
  }

  /** Compile, import `modules` and every test module, run the tests `ids`: the exit status and the output. */
  async run(
    ids: Iterable<string>,
    stress: string,
    modules: string[],
  ): Promise<{ status: number; output: string }> {
    Deno.writeTextFileSync(this.#ids, [...ids].join("\n") + "\n");
    const req = { ids: this.#ids, modules, stress, out: this.#out };
    await this.#writer.write(new TextEncoder().encode(JSON.stringify(req) + "\n"));
    while (!this.#buffered.includes("\n")) {
      const { value, done } = await this.#reader.read();
      if (done) throw new Error("the Python test server exited");
      this.#buffered += new TextDecoder().decode(value);
    }
    const nl = this.#buffered.indexOf("\n");
    const status = Number(this.#buffered.slice(0, nl));
    this.#buffered = this.#buffered.slice(nl + 1);
    return { status, output: Deno.readTextFileSync(this.#out) };
  }

  /** Stop the server. */
  async close(): Promise<void> {
    await this.#writer.close();
    await this.#child.status;
  }
}

/** One parameter of a Python `def`, as the planner reads it. */
interface PyParam {
  name: string;
  role: "positional" | "defaulted" | "other";
}

/** The top-level comma-separated items of `s` (brackets and strings kept whole). */
function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = "";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
    } else if (c === "'" || c === '"') quote = c;
    else if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth--;
    else if (c === "," && depth === 0) {
      out.push(s.slice(from, i));
      from = i + 1;
    }
  }
  out.push(s.slice(from));
  return out.map((x) => x.trim()).filter(Boolean);
}

function pythonParams(text: string, line: number, name: string): PyParam[] | null {
  const lines = text.split("\n");
  const rest = lines.slice(line - 1).join("\n");
  const def = new RegExp(`^\\s*(?:async\\s+)?def\\s+${name}\\s*\\(`).exec(rest);
  if (!def) return null;
  let depth = 1;
  let i = def[0].length;
  for (; i < rest.length && depth > 0; i++) {
    if (rest[i] === "(") depth++;
    else if (rest[i] === ")") depth--;
  }
  const items = splitTopLevel(rest.slice(def[0].length, i - 1).replace(/#[^\n]*/g, ""));
  let keywordOnly = false;
  return items.map((item) => {
    if (item.startsWith("*") || item === "/") {
      keywordOnly ||= item.startsWith("*") && !item.startsWith("**");
      return { name: item.replace(/^\*+/, "").split(/[:=]/)[0]!.trim() || item, role: "other" as const };
    }
    const bare = item.split(/[:=]/)[0]!.trim();
    const defaulted = /=/.test(item.replace(/:[^=]*/, ""));
    const role = keywordOnly ? "other" as const : defaulted ? "defaulted" as const : "positional" as const;
    return { name: bare, role };
  });
}

/**
 * A new parameter order for a Python function that Python accepts: its required positional parameters
 * reversed among themselves, its defaulted ones likewise, the rest (`self`, `*args`, keyword-only, `**kw`)
 * where they were. Null when nothing can move.
 *
 * @param text The file's text.
 * @param line The `def`'s line (1-based).
 * @param name The function's name.
 * @returns The parameter names (without `self`/`cls`), or null.
 */
export function pythonParamOrder(text: string, line: number, name: string): string[] | null {
  const params = pythonParams(text, line, name)?.filter((p) => p.name !== "self" && p.name !== "cls");
  if (!params) return null;
  const order = params.map((p) => p.name);
  let moved = false;
  for (const role of ["positional", "defaulted"] as const) {
    const at = params.flatMap((p, i) => p.role === role ? [i] : []);
    if (at.length < 2) continue;
    moved = true;
    const names = at.map((i) => order[i]!).reverse();
    at.forEach((i, k) => order[i] = names[k]!);
  }
  return moved ? order : null;
}

/**
 * Whether a binding's line declares it in a way `edit_inline` takes: a plain `NAME = value` or a `def`.
 *
 * @param lineText The declaration's line.
 * @param name The name.
 * @returns True for an assignment or function definition.
 */
export function pythonInlinable(lineText: string, name: string): boolean {
  return new RegExp(`^\\s*(?:${name}\\s*(?::[^=]+)?=(?!=)|(?:async\\s+)?def\\s+${name}\\b)`).test(lineText);
}

/**
 * The lines of `count` whole statements starting at `start`, all in its block (a compound statement with its
 * `elif`/`else`/`except`/`finally` clauses is one). Null when `start` does not begin a statement.
 *
 * @param lines The file's lines.
 * @param start The first statement's line (1-based).
 * @param count How many statements.
 * @returns The range, or null.
 */
export function pythonStatementRange(
  lines: string[],
  start: number,
  count: number,
): { start_line: number; end_line: number } | null {
  const indent = (s: string) => s.length - s.trimStart().length;
  const first = lines[start - 1] ?? "";
  const prev = (lines[start - 2] ?? "").trimEnd();
  if (/[(\[{,\\]$/.test(prev) || /^\s*[)\]}@]/.test(first)) return null;
  const ind = indent(first);
  let end = start;
  let statements = 1;
  for (let l = start + 1; l <= lines.length; l++) {
    const t = lines[l - 1]!;
    if (t.trim() === "" || t.trimStart().startsWith("#")) continue;
    if (indent(t) > ind || /^\s*[)\]}]/.test(t)) {
      end = l;
      continue;
    }
    if (indent(t) < ind) break;
    if (/^\s*(elif|else|except|finally)\b/.test(t)) {
      end = l;
      continue;
    }
    if (statements === count) break;
    statements++;
    end = l;
  }
  return { start_line: start, end_line: end };
}
