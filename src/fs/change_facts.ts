/**
 * What several stages of one call ask of the same pending change — the
 * version of its new bytes, each side decoded as text — computed once per
 * change. The review steps, the syntax guard and the commit each asked for
 * them on their own: on a 700 KB file that was four SHA-256 and five UTF-8
 * decodes of the same bytes per edit.
 *
 * The memo is keyed by the change object, which the stage makes fresh for
 * each call ({@linkcode Stage.changes}) and whose bytes nobody rewrites; the
 * hash guard itself never reads it (it hashes what is on the backend).
 *
 * @module
 */
import type { PendingChange } from "./stage.ts";
import { decodeText, type TextFile } from "./text.ts";
import { type Version, versionOf } from "./version.ts";

interface Facts {
  afterVersion?: Promise<Version>;
  before?: TextFile | RecoverableFailure;
  after?: TextFile | RecoverableFailure;
}

/** A decode that failed, kept so that asking again throws the same error without decoding again. */
interface RecoverableFailure {
  failed: unknown;
}

const FACTS = new WeakMap<PendingChange, Facts>();

function factsOf(change: PendingChange): Facts {
  let f = FACTS.get(change);
  if (!f) FACTS.set(change, f = {});
  return f;
}

/**
 * The version of a change's new bytes (computed once per change).
 *
 * @param change A pending change that writes bytes (not a deletion).
 * @returns Its after-version.
 */
export function afterVersionOf(change: PendingChange): Promise<Version> {
  const bytes = change.after;
  if (bytes === null) throw new TypeError(`afterVersionOf: the change of "${change.path}" deletes the file`);
  const f = factsOf(change);
  return f.afterVersion ??= versionOf(bytes);
}

/**
 * One side of a change decoded as text (once per change); throws as
 * {@linkcode decodeText} does for binary or non-UTF-8 bytes.
 *
 * @param change A pending change.
 * @param side "before" or "after" (that side must have bytes).
 * @returns The decoded text (and whether it had a BOM).
 */
export function decodedSide(change: PendingChange, side: "before" | "after"): TextFile {
  const bytes = change[side];
  if (bytes === null) throw new TypeError(`decodedSide: the change of "${change.path}" has no ${side} bytes`);
  const f = factsOf(change);
  let got = f[side];
  if (!got) {
    try {
      got = decodeText(bytes, change.path);
    } catch (err) {
      got = { failed: err };
    }
    f[side] = got;
  }
  if ("failed" in got) throw got.failed;
  return got;
}
