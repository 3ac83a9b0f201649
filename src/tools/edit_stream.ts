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
import type { Stage } from "../fs/stage.ts";
import type { DispatchOptions } from "./dispatch.ts";
import type { ToolResult } from "./types.ts";

/** The tools an edit stream can feed: the ones that take model-written text. */
export const STREAM_TOOLS = [
  "apply_edits",
  "apply_patch",
  "edit_file",
  "str_replace_based_edit_tool",
  "str_replace_editor",
] as const;

/** A tool an edit stream can feed. */
export type StreamTool = typeof STREAM_TOOLS[number];

/** A refusal as a stream event carries it: the same payload the whole call's error gives. */
export interface StreamRefusal {
  /** The error code (`no_match`, `ambiguous`, `already_applied`, `stale_base`, `invalid_args` …). */
  code: string;
  /** What went wrong, where. */
  message: string;
  /** What to do next. */
  hint: string;
  /** Closest lines, candidates and other details, as the whole call reports them. */
  details?: Record<string, unknown>;
}

/** One event of an edit stream, delivered as soon as it is decided. */
export type StreamEvent =
  | {
    /** A file operation's header was read (a path line, `--- a/x`/`+++ b/x`, `*** Update File: x`). */
    type: "file";
    /** The file, as written. */
    path: string;
    /** What the operation does. */
    op: "edit" | "create" | "delete";
    /** 1-based line of the edit text. */
    input_line: number;
  }
  | {
    /** A block's search text closed and was placed in the file (as earlier blocks left it). */
    type: "placed";
    /** 1-based block number, as the final result's `data.blocks` numbers it. */
    block: number;
    /** The file. */
    path: string;
    /** 1-based inclusive lines it matched. */
    lines: { start: number; end: number };
    /** The tier of the matching ladder that placed it. */
    tier: string;
    /** 1-based line of the edit text where the block starts. */
    input_line: number;
  }
  | {
    /** A block's search text closed and cannot be placed: the whole call would refuse it the same way. */
    type: "refused";
    /** 1-based block number. */
    block: number;
    /** The file. */
    path: string;
    /** 1-based line of the edit text where the block starts. */
    input_line: number;
    /** The refusal. */
    error: StreamRefusal;
  }
  | {
    /** A placed block's replacement closed: the change it makes. */
    type: "replaced";
    /** 1-based block number. */
    block: number;
    /** The file. */
    path: string;
    /** A unified diff of this block's change alone. */
    diff: string;
  }
  | {
    /** The edit text itself cannot be parsed (a malformed block, an unknown format). */
    type: "parse_error";
    /** The refusal the whole call would give. */
    error: StreamRefusal;
  }
  | {
    /** The stream stopped early (`stop_on_refusal`): the generation can be cancelled; `end()` gives the result. */
    type: "stopped";
    /** Why. */
    reason: "refusal" | "parse_error" | "aborted";
    /** The block that stopped it, if one did. */
    block?: number;
  }
  | {
    /** The final result, the same object `end()` resolves to. */
    type: "result";
    /** The dispatch result. */
    result: ToolResult;
  };

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
const TEXT_ARGUMENT: Readonly<Record<StreamTool, string | null>> = {
  apply_edits: "text",
  apply_patch: "input",
  edit_file: null,
  str_replace_based_edit_tool: null,
  str_replace_editor: null,
};

/**
 * Open an edit stream. This first version buffers the text and decides
 * everything at `end()`; the events between are the incremental parser's job.
 *
 * @param host The workspace's call and a read-only stage.
 * @param options The tool, its other arguments, and the stream's policy.
 * @returns The open stream.
 */
export function openEditStream(host: EditStreamHost, options: EditStreamOptions): EditStream {
  return new BufferedEditStream(host, options);
}

/** A queue of events read by one async iterator. */
class EventQueue {
  #items: StreamEvent[] = [];
  #waiting: ((r: IteratorResult<StreamEvent>) => void) | null = null;
  #closed = false;

  push(event: StreamEvent): void {
    if (this.#closed) return;
    if (this.#waiting) {
      const wake = this.#waiting;
      this.#waiting = null;
      wake({ value: event, done: false });
    } else this.#items.push(event);
  }

  close(): void {
    this.#closed = true;
    if (this.#waiting) this.#waiting({ value: undefined, done: true });
    this.#waiting = null;
  }

  async *iterate(): AsyncIterableIterator<StreamEvent> {
    while (true) {
      const next = this.#items.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.#closed) return;
      const r = await new Promise<IteratorResult<StreamEvent>>((resolve) => this.#waiting = resolve);
      if (r.done) return;
      yield r.value;
    }
  }
}

class BufferedEditStream implements EditStream {
  #host: EditStreamHost;
  #options: EditStreamOptions;
  #text = "";
  #queue = new EventQueue();
  #ended: Promise<ToolResult> | null = null;
  #aborted: string | null = null;

  constructor(host: EditStreamHost, options: EditStreamOptions) {
    this.#host = host;
    this.#options = options;
  }

  get stopped(): boolean {
    return this.#aborted !== null;
  }

  write(chunk: string): Promise<void> {
    if (this.#ended === null && this.#aborted === null) this.#text += chunk;
    return Promise.resolve();
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
  }

  async #finish(): Promise<ToolResult> {
    const { tool } = this.#options;
    const args = this.#aborted === null ? this.#arguments() : null;
    const result: ToolResult = this.#aborted !== null
      ? refusal(
        tool,
        `The ${tool} stream was aborted before it ended (${this.#aborted}); nothing was written`,
        "Send the whole edit again, as one call or a new stream",
      )
      : args === null
      ? refusal(
        tool,
        `The ${tool} stream's text is not a JSON object of arguments; nothing was written`,
        `Stream the arguments object as the model writes it, e.g. {"path": "a.ts", "old_text": "…", "new_text": "…"}`,
      )
      : await this.#host.call(tool, args, this.#options.dispatch);
    this.#emit({ type: "result", result });
    this.#queue.close();
    return result;
  }

  /** The whole call's arguments, or null when streamed JSON arguments do not parse to an object. */
  #arguments(): Record<string, unknown> | null {
    const { tool, args = {} } = this.#options;
    const field = TEXT_ARGUMENT[tool];
    if (field !== null) return { ...args, [field]: this.#text };
    try {
      const parsed = JSON.parse(this.#text);
      return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? { ...args, ...parsed } : null;
    } catch {
      return null;
    }
  }
}

/** A refused stream that never reached dispatch. */
function refusal(tool: string, message: string, hint: string): ToolResult {
  return { ok: false, tool, error: { code: "invalid_args", message, hint }, reminders: [] };
}
