/**
 * Renderers of the playground page: highlighted code, diffs, a tool result
 * (blocks with their matching tier, refusals with their hint and suggested
 * call), checkpoints, the ledger's view, the event feed and the counters.
 * Pure functions from data (and callbacks) to elements.
 *
 * @module
 */
/// <reference lib="dom" />
import type { FileView } from "../../../src/guards/mod.ts";
import type { FeedEvent } from "../../../src/surfaces/events.ts";
import type { ToolResult } from "../../../src/mod.ts";
import type { TokenSpan } from "../highlight.ts";
import type { CounterSeries } from "../playground.ts";
import { type Child, h } from "./dom.ts";

/**
 * Code with line numbers, highlighted by spans.
 *
 * @param text The file's text.
 * @param spans Highlight spans (UTF-16 offsets), in order.
 * @param mark Lines to mark (a selected symbol), 1-based inclusive.
 * @returns One `div.line` per line inside a fragment.
 */
export function renderCode(text: string, spans: TokenSpan[], mark?: { start: number; end: number }): Node {
  const lines: HTMLElement[] = [];
  let line = newLine(1, mark);
  lines.push(line);
  const emit = (from: number, to: number, cls: string | null) => {
    const parts = text.slice(from, to).split("\n");
    parts.forEach((part, i) => {
      if (i > 0) lines.push(line = newLine(lines.length + 1, mark));
      if (part) line.append(cls ? h("span", { class: cls }, part) : part);
    });
  };
  let at = 0;
  for (const s of spans) {
    if (s.from < at) continue;
    emit(at, s.from, null);
    emit(s.from, s.to, `tok-${s.kind}`);
    at = s.to;
  }
  emit(at, text.length, null);
  // A final newline does not open a line of its own.
  if (text.endsWith("\n") && lines.length > 1) lines.pop()!.remove();
  const frag = document.createDocumentFragment();
  frag.append(...lines);
  return frag;
}

function newLine(n: number, mark?: { start: number; end: number }): HTMLElement {
  const marked = mark !== undefined && n >= mark.start && n <= mark.end;
  return h("div", { class: marked ? "line marked" : "line", "data-line": n });
}

/**
 * A unified diff, one coloured row per line.
 *
 * @param diff The diff text.
 * @returns A `pre.diff`.
 */
export function renderDiff(diff: string): HTMLElement {
  const pre = h("pre", { class: "diff" });
  for (const line of diff.replace(/\n$/, "").split("\n")) {
    const cls = line.startsWith("+++") || line.startsWith("---") || line.startsWith("diff ")
      ? "meta"
      : line.startsWith("@@")
      ? "hunk"
      : line.startsWith("+")
      ? "add"
      : line.startsWith("-")
      ? "del"
      : "ctx";
    pre.append(h("div", { class: cls }, line || " "));
  }
  return pre;
}

/** What the result pane offers besides showing a result. */
export interface ResultActions {
  /** Apply the previewed call (shown for a dry run). */
  apply?: () => void;
  /** Preview a refusal's suggested call. */
  suggest?: (tool: string, args: Record<string, unknown>) => void;
}

interface BlockReport {
  block: number;
  path?: string;
  status: string;
  tier?: string;
  confidence?: string;
  lines?: { start: number; end: number };
  error?: { code: string; message: string };
}

/**
 * One tool result: status, blocks with tiers, diffs, warnings, reminders; a
 * refusal's code, message, hint and suggested call.
 *
 * @param label What was called (e.g. "Preview apply_edits").
 * @param result The result.
 * @param actions Buttons to offer.
 * @returns The pane's content.
 */
export function renderResult(label: string, result: ToolResult, actions: ResultActions = {}): HTMLElement {
  const box = h("div", { class: `result ${result.ok ? "ok" : "refused"}`, "data-status": statusOf(result) });
  box.append(h("h3", {}, label, " — ", h("code", { class: "status" }, statusOf(result))));
  if (!result.ok) {
    const e = result.error;
    box.append(
      h("p", { class: "message" }, e.message),
      h("p", { class: "hint" }, "hint: ", e.hint),
    );
    if (e.suggested_call && actions.suggest) {
      const call = e.suggested_call;
      box.append(h(
        "button",
        {
          id: "run-suggested",
          onclick: () => actions.suggest!(call.tool, call.args as Record<string, unknown>),
        },
        `Preview the suggested call: ${call.tool}`,
      ));
    }
  }
  const blocks = (result.ok ? result.data["blocks"] : result.error.details?.["blocks"]) as
    | BlockReport[]
    | undefined;
  if (Array.isArray(blocks) && blocks.length > 0) box.append(renderBlocks(blocks));
  if (result.ok && result.status === "dry_run" && actions.apply) {
    box.append(h("button", { id: "apply-pending", class: "primary", onclick: actions.apply }, "Apply"));
  }
  if (result.ok) { for (const c of result.changes) box.append(renderDiff(c.diff)); }
  const notes: Child[] = [
    ...(result.ok ? result.warnings : []).map((w) => h("li", { class: "warning" }, w)),
    ...result.reminders.map((r) => h("li", { class: "reminder" }, h("b", {}, r.provider), ": ", r.text)),
  ];
  if (notes.length > 0) box.append(h("ul", { class: "notes" }, ...notes));
  return box;
}

function statusOf(result: ToolResult): string {
  return result.ok ? result.status : result.error.code;
}

function renderBlocks(blocks: BlockReport[]): HTMLElement {
  return h(
    "table",
    { class: "blocks" },
    h("tr", {}, h("th", {}, "block"), h("th", {}, "file"), h("th", {}, "lines"), h("th", {}, "tier")),
    ...blocks.map((b) =>
      h(
        "tr",
        { class: b.status },
        h("td", {}, b.block),
        h("td", {}, b.path ?? ""),
        h("td", {}, b.lines ? `${b.lines.start}–${b.lines.end}` : ""),
        h(
          "td",
          { class: "tier" },
          b.status === "applied" ? `${b.tier ?? "?"} (${b.confidence ?? "?"})` : b.error?.code ?? b.status,
        ),
      )
    ),
  );
}

/** One row of checkpoint_list. */
export interface CheckpointRow {
  id: string;
  message: string;
  tool: string;
  undone: boolean;
  undoes?: string;
  timestamp: number;
}

/**
 * The checkpoints, newest first, each with a restore button.
 *
 * @param rows checkpoint_list's entries.
 * @param restore Preview restoring one.
 * @returns The list items.
 */
export function renderCheckpoints(rows: CheckpointRow[], restore: (id: string) => void): Child[] {
  if (rows.length === 0) return [h("li", { class: "empty" }, "No checkpoints yet: apply an edit")];
  return rows.map((c) =>
    h(
      "li",
      { class: c.undone ? "undone" : c.undoes ? "undo" : "", "data-id": c.id },
      h("code", {}, c.id.slice(0, 7)),
      " ",
      c.message,
      c.undone ? h("span", { class: "badge" }, "undone") : null,
      h("button", {
        class: "small",
        onclick: () => restore(c.id),
        title: "Preview restoring this checkpoint",
      }, "restore"),
    )
  );
}

/**
 * The ledger's view of one file.
 *
 * @param view From `Playground.ledgerView`.
 * @returns A definition list.
 */
export function renderLedger(view: FileView): HTMLElement {
  const ranges = (rs: { start: number; end: number }[]) =>
    rs.length ? rs.map((r) => r.start === r.end ? `${r.start}` : `${r.start}–${r.end}`).join(", ") : "none";
  return h(
    "dl",
    { class: "ledger" },
    h("dt", {}, "file"),
    h("dd", {}, view.path),
    h("dt", {}, "state"),
    h("dd", {}, h("span", { class: `state ${view.state}`, id: "ledger-state" }, view.state)),
    h("dt", {}, "lines seen"),
    h("dd", {}, `${ranges(view.seen)} of ${view.total_lines}`),
    h("dt", {}, "evicted"),
    h("dd", {}, ranges(view.evicted)),
    h("dt", {}, "outlined"),
    h("dd", {}, view.outlined ? "yes" : "no"),
    h("dt", {}, "calls since seen"),
    h("dd", {}, view.calls_since_seen),
    h("dt", {}, "version"),
    h("dd", {}, view.version ? h("code", {}, view.version.slice(0, 12)) : "—"),
  );
}

/** Attributes worth a glance in the feed, in this order. */
const FEED_KEYS = [
  "tool",
  "code",
  "action",
  "originalTool",
  "targetTool",
  "routedTool",
  "path",
  "reason",
  "outcome",
  "files",
  "mode",
];

/**
 * The event feed, newest first.
 *
 * @param events The hub's events, oldest first.
 * @returns The list items.
 */
export function renderFeed(events: readonly FeedEvent[]): Child[] {
  if (events.length === 0) return [h("li", { class: "empty" }, "No events yet")];
  return [...events].reverse().slice(0, 60).map((e) => {
    const attrs = FEED_KEYS.filter((k) => e.attributes[k] !== undefined).map((k) =>
      `${k}=${e.attributes[k]}`
    );
    return h(
      "li",
      { class: e.name.replace(/\./g, "-") },
      h("time", {}, new Date(e.time).toLocaleTimeString()),
      " ",
      h("b", {}, e.name),
      " ",
      attrs.join(" "),
    );
  });
}

/**
 * The counters: one row per series.
 *
 * @param series The counter book's series.
 * @returns Table rows.
 */
export function renderCounters(series: CounterSeries[]): Child[] {
  const interesting = series.filter((s) => !s.name.startsWith("graver.tool.calls") || s.value > 0);
  return [
    h("tr", {}, h("th", {}, "counter"), h("th", {}, "attributes"), h("th", {}, "value")),
    ...interesting.map((s) =>
      h(
        "tr",
        { "data-name": s.name },
        h("td", {}, s.name),
        h("td", {}, Object.entries(s.attributes).map(([k, v]) => `${k}=${v}`).join(" ")),
        h("td", { class: "num" }, s.value),
      )
    ),
  ];
}
