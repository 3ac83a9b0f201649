/**
 * The read ledger and its edit guard, the same in every runtime: a session's
 * partial read blocks an edit below it with the unread lines' content, the
 * identical retry lands, a change made outside the session keeps the seen
 * lines (shifted), the ledger survives a JSON round trip, and a capped read
 * names the definitions it left out.
 *
 * @module
 */
import { createWorkspace } from "../../../src/mod.ts";
import { check, equal } from "../assert.ts";
import type { Case } from "../types.ts";
import { refused, succeeded } from "./_calls.ts";

const enc = new TextEncoder();

/** A TypeScript file of 40 functions, 3 lines each. */
const SOURCE = Array.from(
  { length: 40 },
  (_, i) => `export function f${i}(x: number): number {\n  return x + ${i};\n}\n`,
)
  .join("");

/** Read-guard cases. */
export const READ_GUARD_CASES: Case[] = [
  {
    name: "read_guard.partial_read_blocks_then_retry_lands",
    async run(ctx) {
      const backend = ctx.backend({ "/g/a.ts": SOURCE });
      const ws = await createWorkspace({ backend, root: "/g", grammars: ctx.grammars });
      const s = { session: "agent" };
      succeeded(await ws.call("read_file", { path: "a.ts", start_line: 1, end_line: 30 }, s), "read");
      const edit = { path: "a.ts", old_text: "  return x + 20;", new_text: "  return x + 2000;" };
      const blocked = refused(await ws.call("edit_file", edit, s), "unread_range");
      const unread = (blocked.error.details?.["unread"] as Record<string, unknown>[])[0]!;
      equal(unread["content"], "62\t  return x + 20;", "auto-expanded content");
      const landed = succeeded(await ws.call("edit_file", edit, s), "applied");
      // Without a session the same kind of edit is not guarded.
      succeeded(
        await ws.call("edit_file", { path: "a.ts", old_text: "x + 39;", new_text: "x + 3900;" }),
        "applied",
      );
      // Someone else inserts two lines at the top: what was seen survives, shifted.
      const current = await backend.readFile("/g/a.ts");
      const text = typeof current === "string" ? current : new TextDecoder().decode(current);
      await backend.writeFile("/g/a.ts", enc.encode("// one\n// two\n" + text));
      const stale = succeeded(
        await ws.call("edit_file", { path: "a.ts", old_text: "x + 1;", new_text: "x + 100;" }, s),
        "applied",
      );
      check(
        /You last saw "a\.ts" 1 call ago; it has changed since/.test(stale.warnings.join("\n")),
        "stale warning",
      );
      const data = JSON.parse(JSON.stringify(ws.exportSession("agent")));
      const other = await createWorkspace({ backend, root: "/g", grammars: ctx.grammars });
      other.importSession("agent", data);
      equal(other.exportSession("agent"), data, "ledger after a JSON round trip");
      return {
        message: blocked.error.message,
        diff: landed.changes[0]!.diff,
        ledger: data.files["a.ts"].seen,
      };
    },
  },
  {
    name: "read_guard.capped_read_names_unseen_definitions",
    async run(ctx) {
      const backend = ctx.backend({ "/g/a.ts": SOURCE });
      const ws = await createWorkspace({
        backend,
        root: "/g",
        grammars: ctx.grammars,
        readBudget: { tokens: 200 },
      });
      const read = succeeded(await ws.call("read_file", { path: "a.ts" }, { session: "agent" }), "read");
      const notice = String(read.data["notice"]);
      check(notice.startsWith(`[Lines ${Number(read.data["end_line"]) + 1}–120 not shown`), notice);
      return { end_line: read.data["end_line"], notice, seen: ws.exportSession("agent").files["a.ts"]?.seen };
    },
  },
];
