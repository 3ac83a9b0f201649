/**
 * Data flow of the statements an extraction takes, from the file's bindings:
 * which names flow in (parameters: read inside, bound in an enclosing
 * function before), which flow out (return values: assigned inside, live
 * after — read later, read before them in an enclosing loop, or read by a
 * closure), which are the enclosing method's receiver (`self`), and which
 * module names a Python function must declare `global`.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import {
  type Binding,
  encloses,
  firstAtOrAfter,
  functionScope,
  type Occurrence,
  type Scope,
} from "../../syntax/binding_model.ts";
import type { FileBindings } from "../../syntax/bindings.ts";
import type { FamilyRules, StatementRun } from "./statement_ranges.ts";
import type { SourceFile } from "../edit/source.ts";
import { type Access, accessOf, JS_PATTERNS, PY_PATTERNS } from "./variable_access.ts";

/** A variable the extracted statements share with the code around them. */
export interface Variable {
  /** The binding. */
  binding: Binding;
  /** Its name. */
  name: string;
  /** Declared (first bound) inside the statements. */
  declared: boolean;
  /** Passed in as a parameter. */
  param: boolean;
  /** Returned to the caller. */
  output: boolean;
  /** Assigned again after the statements (the caller's declaration must be `let`). */
  reassignedAfter: boolean;
  /** The identifier node of its declaration (for types and `const`/`let`), if found. */
  declaration: Node | null;
  /** Offset of its first occurrence in the statements. */
  first: number;
}

/** The data flow of the statements. */
export interface DataFlow {
  /** The scope of the block the statements are in. */
  blockScope: Scope;
  /** The enclosing function (or module) scope. */
  functionScope: Scope;
  /** Variables shared with the surrounding code, by first use. */
  variables: Variable[];
  /** Module names the statements assign from a Python function that declared them `global`. */
  globals: string[];
  /** Names of an outer Python function the statements assign (declared `nonlocal`). */
  nonlocals: string[];
  /** Bindings of type parameters the statements use (TypeScript). */
  typeParameters: Binding[];
  /** Occurrences in the statements of the enclosing Python method's receiver (`self`, `cls`). */
  receiverUses: Occurrence[];
  /** The receiver's binding (Python methods), if any. */
  receiver: Binding | null;
  /** Free names the statements use (globals, built-ins), with their occurrences. */
  free: Occurrence[];
  /** Declared in the statements but used before them (hoisting): cannot move. */
  usedBefore: { variable: Variable; at: number }[];
  /**
   * Assigned on some paths only, unbound before (Python) or declared without a value in the statements
   * (`let x: T;`), and read after (where): the new function could not return it.
   */
  maybeUnbound: { variable: Variable; at: number }[];
  /**
   * Python: a parameter-to-be whose every assignment before the statements sits in a branch or loop that does
   * not hold them (a `for t in …` earlier on): it may be unbound there, and passing it would read it eagerly.
   */
  unboundBefore: { variable: Variable; at: number }[];
}

const VALUE_KINDS = new Set(["definition", "reference", "shorthand", "shorthand_pattern"]);
/** Nodes a definite first write may sit in (no branch, no loop, no call between it and the block). */
const PLAIN = new Set([
  "expression_statement",
  "assignment_expression",
  "assignment",
  "parenthesized_expression",
  "variable_declarator",
  "lexical_declaration",
  "variable_declaration",
  ...JS_PATTERNS,
  ...PY_PATTERNS,
]);

/** The innermost scope that holds a whole node. */
export function scopeOfNode(fb: FileBindings, node: Node): Scope {
  let best = fb.scopes[0]!;
  for (const s of fb.scopes) {
    if (s.start <= node.startIndex && node.endIndex <= s.end && s.end - s.start <= best.end - best.start) {
      best = s;
    }
  }
  return best;
}

/** The node a scope was built from. */
export function nodeOfScope(file: SourceFile, scope: Scope): Node | null {
  if (scope.kind === "module") return file.tree.rootNode;
  for (
    let n: Node | null = file.tree.rootNode.descendantForIndex(scope.start, scope.start);
    n;
    n = n.parent
  ) {
    if (n.startIndex === scope.start && n.endIndex === scope.end) return n;
    if (n.startIndex < scope.start) break;
  }
  return null;
}

/** The identifier node of an occurrence. */
export function nodeOf(file: SourceFile, o: { start: number; end: number }): Node {
  return file.tree.rootNode.descendantForIndex(o.start, o.end) ?? file.tree.rootNode;
}

interface Use {
  occ: Occurrence;
  node: Node;
  access: Access;
}

/** The statement of the block a write sits in with no branch, loop or call between (null: none such). */
function plainStatement(u: Use, run: StatementRun): Node | null {
  if (u.access !== "write") return null;
  let stmt: Node = u.node;
  while (stmt.parent && stmt.parent.id !== run.container.id) {
    if (!PLAIN.has(stmt.parent.type)) return null;
    stmt = stmt.parent;
  }
  return stmt;
}

/** The statement of `block` that holds a write with no branch, loop or call between them (null: none such). */
function plainStatementOf(u: Use, block: Node): Node | null {
  if (u.access !== "write") return null;
  let stmt: Node = u.node;
  while (stmt.parent && stmt.parent.id !== block.id) {
    if (!PLAIN.has(stmt.parent.type)) return null;
    stmt = stmt.parent;
  }
  return stmt.parent ? stmt : null;
}

/** The branches of an `if` that has an `else` (every path goes through one of them), else null. */
function ifBranches(node: Node): Node[] | null {
  if (node.type !== "if_statement") return null;
  const out: Node[] = [];
  const consequence = node.childForFieldName("consequence");
  if (consequence) out.push(consequence);
  let otherwise = false;
  for (const c of node.namedChildren) {
    if (c?.type === "elif_clause") {
      const body = c.childForFieldName("consequence");
      if (body) out.push(body);
    } else if (c?.type === "else_clause") {
      const body = c.childForFieldName("body") ?? c.namedChildren.find((n) => n?.type !== "comment") ?? null;
      if (body) out.push(body);
      otherwise = true;
    }
  }
  return otherwise ? out : null;
}

/**
 * Whether running `node` (a statement or a block) always writes the name: a plain write in it, or an `if`
 * with an `else` whose every branch does.
 */
function alwaysWrites(node: Node, uses: Use[]): boolean {
  const inside = uses.filter((u) => u.node.startIndex >= node.startIndex && u.node.endIndex <= node.endIndex);
  if (inside.length === 0) return false;
  const statements = node.type === "block" || node.type === "statement_block"
    ? node.namedChildren.filter((n): n is Node => n !== null)
    : [node];
  return statements.some((stmt) => {
    if (
      inside.some((u) =>
        u.access === "write" && (u.node.id === stmt.id || plainStatementOf(u, stmt.parent!)?.id === stmt.id)
      )
    ) {
      return true;
    }
    const branches = ifBranches(stmt) ?? tryBranches(stmt);
    return branches !== null && branches.every((b) => alwaysWrites(b, inside));
  });
}

/**
 * The paths through a Python `try` without `else` or `finally`: its body, and each `except` handler (the body
 * may stop at any statement, then a handler runs). A name every one of them writes is written after the
 * `try` on every path that goes on; null for any other statement.
 */
function tryBranches(node: Node): Node[] | null {
  if (node.type !== "try_statement") return null;
  const body = node.childForFieldName("body");
  const handlers = node.namedChildren.filter((c): c is Node => c?.type === "except_clause");
  const other = node.namedChildren.some((c) => c?.type === "else_clause" || c?.type === "finally_clause");
  if (!body || handlers.length === 0 || other) return null;
  const blocks = handlers.map((h) => h.namedChildren.find((c) => c?.type === "block") ?? null);
  return blocks.every((b) => b !== null) ? [body, ...blocks as Node[]] : null;
}

/** Whether `write` and the statements sit in different branches of the `if` statement `n` (one path misses it). */
function otherBranch(n: Node, write: Node, run: StatementRun): boolean {
  if (n.type !== "if_statement") return false;
  const branchOf = (start: number, end: number) =>
    n.namedChildren.find((c) => c !== null && c.startIndex <= start && c.endIndex >= end)?.id ?? null;
  const w = branchOf(write.startIndex, write.endIndex);
  return w !== null && w !== branchOf(run.start, run.end);
}

/** Python statements whose body may not run (or runs on some paths only). */
const CONDITIONAL = new Set([
  "if_statement",
  "for_statement",
  "while_statement",
  "try_statement",
  "with_statement",
  "match_statement",
]);

/**
 * Whether an assignment before the statements sits in a branch or loop that does not hold them: on the path
 * that reaches them it may not have run.
 */
function conditionalBefore(write: Node, run: StatementRun, rules: FamilyRules): boolean {
  for (let n = write.parent; n && !rules.functions.has(n.type); n = n.parent) {
    if (!CONDITIONAL.has(n.type)) continue;
    if (n.startIndex > run.start || n.endIndex < run.end) return true;
    if (n.type === "try_statement" && handlerAfterRaise(n, write, run)) return true;
    if (otherBranch(n, write, run)) return true;
  }
  return false;
}

/**
 * Whether the statements sit in an `except` or `finally` clause of the `try` whose body holds the assignment:
 * the body may raise before the assignment runs.
 */
function handlerAfterRaise(tryNode: Node, write: Node, run: StatementRun): boolean {
  const body = tryNode.childForFieldName("body");
  if (!body || write.startIndex < body.startIndex || write.endIndex > body.endIndex) return false;
  return tryNode.namedChildren.some((c) =>
    c !== null &&
    (c.type === "except_clause" || c.type === "except_group_clause" || c.type === "finally_clause") &&
    c.startIndex <= run.start && c.endIndex >= run.end
  );
}

/** Whether a declared name gets no value where it is declared (`let x: T;`, `var x;`). */
function declaresWithoutValue(name: Node): boolean {
  const declarator = name.parent;
  return declarator?.type === "variable_declarator" && declarator.childForFieldName("name")?.id === name.id &&
    declarator.childForFieldName("value") === null;
}

/** Whether `node` is written before anything reads it: a plain assignment statement of the block, its value free of the name. */
function definiteFirstWrite(first: Use, uses: Use[], run: StatementRun): boolean {
  const stmt = plainStatement(first, run);
  if (!stmt) return false;
  // Nothing of the same statement reads it (`x = x + 1`, `[a, b] = [b, a]`).
  return !uses.some((u) =>
    u !== first && u.node.startIndex >= stmt.startIndex && u.node.endIndex <= stmt.endIndex &&
    u.access !== "write"
  );
}

/** Loops around the statements, inside their function. */
function loopsAround(run: StatementRun, rules: FamilyRules, fn: Scope): Node[] {
  const out: Node[] = [];
  for (let p = run.container.parent; p && p.startIndex >= fn.start; p = p.parent) {
    if (rules.functions.has(p.type)) break;
    if (rules.loops.has(p.type)) out.push(p);
  }
  return out;
}

/**
 * The data flow of a run of statements.
 *
 * @param file The source file.
 * @param fb Its bindings.
 * @param run The statements.
 * @param rules The language family's rules.
 * @param options `outer`: the scope the new function is declared in (its names and its parents' are visible).
 * @returns Variables in and out, globals, type parameters, receiver uses and free names.
 */
export function dataFlow(
  file: SourceFile,
  fb: FileBindings,
  { run, rules, ...options }: { run: StatementRun; rules: FamilyRules; outer: Scope },
): DataFlow {
  const assignmentDeclares = rules.assignmentDeclares;
  const blockScope = scopeOfNode(fb, run.container);
  const fnScope = functionScope(blockScope);
  const receiver = rules.explicitSelf
    ? receiverOf(file, fb, fnScope)
    : rules.receiverParameters
    ? goReceiverOf(fb, run)
    : null;
  const s: FlowState = {
    file,
    fb,
    run,
    rules,
    outer: options.outer,
    assignmentDeclares,
    fnScope,
    receiver,
    byBinding: new Map(),
    free: [],
    receiverUses: [],
    typeParameters: new Set(),
    globals: new Set(),
    nonlocals: new Set(),
    loops: [],
    variables: [],
    usedBefore: [],
    maybeUnbound: [],
    unboundBefore: [],
  };
  collectUses(s);
  s.loops = loopsAround(run, rules, fnScope);
  for (const [b, uses] of s.byBinding) classifyBinding(s, b, uses);
  s.variables.sort((a, b) => a.first - b.first);
  return {
    blockScope,
    functionScope: fnScope,
    variables: s.variables,
    globals: [...s.globals],
    nonlocals: [...s.nonlocals],
    typeParameters: [...s.typeParameters],
    receiverUses: s.receiverUses,
    receiver,
    free: s.free,
    usedBefore: s.usedBefore,
    maybeUnbound: s.maybeUnbound,
    unboundBefore: s.unboundBefore,
  };
}

/** What the phases of {@link dataFlow} share and build up. */
interface FlowState {
  file: SourceFile;
  fb: FileBindings;
  run: StatementRun;
  rules: FamilyRules;
  /** The scope the new function is declared in. */
  outer: Scope;
  assignmentDeclares: boolean;
  /** The enclosing function's scope. */
  fnScope: Scope;
  /** The method's receiver (`self`, Go's `r`), or null. */
  receiver: Binding | null;
  /** The uses inside the statements of each binding that may flow in or out. */
  byBinding: Map<Binding, Use[]>;
  free: Occurrence[];
  receiverUses: Occurrence[];
  typeParameters: Set<Binding>;
  globals: Set<string>;
  nonlocals: Set<string>;
  /** Loops around the statements, inside their function. */
  loops: Node[];
  variables: Variable[];
  usedBefore: DataFlow["usedBefore"];
  maybeUnbound: DataFlow["maybeUnbound"];
  unboundBefore: DataFlow["unboundBefore"];
}

/** Sort the occurrences inside the statements: free names, receiver uses, type parameters, globals, uses. */
function collectUses(s: FlowState): void {
  const { file, fb, run, rules, assignmentDeclares, fnScope } = s;
  const nestedInRange = (sc: Scope) => sc.start >= run.start && sc.end <= run.end;
  const end = firstAtOrAfter(fb.occurrences, run.end);
  for (let i = firstAtOrAfter(fb.occurrences, run.start); i < end; i++) {
    const occ = fb.occurrences[i]!;
    if (!VALUE_KINDS.has(occ.kind)) continue;
    const b = occ.binding;
    if (!b) {
      if (occ.kind !== "definition") s.free.push(occ);
      continue;
    }
    if (nestedInRange(b.scope)) continue;
    if (b === s.receiver) {
      s.receiverUses.push(occ);
      continue;
    }
    if (b.kind === "parameter" && isTypeParameter(file, fb, b)) {
      s.typeParameters.add(b);
      continue;
    }
    const node = nodeOf(file, occ);
    const access = accessOf(occ, node, rules);
    if (encloses(b.scope, s.outer) && !(assignmentDeclares && b.scope === fnScope)) {
      // Visible from where the new function goes, unless declared here (ECMAScript: a module-level range) or
      // assigned (Python: declared `global` / `nonlocal` in the new function as in the old one).
      if (assignmentDeclares) {
        if (access !== "read") (b.scope.kind === "module" ? s.globals : s.nonlocals).add(b.name);
        continue;
      }
      if (!(occ.kind === "definition" || occ.kind === "shorthand_pattern")) {
        if (!s.byBinding.has(b)) continue;
      }
    }
    if (b.scope.kind === "class" && !rules.receiverParameters) continue; // Go: a method's parameters

    let uses = s.byBinding.get(b);
    if (!uses) s.byBinding.set(b, uses = []);
    uses.push({ occ, node, access });
  }
}

/** One binding's occurrences around the statements, as {@link classifyBinding} weighs them. */
interface BindingSpan {
  b: Binding;
  /** Its uses inside the statements. */
  uses: Use[];
  /** Its declaration, or null. */
  declOcc: Occurrence | null;
  /** Its occurrences before the statements. */
  before: Occurrence[];
  /** Its occurrences after them. */
  after: Occurrence[];
  /** Declared by the statements. */
  declared: boolean;
  /** The uses inside that read it. */
  reads: Use[];
  /** How an occurrence accesses it. */
  accessAt: (o: Occurrence) => Access;
}

/** Whether a binding is a parameter or an output of the new function, and what makes it unsafe. */
function classifyBinding(s: FlowState, b: Binding, uses: Use[]): void {
  const { file, run, rules, assignmentDeclares } = s;
  const all = s.fb.occurrences.filter((o) => o.binding === b && VALUE_KINDS.has(o.kind));
  const declOcc = all.find((o) => o.kind === "definition" || o.kind === "shorthand_pattern") ?? null;
  const before = all.filter((o) => o.start < run.start);
  const after = all.filter((o) => o.start >= run.end);
  const declared = assignmentDeclares
    ? b.kind !== "parameter" && before.length === 0
    : declOcc !== null && declOcc.start >= run.start && declOcc.start < run.end && b.kind !== "parameter";
  const writes = uses.filter((u) => u.access !== "read");
  if (assignmentDeclares && b.scope.kind === "module" && writes.length === 0) return; // a module name it only reads
  const reads = uses.filter((u) => u.access === "read" || u.access === "readwrite");
  const accessAt = (o: Occurrence) => accessOf(o, nodeOf(file, o), rules);
  const span: BindingSpan = { b, uses, declOcc, before, after, declared, reads, accessAt };
  const output = writes.length > 0 && liveAfterRun(s, span);
  const boundBefore = !declared || (assignmentDeclares && (b.kind === "parameter" || before.length > 0));
  // Its old value is needed unless the statements write it before any read: a plain first write, or (read
  // nowhere in them) a statement that writes it on every path (an if with else, a try and its handlers).
  const overwritten = definiteFirstWrite(uses[0]!, uses, run) ||
    (reads.length === 0 && run.statements.some((st) => alwaysWrites(st, writes)));
  const param = boundBefore && (reads.length > 0 || output) && !overwritten;
  const variable: Variable = {
    binding: b,
    name: b.name,
    declared,
    param,
    output,
    reassignedAfter: after.some((o) => accessAt(o) !== "read"),
    declaration: declOcc ? nodeOf(file, declOcc) : null,
    first: uses[0]!.occ.start,
  };
  if (declared && !assignmentDeclares && before.length > 0) {
    s.usedBefore.push({ variable, at: before[0]!.start });
  }
  recordUnbound(s, span, variable, boundBefore);
  if (param || output) s.variables.push(variable);
}

/** Whether the value the statements leave in a binding is read afterwards (after them, by a closure, a loop). */
function liveAfterRun(s: FlowState, span: BindingSpan): boolean {
  const { assignmentDeclares, fnScope, loops } = s;
  const { before, after, declared, reads, accessAt } = span;
  const outside = [...before, ...after];
  // Closures outside the statements that read it see the value they leave.
  const closureRead = outside.some((o) => functionScope(o.scope) !== fnScope && accessAt(o) !== "write");
  // In a loop around the statements, a read before them, or one of theirs, sees the last iteration's write.
  const loopRead =
    before.some((o) =>
      loops.some((l) => o.start >= l.startIndex && o.end <= l.endIndex) && accessAt(o) !== "write"
    ) || (loops.length > 0 && reads.length > 0);
  if (assignmentDeclares && fnScope.kind === "module") return true; // other modules may import any module-level name
  if (declared && !assignmentDeclares) return after.length > 0 || closureRead;
  return after.some((o) => accessAt(o) !== "write") || closureRead || loopRead;
}

/** Record a name the new function could not always return, or one passed in that may be unbound. */
function recordUnbound(s: FlowState, span: BindingSpan, variable: Variable, boundBefore: boolean): void {
  const { file, run, rules, assignmentDeclares } = s;
  const { b, uses, declOcc, before, after, declared, accessAt } = span;
  const { output, param } = variable;
  // `let x: T;` gives no value: what the statements return must be written on every path after it.
  const valueless = !assignmentDeclares && declared && declOcc !== null &&
    declaresWithoutValue(nodeOf(file, declOcc));
  const assignments = valueless ? uses.filter((u) => u.occ !== declOcc) : uses;
  if (
    (assignmentDeclares || valueless) && output && (valueless || !boundBefore) &&
    !run.statements.some((st) => alwaysWrites(st, assignments))
  ) {
    s.maybeUnbound.push({ variable, at: after.find((o) => accessAt(o) !== "write")?.start ?? run.end });
  }
  if (assignmentDeclares && param && b.kind !== "parameter" && before.length > 0) {
    const writes = before.filter((o) => accessAt(o) !== "read");
    if (writes.length > 0 && writes.every((o) => conditionalBefore(nodeOf(file, o), run, rules))) {
      s.unboundBefore.push({ variable, at: writes[writes.length - 1]!.start });
    }
  }
}

/** Whether a binding is a TypeScript type parameter (`T` of `<T>`). */
function isTypeParameter(file: SourceFile, fb: FileBindings, b: Binding): boolean {
  const decl = fb.occurrences.find((o) => o.binding === b && o.kind === "definition");
  const holder = decl === undefined ? null : nodeOf(file, decl).parent;
  return holder?.type === "type_parameter" || holder?.type === "type_parameter_declaration";
}

/** A Go method's receiver (`r` of `func (r *T) m()`) when the statements are in its body. */
function goReceiverOf(fb: FileBindings, run: StatementRun): Binding | null {
  let fn: Node | null = run.container;
  while (fn && !/^(?:function_declaration|method_declaration|func_literal)$/.test(fn.type)) fn = fn.parent;
  if (!fn || fn.type !== "method_declaration") return null;
  const name = fn.childForFieldName("receiver")?.namedChildren[0]?.childForFieldName("name");
  return name ? fb.occurrences.find((o) => o.start === name.startIndex)?.binding ?? null : null;
}

/** The first parameter of a Python method (its `self` or `cls`), unless it is a static method. */
function receiverOf(file: SourceFile, fb: FileBindings, fn: Scope): Binding | null {
  const def = nodeOfScope(file, fn);
  if (!def || def.type !== "function_definition") return null;
  const holder = def.parent?.type === "decorated_definition" ? def.parent : def;
  if (holder.parent?.type !== "block" || holder.parent.parent?.type !== "class_definition") return null;
  if (decoratorsOf(holder).includes("staticmethod")) return null;
  const first = def.childForFieldName("parameters")?.namedChildren[0];
  if (!first || first.type !== "identifier") return null;
  return fb.occurrences.find((o) => o.start === first.startIndex)?.binding ?? null;
}

/**
 * The decorator names of a Python definition (`@classmethod` → "classmethod").
 *
 * @param holder The definition or its decorated_definition.
 * @returns The names, in order.
 */
export function decoratorsOf(holder: Node): string[] {
  if (holder.type !== "decorated_definition") return [];
  return holder.namedChildren.filter((c): c is Node => c?.type === "decorator").map((d) =>
    d.text.replace(/^@\s*/, "").replace(/\(.*$/s, "").trim()
  );
}
