/**
 * The parameter side of a signature change: the caller's entries read
 * against the old list (kept, renamed, added, removed, moved), the rules the
 * new list must follow in its language, and the checks on the body (a
 * removed parameter still read, a new name already bound).
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";
import { RecoverableError } from "../../errors.ts";
import type { Binding, FileBindings } from "../../syntax/bindings.ts";
import { TextIndex } from "../../syntax/text_index.ts";
import { isValidName } from "../shared/names.ts";
import type { FunctionDecl } from "./_decl.ts";
import type { NewParam, Param } from "./_param_syntax.ts";

/** One entry of the new parameter list, as the caller writes it. */
export interface ParamEntry {
  /** An existing parameter's name (kept), or a new parameter's name. */
  name: string;
  /** An existing parameter's new name. */
  rename?: string;
  /** A new parameter's default value (source code). */
  default?: string;
  /** A new parameter's value at every call site (source code). */
  value?: string;
  /** A new parameter's type annotation (TypeScript, Python). */
  type?: string;
}

/** One row of the old → new mapping. */
export interface ParamMapping {
  /** The old name (null for an added parameter). */
  old_name: string | null;
  /** The new name (null for a removed parameter). */
  new_name: string | null;
  /** 0-based position in the old list (receiver excluded), or null. */
  old_index: number | null;
  /** 0-based position in the new list, or null. */
  new_index: number | null;
  /** What happened to it. */
  change: "unchanged" | "renamed" | "moved" | "renamed_and_moved" | "added" | "removed";
}

/** The entries read against the old list. */
export interface ParamsPlan {
  /** The new list. */
  params: NewParam[];
  /** Old parameters not in the new list. */
  removed: Param[];
  /** Old parameters that take a new name. */
  renames: { param: Param; to: string }[];
  /** The old → new mapping. */
  mapping: ParamMapping[];
}

function invalid(decl: FunctionDecl, path: string, why: string, hint: string): RecoverableError {
  return new RecoverableError(
    "invalid_args",
    `Cannot change the signature of "${decl.name}" in "${path}" line ${decl.line}: ${why}`,
    {
      hint,
      details: { path, line: decl.line, parameters: decl.list.params.map((p) => p.name) },
    },
  );
}

/**
 * Read the entries against the old list and check the new list's order.
 *
 * @param decl The function.
 * @param path Its file.
 * @param entries The new list as the caller wrote it.
 * @returns The plan; `invalid_args`, `name_clash` or `types_required` when it cannot be written.
 */
export function planParams(decl: FunctionDecl, path: string, entries: (ParamEntry | string)[]): ParamsPlan {
  const old = decl.list.params;
  const seen = new Set<string>();
  const params: NewParam[] = [];
  const renames: ParamsPlan["renames"] = [];
  for (const raw of entries) {
    const e: ParamEntry = typeof raw === "string" ? { name: raw } : raw;
    // The receiver (`self`, `cls`, TypeScript's `this:`) stays first whatever the list says.
    if (decl.list.receiver.some((r) => r.name === e.name) && e.rename === undefined) continue;
    if (seen.has(e.name)) {
      throw invalid(decl, path, `"${e.name}" is listed twice`, "List each parameter once");
    }
    seen.add(e.name);
    const p = old.find((o) => o.name === e.name);
    if (p) {
      const kept = keptParam(decl, path, { entry: e, param: p });
      if (kept.name !== p.name) renames.push({ param: p, to: kept.name });
      params.push(kept);
      continue;
    }
    params.push(addedParam(decl, path, e));
  }
  checkNameClashes(decl, path, { params, renames });
  checkOrder(decl, path, params);
  checkOverloads(decl, path, params);
  checkInference(decl, path, params);
  const removed = old.filter((o) => !params.some((p) => p.old === o));
  return { params, removed, renames, mapping: mappingOf(old, params, removed) };
}

/** An existing parameter kept in the new list, under its new name when the entry renames it. */
function keptParam(
  decl: FunctionDecl,
  path: string,
  { entry: e, param: p }: { entry: ParamEntry; param: Param },
): NewParam {
  if (e.default !== undefined || e.value !== undefined || e.type !== undefined) {
    throw invalid(
      decl,
      path,
      `"${e.name}" is an existing parameter: default, value and type are for new parameters only`,
      `Keep it as {"name": "${e.name}"} (with "rename" to rename it); change its default or type with replace_symbol`,
    );
  }
  let name = p.name;
  if (e.rename !== undefined && e.rename !== p.name) {
    if (p.nameStart < 0 || p.role === "star" || p.role === "slash") {
      throw invalid(decl, path, `"${p.name}" has no name to rename`, "Rename only named parameters");
    }
    if (!isValidName(decl.language, e.rename)) {
      throw invalid(decl, path, `"${e.rename}" is not a valid parameter name`, "Choose an identifier");
    }
    name = e.rename;
  }
  return { name, old: p };
}

/** A new parameter: a valid name with a default or a value (and a type where the language writes types). */
function addedParam(decl: FunctionDecl, path: string, e: ParamEntry): NewParam {
  const names = decl.list.params.map((p) => p.name).join(", ") || "none";
  if (e.rename !== undefined) {
    throw invalid(
      decl,
      path,
      `"${e.name}" is not a parameter of "${decl.name}" (its parameters: ${names})`,
      "rename applies to an existing parameter; a new one takes name plus default or value",
    );
  }
  if (!isValidName(decl.language, e.name)) {
    throw invalid(
      decl,
      path,
      `"${e.name}" is neither a parameter of "${decl.name}" (${names}) nor a valid new name`,
      "Name an existing parameter, or give a new one a valid identifier",
    );
  }
  if (e.default === undefined && e.value === undefined) {
    throw invalid(
      decl,
      path,
      `"${e.name}" is not a parameter of "${decl.name}" (its parameters: ${names}); a new parameter needs "default" or "value"`,
      `Add {"name": "${e.name}", "default": "0"} (callers get the default) or {"name": "${e.name}", "value": "x"} (passed at every call); or fix the name`,
    );
  }
  if (
    profileOf(decl.language).functions.writesTypes && !e.type &&
    (e.default === undefined || decl.overloads.length > 0)
  ) {
    throw typesRequired(decl, path, e);
  }
  return { name: e.name, old: null, default: e.default, value: e.value, type: e.type };
}

/** The `types_required` refusal for a new parameter whose type cannot be inferred. */
function typesRequired(decl: FunctionDecl, path: string, e: ParamEntry): RecoverableError {
  return new RecoverableError(
    "types_required",
    `Cannot add "${e.name}" to "${decl.name}" in "${path}" line ${decl.line}: its type cannot be inferred${
      decl.overloads.length > 0 ? " (the overload signatures need it)" : " from a default value"
    }`,
    {
      hint: `Give it a "type", e.g. {"name": "${e.name}", "type": "number", ${
        e.default !== undefined
          ? `"default": ${JSON.stringify(e.default)}`
          : `"value": ${JSON.stringify(e.value)}`
      }}`,
      details: { path, line: decl.line, parameter: e.name },
    },
  );
}

/** Refuse two new parameters with one name, and a rename onto another old parameter's name. */
function checkNameClashes(
  decl: FunctionDecl,
  path: string,
  { params, renames }: { params: NewParam[]; renames: ParamsPlan["renames"] },
): void {
  const finals = new Map<string, NewParam>();
  for (const p of params) {
    const other = finals.get(p.name);
    if (other) {
      throw new RecoverableError(
        "name_clash",
        `Cannot change the signature of "${decl.name}" in "${path}" line ${decl.line}: two parameters would be named "${p.name}"`,
        { hint: "Give each parameter its own name", details: { path, line: decl.line, name: p.name } },
      );
    }
    finals.set(p.name, p);
  }
  for (const { param, to } of renames) {
    if (decl.list.params.some((o) => o.name === to && o !== param)) {
      throw new RecoverableError(
        "name_clash",
        `Cannot rename parameter "${param.name}" of "${decl.name}" to "${to}" ("${path}" line ${decl.line}): another parameter is named "${to}"`,
        {
          hint: "Rename in two calls (first to a temporary name), or pick another name",
          details: { path, line: decl.line, name: to },
        },
      );
    }
  }
}

function mappingOf(old: Param[], params: NewParam[], removed: Param[]): ParamMapping[] {
  const rows: ParamMapping[] = [];
  const kept = params.filter((p) => p.old !== null);
  for (const [i, p] of params.entries()) {
    if (!p.old) {
      rows.push({ old_name: null, new_name: p.name, old_index: null, new_index: i, change: "added" });
      continue;
    }
    const oldIndex = old.indexOf(p.old);
    // Moved: its order among the kept parameters changed.
    const keptOld = old.filter((o) => kept.some((k) => k.old === o));
    const moved = keptOld.indexOf(p.old) !== kept.indexOf(p);
    const renamed = p.name !== p.old.name;
    rows.push({
      old_name: p.old.name,
      new_name: p.name,
      old_index: oldIndex,
      new_index: i,
      change: moved && renamed ? "renamed_and_moved" : moved ? "moved" : renamed ? "renamed" : "unchanged",
    });
  }
  for (const r of removed) {
    rows.push({
      old_name: r.name,
      new_name: null,
      old_index: old.indexOf(r),
      new_index: null,
      change: "removed",
    });
  }
  return rows;
}

/** The rules of the language's parameter lists, on the new list. */
function checkOrder(decl: FunctionDecl, path: string, params: NewParam[]): void {
  const roleOf = (p: NewParam) => p.old?.role ?? "positional";
  const hasDefault = (p: NewParam) => p.old ? p.old.hasDefault : p.default !== undefined;
  const bad = (why: string) =>
    invalid(decl, path, why, "Reorder the list so that it follows the language's rules for parameters");
  if (profileOf(decl.language).functions.restParameterLast) {
    const rest = params.findIndex((p) => roleOf(p) === "rest");
    if (rest >= 0 && rest !== params.length - 1) {
      throw bad(`the rest parameter "${params[rest]!.name}" must stay last`);
    }
    let optional: NewParam | null = null;
    for (const p of params) {
      if (p.old?.optional) optional = p;
      // an optional parameter (`x?`) is written where types are
      else if (
        optional && roleOf(p) !== "rest" && !hasDefault(p) && profileOf(decl.language).functions.writesTypes
      ) {
        throw bad(`the required parameter "${p.name}" cannot follow the optional "${optional.name}?"`);
      }
    }
    return;
  }
  const rank: Record<string, number> = {
    positional: 0,
    slash: 1,
    star: 2,
    rest: 2,
    keyword_only: 3,
    kwrest: 4,
  };
  let section = 0;
  let defaulted: NewParam | null = null;
  let afterStar = false;
  for (const [i, p] of params.entries()) {
    let role = roleOf(p);
    if (role === "keyword_only" || role === "positional") role = afterStar ? "keyword_only" : "positional";
    if (role === "star" || role === "rest") afterStar = true;
    const r = rank[role]!;
    if (
      r < section ||
      (r === section && (role === "slash" || role === "star" || role === "rest" || role === "kwrest"))
    ) {
      if (!(r === 0 && section === 1)) throw bad(`"${p.name}" cannot come there in a Python parameter list`);
    }
    section = Math.max(section, r);
    if (role === "positional") {
      if (hasDefault(p)) defaulted = p;
      else if (defaulted) {
        throw bad(`"${p.name}" has no default but follows "${defaulted.name}", which has one`);
      }
    }
    if (role === "star" && (params[i + 1] === undefined || roleOf(params[i + 1]!) === "kwrest")) {
      throw bad('a bare "*" must be followed by a keyword-only parameter');
    }
  }
}

/**
 * Overload signatures are rewritten by position, so each must line up with the
 * implementation: refused when one has another number of parameters (rxjs's
 * `pipe(fn1, …, fn9)` overloads over `pipe(...fns)`) unless every kept parameter
 * keeps its place, and when the new order puts a required parameter after an
 * optional one in it (`(init?: RequestInit, input: string)` does not compile).
 */
function checkOverloads(decl: FunctionDecl, path: string, params: NewParam[]): void {
  const old = decl.list.params;
  const kept = params.filter((p) => p.old);
  const inPlace = kept.length === old.length && kept.every((p) => old.indexOf(p.old!) === params.indexOf(p));
  decl.overloads.forEach((o, k) => {
    const line = decl.overloadLines[k]!;
    const refuse = (why: string) =>
      new RecoverableError(
        "unsupported_call_site",
        `Cannot change the signature of "${decl.name}" in "${path}": ${why} (overload signature at line ${line})`,
        {
          hint:
            "Change the overload signatures by hand first (replace_symbol), so that each lists the implementation's parameters, or keep every parameter in its place (add new ones at the end with a default)",
          details: { path, line, overloads: decl.overloadLines },
        },
      );
    if (o.params.length !== old.length && !inPlace) {
      throw refuse(
        `an overload has ${o.params.length} parameter(s) where the implementation has ${old.length}, so its parameters cannot be matched to the new order`,
      );
    }
    let optional: string | null = null;
    for (const p of params) {
      const own = p.old ? o.params[old.indexOf(p.old)] : undefined;
      if (!own) continue;
      if (own.optional || own.hasDefault) optional = own.name;
      else if (optional !== null && own.role !== "rest") {
        throw refuse(`"${own.name}" would follow the optional "${optional}?" in an overload`);
      }
    }
  });
}

/**
 * TypeScript infers a type parameter from every argument whose parameter's type names it, and the order of
 * those arguments decides the result (rxjs's `arrRemove<T>(arr: T[] | undefined | null, item: T)` called as
 * `arrRemove(actions, this)` infers `AsyncAction<any>`; with the arguments swapped it infers `this`, and the
 * call no longer type-checks). Refused (`types_required`) when the new order swaps two parameters that name
 * the same type parameter, in the implementation or an overload signature.
 */
function checkInference(decl: FunctionDecl, path: string, params: NewParam[]): void {
  const old = decl.list.params;
  for (const t of decl.typeParameters) {
    const names = new RegExp(`(?<![\\w$.])${t.replace(/\$/g, "\\$")}(?![\\w$])`);
    const inOldOrder = new Set(
      [decl.list, ...decl.overloads].flatMap((l) =>
        l.params.flatMap((p, i) => names.test(typeText(p)) ? [i] : [])
      ),
    );
    const sources = params.filter((p) => p.old && inOldOrder.has(old.indexOf(p.old)));
    const swapped = sources.findIndex((p, i) =>
      i > 0 && old.indexOf(p.old!) < old.indexOf(sources[i - 1]!.old!)
    );
    if (swapped < 0) continue;
    const [a, b] = [sources[swapped - 1]!.old!.name, sources[swapped]!.old!.name];
    throw new RecoverableError(
      "types_required",
      `Cannot change the signature of "${decl.name}" in "${path}" line ${decl.line}: its type parameter ${t} is inferred from both "${b}" and "${a}", and TypeScript's inference depends on the order of their arguments, so a call could infer another type and stop type-checking`,
      {
        hint:
          `Keep "${b}" before "${a}" (the other parameters can move), or reorder by hand and pass explicit type arguments (\`${decl.name}<…>(…)\`) where a call needs them`,
        details: { path, line: decl.line, type_parameter: t, parameters: [b, a] },
      },
    );
  }
}

/** A parameter's text after its name (its type and default), where type parameters are named. */
function typeText(p: Param | undefined): string {
  if (!p) return "";
  return p.nameStart >= 0 ? p.text.slice(p.nameStart - p.start + p.name.length) : p.text;
}

/**
 * Refuse when a removed parameter is still read, when the body reads
 * `arguments`, or when a new name is already used in the function.
 *
 * @param fb The declaring file's bindings.
 * @param decl The function.
 * @param plan The parameters plan.
 */
export function checkBody(fb: FileBindings, decl: FunctionDecl, plan: ParamsPlan): void {
  const index = new TextIndex(fb.text);
  const lines = (offsets: number[]) => [...new Set(offsets.map((o) => index.position(o).line))];
  const inFn = (o: { start: number }) => o.start >= decl.start && o.start < decl.end;
  for (const r of plan.removed) {
    const bindings = new Set<Binding>();
    for (const o of fb.occurrences) {
      if (
        o.start >= r.start && o.start < r.end && o.binding &&
        (o.kind === "definition" || o.kind === "shorthand_pattern")
      ) {
        bindings.add(o.binding);
      }
    }
    const member = fb.occurrences.some((o) => o.start >= r.start && o.start < r.end && o.parameterProperty);
    const uses = fb.occurrences.filter((o) =>
      o.binding && bindings.has(o.binding) && o.kind !== "definition" &&
      !(o.start >= r.start && o.start < r.end)
    );
    if (uses.length > 0 || member) {
      const at = lines(uses.map((u) => u.start));
      throw new RecoverableError(
        "parameter_in_use",
        `Cannot remove parameter "${r.name}" of "${decl.name}" in "${fb.path}": ${
          member
            ? "it declares a class member"
            : `the body still reads it (line${at.length > 1 ? "s" : ""} ${at.join(", ")})`
        }`,
        {
          hint: "Remove its uses from the body first (replace_symbol), or keep the parameter",
          details: { path: fb.path, parameter: r.name, lines: at },
        },
      );
    }
  }
  const changed = plan.mapping.some((m) => m.change !== "unchanged") ||
    plan.mapping.length !== decl.list.params.length;
  if (profileOf(decl.language).flow?.argumentsObject && changed) {
    const args = fb.occurrences.filter((o) =>
      inFn(o) && o.name === "arguments" && o.kind === "reference" && !o.binding
    );
    if (args.length > 0) {
      const at = lines(args.map((a) => a.start));
      throw new RecoverableError(
        "parameter_in_use",
        `Cannot change the parameters of "${decl.name}" in "${fb.path}": the body reads \`arguments\` (line ${
          at.join(", ")
        })`,
        {
          hint: "Replace `arguments` with named or rest parameters first (replace_symbol)",
          details: { path: fb.path, lines: at },
        },
      );
    }
  }
  const listSpan = (o: { start: number }) => o.start >= decl.list.start && o.start < decl.list.end;
  for (const p of plan.params) {
    if (p.old) continue;
    const taken = fb.occurrences.find((o) =>
      inFn(o) && !listSpan(o) && o.name === p.name &&
      (o.kind === "definition" || o.kind === "reference" || o.kind === "shorthand" ||
        o.kind === "shorthand_pattern")
    );
    if (taken) {
      const line = index.position(taken.start).line;
      throw new RecoverableError(
        "name_clash",
        `Cannot add parameter "${p.name}" to "${decl.name}": "${p.name}" is already ${
          taken.kind === "definition" ? "declared" : "used"
        } in its body ("${fb.path}" line ${line})`,
        {
          hint: "Choose another name for the new parameter",
          details: { path: fb.path, line, name: p.name },
        },
      );
    }
  }
}
