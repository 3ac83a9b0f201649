/**
 * The import graph of `src/` and the layering rules it must follow
 * (docs/architecture.md): folder ranks, no import running up a rank (type
 * imports included), no `_private` module imported from another folder, no
 * cycle. Pure functions over a graph, so a test can also feed them a graph
 * with a deliberately broken import.
 *
 * @module
 */

/** file (relative to src/) -> the src-relative files it imports. */
export type ImportGraph = Map<string, string[]>;

/**
 * The rank of each area of `src/`: an area may import only from areas of a
 * lower rank (and from itself). Areas of equal rank are peers and may not
 * import each other.
 */
export const RANKS: Readonly<Record<string, number>> = {
  "errors.ts": 0,
  "telemetry.ts": 0,
  "_types.ts": 0,
  "tool_kinds.ts": 0,
  "arrays.ts": 0,
  fs: 1,
  // Language profiles are facts that need no parser; syntax/ (module resolution, binding rules, a header's
  // language) asks them, so they sit below it.
  languages: 1.5,
  syntax: 2,
  project: 2.5,
  text: 3,
  structural: 3,
  search: 3,
  guards: 3,
  compass: 3,
  tools: 4,
  "workspace.ts": 5,
  surfaces: 6,
  adapters: 7,
  "mod.ts": 8,
};

/** The area of a src-relative file: its first folder, or the file itself at the top. */
export function areaOf(file: string): string {
  const slash = file.indexOf("/");
  return slash === -1 ? file : file.slice(0, slash);
}

// import/export ... from "x"; import "x"; import("x"); import type ... from "x".
const IMPORT_RE =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

/**
 * The relative imports of one module's source, as src-relative paths.
 *
 * @param file The module's path relative to src/.
 * @param source Its text.
 * @returns The src-relative files it imports (package imports left out).
 */
export function importsOf(file: string, source: string): string[] {
  // Drop comments so that JSDoc examples (`import … from "@graver/core"`) do not count.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const out = new Set<string>();
  for (const m of code.matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    if (!spec.startsWith(".")) continue;
    const url = new URL(spec, `file:///src/${file}`);
    out.add(url.pathname.slice("/src/".length));
  }
  return [...out];
}

/** One broken rule, said so a reader can fix it. */
export interface LayerViolation {
  /** "upward" | "peer" | "private" | "cycle" | "unranked". */
  rule: string;
  /** The sentence. */
  message: string;
}

/**
 * Check a graph against {@linkcode RANKS}: every import points down a rank or
 * stays in its area; `_x.ts` modules are imported only from their own folder;
 * no cycle (Tarjan's strongly connected components).
 *
 * @param graph The import graph.
 * @returns Every violation (empty when the layering holds).
 */
export function checkLayers(graph: ImportGraph): LayerViolation[] {
  const out: LayerViolation[] = [];
  for (const [from, imports] of graph) {
    const a = areaOf(from);
    const ra = RANKS[a];
    if (ra === undefined) out.push({ rule: "unranked", message: `src/${from}: area "${a}" has no rank` });
    for (const to of imports) {
      const b = areaOf(to);
      const rb = RANKS[b];
      if (a !== b && ra !== undefined && rb !== undefined) {
        if (rb > ra) {
          out.push({
            rule: "upward",
            message: `src/${from} (${a}, rank ${ra}) imports src/${to} (${b}, rank ${rb})`,
          });
        } else if (rb === ra) {
          out.push({
            rule: "peer",
            message: `src/${from} (${a}) imports its peer src/${to} (${b}, same rank)`,
          });
        }
      }
      const base = to.slice(to.lastIndexOf("/") + 1);
      const dirOf = (f: string) => f.slice(0, f.lastIndexOf("/") + 1);
      if (base.startsWith("_") && dirOf(to) !== dirOf(from) && !dirOf(from).startsWith(dirOf(to))) {
        out.push({ rule: "private", message: `src/${from} imports src/${to}, private to src/${dirOf(to)}` });
      }
    }
  }
  for (const cycle of cyclesOf(graph)) {
    out.push({ rule: "cycle", message: `import cycle: ${cycle.map((f) => `src/${f}`).join(" -> ")}` });
  }
  return out;
}

/**
 * The import cycles of a graph: one entry per strongly connected component of
 * more than one module (or a module importing itself).
 *
 * @param graph The import graph.
 * @returns Each cycle's modules, sorted.
 */
export function cyclesOf(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}
