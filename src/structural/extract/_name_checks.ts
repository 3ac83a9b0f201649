/**
 * The name refusals of extract function: a name declared in the statements
 * but used before them, a name that may be unbound where it is passed in or
 * returned, `arguments`, `this`/`self`/`super` outside a class method, and
 * the new name clashing where the call or the function goes.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { RecoverableError } from "../../errors.ts";
import { lookup } from "../../syntax/binding_model.ts";
import { at, type Context, details } from "./_context.ts";

/** Refuse names used before their declaration, possibly unbound, or the `arguments` object. */
export function refuseUnsafeNames(ctx: Context): void {
  refuseHoisted(ctx);
  refuseMaybeUnbound(ctx);
  const args = ctx.flow.free.find((o) => o.name === "arguments" && ctx.rules.argumentsObject);
  if (args) {
    throw new RecoverableError(
      "unresolved",
      `Cannot extract ${ctx.where}: "arguments" at line ${
        at(ctx, args.start)
      } means the enclosing function's arguments`,
      { hint: "Name the parameters you need instead of arguments, then extract", details: details(ctx) },
    );
  }
}

/** Refuse a name declared in the statements but used before them. */
function refuseHoisted(ctx: Context): void {
  const hoisted = ctx.flow.usedBefore[0];
  if (!hoisted) return;
  throw new RecoverableError(
    "invalid_args",
    `Cannot extract ${ctx.where}: "${hoisted.variable.name}" is declared there but used before, at line ${
      at(ctx, hoisted.at)
    }`,
    {
      hint: `Extend the range to line ${
        at(ctx, hoisted.at)
      }, or leave the declaration of "${hoisted.variable.name}" out of it`,
      details: details(ctx, { name: hoisted.variable.name, line: at(ctx, hoisted.at) }),
    },
  );
}

/** Refuse a name that may be unbound where it is passed in or returned. */
function refuseMaybeUnbound(ctx: Context): void {
  const { flow, where } = ctx;
  const unsure = flow.unboundBefore[0];
  if (unsure) {
    const name = unsure.variable.name;
    throw new RecoverableError(
      "unresolved",
      `Cannot extract ${where}: "${name}" would be passed in, but it is only assigned in a branch or loop before the range (line ${
        at(ctx, unsure.at)
      }), so it may be unbound where the new function is called`,
      {
        hint:
          `Give "${name}" a value before the range on every path, or extend the range over its assignment`,
        details: details(ctx, { name, line: at(ctx, unsure.at) }),
      },
    );
  }
  const unbound = flow.maybeUnbound[0];
  if (unbound) {
    const name = unbound.variable.name;
    throw new RecoverableError(
      "unresolved",
      `Cannot extract ${where}: "${name}" is not given a value on every path there and is read after it (line ${
        at(ctx, unbound.at)
      }), so the new function could not always return it`,
      {
        hint:
          `Give "${name}" a value where it is declared or before the range, extend the range over its later uses, or leave its declaration and assignments out`,
        details: details(ctx, { name, line: at(ctx, unbound.at) }),
      },
    );
  }
}

/** Refuse: the statements use `this`, `self` or `super` outside a class method. */
export function notInMethod(ctx: Context, what: string, offset: number): never {
  throw new RecoverableError(
    "unresolved",
    `Cannot extract ${ctx.where}: ${what} at line ${at(ctx, offset)} is not inside a class method`,
    {
      hint: "Extract statements that do not use it, or pass the object they need explicitly",
      details: details(ctx, { line: at(ctx, offset) }),
    },
  );
}

/** Refuse a name already visible where the call or the new function goes. */
export function checkClash(
  ctx: Context,
  placement: { kind: "function" | "method"; classNode: Node | null },
): void {
  const { fb, flow, name, where } = ctx;
  const clash = (offset: number, why: string): never => {
    const line = at(ctx, offset);
    throw new RecoverableError("name_clash", `Cannot extract ${where} as "${name}": ${why} (line ${line})`, {
      hint: "Choose another name",
      details: details(ctx, { name, line }),
    });
  };
  const visible = lookup(flow.blockScope, name);
  if (visible) {
    const decl = fb.occurrences.find((o) => o.binding === visible && o.kind === "definition");
    clash(decl?.start ?? 0, `"${name}" is already declared where the call goes`);
  }
  if (placement.kind === "method") {
    const cls = placement.classNode!;
    const member = fb.occurrences.find((o) =>
      o.name === name && o.start >= cls.startIndex && o.end <= cls.endIndex &&
      (o.kind === "member_definition" || o.kind === "member_this" ||
        (o.kind === "definition" && o.binding?.scope.kind === "class"))
    );
    if (member) clash(member.start, `the class already has a member "${name}"`);
    return;
  }
  const global = fb.occurrences.find((o) => o.name === name && o.binding === null && o.kind === "reference");
  if (global) clash(global.start, `"${name}" is used as a global name, which the new function would shadow`);
}
