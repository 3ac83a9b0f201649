import assert from "node:assert/strict";
import { snapshot } from "../../_helpers.ts";
import { type Files, pythonEmail, storedFiles, typeErrors } from "../structural/_module_check.ts";
import { assertReparses, ok, RXJS, textOf, workspaceOf } from "./_bindings_fixtures.ts";

const RX: Files = Object.fromEntries(Object.entries(RXJS).map(([k, v]) => [k.slice(1), v]));

Deno.test("edit_move_decl() on rxjs: popScheduler leaves util/args.ts with its imports, every importer follows, and rxjs still type-checks", async () => {
  const ws = await workspaceOf(RXJS);
  const to = "internal/util/schedulerArgs.ts";
  const res = ok(
    await ws.call("edit_move_decl", {
      path: "internal/util/args.ts",
      name_path: "popScheduler",
      to_path: to,
    }),
  );
  assert.equal(res.data["destination_created"], true);
  assert.equal(
    await textOf(ws, to),
    [
      "import { SchedulerLike } from '../types';",
      "import { isScheduler } from './isScheduler';",
      "import { last } from './args';",
      "",
      "export function popScheduler(args: any[]): SchedulerLike | undefined {",
      "  return isScheduler(last(args)) ? args.pop() : undefined;",
      "}",
      "",
    ].join("\n"),
  );
  assert.equal(
    await textOf(ws, "internal/util/args.ts"),
    [
      "import { isFunction } from './isFunction';",
      "",
      "export function last<T>(arr: T[]): T | undefined {",
      "  return arr[arr.length - 1];",
      "}",
      "",
      "export function popResultSelector(args: any[]): ((...args: unknown[]) => unknown) | undefined {",
      "  return isFunction(last(args)) ? args.pop() : undefined;",
      "}",
      "",
      "export function popNumber(args: any[], defaultValue: number): number {",
      "  return typeof last(args) === 'number' ? args.pop()! : defaultValue;",
      "}",
      "",
    ].join("\n"),
  );
  const merge = await textOf(ws, "internal/operators/merge.ts");
  assert.match(
    merge,
    /^import \{ popNumber \} from '\.\.\/util\/args';\nimport \{ popScheduler \} from '\.\.\/util\/schedulerArgs';$/m,
  );
  const referrers = res.data["referrers"] as string[];
  assert.equal(referrers.length, 9, referrers.join(", "));
  const paths = [...Object.keys(RX), to];
  const after = await storedFiles(ws, paths);
  for (const p of [...referrers, "internal/util/args.ts"]) {
    await assertReparses("typescript", RX[p]!, after[p]!, p);
  }
  // The files that changed type-check exactly as before (the moved code's diagnostics, if any, move with it).
  const changed = [...referrers, "internal/util/args.ts"];
  const messages = (list: string[]) => list.map((l) => l.slice(l.indexOf(": ") + 2)).sort();
  assert.deepEqual(
    messages(await typeErrors(after, [...changed, to])),
    messages(await typeErrors(RX, changed)),
  );
});
