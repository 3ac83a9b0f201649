/**
 * ast-grep's `transform`: new metavariables a rewrite may use, each made from one the pattern bound (or one
 * made before it) — `substring` (characters, negative from the end, as Python slices), `replace` (every match
 * of an RE2 regular expression, `$1`, `${1}`, `$name`, `${name}` naming groups in `by`) and `convert` (to
 * another case: `camelCase`, `snakeCase`, `kebabCase`, `pascalCase`, `lowerCase`, `upperCase`, `capitalize`).
 * Compiled once per query; each site's new texts are made from its own bindings.
 *
 * @module
 */
import type { RE2JS } from "re2js";
import { RecoverableError } from "../../errors.ts";
import type { Node } from "web-tree-sitter";
import type { Binding } from "../edit/pattern.ts";
import { type CompiledRule, type RegexCompiler, regexCompiler } from "./rule_compile.ts";

/** One new metavariable: its name, the one it is made from, and how. */
export interface CompiledTransform {
  name: string;
  source: string;
  /** The new text from the source's text (`substring`, `replace`, `convert`). */
  apply(text: string): string;
  /** Or from the source's nodes (`rewrite`, with rewriters: `rewriters.ts`); undefined makes nothing. */
  rewrite?: (from: Binding, ctx: TransformContext) => string | undefined;
}

/** What a `rewrite` needs of the file and the match it is made for. */
export interface TransformContext {
  /** The file's text. */
  text: string;
  /** What the transformation reads: the enclosing match's bindings, or a rewriter's (with the match's). */
  bindings: Record<string, Binding>;
  /**
   * What the rule's own match bound: a name a rewriter binds too must be the same code there. A rewriter's own
   * bindings are not passed down to the rewriters it calls (a recursive rewriter matches nodes below anew).
   */
  enclosing: Record<string, Binding>;
  /** What a rule binds at a node, or null where it does not hold (constraints checked). */
  matchAt(rule: CompiledRule, node: Node): Record<string, Binding> | null;
  /** A fix filled with bindings, as the site at `start` writes it (re-indented to its line). */
  fill(template: string, start: number, bindings: Record<string, Binding>): string;
  /** Rewriter matches tried so far for this site, and rewrites nested now (bounded by the rewriters). */
  tries: { count: number; depth: number };
}

/** How a `rewrite` transformation is made, where the query has rewriters (`rewriters.ts`'s `rewriteOf`). */
export type RewriteMaker = (
  spec: Record<string, unknown>,
  where: string,
) => (from: Binding, ctx: TransformContext) => string | undefined;

/** The cases `convert` writes. */
const CASES = ["camelCase", "snakeCase", "kebabCase", "pascalCase", "lowerCase", "upperCase", "capitalize"];

/** A refusal of the transform at `where`. */
function bad(where: string, message: string, hint: string): RecoverableError {
  return new RecoverableError("invalid_args", `Cannot use the transform: ${where} ${message}`, {
    hint,
    details: { at: where },
  });
}

/** A transformation's `source`: `$NAME` or `$$$NAME`, the name without its dollars. */
function sourceOf(value: unknown, where: string): string {
  const m = typeof value === "string" ? /^\$(?:\$\$)?([A-Z_][A-Z0-9_]*)$/.exec(value) : null;
  if (m === null) {
    throw bad(where, "must name a metavariable", 'Write it as the pattern does: "$NAME" or "$$$ARGS"');
  }
  return m[1]!;
}

/** A character index of `substring` (negative: from the end), or undefined. */
function charIndex(value: unknown, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    throw bad(
      where,
      "must be a whole number",
      "Count characters from 0, or from the end with a negative number",
    );
  }
  return value;
}

/** `text` sliced by characters (code points), as Python slices: negative indexes count from the end. */
function sliceChars(text: string, start: number | undefined, end: number | undefined): string {
  const chars = Array.from(text);
  const at = (i: number | undefined, dflt: number) =>
    i === undefined ? dflt : Math.min(chars.length, Math.max(0, i < 0 ? chars.length + i : i));
  return chars.slice(at(start, 0), at(end, chars.length)).join("");
}

/** The parts of a `by` template: literal text and group references (`$1`, `${1}`, `$name`, `${name}`, `$$`). */
function byParts(by: string): (string | { group: number | string })[] {
  const parts: (string | { group: number | string })[] = [];
  const re = /\$\$|\$\{([A-Za-z0-9_]+)\}|\$([A-Za-z0-9_]+)/g;
  let last = 0;
  for (const m of by.matchAll(re)) {
    parts.push(by.slice(last, m.index!));
    const ref = m[1] ?? m[2];
    parts.push(ref === undefined ? "$" : { group: /^\d+$/.test(ref) ? Number(ref) : ref });
    last = m.index! + m[0].length;
  }
  parts.push(by.slice(last));
  return parts;
}

/**
 * Every match of `re` in `text` replaced by `by`'s parts (a group that did not take part is empty), as Rust's
 * `replace_all` does: an empty match right where the match before it ended is not one (`x*` over `x` is `-`).
 */
function replaceEvery(re: RE2JS, text: string, parts: ReturnType<typeof byParts>): string {
  const m = re.matcher(text);
  let out = "";
  let last = 0;
  let reported = false;
  while (m.find()) {
    if (reported && m.start() === m.end() && m.start() === last) continue;
    out += text.slice(last, m.start());
    for (const p of parts) out += typeof p === "string" ? p : (m.group(p.group as number) ?? "");
    last = m.end();
    reported = true;
  }
  return out + text.slice(last);
}

/** Whether `c` is a letter in lower case (digits and signs are neither case). */
function isLower(c: string | undefined): boolean {
  return c !== undefined && c !== c.toUpperCase() && c === c.toLowerCase();
}

/** Whether `c` is a letter in upper case. */
function isUpper(c: string | undefined): boolean {
  return c !== undefined && c !== c.toLowerCase() && c === c.toUpperCase();
}

/**
 * The words of a name, as ast-grep's `convert` splits them: at `_`, `-`, `.`, `/` and spaces, and before a
 * capital that follows a small letter or starts a word of small letters (`HTTPServer` → `HTTP`, `Server`;
 * `bar2Baz` → `bar2`, `Baz`; `a1B2` stays one).
 */
function wordsOf(text: string, separators: ReadonlySet<string> = ALL_SEPARATORS): string[] {
  const chars = Array.from(text);
  const words: string[] = [];
  let word = "";
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (separators.has(SEPARATOR_OF[c] ?? (/\s/.test(c) ? "space" : ""))) {
      if (word !== "") words.push(word);
      word = "";
      continue;
    }
    const changes = isUpper(c) && (isLower(chars[i - 1]) || isLower(chars[i + 1]));
    if (word !== "" && changes && separators.has("caseChange")) {
      words.push(word);
      word = "";
    }
    word += c;
  }
  if (word !== "") words.push(word);
  return words;
}

/** The separators `convert` splits at by name (ast-grep's `separatedBy`), spaces apart. */
const SEPARATOR_OF: Readonly<Record<string, string>> = {
  "-": "dash",
  ".": "dot",
  "/": "slash",
  "_": "underscore",
};

/** Every separator, the default. */
const ALL_SEPARATORS: ReadonlySet<string> = new Set([
  "dash",
  "dot",
  "space",
  "slash",
  "underscore",
  "caseChange",
]);

/** `text` written in one of {@linkcode CASES}, split into words at `separators`. */
function toCase(text: string, target: string, separators?: ReadonlySet<string>): string {
  const words = wordsOf(text, separators);
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  switch (target) {
    case "lowerCase":
      return text.toLowerCase();
    case "upperCase":
      return text.toUpperCase();
    case "capitalize":
      return cap(text);
    case "snakeCase":
      return words.map((w) => w.toLowerCase()).join("_");
    case "kebabCase":
      return words.map((w) => w.toLowerCase()).join("-");
    case "pascalCase":
      return words.map(cap).join("");
    default: // camelCase
      return words.map((w, i) => i === 0 ? w.toLowerCase() : cap(w)).join("");
  }
}

/**
 * ast-grep's string form of a transformation (`"convert($A, toCase=snakeCase)"`, `"substring($A,
 * startChar=1)"`, `"replace($A, replace='[a-z]+', by='x')"`; values bare or quoted, `\\` escaping in quotes)
 * as the object form, read in one pass (no regex backtracks over it); anything else as it is.
 */
function objectForm(raw: unknown, where: string): unknown {
  if (typeof raw !== "string") return raw;
  const fail = () =>
    bad(
      where,
      `cannot be read: ${JSON.stringify(raw.slice(0, 120))}`,
      'Write e.g. "convert($A, toCase=snakeCase)"',
    );
  let at = 0;
  const space = () => {
    while (at < raw.length && /\s/.test(raw[at]!)) at++;
  };
  const token = (re: RegExp) => {
    re.lastIndex = at;
    const m = re.exec(raw);
    if (m === null) throw fail();
    at = re.lastIndex;
    return m[0];
  };
  space();
  const kind = token(/substring|replace|convert/y);
  space();
  if (raw[at++] !== "(") throw fail();
  space();
  const body: Record<string, unknown> = { source: token(/\$(?:\$\$)?[A-Z_][A-Z0-9_]*/y) };
  for (space(); raw[at] === ","; space()) {
    at++;
    space();
    const key = token(/[A-Za-z]+/y);
    space();
    if (raw[at++] !== "=") throw fail();
    space();
    body[key] = stringFormValue(raw, at, fail);
    at = (body[key] as { end: number }).end;
    body[key] = (body[key] as { value: unknown }).value;
  }
  if (raw[at++] !== ")") throw fail();
  space();
  if (at !== raw.length) throw fail();
  return { [kind]: body };
}

/** One value of the string form at `from`: quoted (its escapes undone) or bare (a whole number as a number). */
function stringFormValue(raw: string, from: number, fail: () => Error): { value: unknown; end: number } {
  const quote = raw[from];
  if (quote === '"' || quote === "'") {
    let text = "";
    for (let i = from + 1; i < raw.length; i++) {
      const c = raw[i]!;
      if (c === quote) return { value: text, end: i + 1 };
      text += c === "\\" && i + 1 < raw.length ? raw[++i]! : c;
    }
    throw fail();
  }
  let end = from;
  while (end < raw.length && raw[end] !== "," && raw[end] !== ")") end++;
  const text = raw.slice(from, end).trim();
  if (text === "") throw fail();
  return { value: /^-?\d+$/.test(text) ? Number(text) : text, end };
}

/** A `{rewrite: {source, rewriters, joinBy}}`: made by the query's rewriters, refused without them. */
function rewriteOne(
  name: string,
  raw: Record<string, unknown>,
  rewrite: RewriteMaker | undefined,
): CompiledTransform {
  const at = `transform.${name}.rewrite`;
  const body = raw["rewrite"];
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw bad(at, "must be an object", "Give its source, rewriters and joinBy");
  }
  for (const key of Object.keys(body)) {
    if (!["source", "rewriters", "joinBy"].includes(key)) {
      throw bad(`${at}.${key}`, "is not a key of rewrite", "Use source, rewriters and joinBy");
    }
  }
  if (rewrite === undefined) {
    throw bad(at, "names rewriters, but the query defines none", 'Pass "rewriters" beside the transform');
  }
  const source = sourceOf((body as Record<string, unknown>)["source"], `${at}.source`);
  return { name, source, apply: (text) => text, rewrite: rewrite(body as Record<string, unknown>, at) };
}

/** One transformation: `{substring: …}`, `{replace: …}` or `{convert: …}`, or its string form. */
function compileOne(
  name: string,
  given: unknown,
  on: { rewrite: RewriteMaker | undefined; regex: RegexCompiler | undefined },
): CompiledTransform {
  const { rewrite } = on;
  const where = `transform.${name}`;
  const raw = objectForm(given, where);
  const kinds = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? Object.keys(raw) : [];
  if (kinds.length === 1 && kinds[0] === "rewrite") {
    return rewriteOne(name, raw as Record<string, unknown>, rewrite);
  }
  if (kinds.length !== 1 || !["substring", "replace", "convert"].includes(kinds[0]!)) {
    throw bad(
      where,
      "must be one of {substring: …}, {replace: …}, {convert: …}",
      "Give one transformation per name",
    );
  }
  const kind = kinds[0]!;
  const body = (raw as Record<string, Record<string, unknown>>)[kind]!;
  const at = `${where}.${kind}`;
  if (typeof body !== "object" || body === null) {
    throw bad(at, "must be an object", "Give at least its source");
  }
  const keys: Record<string, string[]> = {
    substring: ["startChar", "endChar"],
    replace: ["replace", "by"],
    convert: ["toCase", "separatedBy"],
  };
  for (const key of Object.keys(body)) {
    if (key !== "source" && !keys[kind]!.includes(key)) {
      throw bad(`${at}.${key}`, `is not a key of ${kind}`, `Use source and ${keys[kind]!.join(", ")}`);
    }
  }
  const source = sourceOf(body["source"], `${at}.source`);
  if (kind === "substring") {
    const start = charIndex(body["startChar"], `${at}.startChar`);
    const end = charIndex(body["endChar"], `${at}.endChar`);
    return { name, source, apply: (text) => sliceChars(text, start, end) };
  }
  if (kind === "replace") {
    if (typeof body["replace"] !== "string" || typeof body["by"] !== "string") {
      throw bad(
        at,
        "takes replace (an RE2 regular expression) and by (its replacement)",
        "Give both as strings",
      );
    }
    const re = regexCompiler(on.regex)(body["replace"], { what: `the ${at}.replace regex` });
    const parts = byParts(body["by"]);
    return { name, source, apply: (text) => replaceEvery(re, text, parts) };
  }
  const target = body["toCase"];
  if (typeof target !== "string" || !CASES.includes(target)) {
    throw bad(`${at}.toCase`, `must be one of ${CASES.join(", ")}`, 'Pass e.g. "toCase": "snakeCase"');
  }
  const listed = body["separatedBy"];
  if (listed !== undefined && (!Array.isArray(listed) || !listed.every((x) => ALL_SEPARATORS.has(x)))) {
    throw bad(
      `${at}.separatedBy`,
      `must list separators among ${[...ALL_SEPARATORS].join(", ")}`,
      'Pass e.g. ["underscore", "caseChange"]',
    );
  }
  const separators = listed === undefined ? undefined : new Set(listed as string[]);
  return { name, source, apply: (text) => toCase(text, target, separators) };
}

/**
 * The metavariable names a pattern or a rule writes (`$NAME`, `$$$NAME`): what a transformation may be made from.
 *
 * @param query The pattern or the rule.
 * @returns The names, without their dollars.
 */
export function boundNames(query: { pattern?: string; rule?: unknown }): Set<string> {
  const text = `${query.pattern ?? ""} ${query.rule === undefined ? "" : JSON.stringify(query.rule)}`;
  return new Set([...text.matchAll(/\$(?:\$\$)?([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1]!));
}

/**
 * A query's `transform`: name → transformation, in order (one may be made from one named before it).
 *
 * @param raw The transform, as given.
 * @param bound The metavariables the pattern or rule binds.
 * @param on `rewrite`: makes a `rewrite` transformation (the query's rewriters), if it has them; `regex`:
 *   compiles a `replace`'s regex (`compileRe2`).
 * @returns The transformations, in order.
 * @throws RecoverableError `invalid_args` for a malformed transformation, a bad regex, or a source no pattern
 *   binds and no transformation before it makes.
 */
export function compileTransform(
  raw: unknown,
  bound: ReadonlySet<string>,
  on: { rewrite?: RewriteMaker | undefined; regex?: RegexCompiler | undefined } = {},
): CompiledTransform[] {
  const { rewrite, regex } = on;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw bad(
      "transform",
      "must map new names to transformations",
      'Pass e.g. {"LOWER": {"convert": {"source": "$A", "toCase": "lowerCase"}}}',
    );
  }
  const known = new Set(bound);
  return Object.entries(raw as Record<string, unknown>).map(([name, value]) => {
    if (!/^[A-Z_][A-Z0-9_]*$/.test(name)) {
      throw bad(
        `transform.${name}`,
        "is not a metavariable name",
        "Name it as the pattern names them: capitals, digits, _",
      );
    }
    const t = compileOne(name, value, { rewrite, regex });
    if (!known.has(t.source)) {
      throw bad(
        `transform.${name}`,
        `is made from $${t.source}, which nothing binds before it`,
        "Use a metavariable of the pattern, or one a transformation above makes",
      );
    }
    known.add(name);
    return t;
  });
}

/**
 * The bindings of one site with the transformations' new ones (each placed where its source is, its text
 * made); a source the site did not bind makes nothing.
 *
 * @param transforms The compiled transformations.
 * @param bindings The site's bindings.
 * @param ctx The file and how to match and fill (what a `rewrite` needs; the others need none).
 * @returns The bindings, the new ones added.
 */
export function withTransformed(
  transforms: readonly CompiledTransform[],
  bindings: Record<string, Binding>,
  ctx?: TransformContext,
): Record<string, Binding> {
  if (transforms.length === 0) return bindings;
  const out = { ...bindings };
  for (const t of transforms) {
    const from = out[t.source];
    if (from === undefined) continue;
    if (t.rewrite !== undefined && ctx === undefined) {
      throw new Error("a rewrite needs the file and the match");
    }
    const text = t.rewrite ? t.rewrite(from, { ...ctx!, bindings: out }) : t.apply(from.text);
    if (text !== undefined) out[t.name] = { nodes: [], start: from.start, end: from.end, text };
  }
  return out;
}
