/**
 * The TypeScript type refusals of extract function (`types_required`): a
 * parameter whose type is not written, or that TypeScript narrows before the
 * statements (a test or an assignment), and `this.x` or a captured name that
 * the new function would see with its declared type again.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import type { Binding } from "../../syntax/bindings.ts";
import type { Variable } from "../shared/data_flow.ts";
import { nodeOf, nodeOfScope } from "../shared/data_flow.ts";
import { declaredType, typed, type WrittenType } from "../shared/written_types.ts";
import { at, type Context, details } from "./_context.ts";

/** The type of each parameter (TypeScript), or the `types_required` refusal. */
export function parameterTypes(ctx: Context, params: Variable[]): Map<Variable, WrittenType> {
  const out = new Map<Variable, WrittenType>();
  if (!typed(ctx.file.language)) return out;
  for (const v of params) {
    const t = declaredType(v.declaration);
    if (!t) {
      const line = v.declaration ? at(ctx, v.declaration.startIndex) : null;
      throw new RecoverableError(
        "types_required",
        `Cannot extract ${ctx.where}: the type of "${v.name}" (${
          line ? `declared at line ${line}` : "declared elsewhere"
        }) is not written in its declaration, and it would become a parameter`,
        {
          hint:
            `Annotate "${v.name}" where it is declared (e.g. \`${v.name}: SomeType\`), or include its declaration in the range, then extract`,
          details: details(ctx, { name: v.name, ...(line ? { line } : {}) }),
        },
      );
    }
    const test = narrowedBefore(ctx, v, t);
    if (test) {
      const line = at(ctx, test.startIndex);
      throw new RecoverableError(
        "types_required",
        `Cannot extract ${ctx.where}: "${v.name}" is tested or assigned before the range (line ${line}: \`${
          test.text.split("\n")[0]!.slice(0, 60)
        }\`), where TypeScript narrows its type; as a parameter it would have its declared type \`${t.text}\``,
        {
          hint:
            `Include the test of "${v.name}" in the range, or give the range a variable of the narrowed type (\`const x: Narrowed = ${v.name};\`) and extract after it`,
          details: details(ctx, { name: v.name, line }),
        },
      );
    }
    out.set(v, t);
  }
  return out;
}

/** Node types whose first operand (or condition) narrows a name it tests. */
const TESTS = new Set([
  "if_statement",
  "while_statement",
  "ternary_expression",
  "binary_expression",
  "unary_expression",
]);

/**
 * Where a parameter-to-be whose declared type can narrow (a union, optional or `unknown`) is tested or assigned
 * before the statements in their function (an `if`/`while` condition, a ternary's, the left of `&&`/`||`/`??`,
 * `typeof`, `!`, `x = …`): TypeScript may give it a narrower type at the statements than the declaration says.
 */
function narrowedBefore(ctx: Context, v: Variable, t: WrittenType): Node | null {
  if (!canNarrow(t.text, v.declaration?.parent ?? null)) return null;
  const fn = nodeOfScope(ctx.file, ctx.flow.functionScope);
  for (const o of ctx.fb.occurrences) {
    if (o.binding !== v.binding || o.start >= ctx.run.start || (fn && o.start < fn.startIndex)) continue;
    const at = narrowingAt(ctx, ctx.file.tree.rootNode.descendantForIndex(o.start, o.end));
    if (at) return at;
  }
  return null;
}

/** Whether a declared type can narrow: a union, `unknown`, an optional (`x?: T`, `x?`). */
function canNarrow(type: string, declaration: Node | null): boolean {
  return /\||\bunknown\b|\?/.test(type) || /\?\s*:/.test(declaration?.text ?? "");
}

/**
 * The test or assignment that narrows the name (or `this.x`) at `node`, a use before the statements: `node`
 * inside an `if`/`while` condition, a ternary's, the left of `&&`/`||`/`??`, `typeof`, `!`, or the left side
 * of `=`. Null when the use narrows nothing the statements see.
 */
function narrowingAt(ctx: Context, node: Node | null): Node | null {
  let child = node;
  if (
    child?.parent?.type === "member_expression" && child.parent.childForFieldName("property")?.id === child.id
  ) {
    child = child.parent; // `this.x`: the whole access is tested or assigned
  }
  for (let n = child?.parent ?? null; n && child; child = n, n = n.parent) {
    if (TESTS.has(n.type)) {
      const tested = n.childForFieldName("condition") ?? n.childForFieldName("left") ??
        n.childForFieldName("argument");
      if (tested && child.startIndex >= tested.startIndex && child.endIndex <= tested.endIndex) return n;
    }
    if (n.type === "assignment_expression" && n.childForFieldName("left")?.id === child.id) return n;
    // A statement over before the range: only an `if` (an early exit narrows what follows) counts.
    if (n.endIndex < ctx.run.start && n.type.endsWith("statement")) break;
  }
  return null;
}

/**
 * TypeScript: refuse (`types_required`) statements that read `this.x` where the enclosing function tested or
 * assigned `this.x` before them, and the class declares x with a type that can narrow (or does not declare it):
 * in a new method, `this.x` has its declared type again (rxjs's Subject.next: `this.currentObservers`, set when
 * null just before, is `Observer<T>[] | null` in the new method).
 *
 * @param ctx The extraction.
 */
export function checkMemberNarrowing(ctx: Context): void {
  if (!typed(ctx.file.language)) return;
  const { fb, run } = ctx;
  const read = new Set(
    fb.occurrences.filter((o) => o.kind === "member_this" && o.start >= run.start && o.start < run.end)
      .map((o) => o.name),
  );
  if (read.size === 0) return;
  const fn = nodeOfScope(ctx.file, ctx.flow.functionScope);
  for (const o of fb.occurrences) {
    if (
      o.kind !== "member_this" || !read.has(o.name) || o.start >= run.start || (fn && o.start < fn.startIndex)
    ) {
      continue;
    }
    const narrowing = narrowingAt(ctx, ctx.file.tree.rootNode.descendantForIndex(o.start, o.end));
    if (!narrowing || !memberCanNarrow(ctx, o.name, o.start)) continue;
    const line = at(ctx, narrowing.startIndex);
    throw new RecoverableError(
      "types_required",
      `Cannot extract ${ctx.where}: they read \`this.${o.name}\`, which line ${line} (\`${
        narrowing.text.split("\n")[0]!.slice(0, 60)
      }\`) tests or assigns before them, where TypeScript narrows its type; in a new method it would have its declared type`,
      {
        hint:
          `Include line ${line} in the range, or read \`this.${o.name}\` into a local of the narrowed type before the range (\`const ${o.name} = this.${o.name};\`) and use that in the statements`,
        details: details(ctx, { name: `this.${o.name}`, line }),
      },
    );
  }
}

/**
 * TypeScript: refuse (`types_required`) statements that read a name they do not get as a parameter (the new
 * function sees it where it is declared) when their function tested or assigned it before them, and its type can
 * narrow or is not written: a function declaration does not keep a narrowing of a name it captures (rxjs's
 * TestScheduler: `if (!map) throw …` then `map.set(…)`, where `map` is `Map<…> | undefined` again).
 *
 * @param ctx The extraction.
 */
export function checkCapturedNarrowing(ctx: Context): void {
  if (!typed(ctx.file.language)) return;
  const { fb, run, file } = ctx;
  const passed = new Set(ctx.flow.variables.filter((v) => v.param || v.declared).map((v) => v.binding));
  const fn = nodeOfScope(file, ctx.flow.functionScope);
  const checked = new Set<Binding>();
  for (const o of fb.occurrences) {
    const b = o.binding;
    if (o.start < run.start || o.start >= run.end || !b || passed.has(b) || checked.has(b)) continue;
    if (o.kind !== "reference" && o.kind !== "shorthand") continue;
    checked.add(b);
    const def = fb.occurrences.find((d) => d.binding === b && d.kind === "definition");
    if (!def || def.start >= run.start || b.kind === "import" || b.scope.kind === "class") continue;
    const type = declaredType(nodeOf(file, def));
    if (type && !canNarrow(type.text, nodeOf(file, def).parent)) continue;
    for (const u of fb.occurrences) {
      if (u.binding !== b || u.start >= run.start || (fn && u.start < fn.startIndex) || u === def) continue;
      const narrowing = narrowingAt(ctx, file.tree.rootNode.descendantForIndex(u.start, u.end));
      if (!narrowing) continue;
      const line = at(ctx, narrowing.startIndex);
      throw new RecoverableError(
        "types_required",
        `Cannot extract ${ctx.where}: they read "${o.name}", which line ${line} (\`${
          narrowing.text.split("\n")[0]!.slice(0, 60)
        }\`) tests or assigns before them, where TypeScript narrows its type; the new function would see it ${
          type ? `as its declared \`${type.text}\`` : "with its declared type"
        }`,
        {
          hint:
            `Include line ${line} in the range, or copy "${o.name}" into a local before the range (\`const x = ${o.name};\`) so it is passed in with the narrowed type`,
          details: details(ctx, { name: o.name, line }),
        },
      );
    }
  }
}

/** Whether the class around `offset` declares the member with a type that can narrow (or not at all). */
function memberCanNarrow(ctx: Context, name: string, offset: number): boolean {
  const def = ctx.fb.occurrences.find((o) =>
    o.kind === "member_definition" && o.name === name && o.scope.start <= offset && offset < o.scope.end
  );
  if (!def) return true; // inherited or declared elsewhere: its type is not known here
  const field = ctx.file.tree.rootNode.descendantForIndex(def.start, def.end)?.parent ?? null;
  if (field?.type !== "public_field_definition") return false; // a method
  const type = field.childForFieldName("type");
  return type ? canNarrow(type.text, field) : true;
}
