/**
 * An edit stream: a model's edit text fed in chunks as its tokens arrive,
 * each block placed (or refused) as soon as it closes, and the whole edit
 * committed all or nothing at `end()` through the same dispatch as the
 * one-shot call — so the final result is the one the non-streaming call gives
 * for the same text. Nothing is written before `end()`.
 *
 * The surfaces build on this one object: HTTP `POST /v1/stream/:tool`, MCP
 * progress notifications, `graver apply - --stream`, the playground's replay.
 *
 * @module
 */
import type { ErrorCode } from "../errors.ts";
import type { Stage } from "../fs/stage.ts";
import type { DispatchOptions } from "./dispatch.ts";
import type { ToolResult } from "./types.ts";
import { lazyEngine } from "./_lazy.ts";
import { MAX_EDIT_TEXT } from "./apply_edits.ts";
import { EventQueue } from "./_stream_queue.ts";
import type { Placer } from "./_stream_place.ts";
import {
  reportEvent,
  type ReportLike,
  sameDecision,
  STREAM_TOOLS,
  type StreamEvent,
  type StreamRefusal,
  type StreamTool,
} from "./_stream_events.ts";
export { STREAM_TOOLS };
export type { StreamEvent, StreamRefusal, StreamTool };

/** Options of an edit stream. */
export interface EditStreamOptions {
  /** The tool the text is for. */
  tool: StreamTool;
  /**
   * The tool's other arguments (`partial`, `fuzzy`, `expected_versions`, `format`, `dry_run` …). For
   * `apply_edits`/`apply_patch` the streamed text is the `text`/`input` argument; for `edit_file` and the
   * text editor (`command: "str_replace"`) the streamed text is the JSON of the whole arguments object, as function-calling APIs
   * stream it, and `args` is merged under it.
   */
  args?: Record<string, unknown>;
  /** Session and dry run, as for `Workspace.call`. */
  dispatch?: DispatchOptions;
  /** End the stream at the first refused block or parse error (a `stopped` event); default false. */
  stopOnRefusal?: boolean;
  /** Called with each event as it is decided (besides {@linkcode EditStream.events}). */
  onEvent?: (event: StreamEvent) => void;
}

/** What an edit stream needs of its workspace: one dispatch call, and a stage to read files through. */
export interface EditStreamHost {
  /** Run the whole call through dispatch (the workspace's queued `call`). */
  call(tool: string, args: unknown, options?: DispatchOptions): Promise<ToolResult>;
  /** A fresh read-only view of the files (never committed) to place blocks against. */
  openStage(): Stage;
  /** Whether the fuzzy tier may place a block when the arguments do not say (the workspace's `fuzzy`; default false). */
  fuzzy?: boolean;
}

/** An open edit stream. */
export interface EditStream {
  /** Feed the next chunk of the model's text. Resolves once the events it decides are delivered. */
  write(chunk: string): Promise<void>;
  /** Finish: run the whole call through dispatch and give its one result (also sent as a `result` event). */
  end(): Promise<ToolResult>;
  /** Give up without writing anything: `end()` then refuses the call, and `events()` ends. */
  abort(reason?: string): void;
  /** Whether the stream stopped early (`stop_on_refusal` hit, or aborted). */
  readonly stopped: boolean;
  /** The events, in order, until the `result` event. */
  events(): AsyncIterableIterator<StreamEvent>;
}

/** The argument a text-taking tool's streamed text fills; null: the text is the JSON of all arguments. */
export const TEXT_ARGUMENT: Readonly<Record<StreamTool, string | null>> = {
  apply_edits: "text",
  apply_patch: "input",
  edit_file: null,
  str_replace_based_edit_tool: null,
  str_replace_editor: null,
};

/** The placement of streamed text, loaded on a stream's first write with the text engine it runs. */
const placementEngine = lazyEngine("the edit stream's placement", () => import("./_stream_place.ts"));

/**
 * Open an edit stream: each chunk is parsed as it comes (only its incomplete last line is carried), each block
 * placed on a stage of its own when its search side closes and applied there when it closes, each decision an
 * event; `end()` runs the whole text through `host.call`, so the result is the one-shot call's.
 *
 * With `stopOnRefusal`, the first `refused` or `parse_error` event is followed by `stopped`; later writes are
 * ignored and `end()` refuses without dispatching: the refusal of the block that stopped it (its code, hint and
 * details), its message saying where the stream stopped. Nothing is written.
 *
 * @param host The workspace's call and a read-only stage.
 * @param options The tool, its other arguments, and the stream's policy.
 * @returns The open stream.
 *
 * @example A refused block stops the stream, and the harness can cancel the generation
 * ```ts
 * import { createMemoryBackend, createWorkspace } from "@graver/core";
 * import assert from "node:assert/strict";
 *
 * const ws = await createWorkspace({ backend: createMemoryBackend({ "a.txt": "one\ntwo\n" }) });
 * const stream = ws.stream({ tool: "apply_edits", stopOnRefusal: true });
 * await stream.write("a.txt\n<<<<<<< SEARCH\nthree\n=======\n3\n>>>>>>> REPLACE\n");
 * assert.equal(stream.stopped, true);
 * const result = await stream.end();
 * assert.equal(!result.ok && result.error.code, "no_match");
 * ```
 */
export function openEditStream(host: EditStreamHost, options: EditStreamOptions): EditStream {
  return new LiveEditStream(host, options);
}

/** Why a stream stopped: the `stopped` event. */
type Stop = StreamEvent & { type: "stopped" };

class LiveEditStream implements EditStream {
  #host: EditStreamHost;
  #options: EditStreamOptions;
  #chunks: string[] = [];
  /** Characters written so far. */
  #length = 0;
  #queue = new EventQueue<StreamEvent>();
  #ended: Promise<ToolResult> | null = null;
  #aborted: string | null = null;
  #stop: Stop | null = null;
  /** The input line of the block that stopped the stream. */
  #stopLine: number | undefined;
  /** end() was called and the writes are placed: the text is complete. */
  #ending = false;
  /** The writes, placed one after another. */
  #chain: Promise<void> = Promise.resolve();
  #placer: Placer | null = null;
  /** Placement failed on a bug: the stream goes on without events (the call still decides at the end). */
  #blind = false;

  constructor(host: EditStreamHost, options: EditStreamOptions) {
    this.#host = host;
    this.#options = options;
  }

  get stopped(): boolean {
    return this.#aborted !== null || this.#stop !== null;
  }

  write(chunk: string): Promise<void> {
    if (this.#ended !== null || this.stopped) return this.#chain;
    this.#length += chunk.length;
    if (this.#options.tool === "apply_edits" && this.#length > MAX_EDIT_TEXT) {
      this.#overLimit();
      return this.#chain;
    }
    this.#chunks.push(chunk);
    this.#chain = this.#chain.then(() => this.#place(chunk));
    return this.#chain;
  }

  /**
   * The text grew past what the whole call accepts: stop reading it (whatever `stopOnRefusal` says), so a
   * generation that will be refused holds no more memory; `end()` refuses it as the whole call would.
   */
  #overLimit(): void {
    this.#chunks = [];
    this.#stopWith({
      type: "stopped",
      reason: "limit_exceeded",
      error: {
        code: "limit_exceeded",
        message: `the text is over ${MAX_EDIT_TEXT} characters, the limit of one apply_edits call`,
        hint: "Split the edits into several apply_edits calls, or replace whole files with write_file",
      },
    });
  }

  abort(reason = "aborted by the caller"): void {
    if (this.#aborted !== null || this.#ended !== null) return;
    this.#aborted = reason;
    this.#emit({ type: "stopped", reason: "aborted" });
  }

  end(): Promise<ToolResult> {
    this.#ended ??= this.#finish();
    return this.#ended;
  }

  events(): AsyncIterableIterator<StreamEvent> {
    return this.#queue.iterate();
  }

  #emit(event: StreamEvent): void {
    this.#options.onEvent?.(event);
    this.#queue.push(event);
    // A decision made once the text is complete (at end()) stops nothing: the call decides the result.
    if (!this.#options.stopOnRefusal || this.stopped || this.#ending) return;
    if (event.type === "refused") {
      this.#stopWith(
        { type: "stopped", reason: "refusal", block: event.block, error: event.error },
        event.input_line,
      );
    } else if (event.type === "parse_error") {
      this.#stopWith({ type: "stopped", reason: "parse_error", error: event.error });
    }
  }

  #stopWith(stop: Stop, inputLine?: number): void {
    this.#stop = stop;
    this.#stopLine = inputLine;
    this.#emit(stop);
  }

  async #place(chunk: string): Promise<void> {
    if (this.stopped || this.#blind) return;
    try {
      this.#placer ??= await this.#openPlacer();
      await this.#placer.write(chunk);
    } catch {
      // A bug in placement must not lose the edit: the call at end() still decides (and reports) it.
      this.#blind = true;
    }
  }

  /** The text is complete: the placer reports a parse error only the end shows. */
  #closePlacer(): void {
    if (this.stopped || this.#blind) return;
    try {
      this.#placer?.end();
    } catch {
      this.#blind = true; // as in #place: the call still decides
    }
  }

  async #openPlacer(): Promise<Placer> {
    const { openPlacer } = await placementEngine();
    return openPlacer({
      stage: this.#host.openStage(),
      tool: this.#options.tool,
      args: this.#options.args ?? {},
      fuzzy: this.#host.fuzzy ?? false,
      emit: (event) => this.#emit(event),
      stopped: () => this.stopped,
    });
  }

  async #finish(): Promise<ToolResult> {
    await this.#chain;
    this.#ending = true;
    try {
      this.#closePlacer();
      const result = await this.#result();
      if (!this.stopped) this.#decideRest(result);
      this.#emit({ type: "result", result });
      return result;
    } finally {
      // The readers of events() end even when the call itself throws.
      this.#queue.close();
    }
  }

  async #result(): Promise<ToolResult> {
    const { tool } = this.#options;
    if (this.#aborted !== null) {
      return refusal(tool, {
        code: "invalid_args",
        message: `The ${tool} stream was aborted before it ended (${this.#aborted}); nothing was written`,
        hint: "Send the whole edit again, as one call or a new stream",
      });
    }
    if (this.#stop !== null) return stoppedRefusal(tool, { stop: this.#stop, inputLine: this.#stopLine });
    const args = this.#arguments();
    if (args === null) {
      return refusal(tool, {
        code: "invalid_args",
        message: `The ${tool} stream's text is not a JSON object of arguments; nothing was written`,
        hint:
          `Stream the arguments object as the model writes it, e.g. {"path": "a.ts", "old_text": "…", "new_text": "…"}`,
      });
    }
    return await this.#host.call(tool, args, this.#options.dispatch);
  }

  /**
   * The blocks the stream left undecided, or decided only on their search side (those that closed only when the
   * text ended): their decisions from the result's block reports, which the call made on the same text, so none
   * is placed twice.
   */
  #decideRest(result: ToolResult): void {
    const decided = this.#placer?.decided ?? new Map();
    const data = result.ok ? result.data : undefined;
    const blocks = data?.["blocks"] ?? (data?.["block"] ? [data["block"]] : undefined) ??
      (result.ok ? undefined : result.error.details?.["blocks"]);
    if (!Array.isArray(blocks)) return;
    for (const report of blocks as ReportLike[]) {
      const event = reportEvent(report);
      if (!sameDecision(decided.get(report.block), event)) this.#emit(event);
    }
  }

  /** The whole call's arguments, or null when streamed JSON arguments do not parse to an object. */
  #arguments(): Record<string, unknown> | null {
    const { tool, args = {} } = this.#options;
    const text = this.#chunks.join("");
    const field = TEXT_ARGUMENT[tool];
    if (field !== null) return { ...args, [field]: text };
    try {
      const parsed = JSON.parse(text);
      return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? { ...args, ...parsed } : null;
    } catch {
      return null;
    }
  }
}

/** A refused stream that never reached dispatch. */
function refusal(tool: string, error: StreamRefusal): ToolResult {
  return { ok: false, tool, error: { ...error, code: error.code as ErrorCode }, reminders: [] };
}

/**
 * The refusal of a stream stopped at a refused block or a parse error: that refusal's code, hint and details,
 * its message saying where the stream stopped (nothing was written, the text after it was not read).
 */
function stoppedRefusal(tool: string, at: { stop: Stop; inputLine: number | undefined }): ToolResult {
  const { stop, inputLine } = at;
  const error = stop.error ?? { code: "internal", message: "The stream stopped", hint: "" };
  const parseLine = error.details?.["input_line"];
  const where = stop.block !== undefined
    ? `at block ${stop.block}${inputLine === undefined ? "" : ` (input line ${inputLine})`}`
    : stop.reason === "limit_exceeded"
    ? "at its size limit"
    : typeof parseLine === "number"
    ? `at a parse error (input line ${parseLine})`
    : "at a parse error";
  const details: Record<string, unknown> = {
    ...(error.details ?? {}),
    stopped: { reason: stop.reason, ...(stop.block === undefined ? {} : { block: stop.block }) },
  };
  return refusal(tool, {
    code: error.code,
    message: `The ${tool} stream stopped ${where}, so nothing was written: ${error.message}`,
    hint: `${
      error.hint.replace(/[.\s]*$/, "")
    }. Then send the whole edit again (the text after the stop was not read)`,
    details,
  });
}
