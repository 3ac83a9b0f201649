/**
 * The definition gate's false positives and catches, measured on real files:
 * edits picked mechanically from the sources under `node_modules/` and the
 * real samples under `tests/` (conformance samples, fixtures), in every
 * language of the gate's keyword table.
 *
 * - Non-definition edits (the gate should refuse none): inside the body of each
 *   function/method of the outline, pairs of consecutive statements (the body
 *   node's children; none the start of a listed definition) are deleted,
 *   duplicated or rewritten (an identifier renamed on each line, as a model
 *   changing a call would). Counted: how many the gate refused — every one is a
 *   false positive, printed. An edit that breaks the parse (a window cutting a
 *   statement whose name is then declared twice) is left out: the syntax guard refuses it anyway.
 * - Definition edits (the gate should refuse all): each named definition of a
 *   guarded kind spanning two or more lines is removed, renamed on its first
 *   line, and added again as a copy under a new name right after itself.
 *   Counted: how many the gate caught, and with the expected kind.
 * - Cost: the gate's judgement of each non-definition edit against the syntax
 *   guard's check of the same edit (`findSyntaxRegressions`, which every edit
 *   already pays), timed in the same run.
 *
 * ```sh
 * deno run -A bench/guards_definition_gate.bench.ts [--runs 1] [--files-per-language 40]
 * ```
 *
 * @module
 */
import { join } from "node:path";
import { createWasmLoader } from "../src/adapters/deno/mod.ts";
import { createMemoryBackend } from "../src/fs/memory_backend.ts";
import { versionOf } from "../src/fs/version.ts";
import { judgeDefinitionEdit } from "../src/guards/definition_gate.ts";
import { findSyntaxRegressions } from "../src/syntax/syntax_guard.ts";
import { outlineOf, symbolNode } from "../src/syntax/symbols.ts";
import type { Node } from "web-tree-sitter";
import type { SymbolInfo } from "../src/syntax/types.ts";
import { createWorkspace } from "../src/workspace.ts";
import { describe, machine, printTable, result, ROOT, stats, walkFiles } from "./_util.ts";

const LANGUAGES = [
  "rust",
  "python",
  "go",
  "typescript",
  "tsx",
  "javascript",
  "java",
  "kotlin",
  "c",
  "cpp",
  "c_sharp",
  "ruby",
];
const GUARDED = new Set([
  "function",
  "method",
  "constructor",
  "class",
  "interface",
  "struct",
  "enum",
  "trait",
]);
const BODIES = new Set(["function", "method", "constructor"]);
const KEYWORDS = new Set([
  "fn",
  "async",
  "struct",
  "impl",
  "trait",
  "enum",
  "def",
  "class",
  "func",
  "interface",
  "function",
  "fun",
]);

function arg(name: string, fallback: number): number {
  const i = Deno.args.indexOf(name);
  const n = i === -1 ? NaN : Number(Deno.args[i + 1]);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

const FILES_PER_LANGUAGE = arg("--files-per-language", 40);
const WINDOWS_PER_FILE = arg("--windows-per-file", 12);
const DEFS_PER_FILE = arg("--definitions-per-file", 8);

const ws = await createWorkspace({ backend: createMemoryBackend({}), wasm: createWasmLoader() });
const grammars = ws.grammars!;

// ---- the files
const candidates: string[] = [];
for (const dir of ["node_modules/.deno", "tests/conformance/samples", "tests/fixtures"]) {
  await walkFiles(
    join(ROOT, dir),
    (name) => /\.(rs|py|go|ts|tsx|js|java|kt|c|h|cc|cpp|cs|rb)$/.test(name),
    candidates,
  );
}
candidates.sort();
const byLanguage = new Map<string, string[]>();
for (const file of candidates) {
  if (file.endsWith(".d.ts") || file.includes(".min.")) continue;
  const language = grammars.languageOf(file);
  if (!language || !LANGUAGES.includes(language)) continue;
  const list = byLanguage.get(language) ?? [];
  list.push(file);
  byLanguage.set(language, list);
}

/** Every n-th file, so the pick spreads over packages. */
function spread<T>(list: T[], n: number): T[] {
  if (list.length <= n) return list;
  const step = list.length / n;
  return Array.from({ length: n }, (_, i) => list[Math.floor(i * step)]!);
}

function flatten(symbols: SymbolInfo[]): SymbolInfo[] {
  const out: SymbolInfo[] = [];
  const walk = (l: SymbolInfo[]) => {
    for (const s of l) {
      out.push(s);
      walk(s.children);
    }
  };
  walk(symbols);
  return out;
}

interface Edit {
  language: string;
  file: string;
  kind: string;
  after: string;
  expect?: "remove" | "rename" | "insert";
}

/** Rename the first identifier-like word (3+ characters, not a definition keyword) of a line. */
function renameWord(line: string): string | null {
  const m = /\b([A-Za-z_][A-Za-z0-9_]{2,})\b/.exec(
    line.replace(/(["'`]).*?\1/g, (s) => " ".repeat(s.length)),
  );
  if (!m || KEYWORDS.has(m[1]!)) return null;
  return line.slice(0, m.index) + m[1] + "V2" + line.slice(m.index + m[1]!.length);
}

/** The statements of a body node (through a lone block or statement list inside it). */
function statementsOf(body: Node): Node[] {
  let n = body;
  for (;;) {
    const named = n.namedChildren.filter((c): c is Node => c !== null);
    if (named.length === 1 && /block|statement_list|body/.test(named[0]!.type)) n = named[0]!;
    else return named;
  }
}

/**
 * Edits of whole statements inside each function body, so that they keep the file parsable: two
 * consecutive statements deleted, duplicated, or rewritten (an identifier renamed on each line).
 */
function nonDefinitionEdits(language: string, file: string, text: string, symbols: SymbolInfo[]): Edit[] {
  const lines = text.split("\n");
  const all = flatten(symbols);
  const firstRows = new Set(all.map((s) => s.range.start_line - 1));
  const out: Edit[] = [];
  const join = (l: string[]) => l.join("\n");
  for (const s of all) {
    if (!BODIES.has(s.kind) || !s.body_range || out.length >= WINDOWS_PER_FILE * 3) continue;
    const def = symbolNode(s);
    const body = def?.descendantForIndex(s.body_range.start_utf16, s.body_range.end_utf16);
    if (!body) continue;
    const statements = statementsOf(body);
    for (let i = 0; i + 1 < statements.length && out.length < WINDOWS_PER_FILE * 3; i += 2) {
      const a = statements[i]!;
      const b = statements[i + 1]!;
      const first = a.startPosition.row;
      const last = b.endPosition.row;
      if (a.endPosition.row >= b.startPosition.row) continue; // two statements on one line
      // statements only: no listed definition starts in the window
      let listed = false;
      for (let r = first; r <= last; r++) if (firstRows.has(r)) listed = true;
      if (listed) continue;
      const window = lines.slice(first, last + 1);
      out.push({
        language,
        file,
        kind: "delete 2 statements",
        after: join([...lines.slice(0, first), ...lines.slice(last + 1)]),
      });
      out.push({
        language,
        file,
        kind: "duplicate 2 statements",
        after: join([...lines.slice(0, last + 1), ...window, ...lines.slice(last + 1)]),
      });
      const renamed = window.map((l) => renameWord(l) ?? l);
      if (renamed.filter((l, k) => l !== window[k]).length >= 2) {
        out.push({
          language,
          file,
          kind: "rewrite 2 statements",
          after: join([...lines.slice(0, first), ...renamed, ...lines.slice(last + 1)]),
        });
      }
    }
  }
  return out;
}

function definitionEdits(language: string, file: string, text: string, symbols: SymbolInfo[]): Edit[] {
  const lines = text.split("\n");
  const out: Edit[] = [];
  // definitions of the file's structure: not those local to a function (a callback assigned in a body)
  const defs: SymbolInfo[] = [];
  const walk = (list: SymbolInfo[]) => {
    for (const s of list) {
      if (GUARDED.has(s.kind) && s.range.end_line > s.range.start_line && /^[A-Za-z_]\w*$/.test(s.name)) {
        defs.push(s);
      }
      if (!BODIES.has(s.kind)) walk(s.children);
    }
  };
  walk(symbols);
  for (const s of spread(defs, DEFS_PER_FILE)) {
    const first = s.range.start_line - 1;
    const last = s.range.end_line - 1;
    out.push({
      language,
      file,
      kind: "remove a definition",
      expect: "remove",
      after: [...lines.slice(0, first), ...lines.slice(last + 1)].join("\n"),
    });
    const head = lines[first]!;
    const at = head.search(new RegExp(`\\b${s.name}\\b`));
    if (at >= 0) {
      const renamed = head.slice(0, at) + s.name + "Renamed" + head.slice(at + s.name.length);
      out.push({
        language,
        file,
        kind: "rename on its first line",
        expect: "rename",
        after: [...lines.slice(0, first), renamed, ...lines.slice(first + 1)].join("\n"),
      });
      const copy = [renamed, ...lines.slice(first + 1, last + 1)];
      out.push({
        language,
        file,
        kind: "add a copy after it",
        expect: "insert",
        after: [...lines.slice(0, last + 1), "", ...copy, ...lines.slice(last + 1)].join("\n"),
      });
    }
  }
  return out;
}

// ---- run
const enc = new TextEncoder();
interface Tally {
  files: number;
  broken: number;
  plain: number;
  refused: number;
  defs: number;
  caught: number;
  asExpected: number;
}
const tallies = new Map<string, Tally>();
const falsePositives: string[] = [];
const missed: string[] = [];
const gateMs: number[] = [];
const guardMs: number[] = [];
let bytes = 0;

for (const language of LANGUAGES) {
  const files = spread(byLanguage.get(language) ?? [], FILES_PER_LANGUAGE);
  const t: Tally = { files: 0, broken: 0, plain: 0, refused: 0, defs: 0, caught: 0, asExpected: 0 };
  tallies.set(language, t);
  for (const file of files) {
    let text: string;
    try {
      text = await Deno.readTextFile(file);
    } catch {
      continue;
    }
    if (text.length > 400_000 || text.includes("\r")) continue;
    const rel = file.slice(ROOT.length);
    const path = `bench/${rel.replaceAll("/", "_")}`;
    const version = await versionOf(enc.encode(text));
    let symbols: SymbolInfo[];
    try {
      symbols = (await outlineOf(ws, path, { text, version })).symbols;
    } catch {
      continue;
    }
    t.files++;
    bytes += text.length;
    for (const e of nonDefinitionEdits(language, rel, text, symbols)) {
      t.plain++;
      const before = enc.encode(text);
      const after = enc.encode(e.after);
      const afterVersion = await versionOf(after);
      let t0 = performance.now();
      const v = await judgeDefinitionEdit(ws, {
        path,
        before: text,
        after: e.after,
        beforeVersion: version,
        afterVersion,
      });
      gateMs.push(performance.now() - t0);
      t0 = performance.now();
      const broken = await findSyntaxRegressions(ws, [{ path, baseVersion: version, before, after }]);
      guardMs.push(performance.now() - t0);
      if (broken.length > 0) {
        // the syntax guard refuses it before anything lands: the gate's verdict does not matter
        t.plain--;
        t.broken++;
        continue;
      }
      if (v.findings.length > 0) {
        t.refused++;
        const f = v.findings[0]!;
        falsePositives.push(
          `${language} ${rel} (${e.kind}): ${f.edit} ${
            f.definitions.map((d) => `${d.kind} ${d.name_path ?? d.name}`).join(", ")
          } lines ${JSON.stringify(f.before_lines ?? f.after_lines)}`,
        );
      }
    }
    for (const e of definitionEdits(language, rel, text, symbols)) {
      t.defs++;
      const v = await judgeDefinitionEdit(ws, { path, before: text, after: e.after, beforeVersion: version });
      if (v.findings.length > 0) {
        t.caught++;
        if (v.findings.some((f) => f.edit === e.expect)) t.asExpected++;
      } else missed.push(`${language} ${rel}: ${e.kind}`);
    }
  }
}

console.log("# Definition gate: false positives and catches on real files\n");
console.log(`machine: ${machine()}`);
console.log(
  `input: ${[...tallies.values()].reduce((a, t) => a + t.files, 0)} files, ${(bytes / 1024).toFixed(0)} KB\n`,
);
const rows = [[
  "language",
  "files",
  "non-definition edits",
  "refused (false positives)",
  "skipped (break the parse)",
  "definition edits",
  "caught",
  "as expected",
]];
const sum: Tally = { files: 0, broken: 0, plain: 0, refused: 0, defs: 0, caught: 0, asExpected: 0 };
for (const [language, t] of tallies) {
  rows.push([
    language,
    ...[t.files, t.plain, t.refused, t.broken, t.defs, t.caught, t.asExpected].map(String),
  ]);
  for (const k of Object.keys(sum) as (keyof Tally)[]) sum[k] += t[k];
}
rows.push([
  "all",
  ...[sum.files, sum.plain, sum.refused, sum.broken, sum.defs, sum.caught, sum.asExpected].map(String),
]);
printTable(rows);
if (falsePositives.length > 0) {
  console.log(`\nfalse positives (first 30 of ${falsePositives.length}):`);
  for (const f of falsePositives.slice(0, 30)) console.log(`- ${f}`);
}
if (missed.length > 0) {
  console.log(`\nmissed definition edits (first 30 of ${missed.length}):`);
  for (const m of missed.slice(0, 30)) console.log(`- ${m}`);
}
const gate = stats(gateMs);
const guard = stats(guardMs);
console.log(`\ngate per edit: ${describe(gate)}; syntax guard per edit (baseline): ${describe(guard)}`);
result(
  "definition gate false positives",
  `${sum.refused} of ${sum.plain} non-definition edits refused (goal 0: ${
    sum.refused === 0 ? "met" : "NOT met"
  })`,
);
result(
  "definition gate catches",
  `${sum.caught} of ${sum.defs} definition edits refused, ${sum.asExpected} routed as expected`,
);
result(
  "definition gate cost",
  `${gate.median.toFixed(2)} ms median per edit (${
    (gate.median / guard.median).toFixed(2)
  }× the syntax guard)`,
);
