/**
 * `graver sg scan` of a project, as `ast-grep scan` runs one: its `sgconfig.yml` (found in the current folder
 * or the nearest folder above it, or named with `-c`/`--config`) lists `ruleDirs`, folders whose YAML files
 * (`.yml`, `.yaml`, at any depth) hold the rule configs to run, and `utilDirs`, folders whose files hold utility
 * rules (`id`, `language`, `rule`) every rule of that language may name with `matches`. `testConfigs` is for
 * `ast-grep test` and passed over; what changes which files or languages are scanned (`languageGlobs`,
 * `customLanguages`, `languageInjections`) is refused by name rather than scanned differently. The project's
 * root is the folder of its `sgconfig.yml`: rules' `files` and `ignores` are relative to it. {@linkcode rulesOf}
 * picks a command's rules: those it was given (`--inline-rules`, `-r`), else the project's, `--filter` narrowing
 * them by id.
 *
 * @module
 */
import type { CliHost } from "./_cli_contract.ts";
import { resolveRoot } from "./_cli_workspace.ts";
import { type InlineRule, inlineRules } from "./_sg_inline_rules.ts";
import { readRuleFile, ruleConfigs } from "./_sg_scan.ts";
import { languagesOfType } from "../search/file_types.ts";

/** The names ast-grep looks for, in order. */
const CONFIG_NAMES = ["sgconfig.yml", "sgconfig.yaml"];

/** Rule files read from a project at most (rules published on npm are dozens; thousands are a mistake). */
const MAX_RULE_FILES = 2_000;

/** Folders below a rule folder looked into at most. */
const MAX_DEPTH = 16;

/** Entries (files and folders) of the rule folders looked at at most: a config naming `/` ends soon. */
const MAX_ENTRIES = 20_000;

/** A project's rules: the folder they are relative to, the config's path, and each rule. */
export interface ProjectRules {
  root: string;
  config: string;
  rules: InlineRule[];
}

/** Keys of sgconfig.yml that change which files or languages a scan reads: refused, not passed over. */
const NOT_BUILT = ["languageGlobs", "customLanguages", "languageInjections"];

/** The config file: the one named, else `sgconfig.yml` in `cwd` or the nearest folder above it; null when none. */
async function configPath(host: CliHost, named: string | undefined): Promise<string | null> {
  if (named !== undefined) return resolveRoot(host.cwd, named);
  for (let dir = host.cwd;;) {
    for (const name of CONFIG_NAMES) {
      const path = `${dir === "/" ? "" : dir}/${name}`;
      if (await host.backend.stat(path).then((st) => st.isFile(), () => false)) return path;
    }
    if (dir === "/") return null;
    dir = dir.slice(0, dir.lastIndexOf("/")) || "/";
  }
}

/** The YAML files under a folder, depth first in name order; links are not followed (a loop, or out of it). */
async function yamlFiles(
  host: CliHost,
  dir: string,
  walk: { out: string[]; seen: { entries: number } },
  depth = 0,
): Promise<void> {
  const { out, seen } = walk;
  if (depth > MAX_DEPTH) return;
  const names = (await host.backend.readdir(dir)).map(String).sort();
  for (const name of names) {
    if (++seen.entries > MAX_ENTRIES) throw new Error(`its folders hold more than ${MAX_ENTRIES} entries`);
    const path = `${dir === "/" ? "" : dir}/${name}`;
    const st = await host.backend.lstat(path).catch(() => null);
    if (st === null || st.isSymbolicLink?.() === true) continue;
    if (st.isDirectory()) await yamlFiles(host, path, walk, depth + 1);
    else if (st.isFile() && /\.ya?ml$/i.test(name)) out.push(path);
    if (out.length > MAX_RULE_FILES) return;
  }
}

/** The config's list of folders under `key`, resolved against the config's folder. */
function foldersOf(
  config: Record<string, unknown>,
  key: string,
  root: string,
): string[] | { problem: string } {
  const value = config[key] ?? [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    return { problem: `"${key}" takes a list of folders` };
  }
  return value.map((dir) => resolveRoot(root, dir));
}

/** Every rule config in the files under `dirs`, each file's name in its problem. */
async function rulesIn(host: CliHost, dirs: readonly string[]): Promise<InlineRule[] | { problem: string }> {
  const files: string[] = [];
  const seen = { entries: 0 };
  for (const dir of dirs) {
    try {
      await yamlFiles(host, dir, { out: files, seen });
    } catch (err) {
      return {
        problem: `cannot list the rule folder "${dir}" (${err instanceof Error ? err.message : err})`,
      };
    }
  }
  if (files.length > MAX_RULE_FILES) return { problem: `more than ${MAX_RULE_FILES} rule files` };
  const out: InlineRule[] = [];
  for (const file of files) {
    const text = await readRuleFile(host, file);
    if (typeof text === "object") return { problem: `cannot read the rule file "${file}" (${text.problem})` };
    const rules = await inlineRules(text, `the rule file "${file}"`);
    if ("problem" in rules) return rules;
    out.push(...rules);
  }
  return out;
}

/** The language ids a config's `language` names (`JavaScript`, `js`, `ts` …), or none. */
function idsOf(language: string | undefined): string[] {
  return language === undefined ? [] : languagesOfType(language.toLowerCase()) ?? [];
}

/**
 * Each rule with the project's utility rules of its language beside its own utilities (its own win a
 * name they share), as ast-grep makes them global.
 */
function withGlobalUtils(rules: InlineRule[], utils: InlineRule[]): InlineRule[] {
  return rules.map((rule) => {
    const ids = idsOf(rule.language);
    const global = utils.filter((u) => u.id !== "" && idsOf(u.language).some((id) => ids.includes(id)));
    if (global.length === 0) return rule;
    const own = (rule.rule["utils"] ?? {}) as Record<string, unknown>;
    const merged = Object.fromEntries(global.map((u) => [u.id, withoutTop(u.rule)]));
    return { ...rule, rule: { ...rule.rule, utils: { ...merged, ...own } } };
  });
}

/** A utility's rule without what only the top of a rule may hold (its own utilities stay with their file). */
function withoutTop(rule: Record<string, unknown>): Record<string, unknown> {
  const { utils: _utils, constraints: _constraints, ...rest } = rule;
  return rest;
}

/**
 * The rules of the project around the current folder (or of the config named), or null when there is no
 * config (the caller then says what scan needs).
 *
 * @param host The host: its current folder, and the disk to read.
 * @param named The config named with `-c`/`--config`, if any.
 * @returns The project's root, its config and its rules; null without a config; or the problem.
 */
export async function projectRules(
  host: CliHost,
  named: string | undefined,
): Promise<ProjectRules | null | { problem: string }> {
  const config = await configPath(host, named);
  if (config === null) return null;
  const root = config.slice(0, config.lastIndexOf("/")) || "/";
  const text = await readRuleFile(host, config);
  if (typeof text === "object") {
    return { problem: `cannot read the project config "${config}" (${text.problem})` };
  }
  const { ruleObject } = await import("../search/rule_text.ts");
  const read = ruleObject(text);
  if ("problem" in read) {
    return { problem: `the project config "${config}" does not read as YAML: ${read.problem}` };
  }
  const refused = NOT_BUILT.find((key) => key in read.object);
  if (refused !== undefined) {
    return {
      problem:
        `the project config "${config}" has "${refused}", which graver does not build: scan its rule files with -r`,
    };
  }
  const ruleDirs = foldersOf(read.object, "ruleDirs", root);
  const utilDirs = foldersOf(read.object, "utilDirs", root);
  if ("problem" in ruleDirs) return { problem: `the project config "${config}": ${ruleDirs.problem}` };
  if ("problem" in utilDirs) return { problem: `the project config "${config}": ${utilDirs.problem}` };
  const rules = await rulesIn(host, ruleDirs);
  const utils = await rulesIn(host, utilDirs);
  if ("problem" in rules) return rules;
  if ("problem" in utils) return utils;
  return { root, config, rules: withGlobalUtils(rules, utils) };
}

/**
 * The rule configs a `graver sg` invocation runs (null for a pattern or a rule object), with its flags and
 * PATHs: in scan mode without `--inline-rules` or a rule file, the project's (`sgconfig.yml`, `_sg_project.ts`),
 * its folder the root unless `--root` is given, the current folder the PATH unless PATHs are.
 *
 * @param flags The command's flags.
 * @param on The host, whether the command's first word was `scan`, and the PATHs given.
 * @returns The rules (null for none), the flags and PATHs to run them with, or the problem.
 */
export async function rulesOf(
  flags: Record<string, string | boolean>,
  on: { host: CliHost; scan: boolean; paths: string[] },
): Promise<
  { rules: InlineRule[] | null; flags: Record<string, string | boolean>; paths: string[] } | {
    problem: string;
  }
> {
  const { host, scan, paths } = on;
  const rules = await ruleConfigs(flags, { host, scan });
  if (rules !== null && "problem" in rules) return rules;
  const named = typeof flags["config"] === "string" ? flags["config"] : undefined;
  if (rules !== null || !scan) {
    if (named !== undefined || typeof flags["filter"] === "string") {
      return {
        problem:
          "--config and --filter pick a project's rules (sgconfig.yml): they go with scan, without other rules",
      };
    }
    return { rules, flags, paths };
  }
  const project = await projectRules(host, named);
  if (project === null) {
    return {
      problem:
        "scan runs rules: give --inline-rules CONFIGS, a rule file (-r FILE), or run it in a project " +
        "with an sgconfig.yml (ast-grep's project config: ruleDirs) here or in a folder above, or name one with -c",
    };
  }
  if ("problem" in project) return project;
  const chosen = await filtered(project.rules, flags["filter"]);
  if ("problem" in chosen) return chosen;
  if (typeof flags["root"] === "string") return { rules: chosen, flags, paths };
  const here = host.cwd === project.root ? [] : ["."];
  return {
    rules: chosen,
    flags: { ...flags, root: project.root },
    paths: paths.length > 0 ? paths : here,
  };
}

/** The rules whose id matches `--filter` (ast-grep's: a regex, RE2 here), all without it, or the problem. */
async function filtered(
  rules: InlineRule[],
  filter: string | boolean | undefined,
): Promise<InlineRule[] | { problem: string }> {
  if (typeof filter !== "string") return rules;
  // The RE2 engine is loaded for a --filter only: not at the start of every command.
  const { compileRe2 } = await import("../syntax/linear_regex.ts");
  let re: ReturnType<typeof compileRe2>;
  try {
    re = compileRe2(filter, { what: "--filter" });
  } catch (err) {
    return { problem: err instanceof Error ? err.message : String(err) };
  }
  const chosen = rules.filter((r) => re.matcher(r.id).find());
  if (chosen.length > 0) return chosen;
  return {
    problem: `--filter ${JSON.stringify(filter)} matches no rule's id (${rules.map((r) => r.id).join(", ")})`,
  };
}
