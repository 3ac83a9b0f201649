/**
 * The commit journal: what a commit in flight writes under `.graver/` so that
 * a crash can be finished or rolled back, and the recovery that reads it.
 *
 * A journal found in the tree is untrusted input (a cloned repository can
 * ship one): recovery acts only on a journal graver wrote for this root. It
 * checks its shape and its integrity seal (a SHA-256 over the canonical
 * content, the root included), confines every entry to the root through the
 * {@linkcode Sandbox} (never into `.graver/` or a protected path), takes the
 * backup pack only from `.graver/tx/<txid>/originals.pack` and checks each
 * backup's hash before a single byte is restored. A file is only put back
 * when it still holds the bytes the commit wrote: a later writer's change is
 * never undone. Anything else is refused with a `sandbox_violation` that
 * names the journal and how to clear it, and nothing is touched.
 *
 * @module
 */
import { isRecoverable, RecoverableError } from "../errors.ts";
import type { BackendFs } from "./backend.ts";
import { INTERNAL_DIR, type Sandbox } from "./sandbox.ts";
import { type Version, versionOf } from "./version.ts";

/** The journal format graver writes (the unsealed format before it, with backend paths in it, is refused). */
export const JOURNAL_FORMAT = 2;
/** The journal's file name under `.graver/`. */
export const JOURNAL = "journal.json";

/** One file of a transaction. */
export interface JournalEntry {
  /** Path relative to the root, normalised (no `.`, `..`, leading slash). */
  path: string;
  /** Whether the file existed before the commit. */
  existed: boolean;
  /** Whether new bytes wait in `tx/<txid>/<index>.new` (false: the commit deletes the file). */
  tmp: boolean;
  /** Where the original bytes sit in the backup pack (existing files only). */
  offset: number;
  /** Length of the original bytes. */
  length: number;
  /** Version of the original bytes (null: absent). */
  before: Version | null;
  /** Version of the new bytes (null: deleted). */
  after: Version | null;
  /** Permission bits of the original (null: absent or not kept by the backend). */
  mode: number | null;
}

/** A whole journal, as sealed on disk. */
export interface Journal {
  /** {@linkcode JOURNAL_FORMAT}. */
  graver_journal: number;
  /** The transaction id; names its folder `tx/<txid>/`. */
  txid: string;
  /** The backend path of the root it was written for. */
  root: string;
  /** `prepared`: renames may be under way (roll back); `committed`: all landed (clean up). */
  state: "prepared" | "committed";
  /** Whether `tx/<txid>/originals.pack` holds the originals. */
  pack: boolean;
  /** One entry per file. */
  entries: JournalEntry[];
  /** SHA-256 over the canonical content (everything above). */
  integrity: string;
}

/** A journal before it is sealed. */
export type UnsealedJournal = Omit<Journal, "integrity">;

/**
 * Backend path of a file in graver's folder.
 *
 * @param sandbox Root mapping.
 * @param parts Path segments under `.graver/`.
 * @returns The backend path.
 */
export function internalPath(sandbox: Sandbox, ...parts: string[]): string {
  return [sandbox.abs(INTERNAL_DIR), ...parts].join("/");
}

/** Backend path of a transaction's folder. */
export function txDir(sandbox: Sandbox, txid: string): string {
  return internalPath(sandbox, "tx", txid);
}

/** Backend path of a transaction's backup pack. */
export function packPath(sandbox: Sandbox, txid: string): string {
  return internalPath(sandbox, "tx", txid, "originals.pack");
}

/** Backend path of a transaction's temp file for entry `index`. */
export function tmpPath(sandbox: Sandbox, txid: string, index: number): string {
  return internalPath(sandbox, "tx", txid, `${index}.new`);
}

/** A fresh transaction id: time and randomness, `[0-9a-z]+-[0-9a-z]+`. */
export function newTxid(): string {
  return `${Date.now().toString(36)}-${crypto.getRandomValues(new Uint32Array(1))[0]!.toString(36)}`;
}

const TXID = /^[0-9a-z]{1,16}-[0-9a-z]{1,16}$/;
const VERSION = /^[0-9a-f]{64}$/;

/** The canonical text the seal covers: fixed key order, whatever order the file had. */
function canonical(j: UnsealedJournal): string {
  return JSON.stringify([
    j.graver_journal,
    j.txid,
    j.root,
    j.state,
    j.pack,
    j.entries.map((e) => [e.path, e.existed, e.tmp, e.offset, e.length, e.before, e.after, e.mode]),
  ]);
}

/**
 * Seal a journal: add its integrity hash.
 *
 * @param journal The content.
 * @returns The sealed journal.
 */
export async function sealJournal(journal: UnsealedJournal): Promise<Journal> {
  return { ...journal, integrity: await versionOf(new TextEncoder().encode(canonical(journal))) };
}

/**
 * Write a journal atomically (temp file, then rename over `journal.json`).
 *
 * @param fs Wrapped backend.
 * @param sandbox Root mapping.
 * @param journal The content (sealed here).
 */
export async function writeJournal(fs: BackendFs, sandbox: Sandbox, journal: UnsealedJournal): Promise<void> {
  const sealed = await sealJournal(journal);
  const tmp = internalPath(sandbox, `${JOURNAL}.${journal.txid}.tmp`);
  await fs.write(tmp, new TextEncoder().encode(JSON.stringify(sealed)), { parentExists: true });
  await fs.rename(tmp, internalPath(sandbox, JOURNAL), { parentExists: true });
}

/**
 * The refusal for a journal graver will not act on.
 *
 * @param sandbox Root mapping.
 * @param reason Why, e.g. "entry 0 names \"../x\", outside the root".
 * @returns A `sandbox_violation` naming the file and how to clear it.
 */
export function untrustedJournal(sandbox: Sandbox, reason: string): RecoverableError {
  const path = internalPath(sandbox, JOURNAL);
  return new RecoverableError(
    "sandbox_violation",
    `Cannot recover the commit journal "${path}": ${reason}; graver did not act on it and changed nothing`,
    {
      hint: `If you did not run graver here (a cloned repository can carry one), remove "${path}" and ` +
        `"${internalPath(sandbox, "tx")}/"; if a graver commit crashed here, check the files it names ` +
        "by hand first: writes stay refused while the journal is there",
      details: { journal: path, reason },
    },
  );
}

function isIndex(v: unknown): v is number {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
}

function isVersionOrNull(v: unknown): v is Version | null {
  return v === null || (typeof v === "string" && VERSION.test(v));
}

/** Why one entry is not one graver writes, or null when it is. */
function entryFault(sandbox: Sandbox, e: Record<string, unknown>, packAt: number): string | null {
  if (typeof e.path !== "string") return "an entry has no path";
  let rel: string;
  try {
    rel = sandbox.lexical(e.path).rel;
  } catch (err) {
    return `it names "${e.path}", which graver never writes (${err instanceof Error ? err.message : err})`;
  }
  if (rel !== e.path) return `it names "${e.path}", which is not a normalised path inside the root`;
  if (typeof e.existed !== "boolean" || typeof e.tmp !== "boolean") return `entry "${rel}" is malformed`;
  if (!isIndex(e.offset) || !isIndex(e.length) || !isVersionOrNull(e.before) || !isVersionOrNull(e.after)) {
    return `entry "${rel}" is malformed`;
  }
  if (e.existed !== (e.before !== null) || e.tmp !== (e.after !== null)) {
    return `entry "${rel}" contradicts itself`;
  }
  if (e.existed ? e.offset !== packAt : e.length !== 0) {
    return `entry "${rel}" points outside its backup pack`;
  }
  const mode = e.mode;
  if (mode !== null && !(isIndex(mode) && mode <= 0o7777)) return `entry "${rel}" has an impossible mode`;
  return null;
}

/** Why a parsed journal is not one graver wrote for this root, or null when it is. */
async function journalFault(sandbox: Sandbox, j: Record<string, unknown>): Promise<string | null> {
  if (j.graver_journal !== JOURNAL_FORMAT) return "it is not in the format this graver writes";
  if (typeof j.txid !== "string" || !TXID.test(j.txid)) return "its transaction id is not one graver makes";
  if (j.root !== sandbox.root) return `it was written for another root (${JSON.stringify(j.root)})`;
  if (j.state !== "prepared" && j.state !== "committed") return "its state is unknown";
  if (typeof j.pack !== "boolean" || !Array.isArray(j.entries) || j.entries.length === 0) {
    return "it is malformed";
  }
  const seen = new Set<string>();
  let packAt = 0;
  for (const e of j.entries as unknown[]) {
    if (e === null || typeof e !== "object") return "an entry is malformed";
    const fault = entryFault(sandbox, e as Record<string, unknown>, packAt);
    if (fault !== null) return fault;
    const entry = e as JournalEntry;
    if (seen.has(entry.path)) return `it names "${entry.path}" twice`;
    seen.add(entry.path);
    packAt += entry.length;
  }
  if (j.pack !== (j.entries as JournalEntry[]).some((e) => e.existed)) return "its backup pack flag is wrong";
  const sealed = await sealJournal(j as unknown as UnsealedJournal);
  if (j.integrity !== sealed.integrity) {
    return "its integrity hash does not match its content (damaged or forged)";
  }
  return null;
}

/**
 * Refuse a `.graver` that is not a plain folder (a link planted to send
 * graver's own writes and sweeps somewhere else); absent is fine.
 *
 * @param fs Wrapped backend.
 * @param sandbox Root mapping.
 * @throws RecoverableError `sandbox_violation` naming the path and how to clear it.
 */
export async function checkInternalDir(fs: BackendFs, sandbox: Sandbox): Promise<void> {
  const path = internalPath(sandbox);
  const kind = await fs.kind(path);
  if (kind === null || kind === "dir") return;
  throw new RecoverableError(
    "sandbox_violation",
    `Cannot use "${path}": it is a ${kind === "symlink" ? "symbolic link" : kind}, not graver's own folder`,
    {
      hint: `Remove "${path}" (graver makes it again when it commits); nothing was written`,
      details: { path, kind },
    },
  );
}

/**
 * Read and check the journal under `.graver/`: null when there is none.
 *
 * @param fs Wrapped backend.
 * @param sandbox Root mapping.
 * @returns The journal, trusted.
 * @throws RecoverableError `sandbox_violation` for a journal graver did not write here.
 */
export async function readJournal(fs: BackendFs, sandbox: Sandbox): Promise<Journal | null> {
  const path = internalPath(sandbox, JOURNAL);
  const kind = await fs.kind(path);
  if (kind === null) return null;
  if ((await fs.kind(internalPath(sandbox))) !== "dir" || kind !== "file") {
    throw untrustedJournal(sandbox, `"${INTERNAL_DIR}" or its journal is not a plain folder and file`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode((await fs.read(path)) ?? new Uint8Array()));
  } catch {
    throw untrustedJournal(sandbox, "it is not valid JSON");
  }
  if (parsed === null || typeof parsed !== "object") throw untrustedJournal(sandbox, "it is malformed");
  const fault = await journalFault(sandbox, parsed as Record<string, unknown>);
  if (fault !== null) throw untrustedJournal(sandbox, fault);
  return parsed as Journal;
}

/**
 * Refuse a `.graver/tx` that is not a plain folder before a commit makes
 * its transaction folder in it (absent is fine).
 *
 * @param fs Wrapped backend.
 * @param sandbox Root mapping.
 * @throws RecoverableError `sandbox_violation` naming the path and how to clear it.
 */
export async function checkTxRoot(fs: BackendFs, sandbox: Sandbox): Promise<void> {
  const path = internalPath(sandbox, "tx");
  const kind = await fs.kind(path);
  if (kind === null || kind === "dir") return;
  throw new RecoverableError(
    "sandbox_violation",
    `Cannot commit in "${sandbox.root}": "${path}" is a ${kind}, not graver's own folder`,
    {
      hint: `Remove "${path}" (graver makes it when it commits); nothing was written`,
      details: { path, kind },
    },
  );
}

/**
 * Why a transaction's folders are not graver's own (`.graver/tx/` or
 * `.graver/tx/<txid>/` a link or a file), or null when both are plain folders.
 *
 * @param fs Wrapped backend.
 * @param sandbox Root mapping.
 * @param txid The transaction.
 * @returns The reason, or null.
 */
export async function txDirFault(fs: BackendFs, sandbox: Sandbox, txid: string): Promise<string | null> {
  for (const dir of [internalPath(sandbox), internalPath(sandbox, "tx"), txDir(sandbox, txid)]) {
    const kind = await fs.kind(dir);
    if (kind !== "dir") return `"${dir}" is ${kind === null ? "missing" : `a ${kind}`}, not a plain folder`;
  }
  return null;
}

/**
 * The original bytes of every entry that existed, from the backup pack,
 * each checked against its recorded version before any is used.
 */
async function backupsFromPack(
  fs: BackendFs,
  sandbox: Sandbox,
  journal: Journal,
): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  if (!journal.pack) return out;
  const fault = await txDirFault(fs, sandbox, journal.txid);
  if (fault !== null) throw untrustedJournal(sandbox, fault);
  const path = packPath(sandbox, journal.txid);
  const pack = (await fs.kind(path)) === "file" ? await fs.read(path) : null;
  if (pack === null) throw untrustedJournal(sandbox, `its backup pack "${path}" is missing`);
  for (const e of journal.entries) {
    if (!e.existed) continue;
    const bytes = pack.subarray(e.offset, e.offset + e.length);
    if (bytes.length !== e.length || (await versionOf(bytes)) !== e.before) {
      throw untrustedJournal(sandbox, `its backup of "${e.path}" does not match the version it records`);
    }
    out.set(e.path, bytes);
  }
  return out;
}

async function retry<T>(fn: () => Promise<T>, attempts = 3): Promise<T> {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      return await fn();
    } catch (err) {
      last = err;
    }
  }
  throw last;
}

/** Options for {@linkcode rollbackJournal}. */
export interface RollbackOptions {
  /** The originals in memory (a failed commit has them); absent: from the checked backup pack. */
  originals?: Map<string, Uint8Array | null>;
}

/** Whether a file can be read where it is (false: a link swapped in on its way, refused by a confined backend). */
async function reachable(fs: BackendFs, target: string): Promise<boolean> {
  try {
    await fs.read(target);
    return true;
  } catch (err) {
    if (isRecoverable(err, "sandbox_violation")) return false;
    throw err;
  }
}

/**
 * Put back every file of a journal that still holds the bytes the commit
 * wrote; a file holding its original is left alone, and so is one another
 * writer changed since (its path is returned, never overwritten).
 *
 * @param store The wrapped backend (`fs`) and its root mapping (`sandbox`).
 * @param journal A trusted journal.
 * @param options Originals in memory.
 * @returns The paths left alone because another writer changed them.
 */
export async function rollbackJournal(
  store: { fs: BackendFs; sandbox: Sandbox },
  journal: UnsealedJournal,
  options: RollbackOptions = {},
): Promise<string[]> {
  const { fs, sandbox } = store;
  const backups = options.originals ?? await backupsFromPack(fs, sandbox, journal as Journal);
  // A commit of this process rolling back: a folder swapped for a link since holds nothing it wrote (it writes
  // through held folders), so that entry is left alone; a journal read from disk with such an entry is refused.
  const own = options.originals !== undefined;
  const targets: (string | null)[] = [];
  for (const e of journal.entries) {
    try {
      targets.push((await sandbox.resolve(fs, e.path)).abs);
    } catch (err) {
      if (own && isRecoverable(err, "sandbox_violation")) {
        targets.push(null);
        continue;
      }
      const why = err instanceof Error ? err.message : String(err);
      throw untrustedJournal(sandbox, `its entry "${e.path}" does not resolve inside the root (${why})`);
    }
  }
  const changedByOthers: string[] = [];
  for (const [i, e] of journal.entries.entries()) {
    const target = targets[i]!;
    if (target === null || (own && !(await reachable(fs, target)))) {
      changedByOthers.push(e.path);
      continue;
    }
    const current = await retry(() => fs.read(target));
    const now = current === null ? null : await versionOf(current);
    if (now !== e.before && now !== e.after) {
      changedByOthers.push(e.path);
      continue;
    }
    const original = e.existed ? backups.get(e.path) ?? null : null;
    if (now !== e.before) {
      if (original === null) await retry(() => fs.remove(target));
      else await retry(() => fs.write(target, original));
    }
    if (
      original !== null && e.mode !== null && fs.keepsModes && (await retry(() => fs.mode(target))) !== e.mode
    ) {
      await retry(() => fs.chmod(target, e.mode!)); // a re-created file gets the default mode otherwise
    }
  }
  return changedByOthers;
}

/**
 * Remove a transaction's own files: temp files not renamed into place, its
 * backup pack, its folder, and the journal when it is still this
 * transaction's (never another's).
 *
 * @param fs Wrapped backend.
 * @param sandbox Root mapping.
 * @param journal The transaction.
 */
export async function cleanupTransaction(
  fs: BackendFs,
  sandbox: Sandbox,
  journal: UnsealedJournal,
): Promise<void> {
  await fs.remove(internalPath(sandbox, `${JOURNAL}.${journal.txid}.tmp`));
  const current = await fs.read(internalPath(sandbox, JOURNAL));
  if (current !== null && txidOf(current) === journal.txid) await fs.remove(internalPath(sandbox, JOURNAL));
  if ((await txDirFault(fs, sandbox, journal.txid)) !== null) return; // never through a planted link
  for (const [i, e] of journal.entries.entries()) {
    if (e.tmp) await fs.remove(tmpPath(sandbox, journal.txid, i));
  }
  await fs.remove(packPath(sandbox, journal.txid));
  await fs.removeDir(txDir(sandbox, journal.txid));
  await fs.removeDir(internalPath(sandbox, "tx")); // only when empty: nothing is left behind
}

function txidOf(raw: Uint8Array): string | null {
  try {
    const j = JSON.parse(new TextDecoder().decode(raw)) as { txid?: unknown };
    return typeof j.txid === "string" ? j.txid : null;
  } catch {
    return null;
  }
}

/**
 * Remove what commits that crashed before writing a journal left: their
 * transaction folders (no journal names them, so nothing in the tree was
 * touched), journal temp files and moved-aside locks. Only plain files in
 * plain folders are removed: a link planted under `.graver/` is never followed.
 *
 * @param fs Wrapped backend.
 * @param sandbox Root mapping.
 */
export async function sweepLeftovers(fs: BackendFs, sandbox: Sandbox): Promise<void> {
  const removeFile = async (path: string) => {
    if ((await fs.kind(path)) !== "dir") await fs.remove(path); // unlink removes a link, not its target
  };
  for (const name of await fs.list(internalPath(sandbox))) {
    if (name.startsWith(`${JOURNAL}.`) && name.endsWith(".tmp")) {
      await removeFile(internalPath(sandbox, name));
    }
    if (name.startsWith("lock.") && name.endsWith(".stale")) await removeFile(internalPath(sandbox, name));
  }
  const tx = internalPath(sandbox, "tx");
  if ((await fs.kind(tx)) !== "dir") return;
  for (const id of await fs.list(tx)) {
    if ((await fs.kind(`${tx}/${id}`)) !== "dir") continue;
    for (const name of await fs.list(`${tx}/${id}`)) await removeFile(`${tx}/${id}/${name}`);
    await fs.removeDir(`${tx}/${id}`);
  }
  await fs.removeDir(tx);
}

/** What a recovery did. */
export type RecoveryOutcome = "none" | "rolled_back" | "finished";

/**
 * Finish or undo the journal found under `.graver/`, with the commit lock
 * held: a `prepared` journal is rolled back from its checked backups, a
 * `committed` one only needs its files removed. Then leftovers are swept.
 *
 * @param fs Wrapped backend.
 * @param sandbox Root mapping.
 * @returns What was done.
 * @throws RecoverableError `sandbox_violation` for a journal graver did not write here (nothing touched).
 */
export async function recoverLocked(fs: BackendFs, sandbox: Sandbox): Promise<RecoveryOutcome> {
  if ((await fs.kind(internalPath(sandbox))) !== "dir") return "none";
  const journal = await readJournal(fs, sandbox);
  if (journal === null) {
    await sweepLeftovers(fs, sandbox);
    return "none";
  }
  if (journal.state === "prepared") await rollbackJournal({ fs, sandbox }, journal);
  await cleanupTransaction(fs, sandbox, journal);
  await sweepLeftovers(fs, sandbox);
  return journal.state === "prepared" ? "rolled_back" : "finished";
}

/**
 * Whether a journal file is present (a commit is in flight, or one crashed).
 *
 * @param fs Wrapped backend.
 * @param sandbox Root mapping.
 * @returns True when `.graver/journal.json` exists.
 */
export async function journalPresent(fs: BackendFs, sandbox: Sandbox): Promise<boolean> {
  return (await fs.kind(internalPath(sandbox, JOURNAL))) !== null;
}
