/**
 * Shared types of the syntax layer.
 *
 * @module
 */
import type { Grammars } from "./grammars.ts";
import type { TreeCache } from "./trees.ts";

/**
 * What the syntax and structural engines need of their host: the grammar
 * registry and the parse cache. A `Workspace` satisfies it; so does any
 * object holding the two, which lets an engine run without a workspace.
 */
export interface Parsing {
  /** Language registry, or null when the host was opened without a wasm loader. */
  readonly grammars: Grammars | null;
  /** Parse cache, or null without grammars. */
  readonly trees: TreeCache | null;
}

/** What the syntax guard does with an edit that adds parse errors. */
export type SyntaxGuardMode = "refuse" | "warn" | "off";
