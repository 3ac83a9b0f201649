/**
 * What a backend's batch and stated forms of a call stand for (`readMany` of `readFile`, `readdirStated` of
 * `readdir`, `holdDir` of the calls a commit makes by a held path), so that a wrapper replacing the call keeps
 * its own policy: the forms it did not replace are used only while they still stand for the backend's calls.
 *
 * @module
 */

/**
 * The tag of a backend's batch or stated form of a call (`readMany`, `readManyStated` of `readFile`;
 * `readdirStated` of `readdir`): the call it stands for. A form is used only while the backend's call is that
 * one — a wrapper that replaces `readFile` or `readdir` (to deny or filter) and keeps the rest of the disk
 * (`{ ...disk, readFile }`) is read and listed through its own call, never past it. An untagged form is
 * taken as it is.
 */
export interface StandsFor<F> {
  /** The call this form stands for. */
  readonly of?: F;
}

/** The calls a commit makes by a held directory's path (`Backend.holdDir`). */
export const HELD_CALLS = [
  "readFile",
  "writeFile",
  "rename",
  "unlink",
  "mkdir",
  "rmdir",
  "chmod",
  "openReader",
] as const;

/** One of {@linkcode HELD_CALLS}. */
export type HeldCall = typeof HELD_CALLS[number];

/**
 * A backend's `Backend.holdDir` while the calls it is tagged with are the backend's own (untagged:
 * taken as it is), else undefined: a wrapper's own write must see the path it judges.
 *
 * @param raw The backend.
 * @returns Its `holdDir`, or undefined.
 */
export function heldDirsOf<
  H extends ((...args: never[]) => unknown) & StandsFor<Partial<Record<HeldCall, unknown>>>,
>(
  raw: { holdDir?: H } & Partial<Record<HeldCall, unknown>>,
): H | undefined {
  const hold = raw.holdDir;
  const of = hold?.of;
  if (hold === undefined || of === undefined) return hold;
  return HELD_CALLS.every((call) => of[call] === raw[call]) ? hold : undefined;
}

/**
 * A backend's form of a call while it stands for the backend's own `call` ({@linkcode StandsFor}; untagged:
 * taken as it is), else undefined.
 *
 * @param form The form (`readMany`, `readManyStated`, `readdirStated`), or undefined.
 * @param call The backend's own call it should stand for.
 * @returns The form, or undefined.
 */
export function formFor<F extends (...args: never[]) => unknown>(
  form: (F & StandsFor<unknown>) | undefined,
  call: unknown,
): F | undefined {
  return typeof form === "function" && (form.of === undefined || form.of === call) ? form : undefined;
}
