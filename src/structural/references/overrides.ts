/**
 * Overrides: a member whose signature changes, or that is renamed, must be the
 * only one of its name along its class hierarchy in the workspace — not
 * overriding a base class's (or implementing an interface's) member, not
 * overridden in a subclass, not a Python protocol method the runtime calls —
 * and a constructor must not be inherited by a subclass. Bases declared
 * outside the workspace cannot be checked, so they refuse too. (Renaming one
 * method of a hierarchy changes which code a call runs, with no error.)
 *
 * @module
 */
import { profileOf } from "../../languages/profiles.ts";
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import type { Stage } from "../../fs/stage.ts";
import { classScopeOf, type FileBindings, type Occurrence, type Scope } from "../../syntax/bindings.ts";
import { TextIndex } from "../../syntax/text_index.ts";
import type { Parsing } from "../../syntax/types.ts";
import { findReferences } from "./references.ts";
import { memberPresence, usesOwnMember } from "./member_presence.ts";

const CLASS_NODES = /^(class_declaration|abstract_class_declaration|class|class_definition)$/;
const MAX_DEPTH = 8;

/** A class member whose hierarchy is checked: a method or field, or a constructor. */
export interface OverrideSubject {
  /** The member's name. */
  name: string;
  /** 1-based line of its declaration, for messages. */
  line: number;
  /** "constructor": only subclasses matter (they inherit it); anything else: bases and subclasses. */
  kind: "member" | "constructor";
  /** The class scope that declares it. */
  classScope: Scope;
  /** Marked `override` (TypeScript). */
  override: boolean;
}

/** Options for {@linkcode checkMemberOverrides}. */
export interface OverrideCheckOptions {
  /** Tool name, for messages. */
  tool: string;
  /** What the caller does, as a message says it: "change the signature of", "rename". */
  action: string;
  /** What to do instead, for the hint. */
  hint: string;
  /** Files the caller's search parsed (those that contain the name): where interfaces declaring it are looked for. */
  files?: ReadonlyMap<string, FileBindings>;
  /** A rename's new name: refused (`name_clash`) when a class of the hierarchy already has a member so named. */
  newName?: string;
  /**
   * A rename's sites, as `path:offset`: a class of the hierarchy that uses the member through `this`/`self`
   * where the rename does not reach is refused (the attribute would be split in two).
   */
  renamed?: ReadonlySet<string>;
}

function refuse(
  subject: OverrideSubject,
  path: string,
  options: OverrideCheckOptions,
  why: string,
  at?: { path: string; line: number },
): RecoverableError {
  return new RecoverableError(
    "overrides_present",
    `Cannot ${options.action} "${subject.name}" ("${path}" line ${subject.line}): ${why}${
      at ? ` ("${at.path}" line ${at.line})` : ""
    }`,
    { hint: options.hint, details: { path, line: subject.line, ...(at ? { site: at } : {}) } },
  );
}

/** The class node that opens a class scope. */
function classNodeAt(root: Node, scope: Scope): Node | null {
  for (let n: Node | null = root.descendantForIndex(scope.start, scope.start); n; n = n.parent) {
    // Named: the `class` keyword token has the same type name as a JavaScript class expression.
    if (n.startIndex === scope.start && n.isNamed && CLASS_NODES.test(n.type)) return n;
    if (n.startIndex < scope.start) break;
  }
  return null;
}

/** Whether a class scope declares a member named `name`. */
function declares(fb: FileBindings, cls: Scope, name: string): boolean {
  return memberPresence(fb, cls, name)?.declared === true;
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
 * Where types satisfy interfaces without naming them (Go): refuse a method of an interface, a method whose name
 * a standard interface requires (`@protocol`), and a method an interface of the parsed files declares.
 */
function checkImplicitInterfaces(
  fb: FileBindings,
  subject: OverrideSubject,
  options: {
    files: ReadonlyMap<string, FileBindings> | undefined;
    no: (why: string, at?: { path: string; line: number }) => RecoverableError;
  },
): void {
  const no = options.no;
  if (subject.classScope.implicit) {
    throw no(
      "it is a method of an interface, which types implement without naming it: their methods would keep the old name",
    );
  }
  const named = (o: Occurrence) => o.name === subject.name && o.kind === "member_definition";
  if (fb.occurrences.some((o) => named(o) && o.protocol && classScopeOf(o.scope) === subject.classScope)) {
    throw no(
      `a method named ${subject.name} satisfies a standard interface (fmt.Stringer, error, io.Reader, …) that code may rely on without naming it`,
    );
  }
  if (!fb.scopes.some((s) => s.impl)) return;
  for (const other of options.files?.values() ?? [fb]) {
    const iface = other.occurrences.find((o) => named(o) && o.scope.implicit);
    if (iface) {
      throw no(
        `the interface declaring it at ${other.path} line ${
          new TextIndex(other.text).position(iface.start).line
        } may be satisfied by this type's ${subject.name}`,
      );
    }
  }
}

/**
 * Refuse with `overrides_present` when a class member takes part in
 * overriding (a base in the workspace or outside it declares the name, or a
 * subclass does), or when a subclass inherits the constructor.
 *
 * @param parsing Grammars and parse cache.
 * @param stage The call's stage.
 * @param fb The declaring file's bindings.
 * @param subject The member.
 * @param options Tool, the action and the hint for messages.
 */
export async function checkMemberOverrides(
  parsing: Parsing,
  stage: Stage,
  { fb, subject, ...options }: { fb: FileBindings; subject: OverrideSubject } & OverrideCheckOptions,
): Promise<void> {
  const method = subject.kind === "member";
  const no = (why: string, at?: { path: string; line: number }) => refuse(subject, fb.path, options, why, at);
  if (subject.override) throw no("it is marked override: it overrides a base class's method");
  const { functions, displayName } = profileOf(fb.language);
  if (functions.protocolMethods && method && functions.protocolMethods.test(subject.name)) {
    throw no(`${subject.name} is a protocol method ${displayName} calls itself, with fixed arguments`);
  }
  if (method) checkImplicitInterfaces(fb, subject, { files: options.files, no });
  const walk: HierarchyWalk = {
    parsing,
    stage,
    fb,
    subject,
    tool: options.tool,
    method,
    no,
    files: new Map([[fb.path, fb]]),
    options,
  };
  // Up: the bases (a method only — a constructor does not override).
  if (method) await checkBases(walk);
  // Down: the subclasses in the workspace.
  await checkSubclasses(walk);
}

/** What the walks up and down the class hierarchy share. */
interface HierarchyWalk {
  parsing: Parsing;
  stage: Stage;
  fb: FileBindings;
  subject: OverrideSubject;
  tool: string;
  /** The subject is a method or field (not a constructor). */
  method: boolean;
  /** The `overrides_present` refusal. */
  no: (why: string, at?: { path: string; line: number }) => RecoverableError;
  /** Files the walk read, by path. */
  files: Map<string, FileBindings>;
  /** The caller's options (a rename's new name and sites). */
  options: OverrideCheckOptions;
}

/** A class in the hierarchy, and how far it is from the subject's. */
interface HierarchyItem {
  f: FileBindings;
  cls: Scope;
  depth: number;
}

/** The parse of a file's text. */
async function treeOf(parsing: Parsing, f: FileBindings) {
  return (await parsing.trees!.parse(f.path, f.language, f.version, f.text)).tree;
}

/** The 1-based line of an offset in a file. */
function lineOf(f: FileBindings, offset: number): number {
  return new TextIndex(f.text).position(offset).line;
}

/** The references of the name at an offset (null when graver cannot resolve it). */
async function declarationOf({ parsing, stage, tool }: HierarchyWalk, f: FileBindings, at: number) {
  try {
    return await findReferences(parsing, stage, {
      path: f.path,
      target: new TextIndex(f.text).position(at),
      tool,
      scope: "project",
    });
  } catch (e) {
    if (e instanceof RecoverableError && e.code === "unresolved") return null;
    throw e;
  }
}

/** Walk up the bases: refuse when one declares the name, or is not declared in the workspace. */
async function checkBases(walk: HierarchyWalk): Promise<void> {
  const { fb, subject, no } = walk;
  const queue: HierarchyItem[] = [{ f: fb, cls: subject.classScope, depth: 0 }];
  for (let item = queue.shift(); item; item = queue.shift()) {
    const root = (await treeOf(walk.parsing, item.f)).rootNode;
    // A block whose members are all a supertype's (a Rust trait impl) names it where the query says.
    const whole = item.cls.membersOf;
    const node = whole === undefined ? classNodeAt(root, item.cls) : null;
    const bases: Node[] = whole !== undefined
      ? [root.descendantForIndex(whole, whole)].filter((n): n is Node => n !== null)
      : node
      ? baseNames(node)
      : [];
    for (const base of bases) {
      if (base.text === profileOf(fb.language).functions.rootClass) continue;
      const where = { path: item.f.path, line: lineOf(item.f, base.startIndex) };
      const found = await baseClassOf(walk, item.f, base);
      if (!found) {
        throw no(
          whole !== undefined
            ? `it implements "${base.text}", which is not declared in the workspace: the name "${subject.name}" is that trait's`
            : `its class extends "${base.text}", which is not declared in the workspace: "${subject.name}" may override one of its members`,
          where,
        );
      }
      walk.files.set(found.f.path, found.f);
      const own = memberPresence(found.f, found.cls, subject.name);
      if (own?.declared) {
        throw no(`it overrides (or implements) "${base.text}.${subject.name}"`, {
          path: found.f.path,
          line: lineOf(found.f, own.occurrence.start),
        });
      }
      checkRelative(walk, { f: found.f, cls: found.cls, who: `the base class "${base.text}"`, base: true });
      if (item.depth < MAX_DEPTH) queue.push({ f: found.f, cls: found.cls, depth: item.depth + 1 });
    }
  }
}

/** The class scope a base name is declared as in the workspace, or null. */
async function baseClassOf(
  walk: HierarchyWalk,
  f: FileBindings,
  base: Node,
): Promise<{ f: FileBindings; cls: Scope } | null> {
  const search = base.type === "identifier" || base.type === "type_identifier"
    ? await declarationOf(walk, f, base.startIndex)
    : null;
  let found: { f: FileBindings; cls: Scope } | null = null;
  for (const s of search?.sites ?? []) {
    if (s.kind !== "definition") continue;
    const f = search!.files.get(s.path)!;
    const cls = f.scopes.find((sc) => sc.kind !== "module" && sc.nameStart === s.start);
    if (cls) found = { f, cls };
  }
  return found;
}

/** Walk down the subclasses (and trait impls): refuse when one declares the name, or inherits the constructor. */
async function checkSubclasses(walk: HierarchyWalk): Promise<void> {
  const { fb, subject, no } = walk;
  const queue: HierarchyItem[] = [{ f: fb, cls: subject.classScope, depth: 0 }];
  for (let item = queue.shift(); item; item = queue.shift()) {
    const search = await declarationOf(walk, item.f, item.cls.nameStart);
    if (!search) continue;
    for (const s of search.sites) {
      if (s.kind !== "reference") continue;
      const f = search.files.get(s.path)!;
      const impl = f.scopes.find((sc) => sc.membersOf === s.start); // `impl Trait for T` (Rust)
      if (impl) {
        if (declares(f, impl, subject.name)) {
          throw no(`an impl of the trait implements "${subject.name}" too`, {
            path: f.path,
            line: lineOf(f, s.start),
          });
        }
        continue;
      }
      const sub = subclassNaming((await treeOf(walk.parsing, f)).rootNode, s);
      if (!sub) continue;
      const cls = f.scopes.find((sc) => sc.kind === "class" && sc.start === sub.startIndex);
      if (!cls) continue;
      const at = { path: f.path, line: lineOf(f, sub.startIndex) };
      const name = sub.childForFieldName("name")?.text ?? "a subclass";
      if (!walk.method) {
        throw no(`"${name}" extends the class and inherits or calls its constructor`, at);
      }
      const own = memberPresence(f, cls, subject.name);
      if (own?.declared) {
        throw no(`"${name}" overrides it`, { path: f.path, line: lineOf(f, own.occurrence.start) });
      }
      checkRelative(walk, { f, cls, who: `the subclass "${name}"`, base: false });
      if (item.depth < MAX_DEPTH) queue.push({ f, cls, depth: item.depth + 1 });
    }
  }
}

/**
 * Refuse a rename that a class of the hierarchy (a base or a subclass, named by `who`) makes unsafe: it already
 * has a member named as the new name (`name_clash`: one would then override the other), or its own code uses
 * the member through `this`/`self` where the rename does not reach (`overrides_present`: one attribute would
 * become two, with no error until the code runs).
 */
function checkRelative(
  walk: HierarchyWalk,
  { f, cls, who, base }: { f: FileBindings; cls: Scope; who: string; base: boolean },
): void {
  const { subject, options } = walk;
  const taken = options.newName === undefined ? null : memberPresence(f, cls, options.newName);
  if (taken) {
    const line = lineOf(f, taken.occurrence.start);
    throw new RecoverableError(
      "name_clash",
      `Cannot rename "${subject.name}" ("${walk.fb.path}" line ${subject.line}) to "${options.newName}": ${who} already has a member "${options.newName}" ("${f.path}" line ${line}), which ${
        base ? "the renamed member would override" : "would override the renamed member"
      }`,
      {
        hint: "Choose another new_name, or rename that member first",
        details: { path: f.path, line, new_name: options.newName },
      },
    );
  }
  if (!options.renamed) return;
  const left = f.occurrences.find((o) =>
    o.name === subject.name && usesOwnMember(o) &&
    classScopeOf(o.scope) === cls && !options.renamed!.has(`${f.path}:${o.start}`)
  );
  if (left) {
    throw walk.no(
      `${who} uses "${subject.name}" through this/self as well, where the rename does not reach: it is one attribute along the hierarchy, which renaming here alone would split in two`,
      { path: f.path, line: lineOf(f, left.start) },
    );
  }
}

/** The class whose heritage (or Python superclass list) a reference sits in, or null. */
function subclassNaming(root: Node, s: { start: number; end: number }): Node | null {
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
    return null;
  }
  return sub;
}
