/**
 * How one family writes parameters: reading a parameter node into its role
 * and name, and writing a new parameter's text. One implementation per family
 * that edit_change_signature supports (ECMAScript, Python), chosen by the
 * profile's flow family.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { profileOf } from "../../languages/profiles.ts";
import { type FamilyStrategy, strategyFor } from "../shared/family_strategies.ts";

/** What a parameter is to a call. */
export type ParamRole =
  /** filled by position (or, in Python, by keyword) */
  | "positional"
  /** `...rest` / `*args`: every extra positional argument */
  | "rest"
  /** Python: after `*` or `*args`, passed by keyword only */
  | "keyword_only"
  /** Python `**kwargs` */
  | "kwrest"
  /** Python's bare `*` */
  | "star"
  /** Python's `/` */
  | "slash";

/** One parameter of a list. */
export interface Param {
  /** Its name; `#i` for a destructuring pattern (i its 0-based position), `*` and `/` for Python's separators. */
  name: string;
  /** Its source text, leading comments included. */
  text: string;
  /** Start of the text (UTF-16). */
  start: number;
  /** End of the node (UTF-16). */
  end: number;
  /** Start of its name (-1 for a pattern or a separator). */
  nameStart: number;
  /** Its role. */
  role: ParamRole;
  /** Whether it has a default value. */
  hasDefault: boolean;
  /** TypeScript's `x?`. */
  optional: boolean;
  /** Python: before `/` (cannot be passed by keyword). */
  positionalOnly: boolean;
}

/** One parameter of the new list: kept (its current text) or new (composed). */
export interface NewParam {
  /** The name in the new list. */
  name: string;
  /** The old parameter kept, or null for a new one. */
  old: Param | null;
  /** A new parameter's default value. */
  default?: string | undefined;
  /** A new parameter's value at call sites. */
  value?: string | undefined;
  /** A new parameter's type (annotation). */
  type?: string | undefined;
}

/** Where a parameter sits in its list, for reading it. */
export interface ParamPlace {
  /** Its 0-based position. */
  index: number;
  /** Whether a `*` or `*args` came before it (Python: keyword-only from there). */
  afterStar: boolean;
}

/** How a new parameter is written. */
export interface ParamTextOptions {
  /** The language id. */
  language: string;
  /** Whether it goes into an overload signature (no default values there). */
  signature: boolean;
  /** In a signature: whether it may be written optional (`x?`). */
  trailingOptional: boolean;
}

/** One family's parameter syntax. */
export interface ParamSyntax extends FamilyStrategy {
  /**
   * A parameter node as a {@linkcode Param} (its text and start are the node's; the caller widens them).
   *
   * @param k The parameter node.
   * @param place Its position and what came before it.
   */
  read(k: Node, place: ParamPlace): Param;
  /**
   * The text of a new parameter.
   *
   * @param p The parameter.
   * @param options The language and where it goes.
   */
  text(p: NewParam, options: ParamTextOptions): string;
}

/** A parameter of the node's span, positional and plain until read further. */
function plainParam(k: Node, index: number): Param {
  return {
    name: `#${index}`,
    text: k.text,
    start: k.startIndex,
    end: k.endIndex,
    nameStart: -1,
    role: "positional",
    hasDefault: false,
    optional: false,
    positionalOnly: false,
  };
}

/** Names `base` after an identifier (or `this`) node. */
function nameFrom(base: Param, n: Node | null | undefined): void {
  if (n && (n.type === "identifier" || n.type === "this")) {
    base.name = n.text;
    base.nameStart = n.startIndex;
  }
}

/** Python: plain, default, `*args`, `**kwargs`, the bare `*` and `/` markers; keyword-only after a star. */
const PYTHON_PARAMS: ParamSyntax = {
  family: "python",
  read(k, { index, afterStar }) {
    const base = plainParam(k, index);
    let t = k;
    if (k.type === "typed_parameter") t = k.namedChildren.find((c) => c?.type !== "type") ?? k;
    if (t.type === "identifier") nameFrom(base, t);
    else if (t.type === "default_parameter" || t.type === "typed_default_parameter") {
      nameFrom(base, t.childForFieldName("name"));
      base.hasDefault = true;
    } else if (t.type === "list_splat_pattern") {
      nameFrom(base, t.namedChildren[0]);
      base.role = "rest";
    } else if (t.type === "dictionary_splat_pattern") {
      nameFrom(base, t.namedChildren[0]);
      base.role = "kwrest";
    } else if (t.type === "keyword_separator") {
      base.name = "*";
      base.role = "star";
    } else if (t.type === "positional_separator") {
      base.name = "/";
      base.role = "slash";
    }
    if (afterStar && base.role === "positional") base.role = "keyword_only";
    return base;
  },
  text(p) {
    if (p.type) {
      return p.default !== undefined ? `${p.name}: ${p.type} = ${p.default}` : `${p.name}: ${p.type}`;
    }
    return p.default !== undefined ? `${p.name}=${p.default}` : p.name;
  },
};

/** ECMAScript: required, optional (`x?`), defaulted and rest parameters; types where the language writes them. */
const ECMASCRIPT_PARAMS: ParamSyntax = {
  family: "ecmascript",
  read(k, { index }) {
    const base = plainParam(k, index);
    let pattern: Node | null = k;
    if (k.type === "required_parameter" || k.type === "optional_parameter") {
      pattern = k.childForFieldName("pattern");
      base.hasDefault = k.childForFieldName("value") !== null;
      base.optional = k.type === "optional_parameter";
    } else if (k.type === "assignment_pattern") {
      pattern = k.childForFieldName("left");
      base.hasDefault = true;
    }
    if (pattern?.type === "rest_pattern") {
      base.role = "rest";
      nameFrom(base, pattern.namedChildren[0]);
    } else nameFrom(base, pattern);
    return base;
  },
  text(p, { language, signature, trailingOptional }) {
    const typed = !profileOf(language).functions.writesTypes ? "" : p.type ? `: ${p.type}` : "";
    if (signature) {
      if (p.default === undefined) return `${p.name}${typed}`;
      return trailingOptional ? `${p.name}?${typed}` : `${p.name}: ${p.type ?? "any"} | undefined`;
    }
    return p.default !== undefined ? `${p.name}${typed} = ${p.default}` : `${p.name}${typed}`;
  },
};

/**
 * The parameter syntax of a language's family.
 *
 * @param language A language edit_change_signature supports.
 * @returns Its family's implementation.
 */
export function paramSyntaxOf(language: string): ParamSyntax {
  return strategyFor([ECMASCRIPT_PARAMS, PYTHON_PARAMS], profileOf(language).flow?.family ?? "");
}

/**
 * The text of one new parameter in a declaration.
 *
 * @param p The new parameter.
 * @param language Language id.
 * @param signature Whether it goes into an overload signature (no default values there).
 * @param trailingOptional In a signature: whether it may be written optional (`x?`).
 * @returns Its text.
 */
export function newParamText(
  p: NewParam,
  language: string,
  { signature = false, trailingOptional = true }: { signature?: boolean; trailingOptional?: boolean } = {},
): string {
  return paramSyntaxOf(language).text(p, { language, signature, trailingOptional });
}
