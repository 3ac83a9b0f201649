/**
 * Syntax whose availability depends on the declared language version, by
 * version family: the three profiles' tables under one name, so a caller that
 * asks for one feature by name (`SYNTAX_SINCE.python.fstring_quote_reuse`)
 * keeps its type.
 *
 * @module
 */
import { ECMASCRIPT_SYNTAX } from "./ecmascript.ts";
import { PYTHON_SYNTAX } from "./python.ts";
import { RUST_SYNTAX } from "./rust.ts";
import type { SyntaxFeature, VersionFamily } from "./types.ts";

/** Syntax whose availability depends on the declared version, per family (data, not branches). */
export const SYNTAX_SINCE = {
  python: PYTHON_SYNTAX,
  ecmascript: ECMASCRIPT_SYNTAX,
  rust: RUST_SYNTAX,
} as const satisfies Record<VersionFamily, Record<string, SyntaxFeature>>;
