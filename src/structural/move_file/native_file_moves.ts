/**
 * Whether moving a Go or Rust file keeps the code that names it building.
 * graver rewrites no Go package paths or Rust `mod` declarations, so a move
 * is answered only when the file's name does not carry its identity: a Go
 * file that stays in its directory (its package) with the same role in its
 * name (`_test`, `_linux`, `_amd64`, a leading `_` or `.`), and a Rust file
 * that cargo finds by its directory (`tests/`, `examples/`, `benches/`,
 * `src/bin/`). Any other Rust file is a module: `mod x;` (or Cargo, for
 * `lib.rs`/`main.rs`) names it by its path, and moving it would leave that
 * name pointing at nothing. Each module system states what a move breaks
 * (`fileMoveBreaks` in its profile); this module turns it into the refusal.
 *
 * @module
 */
import { RecoverableError } from "../../errors.ts";
import { profileOf } from "../../languages/profiles.ts";

/** Options of {@link nativeMoveRefusal}. */
export interface NativeMove {
  /** The file's language id. */
  language: string;
  /** Source path (relative). */
  from: string;
  /** Destination path (relative). */
  to: string;
}

/**
 * The refusal of a Go or Rust file move that would break what names the file, or null when the move is safe
 * (or the file is of another language).
 *
 * @param move The language and both paths.
 * @returns The error to throw, or null.
 */
export function nativeMoveRefusal(move: NativeMove): RecoverableError | null {
  const { language, from, to } = move;
  const broken = profileOf(language).moduleSystem?.fileMoveBreaks(from, to) ?? null;
  if (broken === null) return null;
  return new RecoverableError("unsupported_language", `Cannot move "${from}" to "${to}": ${broken.why}`, {
    hint: broken.hint,
    details: { from, to, language },
  });
}
