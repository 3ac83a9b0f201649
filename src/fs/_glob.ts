/**
 * Glob patterns in paths, only to explain a path that was meant as one: file
 * tools take one path, never a pattern.
 *
 * @module
 */
import { bracketAt, WildcardBuilder, type WildcardMatcher } from "./_wildcard.ts";

/**
 * Whether a path looks like a glob pattern (`*`, `?` or `{a,b}`); `[id]` alone is a real name (Next.js).
 * One pass over the path, whatever it holds.
 */
export function looksLikeGlob(path: string): boolean {
  let open = false;
  let comma = false;
  for (const c of path) {
    if (c === "*" || c === "?") return true;
    if (c === "{") [open, comma] = [true, false];
    else if (c === "," && open) comma = true;
    else if (c === "}") {
      if (open && comma) return true;
      open = false;
    }
  }
  return false;
}

/** Where the `{` at `i` closes: the index of its `}`, or -1 when none follows (then it is a plain character). */
function braceEnd(glob: string, i: number): number {
  return glob.indexOf("}", i + 1);
}

/**
 * A matcher for a posix glob: `**` spans folders, `*` and `?` stay within one
 * name, `[abc]` and `{a,b}` as in a shell. It runs in time linear in the
 * path (times the pattern's length), never backtracking.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { globMatcher } from "./_glob.ts";
 *
 * assert.ok(globMatcher("src/**" + "/*.ts").test("src/a/b.ts"));
 * assert.ok(!globMatcher("src/" + "*a".repeat(14) + "*b").test("src/" + "a".repeat(80)));
 * ```
 *
 * @param glob The pattern, relative to the root.
 * @returns A matcher of whole relative paths.
 */
export function globMatcher(glob: string): WildcardMatcher {
  const b = new WildcardBuilder();
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const slash = glob[i + 2] === "/";
        if (slash) b.folders();
        else b.star(true);
        i += slash ? 2 : 1;
      } else b.star();
    } else if (c === "?") b.one();
    else if (c === "[") {
      const bracket = bracketAt(glob, i);
      if (bracket === null) b.literal("[");
      else {
        b.char(bracket.test);
        i = bracket.end - 1;
      }
    } else if (c === "{") {
      const end = braceEnd(glob, i);
      if (end === -1) b.literal("{");
      else {
        b.oneOf(glob.slice(i + 1, end).split(","));
        i = end;
      }
    } else b.literal(c);
  }
  return b.build();
}

/**
 * What a glob leaves open, in words, or null when every `[` and `{` in it closes: where {@linkcode globMatcher}
 * would take such a `[` or `{` as a plain character, a tool that takes globs from a user refuses it instead,
 * as ripgrep's `-g` does (a `[` or `{` meant as text is rarely what was meant).
 *
 * @param glob The glob.
 * @returns The problem, or null.
 */
export function unclosedInGlob(glob: string): string | null {
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "[") {
      const bracket = bracketAt(glob, i);
      if (bracket === null) return `the character class at offset ${i} is not closed (a "]" is missing)`;
      i = bracket.end - 1;
    } else if (c === "{") {
      const end = braceEnd(glob, i);
      if (end === -1) return `the alternatives at offset ${i} are not closed (a "}" is missing)`;
      i = end;
    }
  }
  return null;
}

/** The folder a glob's walk starts from: its leading segments without a pattern ("" for the root). */
export function globBase(glob: string): string {
  const segments = glob.split("/");
  const literal: string[] = [];
  for (const s of segments.slice(0, -1)) {
    if (/[*?[{]/.test(s)) break;
    literal.push(s);
  }
  return literal.join("/");
}
