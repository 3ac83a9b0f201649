/**
 * The names a JSDoc comment's tags give: `{@link x}` and `@see x` (a symbol
 * at the comment), `@param x` (the documented function's parameter), and the
 * type names in a tag's `{…}` type expression (`@param {Context} c`,
 * `@returns {Promise<Hono>}`, `@throws {HTTPException}`, `@type {X}`), which
 * the TypeScript checker resolves like a type written at that place. Prose is
 * none of these: it stays text. `import("./m").X` names the module's export X.
 * Record keys (`{{a: T}}`), other properties (`ns.X`), string literals and the
 * comment's own `@template` names are left out.
 *
 * @module
 */

/** One name a JSDoc comment gives. */
export interface DocName {
  /** The name as written. */
  name: string;
  /** Its offset in the comment (UTF-16). */
  offset: number;
  /**
   * "link": `{@link x}`, `@see x`; "param": `@param x`; "type": a name in a `{…}` type expression;
   * "import": the X of `import("./m").X` in a type expression.
   */
  role: "link" | "param" | "type" | "import";
  /** For "import": the module specifier as written. */
  source?: string;
}

const NAME = /[\p{L}_$][\p{L}\p{N}_$]*/uy;
/** A type expression longer than this is not read (a brace left open in prose). */
const MAX_TYPE = 1000;

/**
 * The names a JSDoc comment's tags give, in order.
 *
 * @param comment The comment's text, `/**` to `*\/`.
 * @returns Each name, its offset in the comment and its role.
 *
 * @example
 * ```ts
 * import { docTagNames } from "./doc_tags.ts";
 * import assert from "node:assert/strict";
 *
 * const names = docTagNames("/** Uses {@link Hono}.\n * @param {Context} c the Context\n * @returns {Promise<Res>} *\/");
 * assert.deepEqual(names.map((n) => `${n.role}:${n.name}`), ["link:Hono", "type:Context", "param:c", "type:Promise", "type:Res"]);
 * ```
 */
export function docTagNames(comment: string): DocName[] {
  const out: DocName[] = [];
  const templates = new Set<string>();
  for (const m of comment.matchAll(/\{@link(?:code|plain)?\s+/g)) {
    pushName(comment, m.index + m[0].length, "link", out);
  }
  for (const m of comment.matchAll(/(?:^|[\s*])@([A-Za-z]+)[ \t]*/g)) {
    const tag = m[1]!;
    let at = m.index + m[0].length;
    if (comment[at] === "{" && comment[at + 1] !== "@") {
      const end = closingBrace(comment, at);
      if (end < 0) continue;
      typeNames(comment, at + 1, end, out);
      at = /^\}\s*/.exec(comment.slice(end))![0].length + end;
    }
    if (tag === "param") pushName(comment, comment[at] === "[" ? at + 1 : at, "param", out);
    else if (tag === "see") pushName(comment, at, "link", out);
    else if (tag === "template") {
      for (const t of /^[^\n*]*/.exec(comment.slice(at))![0].matchAll(/[\p{L}_$][\p{L}\p{N}_$]*/gu)) {
        templates.add(t[0]);
      }
    }
  }
  return out.filter((n) => !(n.role === "type" && templates.has(n.name))).sort((a, b) => a.offset - b.offset);
}

/** The name starting at `at`, if one does. */
function pushName(comment: string, at: number, role: DocName["role"], out: DocName[]): void {
  NAME.lastIndex = at;
  const m = NAME.exec(comment);
  if (m) out.push({ name: m[0], offset: at, role });
}

/** The offset of the `}` that closes the `{` at `open` (nested braces counted), or -1. */
function closingBrace(comment: string, open: number): number {
  let depth = 0;
  const last = Math.min(comment.length, open + MAX_TYPE);
  for (let i = open; i < last; i++) {
    const c = comment[i];
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
    else if (c === "*" && comment[i + 1] === "/") return -1;
  }
  return -1;
}

/**
 * The type names of the type expression between `start` and `end`, and the X of `import("./m").X`: no keys,
 * other properties or strings.
 */
function typeNames(comment: string, start: number, end: number, out: DocName[]): void {
  const raw = comment.slice(start, end);
  const text = raw.replace(/(["'`])(?:(?!\1)[^\\]|\\.)*\1/g, (s) => " ".repeat(s.length));
  for (const m of text.matchAll(/[\p{L}_$][\p{L}\p{N}_$]*/gu)) {
    const before = text.slice(0, m.index).trimEnd();
    const after = text.slice(m.index + m[0].length).trimStart();
    if (/^\??:/.test(after)) continue;
    if (!before.endsWith(".")) {
      out.push({ name: m[0], offset: start + m.index, role: "type" });
      continue;
    }
    const module = /import\(\s*(["'])([^"'\n]+)\1\s*\)\s*\.\s*$/.exec(raw.slice(0, m.index));
    if (module) out.push({ name: m[0], offset: start + m.index, role: "import", source: module[2]! });
  }
}
