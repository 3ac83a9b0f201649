/**
 * The shape of one move of a declaration as edit_move_decl's phases build it: the declaration and its source
 * file, what the moved code uses and how the source still uses the name, the destination with the workspace's
 * module resolution, and the imports the destination needs — each phase's answer is the next one's input.
 *
 * @module
 */
import type { ModuleSystemFacts } from "../../languages/types.ts";
import type { Stage } from "../../fs/stage.ts";
import type { Binding, FileBindings, Occurrence } from "../../syntax/bindings.ts";
import type { ModuleResolver } from "../../syntax/module_resolution.ts";
import type { ImportItem } from "../shared/import_edits.ts";
import type { ModuleWorld } from "../move_file/imports_rewrite.ts";
import type { Target } from "../edit/selectors.ts";
import type { TextEdit } from "../edit/source.ts";
import type { SymbolTarget } from "../edit/symbol_target.ts";

/** Options of `planMoveDecl` (`move_decl.ts`). */
export interface MoveDeclOptions {
  /** Tool name for messages. */
  tool: string;
  /** Version of the source file the caller holds. */
  expectedVersion?: string | undefined;
}

/** The module system of a language graver moves declarations in. */
export type System = "ecmascript" | "python";

/** The declaration to move and its source file, once the move is known to make sense there. */
export interface MoveSource {
  /** The declaration as opened: its file's text, tree and symbol. */
  decl: SymbolTarget;
  /** The name path asked for (for messages). */
  namePath: string;
  system: System;
  /** The source language's module-system facts. */
  facts: ModuleSystemFacts | null;
  /** The destination file. */
  to: string;
  /** The destination's language. */
  toLanguage: string;
  /** The source file's bindings. */
  sourceBindings: FileBindings;
  /** The source file's module scope. */
  module: FileBindings["scopes"][number];
  /** The moved name. */
  name: string;
  /** The moved binding in the source. */
  binding: Binding;
  /** The 1-based line of an offset of the source. */
  lineOf: (offset: number) => number;
  /** Every declaration of the name (overloads, merged declarations, Python reassignments), in text order. */
  targets: Target[];
  /** Whether an offset of the source lies in the moved code. */
  inMoved: (offset: number) => boolean;
}

/** What the moved code uses and how the source uses the name once it left. */
export interface SourceUses {
  /** Module-level bindings of the source the moved code uses, with those uses. */
  deps: Map<Binding, Occurrence[]>;
  /** Names the moved code uses that nothing binds (globals). */
  free: Set<string>;
  /** The source's uses of the name outside the moved code. */
  remaining: Occurrence[];
  /** Those of them in a local `export { name }` clause. */
  clauseUses: Occurrence[];
  /** Whether the source still uses the name (other than in an export clause), or lists it in `__all__`. */
  stillUsed: boolean;
  /** Whether the source's `__all__` lists the name (it then stays importable from the source). */
  listed: boolean;
  /** The source's own exports of the name. */
  exportsOfMoved: FileBindings["exports"];
  /** Whether the source exports it as default. */
  isDefault: boolean;
  /** Whether the destination exports it. */
  exportedInDest: boolean;
}

/** The destination and the workspace's module resolution. */
export interface MoveDestination {
  /** The workspace's files and path mapping. */
  modules: ModuleWorld;
  /** Whether the destination is a new file. */
  created: boolean;
  /** Resolution over the files after the move. */
  resolver: ModuleResolver;
  /** The destination as it is (null when created). */
  dest: Awaited<ReturnType<Stage["readText"]>> | null;
  /** The destination's bindings. */
  destBindings: FileBindings | null;
  /** The destination's module scope. */
  destModule: FileBindings["scopes"][number] | null;
  /** The file a specifier of `from` names. */
  resolve: (from: string, source: string) => string | null;
  /** The specifier naming `target` from `from`, in the style of `old`. */
  respell: (from: string, target: string, old: { source: string; target: string }) => string | null;
  /** The destination's import of the name from the source, which the declaration replaces. */
  destImportOfMoved: Binding | null;
}

/** Everything the phases of a move share. */
export type Move = MoveSource & SourceUses & MoveDestination;

/** The imports the moved code needs, and what the source must change to give them. */
export interface DestinationImports {
  /** Import items the destination needs, by specifier. */
  needs: { spec: string; item: ImportItem }[];
  /** Uses in the moved code of a name the destination declares under another name. */
  renames: TextEdit[];
  /** `export` prefixes on the source's declarations the destination now imports. */
  exportPrefixes: TextEdit[];
  /** Their names. */
  sourceExported: string[];
  /** What the destination imports from the source. */
  fromSource: ImportItem[];
  /** Source imports only the moved code used. */
  dropFromSource: Binding[];
}
