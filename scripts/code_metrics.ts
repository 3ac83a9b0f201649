/**
 * The house's measures of src/, one command for the figures the architecture notes quote:
 *
 * - functions (declarations, methods, arrows, function expressions) longer than 80 lines;
 * - exported functions taking more than three positional parameters;
 * - lines outside `src/languages/` that branch on a language name (`=== "python"`, `case "go":`, a
 *   `.has("rust")`; an expression the same line also compares with a string that is no language name is a
 *   character or token, not a language: `e === "p" || e === "c"`), and per-language tables there (an object,
 *   array or `Set` literal naming two or more languages);
 * - modules that call the project walk (`walkProject(`) other than its own.
 *
 * Run: `deno run -A scripts/code_metrics.ts [--list] [--json] [DIR]` (DIR defaults to `src`).
 *
 * @module
 */
import ts from "typescript";
import manifest from "../grammars/manifest.json" with { type: "json" };

/** Longest a function may be, in lines. */
const MAX_FUNCTION_LINES = 80;
/** Most positional parameters an exported function may take. */
const MAX_POSITIONAL = 3;
/** Language names and the module-system families that stand for them. */
const LANGUAGE_NAMES = new Set([...Object.keys(manifest.languages), "ecmascript", "js", "ts", "py"]);
/** Where language knowledge belongs. */
const LANGUAGES_DIR = "src/languages/";

/** One finding: where, and what. */
export interface Finding {
  /** `path:line`. */
  at: string;
  /** The function's name, or the line's text. */
  what: string;
  /** Lines (functions) or parameters (signatures), where it applies. */
  size?: number;
}

/** Every measure of one run. */
export interface Metrics {
  longFunctions: Finding[];
  positionalParams: Finding[];
  languageBranches: Finding[];
  languageTables: Finding[];
  projectWalkers: Finding[];
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...listFiles(p));
    else if (p.endsWith(".ts") && !p.endsWith(".d.ts")) out.push(p);
  }
  return out.sort();
}

function functionName(n: ts.Node): string {
  const named = (n as { name?: ts.Node }).name;
  if (named) return named.getText();
  const p = n.parent;
  if (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p))) return p.name.getText();
  return "<anonymous>";
}

function isExported(n: ts.Node): boolean {
  const hasExport = (m?: ts.NodeArray<ts.ModifierLike>) =>
    !!m?.some((x) => x.kind === ts.SyntaxKind.ExportKeyword);
  if (ts.isFunctionDeclaration(n)) return hasExport(n.modifiers);
  const decl = n.parent;
  return !!decl && ts.isVariableDeclaration(decl) && ts.isVariableStatement(decl.parent.parent) &&
    hasExport(decl.parent.parent.modifiers);
}

function isFunctionLike(n: ts.Node): n is ts.FunctionLikeDeclaration {
  return ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isArrowFunction(n) ||
    ts.isFunctionExpression(n) || ts.isConstructorDeclaration(n) || ts.isGetAccessor(n) ||
    ts.isSetAccessor(n);
}

function languageLiterals(n: ts.Node): number {
  let count = 0;
  const elements = ts.isObjectLiteralExpression(n)
    // `{ python, ts }` passes two variables (shorthand), it names no language: only `key: value` entries count
    ? n.properties.filter(ts.isPropertyAssignment).map((p) => p.name)
    : ts.isArrayLiteralExpression(n)
    ? [...n.elements]
    : [];
  for (const e of elements) {
    const text = ts.isStringLiteral(e) || ts.isIdentifier(e) ? e.text : null;
    if (text !== null && LANGUAGE_NAMES.has(text)) count++;
  }
  return count;
}

const BRANCH = new RegExp(
  String.raw`(===|!==)\s*"(NAMES)"|"(NAMES)"\s*(===|!==)|case\s+"(NAMES)"\s*:|\.has\(\s*"(NAMES)"\)`
    .replaceAll("NAMES", [...LANGUAGE_NAMES].join("|")),
);

/** `x === "c"` pairs of a line: the compared expression and the string. */
const COMPARISON = /([\w.$\]\[]+)\s*[!=]==\s*"([^"]*)"/g;

/**
 * Whether every language name a line compares with is compared against an expression that the same line also
 * compares with a string that is no language name: `e === "p" || e === "P" || e === "c"` tests a character
 * (a regex escape), not the language C.
 */
function comparesCharacters(code: string): boolean {
  const compared = new Map<string, string[]>();
  for (const m of code.matchAll(COMPARISON)) compared.set(m[1]!, [...compared.get(m[1]!) ?? [], m[2]!]);
  const languageSides = [...compared.values()].filter((values) => values.some((v) => LANGUAGE_NAMES.has(v)));
  return languageSides.length > 0 && !/case\s+"|\.has\(/.test(code) &&
    languageSides.every((values) => values.some((v) => !LANGUAGE_NAMES.has(v)));
}

function measureFile(path: string, text: string, m: Metrics): void {
  const src = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const lineOf = (pos: number) => src.getLineAndCharacterOfPosition(pos).line + 1;
  const inLanguages = path.startsWith(LANGUAGES_DIR);
  const visit = (n: ts.Node) => {
    if (isFunctionLike(n)) {
      const lines = lineOf(n.getEnd()) - lineOf(n.getStart()) + 1;
      const at = `${path}:${lineOf(n.getStart())}`;
      if (lines > MAX_FUNCTION_LINES) m.longFunctions.push({ at, what: functionName(n), size: lines });
      if (isExported(n) && n.parameters.length > MAX_POSITIONAL) {
        m.positionalParams.push({ at, what: functionName(n), size: n.parameters.length });
      }
    }
    if (!inLanguages && languageLiterals(n) >= 2) {
      m.languageTables.push({ at: `${path}:${lineOf(n.getStart())}`, what: n.getText().slice(0, 60) });
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  text.split("\n").forEach((line, i) => {
    const code = line.replace(/\/\/.*$/, "");
    if (!inLanguages && !/^\s*\*/.test(line) && BRANCH.test(code) && !comparesCharacters(code)) {
      m.languageBranches.push({ at: `${path}:${i + 1}`, what: line.trim().slice(0, 100) });
    }
    if (path !== "src/fs/walk.ts" && /\bwalkProject\(/.test(code) && !/^\s*\*/.test(line)) {
      m.projectWalkers.push({ at: `${path}:${i + 1}`, what: line.trim() });
    }
  });
}

/** Measures every `.ts` file under `dir`. */
export function measure(dir: string): Metrics {
  const m: Metrics = {
    longFunctions: [],
    positionalParams: [],
    languageBranches: [],
    languageTables: [],
    projectWalkers: [],
  };
  for (const path of listFiles(dir)) measureFile(path, Deno.readTextFileSync(path), m);
  return m;
}

if (import.meta.main) {
  const dir = Deno.args.find((a) => !a.startsWith("--")) ?? "src";
  const m = measure(dir);
  if (Deno.args.includes("--json")) {
    console.log(JSON.stringify(m, null, 2));
  } else {
    for (const [key, findings] of Object.entries(m) as [keyof Metrics, Finding[]][]) {
      const files = new Set(findings.map((f) => f.at.split(":")[0])).size;
      console.log(`${key}: ${findings.length} (in ${files} files)`);
      if (Deno.args.includes("--list")) {
        for (const f of findings) console.log(`  ${f.at}  ${f.what}${f.size ? `  (${f.size})` : ""}`);
      }
    }
  }
}
