/**
 * Module namespaces passed on under a name: `export * as ns from "m"`, an
 * exported `import * as ns from "m"`, and re-exports of either. One rule for
 * the reference search (which follows `ns.x` to m's x) and for moving a
 * declaration (which rewrites `ns.x` where ns is the source's namespace).
 * Private to `src/structural/`.
 *
 * @module
 */
import type { ExportRecord, FileBindings } from "../../syntax/bindings.ts";

/**
 * The specifier of the module an export passes on whole, as a namespace: `export * as ns from "m"`, or an
 * exported `import * as ns from "m"` (null for any other export).
 */
function namespaceSource(e: ExportRecord): string | null {
  if (e.from) return e.from.imported === "*" && e.exported !== "*" ? e.from.source : null;
  const ns = e.local?.import;
  return ns?.kind === "namespace" ? ns.source : null;
}

/** What {@linkcode namespaceModule} reads: a module's bindings and how its specifiers resolve. */
export interface ModuleLookup {
  /** The bindings of a workspace file (null when it has none). */
  bindings(path: string): Promise<FileBindings | null>;
  /** The workspace file a specifier in `from` names, or null. */
  resolve(from: string, language: string, source: string): string | null;
}

/**
 * The module whose namespace the module `path` exports as `name`, or null when `name` is not a namespace
 * there.
 *
 * @param lookup Bindings and resolution.
 * @param path The exporting module.
 * @param name The exported name.
 * @returns The namespace's module, or null.
 */
export async function namespaceModule(
  lookup: ModuleLookup,
  path: string,
  { name, depth = 0 }: { name: string; depth?: number },
): Promise<string | null> {
  if (depth > 16) return null;
  const fb = await lookup.bindings(path);
  if (!fb) return null;
  for (const e of fb.exports) {
    const whole = e.exported === name ? namespaceSource(e) : null;
    if (whole !== null) return lookup.resolve(path, fb.language, whole);
    if (!e.from || (e.exported !== name && e.exported !== "*")) continue;
    const src = lookup.resolve(path, fb.language, e.from.source);
    if (!src) continue;
    const next = await namespaceModule(lookup, src, {
      name: e.exported === "*" ? name : e.from.imported,
      depth: depth + 1,
    });
    if (next) return next;
  }
  return null;
}

/**
 * The files that pass the module `source` on as a namespace (`export * as ns from` it, or export an
 * `import * as ns` of it), with the name each gives it.
 *
 * @param files The bindings of the files to look at.
 * @param resolve Resolution of a file's specifiers.
 * @param source The module.
 * @returns Each such file and name.
 */
export function namespaceExports(
  files: Iterable<FileBindings>,
  resolve: (from: string, language: string, source: string) => string | null,
  source: string,
): { path: string; name: string }[] {
  const out: { path: string; name: string }[] = [];
  for (const fb of files) {
    for (const e of fb.exports) {
      const from = namespaceSource(e);
      if (from !== null && resolve(fb.path, fb.language, from) === source) {
        out.push({ path: fb.path, name: e.exported });
      }
    }
  }
  return out;
}
