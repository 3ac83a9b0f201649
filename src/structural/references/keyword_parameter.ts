/**
 * Keyword arguments (`f(name=1)`, Python's): the parameter one names, where the callee is a function or class
 * declared in the same file — the tie that lets renaming a parameter rename the keywords of its calls.
 *
 * @module
 */
import type { Binding, FileBindings, Occurrence } from "../../syntax/bindings.ts";

/**
 * The parameter a keyword argument names, when its callee is a function (or class: its `__init__`) declared
 * in the same file.
 *
 * @param fb The file's bindings.
 * @param occ A keyword argument's occurrence.
 * @returns The parameter's binding, or null.
 */
export function keywordParameter(fb: FileBindings, occ: Occurrence): Binding | null {
  const callee = occ.callee;
  if (!callee) return null;
  const fnBinding = fb.occurrences.find((o) => o.end === callee.end && o.start >= callee.start && o.binding)
    ?.binding;
  if (!fnBinding) return null;
  const def = fb.occurrences.find((o) => o.binding === fnBinding && o.kind === "definition");
  let fn = def ? fb.scopes.find((s) => s.nameStart === def.start) : undefined;
  if (fn?.kind === "class") {
    const init = fn.bindings.get("__init__");
    const initDef = init && fb.occurrences.find((o) => o.binding === init && o.kind === "definition");
    fn = initDef ? fb.scopes.find((s) => s.nameStart === initDef.start) : undefined;
  }
  const param = fn?.bindings.get(occ.name);
  return param && param.kind === "parameter" ? param : null;
}
