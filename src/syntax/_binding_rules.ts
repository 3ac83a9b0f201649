/**
 * The few binding rules that differ by language and cannot be said in a
 * query: which module-level names another module may import, where a Go
 * package import's local name lies, and in which scope a name declared by
 * an ordered declaration (`let`, `:=`) binds. Private to `src/syntax/`.
 *
 * @module
 */
import { profileOf } from "../languages/profiles.ts";
import type { Scope } from "./binding_model.ts";

/**
 * Whether every module-level name of a file of this language is importable (Python, Rust).
 *
 * @param language Language id.
 * @returns True for such languages.
 */
export function exportsAll(language: string): boolean {
  return profileOf(language).moduleSystem?.exportsEveryTopLevelName ?? false;
}

/**
 * Whether a language exports exactly its Capitalised module-level names (Go).
 *
 * @param language Language id.
 * @returns True for such languages.
 */
export function exportsByCase(language: string): boolean {
  return profileOf(language).moduleSystem?.exportsByCapital ?? false;
}

/**
 * The span of the name a Go package import binds: the import path's last
 * segment (`"a/b/pkg"` → `pkg`), skipping a major-version segment (`"a/b/v2"`
 * → `b`) and a `.vN` suffix (`"gopkg.in/yaml.v3"` → `yaml`). Null when the
 * segment is not an identifier (a hyphenated directory: the package's real
 * name is unknown without reading it).
 *
 * @param path The import path as written between the quotes.
 * @param start Offset of the path's first character.
 * @returns The span, or null.
 */
export function importPathLocal(path: string, start: number): { start: number; end: number } | null {
  const segments = path.split("/");
  let i = segments.length - 1;
  if (i > 0 && /^v[0-9]+$/.test(segments[i]!)) i--;
  const offset = segments.slice(0, i).reduce((n, s) => n + s.length + 1, 0);
  const name = segments[i]!.replace(/\.v[0-9]+$/, "");
  if (!/^[\p{L}_][\p{L}\p{N}_]*$/u.test(name)) return null;
  return { start: start + offset, end: start + offset + name.length };
}

/**
 * A resolver from a definition's innermost scope to the scope it binds in,
 * given the "after" scopes of ordered declarations (each opened at the end of
 * its statement, to the end of the block): a name declared by such a
 * statement binds in that statement's after scope, so it is visible from the
 * end of the statement on and shadows the same name declared before.
 *
 * @param declStarts Each after scope and the start offset of its statement.
 * @returns A function of (innermost scope, definition offset) to the binding scope.
 */
export function afterScopeOf(declStarts: Map<Scope, number>): (scope: Scope, offset: number) => Scope {
  if (declStarts.size === 0) return (scope) => scope;
  const children = new Map<Scope, Scope[]>();
  for (const s of declStarts.keys()) {
    let list = children.get(s.parent!);
    if (!list) children.set(s.parent!, list = []);
    list.push(s);
  }
  return (scope, offset) => {
    for (const s of children.get(scope) ?? []) {
      if (declStarts.get(s)! <= offset && offset < s.start) return s;
    }
    return scope;
  };
}
