/**
 * Snapshots of a whole backend tree, to compare stores byte for byte.
 *
 * @module
 */
import { type Backend, BackendFs, versionOf } from "../../src/mod.ts";

/** Relative file path -> SHA-256 of its bytes, plus the files under `.graver/`. */
export interface Snapshot {
  /** Workspace files (outside `.graver/`), sorted by path. */
  files: Record<string, string>;
  /** Files left under `.graver/` (journal, temp files, backups). */
  internal: string[];
}

/**
 * Walk a backend from `root` and hash every file.
 *
 * @param backend The raw backend (not a fault wrapper).
 * @param root Backend path of the root.
 * @returns The snapshot.
 */
export async function snapshot(backend: Backend, root = "/"): Promise<Snapshot> {
  const fs = BackendFs.wrap(backend);
  const files: Record<string, string> = {};
  const internal: string[] = [];
  async function walk(abs: string, rel: string): Promise<void> {
    for (const name of await fs.list(abs)) {
      const childAbs = abs === "/" ? `/${name}` : `${abs}/${name}`;
      const childRel = rel === "" ? name : `${rel}/${name}`;
      const kind = await fs.kind(childAbs);
      if (kind === "dir") await walk(childAbs, childRel);
      else if (childRel.startsWith(".graver/")) internal.push(childRel);
      else if (kind === "file") files[childRel] = await versionOf((await fs.read(childAbs))!);
      else files[childRel] = `<${kind}>`;
    }
  }
  await walk(root, "");
  const sorted: Record<string, string> = {};
  for (const k of Object.keys(files).sort()) sorted[k] = files[k]!;
  return { files: sorted, internal: internal.sort() };
}
