/**
 * Where a file was read or a folder listed, against where it was asked for: the one rule of reads and
 * listings of real paths (`real_reads.ts`, `BackendFs.listTyped`) that a folder on the way swapped for a link
 * since the path was resolved must not pass — what was opened may be anywhere on the machine.
 *
 * @module
 */

/**
 * Whether a read landed where it was asked: `at`, where the backend opened the file, names the same file of
 * the workspace as `asked` (the workspace's root may be reached through a link: `landingIn` a sandbox).
 */
export type Landing = (at: string, asked: string) => boolean;

/**
 * The {@linkcode Landing} of a sandbox: the same path relative to its root or to the root's real path.
 *
 * @param sandbox The sandbox (its `relOf`).
 * @returns The check.
 */
export function landingIn(sandbox: { relOf(abs: string): string | null }): Landing {
  return (at, asked) => {
    const rel = sandbox.relOf(at);
    return rel !== null && rel === sandbox.relOf(asked);
  };
}

/**
 * Whether what was opened at `at` is what was asked for: the same path, or where `landing` allows it.
 *
 * @param at Where the backend opened it, as the kernel names it.
 * @param asked The real path asked for.
 * @param landing Where else it may be (the root through a link), or undefined for nowhere else.
 * @returns True when it is what was asked for.
 */
export function landsAsAsked(at: string, asked: string, landing: Landing | undefined): boolean {
  return at === asked || landing?.(at, asked) === true;
}

/**
 * The refusal of a file read or a folder listed somewhere else than asked: a folder on its way is a link now.
 *
 * @param opened Where it was opened, the path asked, and what was done there.
 * @returns The `ELOOP` error, naming both paths.
 */
export function landedElsewhere(opened: { at: string; asked: string; what: "read" | "listed" }): Error {
  const { at, asked, what } = opened;
  return Object.assign(
    new Error(`ELOOP: "${asked}" was opened as "${at}": a folder on its way is a link now; not ${what}`),
    { code: "ELOOP" },
  );
}

/**
 * Refuse `ELOOP` a folder listed somewhere else than the real path asked ({@linkcode landedAsAsked}'s rule
 * for a listing: its names may be any folder's on the machine).
 *
 * @param listed Where the backend listed the folder, and the path asked.
 * @param landing Where else it may be listed (the workspace's root through a link).
 * @throws Error `ELOOP` when it was listed elsewhere.
 */
export function refuseLandedElsewhere(listed: { at: string; asked: string }, landing?: Landing): void {
  if (!landsAsAsked(listed.at, listed.asked, landing)) throw landedElsewhere({ ...listed, what: "listed" });
}
