/**
 * A file's lines at a version, as the ledger stores them: from the bytes of
 * a staged change, or from the file as it is now (when it still has the
 * version an answer showed). Null for a file that is not text.
 *
 * @module
 */
import { textLines } from "../fs/lines.ts";
import { decodeText } from "../fs/text.ts";
import { versionOf } from "../fs/version.ts";
import type { FileSnapshot } from "./ledger.ts";
import type { GuardHost } from "./types.ts";

/** The snapshot of a staged side, or null for a file that is not text. */
export function snapshotOf(bytes: Uint8Array, path: string, version: string): FileSnapshot | null {
  try {
    return { version, lines: textLines(decodeText(bytes, path).text) };
  } catch {
    return null;
  }
}

/** Read a file as it is now, when it still has `version` (or any version when not given). */
export async function current(
  host: GuardHost,
  path: string,
  version?: unknown,
): Promise<FileSnapshot | null> {
  const bytes = await host.fs.read(host.sandbox.abs(path));
  if (!bytes) return null;
  const v = await versionOf(bytes);
  if (typeof version === "string" && version !== v) return null;
  return snapshotOf(bytes, path, v);
}
