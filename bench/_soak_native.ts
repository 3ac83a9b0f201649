/**
 * What the refactor soak's Rust and Go corpora share: the corpus shape
 * `bench/refactor_soak.ts` drives, finding a toolchain on PATH, copying a
 * Debian source package into a throw-away git repository, and running a
 * checker so that its verdict is a list of problems.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { promises as fsp } from "node:fs";
import { join } from "node:path";

/** One code base of the soak: where it comes from, its language, how it is checked. */
export interface NativeCorpus {
  /** What it is, for the report (crate/module names and versions, the checker). */
  name: string;
  /** graver's language id. */
  language: "rust" | "go";
  /** Files to refactor (relative to the copy's root). */
  editable: (rel: string) => boolean;
  /** New errors after a change (empty: clean). */
  check(dir: string, changed: Map<string, string | null>): string[];
  /** A fresh name for `name` in this language. */
  rename(name: string): string;
  /** A new module path beside `rel`. */
  sibling(rel: string, stem: string): string;
}

/** Raised when a corpus's toolchain or source package is not installed: the soak skips the language. */
export class MissingToolchain extends Error {}

/**
 * Throw {@link MissingToolchain} unless `command --version`-style `probe` runs and every path exists.
 *
 * @param what What to install, named in the message (the Debian packages).
 * @param probe A command and its arguments that succeeds when the toolchain is there.
 * @param paths Source directories the corpus copies.
 */
export async function requireToolchain(what: string, probe: string[], paths: string[]): Promise<void> {
  const ran = spawnSync(probe[0]!, probe.slice(1), { encoding: "utf8" });
  const missing = ran.error || ran.status !== 0
    ? probe[0]
    : (await Promise.all(paths.map(async (p) => (await exists(p)) ? null : p))).find((p) => p);
  if (missing) throw new MissingToolchain(`${missing} not found: install ${what}`);
}

async function exists(path: string): Promise<boolean> {
  try {
    await fsp.stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Copy a source tree (skipping VCS and CI folders), following the symbolic links Debian's packages use.
 *
 * @param from The installed source.
 * @param to Where the copy goes.
 */
export async function copySource(from: string, to: string): Promise<void> {
  await fsp.mkdir(to, { recursive: true });
  for (const e of await fsp.readdir(from, { withFileTypes: true })) {
    if ([".git", ".github", "target"].includes(e.name)) continue;
    const src = join(from, e.name);
    if ((await fsp.stat(src)).isDirectory()) await copySource(src, join(to, e.name));
    else await fsp.copyFile(src, join(to, e.name));
  }
}

/**
 * Make `dir` a git repository with everything committed: the soak resets to it after each trial.
 *
 * @param dir The corpus copy.
 */
export function commitBase(dir: string): void {
  for (
    const a of [["init", "-q"], ["add", "-A"], [
      "-c",
      "user.email=soak@graver",
      "-c",
      "user.name=soak",
      "commit",
      "-qm",
      "base",
    ]]
  ) {
    const r = spawnSync("git", a, { cwd: dir, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`git ${a.join(" ")}: ${r.stderr}`);
  }
}

/** Options of {@link runChecker}. */
export interface CheckerRun {
  /** The command and its arguments. */
  command: string[];
  /** Its working directory. */
  cwd: string;
  /** Extra environment. */
  env?: Record<string, string>;
  /** Which output lines are the problems worth reporting (all of them when none match). */
  keep: RegExp;
}

/**
 * Run a checker: no problems when it exits 0, else the output lines `keep` picks (at most 12).
 *
 * @param run What to run and which lines to keep.
 * @returns The problems (empty: clean).
 */
export function runChecker(run: CheckerRun): string[] {
  const r = spawnSync(run.command[0]!, run.command.slice(1), {
    cwd: run.cwd,
    encoding: "utf8",
    env: { ...Deno.env.toObject(), ...run.env },
    maxBuffer: 64 << 20,
  });
  if (r.status === 0) return [];
  const out = `${r.stdout}\n${r.stderr}`.split("\n");
  const kept = out.filter((l) => run.keep.test(l));
  return (kept.length > 0 ? kept : out.filter(Boolean)).slice(0, 12);
}
