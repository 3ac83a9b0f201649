/**
 * The "Replay as a stream" control: it types a sample model response into
 * the response pane a few characters at a time, as a model's tokens arrive,
 * and feeds each piece to an edit stream (`Playground.streamApply`, over
 * `ws.stream`). Each block shows up in the status list as soon as it is
 * decided (placed or refused), its lines are highlighted in the code view
 * when its file is open, and the commit (or the refusal) comes when the
 * typing ends.
 *
 * @module
 */
/// <reference lib="dom" />
import type { StreamEvent, ToolResult } from "../../../src/mod.ts";
import { describeStreamEvent, isRefusalEvent, type TextSource } from "../../../src/surfaces/stream_feed.ts";
import type { Playground } from "../playground.ts";
import { STREAM_RESPONSE, STREAM_RESPONSE_FRESH } from "../sample.ts";
import { byId, fill, h } from "./dom.ts";

/** Characters typed per tick, and the pause between ticks (ms): roughly a fast model's pace. */
const TYPING = { chars: 4, delayMs: 20 };

/** What the replay needs of the page's controller. */
export interface ReplayHost {
  /** Run one UI action at a time. */
  run(fn: () => Promise<void>): void;
  /** Open a file in the code view (a read_file of the session). */
  open(path: string): Promise<void>;
  /** Show a result in the result pane. */
  show(label: string, result: ToolResult): void;
  /** Re-read everything shown. */
  refresh(): Promise<void>;
}

/**
 * A text typed into a textarea piece by piece: each `read` waits a tick, appends the next few characters
 * to the pane and returns them.
 */
function typedSource(text: string, pane: HTMLTextAreaElement): TextSource {
  let at = 0;
  return {
    async read() {
      if (at >= text.length) return null;
      await new Promise((r) => setTimeout(r, TYPING.delayMs));
      const piece = text.slice(at, at + TYPING.chars);
      at += piece.length;
      pane.value += piece;
      pane.scrollTop = pane.scrollHeight;
      return piece;
    },
    cancel() {
      at = text.length;
    },
  };
}

/** The paths a response's SEARCH/REPLACE blocks name (the line above each `<<<<<<< SEARCH`). */
function blockPaths(text: string): string[] {
  const lines = text.split("\n");
  const paths = lines.flatMap((line, i) =>
    line.startsWith("<<<<<<< SEARCH") ? [lines[i - 1]?.trim() ?? ""] : []
  );
  return [...new Set(paths.filter((p) => p !== ""))];
}

/** Highlight a placed (or refused) block's lines in the code view, when its file is the open one. */
function markLines(event: StreamEvent): void {
  if (event.type !== "placed") return;
  if (document.getElementById("open-path")?.textContent !== event.path) return;
  for (let n = event.lines.start; n <= event.lines.end; n++) {
    document.querySelector(`#code .line[data-line="${n}"]`)?.classList.add("streamed");
  }
}

/** The status list's item of an event. */
function statusItem(event: StreamEvent): HTMLElement {
  const state = isRefusalEvent(event) ? "refused" : event.type;
  return h(
    "li",
    {
      class: `stream-${state}`,
      "data-type": event.type,
      ...("block" in event && event.block !== undefined ? { "data-block": String(event.block) } : {}),
    },
    describeStreamEvent(event),
  );
}

/**
 * Bind the replay control (`#replay-stream`, the `#stream-stale` toggle, the `#stream-status` list).
 *
 * @param pg The playground.
 * @param host The page controller's hooks.
 */
export function bindStreamReplay(pg: Playground, host: ReplayHost): void {
  byId("replay-stream").addEventListener("click", () =>
    host.run(async () => {
      const status = byId("stream-status");
      fill(status);
      delete status.dataset["done"];
      const stale = byId<HTMLInputElement>("stream-stale").checked;
      const text = stale ? STREAM_RESPONSE : STREAM_RESPONSE_FRESH;
      // The agent read the files it edits before writing the response (the read guard judges the session).
      const paths = blockPaths(text);
      for (const path of paths.slice(1)) await pg.call("read_file", { path });
      await host.open(paths[0]!);
      const pane = byId<HTMLTextAreaElement>("response");
      pane.value = "";
      const result = await pg.streamApply(typedSource(text, pane), (event) => {
        if (event.type === "result") return;
        status.append(statusItem(event));
        status.scrollTop = status.scrollHeight;
        markLines(event);
      });
      status.append(statusItem({ type: "result", result }));
      status.scrollTop = status.scrollHeight;
      host.show("Streamed apply_edits", result);
      if (result.ok) await host.refresh();
      status.dataset["done"] = result.ok ? "applied" : result.error.code;
    }));
}
