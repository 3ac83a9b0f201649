/**
 * ast-grep beside graver's structural search, for the equality table and the bench: where its binary is
 * (`tools/node_modules/.bin/ast-grep`, which `scripts/install_runtimes.ts` installs from the `@ast-grep/cli`
 * npm package; `AST_GREP` or `PATH` otherwise), and both answers reduced to the same set of
 * `path:line:column` (1-based; ast-grep's columns count characters, graver's UTF-16 code units, the same on
 * these trees).
 *
 * @module
 */
import { createMemoryBackend, createWorkspace, type Workspace } from "../../../src/mod.ts";
import { createWasmLoader } from "../../../src/adapters/deno/mod.ts";
import { normalizeStructuralArgs, searchStructural } from "../../../src/search/mod.ts";
import { patternMatcherOf } from "../../../src/structural/search/mod.ts";
import { diskSearchFiles } from "./_rg.ts";

/** One structural query: the tree, the pattern and the language, as both tools take them. */
export interface SgCase {
  /** What it checks. */
  name: string;
  /** The pattern (ast-grep's syntax, which is graver's); empty with a `rule`. */
  pattern: string;
  /** An ast-grep rule object instead of the pattern (ast-grep runs it with `scan --inline-rules`). */
  rule?: Record<string, unknown>;
  /** ast-grep's `--lang` (ts, js, py, go, rs); graver's `language` takes the same names. */
  lang: string;
}

const HONO = new URL("../../../node_modules/hono/dist", import.meta.url).pathname;
/** ajv's TypeScript sources (a dependency of the MCP SDK): code written by hand, its calls broken over lines. */
const AJV_LIB =
  new URL("../../../node_modules/.deno/ajv@8.20.0/node_modules/ajv/lib", import.meta.url).pathname;

/**
 * The real trees graver is compared with ast-grep on, by name: where each is, or null when it is not
 * installed here (hono's published package, its `.d.ts` types, ajv's TypeScript sources, CPython's `email`,
 * go-cmp and the semver and smallvec crates from Debian's packages).
 *
 * @returns Name -> absolute path, or null.
 */
export async function sgTrees(): Promise<Record<string, string | null>> {
  const exists = async (p: string) => (await Deno.stat(p).then((s) => s.isDirectory, () => false)) ? p : null;
  const py = await new Deno.Command("python3", {
    args: ["-c", "import email, os; print(os.path.dirname(email.__file__))"],
    stdout: "piped",
    stderr: "null",
  }).output().then((o) => o.code === 0 ? new TextDecoder().decode(o.stdout).trim() : null, () => null);
  return {
    hono: await exists(HONO),
    hono_types: await exists(`${HONO}/types`),
    email: py === null ? null : await exists(py),
    go_cmp: await exists("/usr/share/gocode/src/github.com/google/go-cmp"),
    semver: await exists("/usr/share/cargo/registry/semver-1.0.14"),
    smallvec: await exists("/usr/share/cargo/registry/smallvec-1.9.0"),
    ajv: await exists(AJV_LIB),
  };
}

/**
 * One ast-grep run: its exit code and stdout (stderr dropped), in `cwd`, with `stdin` written to it if given.
 *
 * @param bin The binary ({@linkcode astGrepPath}).
 * @param args Its arguments.
 * @param on `cwd`, and the text for its stdin.
 * @returns The exit code and what it printed.
 */
export async function runAstGrep(
  bin: string,
  args: string[],
  on: { cwd?: string; stdin?: string } = {},
): Promise<{ code: number; stdout: string }> {
  const child = new Deno.Command(bin, {
    args,
    ...(on.cwd ? { cwd: on.cwd } : {}),
    stdin: on.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  if (on.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(on.stdin));
    await writer.close();
  }
  const out = await child.output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
}

/** The ast-grep binary, or null when none is installed. */
export async function astGrepPath(): Promise<string | null> {
  const candidates = [
    Deno.env.get("AST_GREP"),
    new URL("../../../tools/node_modules/.bin/ast-grep", import.meta.url).pathname,
  ];
  for (const c of candidates) {
    if (c && await Deno.stat(c).then((s) => s.isFile, () => false)) return c;
  }
  try {
    const out = await new Deno.Command("sh", { args: ["-c", "command -v ast-grep"], stdout: "piped" })
      .output();
    return out.code === 0 ? new TextDecoder().decode(out.stdout).trim() : null;
  } catch {
    return null;
  }
}

/**
 * Run `ast-grep scan --inline-rules RULE --json` in `root`: the oracle for a pattern ast-grep's `run -p`
 * misreads, written as the rule its documentation recommends (a pattern with a `context` and a `selector`).
 *
 * @param bin The binary.
 * @param root The tree.
 * @param rule The YAML rule.
 * @returns Each match as `path:line:column`, 1-based.
 */
export async function astGrepRuleSet(bin: string, root: string, rule: string): Promise<Set<string>> {
  return parsed(
    await new Deno.Command(bin, {
      args: ["scan", "--inline-rules", rule, "--json=compact", "."],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).output(),
  );
}

/** ast-grep's JSON match, the fields compared. */
interface AstGrepMatch {
  file: string;
  range: { start: { line: number; column: number } };
}

/**
 * Run `ast-grep run -p PATTERN --lang L --json` in `root` (the whole tree).
 *
 * @param bin The binary.
 * @param root The tree.
 * @param c The query.
 * @returns Each match as `path:line:column`, 1-based.
 */
export async function astGrepSet(bin: string, root: string, c: SgCase): Promise<Set<string>> {
  // YAML takes JSON: the rule object goes into the inline rule as it is.
  const languages: Record<string, string> = { js: "javascript", ts: "typescript", py: "python", rs: "rust" };
  if (c.rule) {
    // ast-grep's YAML puts constraints and utils beside the rule; graver's rule object takes them at its top.
    const { constraints, utils, ...rule } = c.rule;
    const beside = (constraints === undefined ? "" : `\nconstraints: ${JSON.stringify(constraints)}`) +
      (utils === undefined ? "" : `\nutils: ${JSON.stringify(utils)}`);
    return await astGrepRuleSet(
      bin,
      root,
      `id: case\nlanguage: ${languages[c.lang] ?? c.lang}\nrule: ${JSON.stringify(rule)}${beside}`,
    );
  }
  return parsed(
    await new Deno.Command(bin, {
      args: ["run", "-p", c.pattern, "--lang", c.lang, "--json=compact", "."],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).output(),
  );
}

/** The `path:line:column` set of ast-grep's JSON output. */
function parsed(out: Deno.CommandOutput): Set<string> {
  if (out.code > 1) throw new Error(`ast-grep failed: ${new TextDecoder().decode(out.stderr)}`);
  const matches = JSON.parse(new TextDecoder().decode(out.stdout) || "[]") as AstGrepMatch[];
  return new Set(
    matches.map((m) =>
      `${m.file.replace(/^\.\//, "")}:${m.range.start.line + 1}:${m.range.start.column + 1}`
    ),
  );
}

const byRoot = new Map<string, Workspace>();

/**
 * A workspace for grammars and the parse cache of one tree (the files come from the disk tree; the cache is
 * keyed by relative path, so each tree has its own).
 *
 * @param root The tree.
 * @returns Its workspace.
 */
export async function parsingWorkspace(root: string): Promise<Workspace> {
  let ws = byRoot.get(root);
  if (ws === undefined) {
    ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
    byRoot.set(root, ws);
  }
  return ws;
}

/**
 * graver's structural search over the disk tree at `root`, every match.
 *
 * @param root The tree.
 * @param c The query.
 * @returns Each match as `path:line:column`.
 */
export async function graverSet(root: string, c: SgCase): Promise<Set<string>> {
  const ws = await parsingWorkspace(root);
  const query = normalizeStructuralArgs({
    ...(c.rule ? { rule: c.rule } : { pattern: c.pattern }),
    language: c.lang,
    max_results: 1_000_000,
    max_chars: 1_000_000_000,
  });
  const r = await searchStructural(diskSearchFiles(root), query, { matcher: patternMatcherOf(ws) });
  return new Set(r.matches!.map((m) => `${m.path}:${m.line}:${m.column}`));
}
