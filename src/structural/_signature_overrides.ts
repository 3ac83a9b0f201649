/**
 * Overrides: a method whose signature changes must be the only one of its
 * name along its class hierarchy in the workspace — not overriding a base
 * class's (or implementing an interface's) method, not overridden in a
 * subclass, not a Python protocol method the runtime calls — and a
 * constructor must not be inherited by a subclass. Bases declared outside
 * the workspace cannot be checked, so they refuse too.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../errors.ts";
import type { Stage } from "../fs/stage.ts";
import type { FileBindings, Scope } from "../syntax/bindings.ts";
import { TextIndex } from "../syntax/text_index.ts";
import type { Parsing } from "../syntax/types.ts";
import { findReferences } from "./references.ts";
import type { FunctionDecl } from "./_signature_decl.ts";

const CLASS_NODES = /^(class_declaration|abstract_class_declaration|class|class_definition)$/;
const MAX_DEPTH = 8;

function refuse(
  decl: FunctionDecl,
  path: string,
  why: string,
  at?: { path: string; line: number },
): RecoverableError {
  return new RecoverableError(
    "overrides_present",
    `Cannot change the signature of "${decl.name}" ("${path}" line ${decl.line}): ${why}${
      at ? ` ("${at.path}" line ${at.line})` : ""
    }`,
    {
      hint:
        "Change every method of the hierarchy together by hand (replace_symbol on each, then the calls), or add a new method with the new signature and move callers to it",
      details: { path, line: decl.line, ...(at ? { site: at } : {}) },
    },
  );
}

/** The class node that opens a class scope. */
function classNodeAt(root: Node, scope: Scope): Node | null {
  for (let n: Node | null = root.descendantForIndex(scope.start, scope.start); n; n = n.parent) {
    if (n.startIndex === scope.start && CLASS_NODES.test(n.type)) return n;
    if (n.startIndex < scope.start) break;
  }
  return null;
}

/** Whether a class scope declares a member named `name`. */
function declares(fb: FileBindings, cls: Scope, name: string): boolean {
  return fb.occurrences.some((o) =>
    o.name === name &&
    ((o.kind === "member_definition" && o.scope === cls) ||
      (o.kind === "definition" && o.binding?.scope === cls))
  );
}

/** The names a class extends or implements (the identifier of each base). */
function baseNames(cls: Node): Node[] {
  const out: Node[] = [];
  const nameOf = (n: Node | null): Node | null => {
    if (!n) return null;
    if (n.type === "identifier" || n.type === "type_identifier") return n;
    if (n.type === "generic_type") return nameOf(n.childForFieldName("name") ?? n.namedChildren[0] ?? null);
    if (n.type === "subscript") return nameOf(n.childForFieldName("value"));
    return n;
  };
  const supers = cls.childForFieldName("superclasses");
  if (supers) {
    for (const c of supers.namedChildren) if (c && c.type !== "keyword_argument") out.push(nameOf(c)!);
    return out;
  }
  const heritage = cls.namedChildren.find((c) => c?.type === "class_heritage");
  for (const clause of heritage?.namedChildren ?? []) {
    if (!clause) continue;
    if (clause.type === "extends_clause") out.push(nameOf(clause.childForFieldName("value"))!);
    else if (clause.type === "implements_clause") {
      for (const t of clause.namedChildren) if (t) out.push(nameOf(t)!);
    } else out.push(nameOf(clause)!);
  }
  return out;
}

/**
 * Refuse with `overrides_present` when the method takes part in overriding,
 * or when a subclass inherits the constructor.
 *
 * @param parsing Grammars and parse cache.
 * @param stage The call's stage.
 * @param fb The declaring file's bindings.
 * @param decl The function.
 * @param tool Tool name for messages.
 */
export async function checkOverrides(
  parsing: Parsing,
  stage: Stage,
  fb: FileBindings,
  decl: FunctionDecl,
  tool: string,
): Promise<void> {
  if (decl.kind === "function" || !decl.classScope) return;
  const method = decl.kind === "method";
  if (decl.override) throw refuse(decl, fb.path, "it is marked override: it overrides a base class's method");
  if (fb.language === "python" && method && /^__\w+__$/.test(decl.name)) {
    throw refuse(
      decl,
      fb.path,
      `${decl.name} is a protocol method Python calls itself, with fixed arguments`,
    );
  }
  const files = new Map([[fb.path, fb]]);
  const treeOf = async (f: FileBindings) =>
    (await parsing.trees!.parse(f.path, f.language, f.version, f.text)).tree;
  const lineOf = (f: FileBindings, offset: number) => new TextIndex(f.text).position(offset).line;
  const declaration = async (f: FileBindings, at: number) => {
    try {
      return await findReferences(parsing, stage, f.path, new TextIndex(f.text).position(at), {
        tool,
        scope: "project",
      });
    } catch (e) {
      if (e instanceof RecoverableError && e.code === "unresolved") return null;
      throw e;
    }
  };
  // Up: the bases (a method only — a constructor does not override).
  if (method) {
    const queue: { f: FileBindings; cls: Scope; depth: number }[] = [{
      f: fb,
      cls: decl.classScope,
      depth: 0,
    }];
    for (let item = queue.shift(); item; item = queue.shift()) {
      const node = classNodeAt((await treeOf(item.f)).rootNode, item.cls);
      if (!node) continue;
      for (const base of baseNames(node)) {
        if (fb.language === "python" && base.text === "object") continue;
        const where = { path: item.f.path, line: lineOf(item.f, base.startIndex) };
        const search = base.type === "identifier" || base.type === "type_identifier"
          ? await declaration(item.f, base.startIndex)
          : null;
        let found: { f: FileBindings; cls: Scope } | null = null;
        for (const s of search?.sites ?? []) {
          if (s.kind !== "definition") continue;
          const f = search!.files.get(s.path)!;
          const cls = f.scopes.find((sc) => sc.kind !== "module" && sc.nameStart === s.start);
          if (cls) found = { f, cls };
        }
        if (!found) {
          throw refuse(
            decl,
            fb.path,
            `its class extends "${base.text}", which is not declared in the workspace: "${decl.name}" may override one of its methods`,
            where,
          );
        }
        files.set(found.f.path, found.f);
        if (declares(found.f, found.cls, decl.name)) {
          throw refuse(
            decl,
            fb.path,
            `it overrides (or implements) "${base.text}.${decl.name}"`,
            { path: found.f.path, line: lineOf(found.f, found.cls.start) },
          );
        }
        if (item.depth < MAX_DEPTH) queue.push({ f: found.f, cls: found.cls, depth: item.depth + 1 });
      }
    }
  }
  // Down: the subclasses in the workspace.
  const queue: { f: FileBindings; cls: Scope; depth: number }[] = [{ f: fb, cls: decl.classScope, depth: 0 }];
  for (let item = queue.shift(); item; item = queue.shift()) {
    const search = await declaration(item.f, item.cls.nameStart);
    if (!search) continue;
    for (const s of search.sites) {
      if (s.kind !== "reference") continue;
      const f = search.files.get(s.path)!;
      const root = (await treeOf(f)).rootNode;
      let sub: Node | null = null;
      let n: Node | null = root.descendantForIndex(s.start, s.end);
      for (let i = 0; n && i < 5; n = n.parent, i++) {
        if (
          n.type === "class_heritage" || (n.type === "argument_list" && n.parent?.type === "class_definition")
        ) {
          sub = n.parent;
          break;
        }
      }
      if (!sub || (sub.type === "class_definition" && !sub.childForFieldName("superclasses")?.equals(n!))) {
        continue;
      }
      const cls = f.scopes.find((sc) => sc.kind === "class" && sc.start === sub!.startIndex);
      if (!cls) continue;
      const at = { path: f.path, line: lineOf(f, sub.startIndex) };
      const name = sub.childForFieldName("name")?.text ?? "a subclass";
      if (!method) {
        throw refuse(decl, fb.path, `"${name}" extends the class and inherits or calls its constructor`, at);
      }
      if (declares(f, cls, decl.name)) throw refuse(decl, fb.path, `"${name}" overrides it`, at);
      if (item.depth < MAX_DEPTH) queue.push({ f, cls, depth: item.depth + 1 });
    }
  }
}
