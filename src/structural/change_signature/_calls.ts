/**
 * The call-site side of a signature change: what each reference to the
 * function is (a direct call, an import or export of it, a use as a value,
 * a call graver cannot rewrite) and the new argument list of a call.
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";
import type { Node, Tree } from "web-tree-sitter";
import type { ReferenceSite } from "../references/references.ts";
import type { FunctionDecl } from "./_decl.ts";
import type { NewParam, Param } from "./_param_syntax.ts";
import { isEffect, MAYBE_EFFECT_TYPES } from "../shared/effects.ts";

/** One argument of a call. */
export interface CallArg {
  /** Its text, leading comments included. */
  text: string;
  /** Python keyword argument's name, else null. */
  keyword: string | null;
  /** A keyword argument's value text. */
  valueText: string;
  /** Whether evaluating it may have side effects (a call, an assignment, await, yield …). */
  impure: boolean;
  /** A literal or a function value: evaluating it reads no variable, so it may move past anything. */
  constant: boolean;
  /** Span of `text` (UTF-16). */
  start: number;
  /** End of `text`. */
  end: number;
  /** Span of `valueText`. */
  valueStart: number;
  /** End of `valueText`. */
  valueEnd: number;
}

/** A call's argument list as written. */
export interface CallShape {
  /** Start of the span a new list replaces (its `(`; the insertion point for `new C` without parentheses). */
  start: number;
  /** End of that span. */
  end: number;
  /** Whether the call has parentheses. */
  parens: boolean;
  /** The arguments, in order. */
  args: CallArg[];
  /** Whitespace between `(` and the first argument. */
  leading: string;
  /** Text between the last argument and `)`. */
  trailing: string;
}

/** What one reference to the function is. */
export type SiteUse =
  | { use: "declaration" | "import" | "skip" }
  | { use: "follow"; at: number }
  | { use: "call"; call: CallShape; receiverArgs: number }
  | { use: "value"; why: string }
  | { use: "unsupported"; why: string };

const CALL_NODES = new Set(["call_expression", "call"]);
const MEMBER_NODES = new Set(["member_expression", "attribute"]);
const IMPORT_NODES =
  /^(import_specifier|import_clause|import_statement|import_from_statement|aliased_import|export_specifier|export_clause|namespace_import)$/;

/** Function values: creating one runs nothing, whatever its body does. */
const FUNCTION_VALUES = new Set([
  "arrow_function",
  "function_expression",
  "function",
  "generator_function",
  "lambda",
]);

const LITERALS = new Set([
  "number",
  "string",
  "true",
  "false",
  "null",
  "undefined",
  "regex",
  "integer",
  "float",
  "none",
  "concatenated_string",
]);

/** Whether an expression is a constant: a literal (no substitutions) or a function value. */
function isConstant(n: Node): boolean {
  if (FUNCTION_VALUES.has(n.type)) return true;
  if (n.type === "identifier" && n.text === "undefined") return true;
  if (n.type === "template_string") return !n.namedChildren.some((c) => c?.type === "template_substitution");
  if (n.type === "string") return !n.namedChildren.some((c) => c?.type === "interpolation");
  return LITERALS.has(n.type);
}

/** Whether evaluating an expression may have side effects (function bodies are not evaluated). */
function isImpure(n: Node): boolean {
  if (FUNCTION_VALUES.has(n.type)) return false;
  if (isEffect(n)) return true;
  if (n.descendantsOfType(MAYBE_EFFECT_TYPES as string[]).length === 0) return false;
  return n.namedChildren.some((c) => c !== null && isImpure(c));
}

/** The property (or attribute) node of a member expression. */
function propertyOf(m: Node): Node | null {
  return m.childForFieldName("property") ?? m.childForFieldName("attribute");
}

/**
 * Classify one reference site.
 *
 * @param tree The site file's parse (current version).
 * @param text The file's text.
 * @param site The site.
 * @param decl The function.
 * @param declNames Start offsets of the function's own declaring names (and its overloads').
 * @returns What the site is.
 */
export function classifySite(
  tree: Tree,
  text: string,
  { site, decl, declNames }: { site: ReferenceSite; decl: FunctionDecl; declNames: ReadonlySet<string> },
): SiteUse {
  if (site.kind === "doc" || site.kind === "export_entry") return { use: "skip" };
  if (declNames.has(`${site.path}:${site.start}`)) return { use: "declaration" };
  if (site.kind === "export_alias") return { use: "follow", at: site.start };
  const node: Node | null = tree.rootNode.descendantForIndex(site.start, site.end);
  if (!node) return { use: "value", why: "graver could not read the code there" };
  const imported = importSiteUse(node);
  if (imported) return imported;
  if (site.kind === "definition" || site.kind === "shorthand_pattern") {
    return { use: "value", why: "it is assigned another value here" };
  }
  if (site.kind === "shorthand") return { use: "value", why: "it is put into an object literal" };
  const callee = calleeExpression(node, site, decl);
  if ("use" in callee) return callee;
  return expressionUse(callee.node, text, { decl, receiverArgs: callee.receiverArgs });
}

/** The use of a name inside an import or export clause (null when it is not in one). */
function importSiteUse(node: Node): SiteUse | null {
  for (let p = node.parent, i = 0; p && i < 4; p = p.parent, i++) {
    if (IMPORT_NODES.test(p.type)) {
      const alias = p.type === "export_specifier" || p.type === "import_specifier"
        ? p.childForFieldName("alias")
        : null;
      if (alias?.text === "default") {
        return { use: "value", why: "it is exported as default, and graver does not follow default imports" };
      }
      if (alias) return { use: "follow", at: alias.startIndex };
      if (p.type === "aliased_import") {
        return { use: "follow", at: p.childForFieldName("alias")!.startIndex };
      }
      return { use: "import" };
    }
  }
  return null;
}

/**
 * The expression that names the function at a site: the member access for
 * `this.f` / `obj.f` (with one receiver argument for Python's `Class.m(obj, …)`),
 * else the name itself.
 */
function calleeExpression(
  node: Node,
  site: ReferenceSite,
  decl: FunctionDecl,
): { node: Node; receiverArgs: number } | SiteUse {
  let receiverArgs = 0;
  const parent = node.parent;
  if (
    (site.kind === "member_this" || site.kind === "member_property") && parent &&
    MEMBER_NODES.has(parent.type)
  ) {
    if (propertyOf(parent)?.startIndex !== node.startIndex) {
      return { use: "value", why: "unexpected member access" };
    }
    const object = parent.childForFieldName("object");
    if (
      decl.pythonInstanceMethod && site.kind === "member_property" && object?.type === "identifier" &&
      object.text === decl.className
    ) receiverArgs = 1;
    node = parent;
  }
  return { node, receiverArgs };
}

/** What the expression naming the function is used for: called, constructed, read, typed or passed. */
function expressionUse(
  node: Node,
  text: string,
  { decl, receiverArgs }: { decl: FunctionDecl; receiverArgs: number },
): SiteUse {
  const constructor = decl.kind === "constructor";
  const up = node.parent;
  if (!up) return { use: "value", why: "it is used as a value" };
  if (CALL_NODES.has(up.type) && up.childForFieldName("function")?.equals(node)) {
    if (constructor && profileOf(decl.language).functions.constructorsNeedNew) {
      return { use: "value", why: "a class constructor is called without new" };
    }
    return callShape(up, text, receiverArgs);
  }
  if (up.type === "new_expression" && up.childForFieldName("constructor")?.equals(node)) {
    return callShape(up, text, 0);
  }
  if (MEMBER_NODES.has(up.type) && up.childForFieldName("object")?.equals(node)) {
    const prop = propertyOf(up)?.text ?? "";
    if (["call", "apply", "bind"].includes(prop)) {
      return {
        use: "unsupported",
        why: `it is called through .${prop}(), whose arguments graver cannot map`,
      };
    }
    if (constructor) return { use: "skip" };
    return { use: "value", why: `its property .${prop} is read` };
  }
  if (constructor && isClassTypeUse(node, up)) return { use: "skip" };
  if (up.type === "type_query") return { use: "value", why: "its type is taken (typeof)" };
  if (up.type === "export_statement") return { use: "value", why: "it is the module's default export" };
  if (up.type === "decorator") return { use: "value", why: "it is used as a decorator" };
  return { use: "value", why: "it is used as a value (passed, assigned or stored)" };
}

/** Whether a class name is used as a type (annotation, heritage, instanceof, isinstance), not constructed. */
function isClassTypeUse(node: Node, up: Node): boolean {
  if (/type|heritage|extends|implements/.test(up.type) || node.type === "type_identifier") return true;
  if (up.type === "binary_expression" && /instanceof/.test(up.text)) return true;
  return up.type === "argument_list" && /^(isinstance|issubclass)\b/.test(up.parent?.text ?? "");
}

/** The call shape of a call or `new` expression. */
function callShape(call: Node, text: string, receiverArgs: number): SiteUse {
  const argsNode = call.childForFieldName("arguments");
  if (!argsNode) {
    const callee = call.childForFieldName("constructor") ?? call.childForFieldName("function")!;
    const at = call.childForFieldName("type_arguments")?.endIndex ?? callee.endIndex;
    return {
      use: "call",
      receiverArgs,
      call: { start: at, end: at, parens: false, args: [], leading: "", trailing: "" },
    };
  }
  if (argsNode.type !== "arguments" && argsNode.type !== "argument_list") {
    return { use: "unsupported", why: `it is called with a ${argsNode.type.replace(/_/g, " ")}` };
  }
  const kids = argsNode.namedChildren.filter((c): c is Node => c !== null && c.type !== "comment");
  const args: CallArg[] = [];
  let at = argsNode.startIndex + 1;
  for (const [i, k] of kids.entries()) {
    if (k.type === "spread_element" || k.type === "list_splat" || k.type === "dictionary_splat") {
      return {
        use: "unsupported",
        why: `it is called with ${
          k.type === "dictionary_splat" ? "**" : k.type === "list_splat" ? "*" : "..."
        }${k.namedChildren[0]?.text ?? ""}, whose arguments graver cannot map`,
      };
    }
    const sep = i === 0 ? -1 : text.indexOf(",", at);
    const from = sep >= 0 && sep < k.startIndex ? sep + 1 : at;
    const raw = text.slice(from, k.endIndex);
    const kw = k.type === "keyword_argument" ? k.childForFieldName("name")!.text : null;
    const value = kw ? k.childForFieldName("value")! : k;
    args.push({
      text: raw.trimStart(),
      keyword: kw,
      valueText: value.text,
      impure: isImpure(value),
      constant: isConstant(value),
      start: k.endIndex - raw.trimStart().length,
      end: k.endIndex,
      valueStart: value.startIndex,
      valueEnd: value.endIndex,
    });
    at = k.endIndex;
  }
  const first = kids[0];
  return {
    use: "call",
    receiverArgs,
    call: {
      start: argsNode.startIndex,
      end: argsNode.endIndex,
      parens: true,
      args,
      leading: first ? text.slice(argsNode.startIndex + 1, first.startIndex).match(/^\s*/)![0] : "",
      trailing: kids.length > 0 ? text.slice(at, argsNode.endIndex - 1) : "",
    },
  };
}

/** The old and new parameter lists a call is rewritten between. */
export interface ArgSpec {
  /** The language. */
  language: string;
  /** The old parameters (current names, receiver excluded). */
  old: Param[];
  /** Each old parameter's name before the renames, by current name. */
  formerNames: Map<string, string>;
  /** The new list. */
  params: NewParam[];
}

/** Why a call cannot be rewritten. */
export class CallRefusal extends Error {}

interface OutArg {
  text: string;
  origin: number;
  impure: boolean;
}

/** Roles of the new list's parameters (Python: positional before `*`/`*args`, keyword-only after). */
function newRoles(spec: ArgSpec): { slot: NewParam; role: Param["role"]; positionalOnly: boolean }[] {
  const slash = spec.params.findIndex((p) => p.old?.role === "slash");
  let afterStar = false;
  return spec.params.map((p, i) => {
    let role: Param["role"] = p.old ? p.old.role : "positional";
    if (role === "keyword_only" || role === "positional") role = afterStar ? "keyword_only" : "positional";
    if (role === "star" || role === "rest") afterStar = true;
    return { slot: p, role, positionalOnly: i < slash };
  });
}

/** A call's arguments matched to the old parameters. */
interface MatchedArgs {
  /** Leading positional arguments that are the receiver. */
  receiver: OutArg[];
  /** The argument each old parameter got, and how. */
  provided: Map<Param, { arg: CallArg; origin: number; how: "pos" | "kw" }>;
  /** Positional arguments past the old positional parameters (to the rest parameter). */
  extras: OutArg[];
  /** Keyword arguments no named parameter takes (to `**kwargs`). */
  passthrough: { arg: CallArg; origin: number }[];
  /** The old parameter a keyword names (current or former name). */
  byName: (name: string) => Param | undefined;
}

/** The new argument list being placed, slot by slot. */
interface Placement {
  /** Positional arguments, in order. */
  positional: OutArg[];
  /** Arguments that were positional and are now passed by keyword. */
  converted: OutArg[];
  /** Values of added parameters passed by keyword. */
  added: OutArg[];
  /** Python: a positional slot was skipped, so later ones go by keyword. */
  gap: boolean;
  /** Skipped positional slots waiting for an `undefined` filler. */
  missing: number;
}

/**
 * The new argument list of a call, or null when it does not change.
 *
 * @param call The call as written.
 * @param receiverArgs Leading positional arguments that are the receiver (Python `Class.m(obj, …)`).
 * @param spec The old and new lists.
 * @returns The text replacing the call's argument span; a {@linkcode CallRefusal} when it cannot be rewritten.
 */
export function rewriteArgs(call: CallShape, receiverArgs: number, spec: ArgSpec): string | null {
  const matched = matchArgs(call, receiverArgs, spec);
  refuseDroppedArgs(spec, matched);
  const placed = placeSlots(spec, matched);
  const keywords = keywordArgs(call, spec, matched);
  const out = [...placed.positional, ...placed.converted, ...placed.added, ...keywords];
  checkOrder(out, call.args);
  return argListText(call, out.map((a) => a.text));
}

/** Match each argument of a call to the old parameter it binds (by position or keyword). */
function matchArgs(call: CallShape, receiverArgs: number, spec: ArgSpec): MatchedArgs {
  const oldPositional = spec.old.filter((p) => p.role === "positional");
  const oldRest = spec.old.find((p) => p.role === "rest");
  const byName = (name: string) =>
    spec.old.find((p) => p.name === name) ?? spec.old.find((p) => spec.formerNames.get(p.name) === name);
  const m: MatchedArgs = { receiver: [], provided: new Map(), extras: [], passthrough: [], byName };
  let pos = 0;
  for (const [origin, arg] of call.args.entries()) {
    if (arg.keyword === null) {
      if (m.receiver.length < receiverArgs) {
        m.receiver.push({ text: arg.text, origin, impure: arg.impure });
        continue;
      }
      const p = oldPositional[pos++];
      if (p) m.provided.set(p, { arg, origin, how: "pos" });
      else if (oldRest) m.extras.push({ text: arg.text, origin, impure: arg.impure });
      else throw new CallRefusal("it passes more arguments than the function declares");
    } else {
      const p = byName(arg.keyword);
      if (p && p.role !== "kwrest" && p.role !== "rest") m.provided.set(p, { arg, origin, how: "kw" });
      else m.passthrough.push({ arg, origin });
    }
  }
  return m;
}

/** Refuse when a removed parameter would drop an argument with side effects, or a `**kwargs` pass-through breaks. */
function refuseDroppedArgs(spec: ArgSpec, { provided, extras, passthrough }: MatchedArgs): void {
  const oldRest = spec.old.find((p) => p.role === "rest");
  const kept = new Set(spec.params.map((p) => p.old).filter((p): p is Param => p !== null));
  const kwrest = spec.old.find((p) => p.role === "kwrest");
  for (const { arg } of passthrough) {
    if (kwrest && !kept.has(kwrest)) {
      throw new CallRefusal(`it passes ${arg.keyword}= to **${kwrest.name}, which is removed`);
    }
    if (spec.params.some((p) => !p.old && p.name === arg.keyword)) {
      throw new CallRefusal(
        `it already passes ${arg.keyword}= (to **${kwrest?.name ?? "kwargs"}), the new parameter's name`,
      );
    }
  }
  for (const [p, a] of provided) {
    if (!kept.has(p) && a.arg.impure) {
      throw new CallRefusal(
        `removing "${p.name}" would drop the argument ${a.arg.valueText}, which has side effects`,
      );
    }
  }
  if (oldRest && !kept.has(oldRest) && extras.some((e) => e.impure)) {
    throw new CallRefusal(`removing "${oldRest.name}" would drop arguments with side effects`);
  }
}

/** A value passed by keyword to a slot; refused when the slot is positional-only. */
function asKeyword(
  slot: NewParam,
  value: { text: string; origin: number; impure: boolean },
  positionalOnly: boolean,
): OutArg {
  if (positionalOnly) {
    throw new CallRefusal(`"${slot.name}" is positional-only but can no longer be passed by position`);
  }
  return { text: `${slot.name}=${value.text}`, origin: value.origin, impure: value.impure };
}

/** Place the positional, converted and added arguments, walking the new list's slots in order. */
function placeSlots(spec: ArgSpec, matched: MatchedArgs): Placement {
  const byKeyword = profileOf(spec.language).functions.keywordArguments;
  const state: Placement = {
    positional: [...matched.receiver],
    converted: [],
    added: [],
    gap: false,
    missing: 0,
  };
  for (const { slot, role, positionalOnly } of newRoles(spec)) {
    const got = slot.old ? matched.provided.get(slot.old) : undefined;
    if (role === "positional") {
      placePositional(state, { slot, got, byKeyword, positionalOnly });
    } else if (role === "keyword_only") {
      if (got?.how === "pos") {
        state.converted.push(
          asKeyword(slot, { text: got.arg.valueText, origin: got.origin, impure: got.arg.impure }, false),
        );
      } else if (!slot.old && slot.value !== undefined) {
        state.added.push({ text: `${slot.name}=${slot.value}`, origin: -1, impure: false });
      }
    } else if (role === "rest") {
      if (matched.extras.length > 0) {
        if (state.gap) throw new CallRefusal("its extra positional arguments would follow keyword arguments");
        for (; state.missing > 0; state.missing--) {
          state.positional.push({ text: "undefined", origin: -1, impure: false });
        }
        state.positional.push(...matched.extras);
      }
    }
  }
  return state;
}

/**
 * Place one positional slot: its argument by position, `undefined` fillers
 * for skipped slots before it (JS/TS), or by keyword after a gap (Python).
 */
function placePositional(
  state: Placement,
  { slot, got, byKeyword, positionalOnly }: {
    slot: NewParam;
    got: { arg: CallArg; origin: number; how: "pos" | "kw" } | undefined;
    /** The language passes arguments by name: a slot after a skipped one is passed by keyword. */
    byKeyword: boolean;
    positionalOnly: boolean;
  },
): void {
  const present = got?.how === "pos"
    ? { text: got.arg.text, origin: got.origin, impure: got.arg.impure }
    : slot.old === null && slot.value !== undefined
    ? { text: slot.value, origin: -1, impure: false }
    : null;
  if (!byKeyword) {
    if (present) {
      for (; state.missing > 0; state.missing--) {
        state.positional.push({ text: "undefined", origin: -1, impure: false });
      }
      state.positional.push(present);
    } else state.missing++;
    return;
  }
  if (!present) {
    state.gap = true;
    return;
  }
  if (!state.gap) state.positional.push(present);
  else {
    const text = got ? got.arg.valueText : present.text;
    (got ? state.converted : state.added).push(
      asKeyword(slot, { text, origin: present.origin, impure: present.impure }, positionalOnly),
    );
  }
}

/** The call's keyword arguments under the new names, pass-through ones kept as written. */
function keywordArgs(
  call: CallShape,
  spec: ArgSpec,
  { provided, passthrough, byName }: MatchedArgs,
): OutArg[] {
  const keywords: OutArg[] = [];
  for (const [origin, arg] of call.args.entries()) {
    if (arg.keyword === null) continue;
    const p = byName(arg.keyword);
    const entry = p ? provided.get(p) : undefined;
    if (entry && entry.how === "kw") {
      const slot = spec.params.find((s) => s.old === p);
      if (!slot) continue;
      const text = slot.name === arg.keyword ? arg.text : `${slot.name}=${arg.valueText}`;
      keywords.push({ text, origin, impure: arg.impure });
    } else if (passthrough.some((x) => x.origin === origin)) {
      keywords.push({ text: arg.text, origin, impure: arg.impure });
    }
  }
  return keywords;
}

/** The text of the new argument list in the call's own layout, or null when it is unchanged. */
function argListText(call: CallShape, texts: string[]): string | null {
  const before = call.args.map((a) => a.text);
  if (texts.length === before.length && texts.every((t, i) => t === before[i])) return null;
  if (!call.parens) return `(${texts.join(", ")})`;
  const leading = call.args.length > 0 ? call.leading : "";
  const sep = leading.includes("\n") ? `,${leading}` : ", ";
  if (texts.length === 0) return "()";
  return `(${leading}${texts.join(sep)}${call.args.length > 0 ? call.trailing : ""})`;
}

/**
 * Refuse a reorder that changes what the arguments compute: an argument with
 * side effects may only move past constants (a variable it reads, or another
 * effect, would then run on the other side of it).
 */
function checkOrder(out: OutArg[], args: CallArg[]): void {
  const moved = out.filter((a) => a.origin >= 0);
  for (let i = 0; i < moved.length; i++) {
    for (let j = i + 1; j < moved.length; j++) {
      const a = args[moved[i]!.origin]!;
      const b = args[moved[j]!.origin]!;
      if (moved[i]!.origin < moved[j]!.origin) continue;
      if ((a.impure && !b.constant) || (b.impure && !a.constant)) {
        throw new CallRefusal(
          `reordering ${b.valueText} and ${a.valueText} would change what they compute (one has side effects)`,
        );
      }
    }
  }
}
