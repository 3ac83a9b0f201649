/**
 * ripgrep beside graver's text search, for the equality table and the bench: a disk tree as `SearchFiles`
 * (the walk of `fs/walk.ts` over a disk Stage), ripgrep run with the same ignore rules (`.gitignore`,
 * `.ignore` and `.rgignore` in the tree; no parent or global files, no git repository needed), and both answers reduced to the same set
 * of `path:line:column` (columns in UTF-16 code units, ripgrep's byte offsets converted).
 *
 * @module
 */
import { createDiskBackend } from "../../../src/adapters/deno/mod.ts";
import { BackendFs, Sandbox, Stage } from "../../../src/fs/mod.ts";
import { normalizeSearchTextArgs, type SearchFiles, searchText } from "../../../src/search/mod.ts";
import { walkSearchFiles } from "../../../src/search/walk_files.ts";
import { ReadCache } from "../../../src/project/read_cache.ts";

/** One query of the table: graver's arguments and the same query as ripgrep flags. */
export interface RgCase {
  /** What it checks. */
  name: string;
  /** search_text arguments. */
  args: Record<string, unknown>;
  /** ripgrep flags (the pattern is passed with `-e`). */
  rg: string[];
}

/** The absolute path of ripgrep, or null when it is not installed. */
export async function ripgrepPath(): Promise<string | null> {
  try {
    const { code, stdout } = await new Deno.Command("sh", { args: ["-c", "command -v rg"], stdout: "piped" })
      .output();
    return code === 0 ? new TextDecoder().decode(stdout).trim() : null;
  } catch {
    return null;
  }
}

/**
 * A disk tree as search files, read without hashing (the search hashes what it returns); with `cache`, through
 * that read cache, as a warm session's search reads.
 */
export function diskSearchFiles(root: string, options: { cache?: ReadCache } = {}): SearchFiles {
  const fs = BackendFs.wrap(createDiskBackend());
  // A root reached through a link (node_modules/hono) by its real path: a bare sandbox has not learned it
  // (`Sandbox.learnRealRoot`, as a workspace does), and would refuse what it lists and reads there.
  const sandbox = new Sandbox(Deno.realPathSync(root));
  if (options.cache) return walkSearchFiles(new Stage(fs, sandbox), { cache: options.cache });
  return walkSearchFiles(new Stage(fs, sandbox), { readBytes: (real) => fs.read(sandbox.abs(real)) });
}

/** A read cache over the disk, as one session holds it. */
export function diskReadCache(): ReadCache {
  return new ReadCache(BackendFs.wrap(createDiskBackend()));
}

/** The ripgrep flags that make its ignore rules graver's walk's. */
export const RG_SAME_IGNORES = [
  "--no-config",
  "--no-require-git",
  "--no-ignore-parent",
  "--no-ignore-global",
  "--no-ignore-exclude",
  "-g",
  "!node_modules/",
];

/** Run ripgrep in `root` with `--json`; returns its stdout. */
export async function runRipgrep(root: string, c: RgCase): Promise<string> {
  const args = [
    "--json",
    ...RG_SAME_IGNORES,
    ...c.rg,
    "-e",
    String(c.args.pattern),
    `./${c.args.path ?? ""}`,
  ];
  const { code, stdout, stderr } = await new Deno.Command("rg", {
    args,
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  if (code > 1) throw new Error(`rg ${args.join(" ")} failed: ${new TextDecoder().decode(stderr)}`);
  return new TextDecoder().decode(stdout);
}

const ENC = new TextEncoder();
const DEC = new TextDecoder();

/** ripgrep's JSON reduced to `path:line:column` of each match, and `path:line` of each context line. */
export function rgSets(json: string): { matches: Set<string>; lines: Set<string> } {
  const matches = new Set<string>();
  const lines = new Set<string>();
  for (const row of json.split("\n")) {
    if (row === "") continue;
    const msg = JSON.parse(row);
    if (msg.type !== "match" && msg.type !== "context") continue;
    const d = msg.data;
    const path = String(d.path.text).replace(/^\.\//, "");
    const bytes = d.lines.text !== undefined
      ? ENC.encode(d.lines.text)
      : Uint8Array.from(atob(d.lines.bytes), (c) => c.charCodeAt(0));
    const nLines = Math.max(1, DEC.decode(bytes).replace(/\n$/, "").split("\n").length);
    for (let k = 0; k < nLines && msg.type === "context"; k++) lines.add(`${path}:${d.line_number + k}`);
    for (const sm of d.submatches ?? []) {
      const before = bytes.subarray(0, sm.start);
      const lastNl = before.lastIndexOf(10);
      const line = d.line_number + before.filter((b: number) => b === 10).length;
      const column = DEC.decode(before.subarray(lastNl + 1)).length + 1;
      matches.add(`${path}:${line}:${column}`);
      lines.add(`${path}:${line}`);
    }
  }
  return { matches, lines };
}

/** graver's answer to the same query reduced the same way (every page, no budget). */
export async function graverSets(
  files: SearchFiles,
  args: Record<string, unknown>,
): Promise<{ matches: Set<string>; lines: Set<string> }> {
  const result = await searchText(
    files,
    normalizeSearchTextArgs({ max_results: 1_000_000, max_chars: 1e12, ...args }),
  );
  const matches = new Set<string>();
  const lines = new Set<string>();
  for (const m of result.matches ?? []) {
    for (const s of m.submatches) matches.add(`${m.path}:${m.line}:${s.column}`);
    lines.add(`${m.path}:${m.line}`);
    (m.context_before ?? []).forEach((_, i, all) => lines.add(`${m.path}:${m.line - all.length + i}`));
    (m.context_after ?? []).forEach((_, i) => lines.add(`${m.path}:${m.line + 1 + i}`));
  }
  return { matches, lines };
}

/** The members of `a` not in `b`, first few. */
export function missing(a: Set<string>, b: Set<string>, few = 8): string[] {
  const out: string[] = [];
  for (const x of a) if (!b.has(x) && out.push(x) >= few) break;
  return out;
}
