/**
 * Placing a streamed edit as it arrives (private; an edit stream loads it on its first write, so opening a
 * workspace evaluates no text engine). Model text (`apply_edits`, `apply_patch`) goes through the incremental
 * parser into an {@linkcode EditRun} on a stage that is never committed: each block is probed when its search
 * side closes and applied when it closes, and its report becomes a `placed`/`refused` event (then `replaced`).
 * Streamed JSON arguments (`edit_file`, the text editor's `str_replace`) are scanned for their top-level fields:
 * the old text is probed as soon as its string closes, and the replacement decided when the new text closes.
 *
 * @module
 */
import { isRecoverable, type RecoverableError } from "../errors.ts";
import type { Stage } from "../fs/stage.ts";
import { EditRun } from "../text/apply_edit_ops.ts";
import { strReplace, type StrReplaceArgs } from "../text/str_replace.ts";
import { EditStreamParser } from "../text/stream_parse.ts";
import type { EditBlock, EditFormat, FileOp } from "../text/types.ts";
import {
  type BlockDecision,
  reportEvent,
  sameDecision,
  type StreamEvent,
  type StreamRefusal,
  type StreamTool,
} from "./_stream_events.ts";
import { JsonFieldScanner } from "./_stream_json.ts";

/** What a placer works with: a stage of its own, the call's arguments, and where its events go. */
export interface PlacerContext {
  /** A stage never committed (blocks are applied to it to place the later ones). */
  stage: Stage;
  /** The tool. */
  tool: StreamTool;
  /** The tool's arguments given when the stream opened (the streamed text aside). */
  args: Record<string, unknown>;
  /** Whether the fuzzy tier may place when the arguments do not say. */
  fuzzy: boolean;
  /** Deliver an event. */
  emit(event: StreamEvent): void;
  /** Whether the stream stopped (later events are not wanted). */
  stopped(): boolean;
}

/** A placer: fed the stream's chunks, emitting each decision as it is made. */
export interface Placer {
  /** Read and place what the chunk completes. */
  write(chunk: string): Promise<void>;
  /** The text ended: report a parse error it shows (nothing more is placed: the call itself decides the rest). */
  end(): void;
  /** The last decision emitted for each block. */
  readonly decided: ReadonlyMap<number, BlockDecision>;
}

/**
 * The placer of a tool's streamed text.
 *
 * @param ctx The stage, tool, arguments and event sink.
 * @returns The placer.
 */
export function openPlacer(ctx: PlacerContext): Placer {
  return ctx.tool === "apply_edits" || ctx.tool === "apply_patch"
    ? new BlockPlacer(ctx)
    : new StrReplacePlacer(ctx);
}

/** The payload of a recoverable error, as events carry it. */
function refusalOf(err: RecoverableError): StreamRefusal {
  const out: StreamRefusal = { code: err.code, message: err.message, hint: err.hint };
  if (err.details) out.details = err.details;
  return out;
}

/** What the parser reported, waiting to be acted on (the parser is synchronous, placement is not). */
type Action =
  | { kind: "file"; path: string; op: FileOp["kind"]; inputLine: number }
  | { kind: "search"; block: EditBlock }
  | { kind: "block"; block: EditBlock }
  | { kind: "op"; op: FileOp };

/** The placer of SEARCH/REPLACE blocks, unified diffs and `*** Begin Patch` envelopes. */
class BlockPlacer implements Placer {
  #ctx: PlacerContext;
  #run: EditRun;
  #parser: EditStreamParser;
  #actions: Action[] = [];
  #broken = false;
  /** Blocks handed to the run so far (a probe's block is the next one). */
  #delivered = 0;
  #openPath = "";
  /** The last decision event of each block. */
  #last = new Map<number, BlockDecision>();

  constructor(ctx: PlacerContext) {
    this.#ctx = ctx;
    this.#run = new EditRun(ctx.stage, {
      fuzzy: typeof ctx.args["fuzzy"] === "boolean" ? ctx.args["fuzzy"] : ctx.fuzzy,
      diffs: true,
    });
    const forced = ctx.tool === "apply_patch"
      ? "apply-patch"
      : ctx.args["format"] as EditFormat | "auto" | undefined;
    this.#parser = new EditStreamParser({
      file: (at) => this.#actions.push({ kind: "file", ...at }),
      search: (block) => this.#actions.push({ kind: "search", block }),
      block: (block) => this.#actions.push({ kind: "block", block }),
      op: (op) => this.#actions.push({ kind: "op", op }),
    }, forced === undefined ? {} : { format: forced });
  }

  get decided(): ReadonlyMap<number, BlockDecision> {
    return this.#last;
  }

  async write(chunk: string): Promise<void> {
    if (this.#broken) return;
    try {
      this.#parser.write(chunk);
    } catch (err) {
      await this.#drain();
      return this.#parseError(err);
    }
    await this.#drain();
  }

  end(): void {
    if (this.#broken) return;
    this.#actions = [];
    try {
      this.#parser.end();
    } catch (err) {
      this.#parseError(err);
    }
  }

  #parseError(err: unknown): void {
    if (!isRecoverable(err)) throw err;
    this.#broken = true;
    this.#actions = [];
    this.#ctx.emit({ type: "parse_error", error: refusalOf(err) });
  }

  async #drain(): Promise<void> {
    while (this.#actions.length > 0 && !this.#ctx.stopped()) await this.#act(this.#actions.shift()!);
  }

  async #act(action: Action): Promise<void> {
    if (action.kind === "file") return await this.#file(action);
    if (action.kind === "search") return await this.#probe(action.block);
    const from = this.#run.result.blocks.length;
    if (action.kind === "block") {
      this.#delivered++;
      await this.#run.block(action.block);
    } else if (action.op.kind === "edit") await this.#run.close(action.op);
    else {
      this.#delivered++;
      await this.#run.open(action.op);
    }
    this.#delivered = Math.max(this.#delivered, this.#run.result.blocks.length);
    this.#reportFrom(from);
  }

  async #file(at: Action & { kind: "file" }): Promise<void> {
    this.#ctx.emit({ type: "file", path: at.path, op: at.op, input_line: at.inputLine });
    if (at.op !== "edit") return;
    await this.#run.open({ kind: "edit", path: at.path, blocks: [], inputLine: at.inputLine });
    this.#openPath = await this.#ctx.stage.resolve(at.path);
  }

  /** A block's search side closed: where it goes, if that can be told before its replacement. */
  async #probe(block: EditBlock): Promise<void> {
    const probe = await this.#run.probe(block);
    if (probe === null) return;
    const common = { block: this.#delivered + 1, path: this.#openPath };
    this.#decide(
      probe.ok
        ? { type: "placed", ...common, lines: probe.lines, tier: probe.tier, input_line: block.inputLine }
        : { type: "refused", ...common, input_line: block.inputLine, error: probe.error },
    );
  }

  /** The reports the run added since `from`: each block's decision (unless already told), then its change. */
  #reportFrom(from: number): void {
    for (const report of this.#run.result.blocks.slice(from)) {
      if (this.#ctx.stopped()) return;
      this.#decide(reportEvent(report));
      const diff = report.status === "applied" ? this.#run.diffs?.get(report.block) : undefined;
      if (diff !== undefined) {
        this.#ctx.emit({ type: "replaced", block: report.block, path: report.path, diff });
      }
    }
  }

  /** Emit a block's decision, unless the same one was emitted already (at its search side). */
  #decide(event: BlockDecision): void {
    if (sameDecision(this.#last.get(event.block), event)) return;
    this.#last.set(event.block, event);
    this.#ctx.emit(event);
  }
}

/** Argument names of the old and new text and the path, per tool. */
const NAMES = {
  edit_file: {
    path: ["path", "file_path"],
    old: ["old_string", "old_str", "old_text"],
    new: ["new_string", "new_str", "new_text"],
  },
  editor: { path: ["path"], old: ["old_str"], new: ["new_str"] },
} as const;

/** Arguments that change where (or whether) a replacement lands, besides the old and new text. */
const SETTINGS = ["command", "start_line", "replace_all", "fuzzy", "expected_version", "edits"];

/**
 * The placer of streamed `edit_file` / text editor `str_replace` arguments: one replacement in one file. The old
 * text is probed when its string closes, the replacement decided when the new text closes, and decided again
 * when the object closes if an argument read after it (`start_line`, `replace_all`, `fuzzy` …) changes it; a
 * refusal such an argument could lift (`ambiguous`, a fuzzy window declined) waits for the object to close.
 */
class StrReplacePlacer implements Placer {
  #ctx: PlacerContext;
  #fields: Record<string, unknown> = {};
  #scanner: JsonFieldScanner;
  #names: { path: readonly string[]; old: readonly string[]; new: readonly string[] };
  #announced = false;
  #probed = false;
  #closed = false;
  /** The arguments the last full decision was made on. */
  #decidedOn: string | null = null;
  /** A refusal waiting for the object to close. */
  #held: BlockDecision | null = null;
  #last: BlockDecision | undefined;

  constructor(ctx: PlacerContext) {
    this.#ctx = ctx;
    this.#names = ctx.tool === "edit_file" ? NAMES.edit_file : NAMES.editor;
    this.#scanner = new JsonFieldScanner(
      (key, value) => this.#fields[key] = value,
      () => this.#closed = true,
    );
  }

  get decided(): ReadonlyMap<number, BlockDecision> {
    return new Map(this.#last ? [[1, this.#last]] : []);
  }

  async write(chunk: string): Promise<void> {
    this.#scanner.write(chunk);
    await this.#consider();
  }

  end(): void {}

  /** The field of the first name given, among the streamed fields over the arguments given at open. */
  #pick(names: readonly string[]): unknown {
    for (const n of names) if (this.#fields[n] !== undefined) return this.#fields[n];
    for (const n of names) if (this.#ctx.args[n] !== undefined) return this.#ctx.args[n];
    return undefined;
  }

  async #consider(): Promise<void> {
    if (this.#ctx.tool !== "edit_file" && this.#pick(["command"]) !== "str_replace") return;
    if (this.#pick(["edits"]) !== undefined) return;
    const path = this.#pick(this.#names.path);
    if (typeof path !== "string") return;
    if (!this.#announced) {
      this.#announced = true;
      this.#ctx.emit({ type: "file", path, op: "edit", input_line: 1 });
      await this.#warm(path);
    }
    const oldText = this.#pick(this.#names.old);
    if (typeof oldText !== "string" || oldText === "") return;
    let newText = this.#pick(this.#names.new);
    // The text editor's new_str defaults to empty: known once the object closed without it.
    if (newText === undefined && this.#closed && this.#ctx.tool !== "edit_file") newText = "";
    if (typeof newText === "string") await this.#decide({ path, oldText, newText });
    else if (!this.#probed) {
      this.#probed = true;
      await this.#place({ path, oldText, newText: "" }, { probe: true });
    }
    if (this.#closed && this.#held) {
      this.#emit(this.#held);
      this.#held = null;
    }
  }

  /**
   * Read (and hash) the file once on the stream's stage while the old text is still being written: each fork
   * of the stage then reuses the bytes and the version. A file that cannot be read is refused by the decision.
   */
  async #warm(path: string): Promise<void> {
    try {
      await this.#ctx.stage.read(await this.#ctx.stage.resolve(path));
    } catch {
      // The decision reports it, as the call would.
    }
  }

  /** Old and new text are known: the replacement as the call makes it (again, if a later argument changed it). */
  async #decide(args: { path: string; oldText: string; newText: string }): Promise<void> {
    const on = JSON.stringify([args, SETTINGS.map((k) => this.#pick([k]))]);
    if (on === this.#decidedOn) return;
    this.#decidedOn = on;
    this.#held = null;
    const change = await this.#place(args, { probe: false });
    if (change) this.#ctx.emit({ type: "replaced", block: 1, path: change.path, diff: changeDiff(change) });
  }

  /**
   * str_replace on a fork of the stage: `placed`, or `refused`. A probe (its replacement not known yet) leaves
   * `no_match` undecided (the replacement may show the edit already made); a refusal a later argument could
   * lift waits for the object to close.
   */
  async #place(
    args: { path: string; oldText: string; newText: string },
    how: { probe: boolean },
  ): Promise<{ path: string; before: string; after: string } | null> {
    const call: StrReplaceArgs = { ...args };
    if (this.#pick(["replace_all"]) === true) call.replaceAll = true;
    const startLine = this.#pick(["start_line"]);
    if (typeof startLine === "number") call.startLine = startLine;
    const fuzzy = this.#pick(["fuzzy"]);
    try {
      const rel = await this.#ctx.stage.resolve(args.path);
      await this.#ctx.stage.read(rel); // read once on the stream's stage (see #warm)
      const stage = this.#ctx.stage.fork();
      const version = this.#pick(["expected_version"]);
      await stage.checkExpected(rel, typeof version === "string" ? version : undefined);
      const done = await strReplace(stage, call, {
        fuzzy: typeof fuzzy === "boolean" ? fuzzy : this.#ctx.fuzzy,
      });
      this.#emit(reportEvent({ ...done.report, status: "applied" }));
      if (how.probe) return null;
      // Decoded without hashing: only the diff reads them.
      const before = (await this.#ctx.stage.peekText(rel))?.text ?? "";
      return { path: rel, before, after: (await stage.peekText(rel))?.text ?? "" };
    } catch (err) {
      if (!isRecoverable(err)) throw err;
      if (how.probe && err.code === "no_match") return null;
      const path = typeof err.details?.["path"] === "string" ? err.details["path"] as string : args.path;
      const event: BlockDecision = { type: "refused", block: 1, path, input_line: 1, error: refusalOf(err) };
      const liftable = err.code === "ambiguous" || err.details?.["fuzzy_declined"] === true;
      if (liftable && !this.#closed) this.#held = event;
      else this.#emit(event);
      return null;
    }
  }

  #emit(event: BlockDecision): void {
    if (sameDecision(this.#last, event)) return;
    this.#last = event;
    this.#ctx.emit(event);
  }
}

/** Lines of context around a change's diff. */
const CONTEXT = 3;

/** One change of a file as a unified diff: the lines between the common head and tail, with context. */
function changeDiff({ path, before, after }: { path: string; before: string; after: string }): string {
  const a = linesOf(before);
  const b = linesOf(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++;
  }
  const from = Math.max(0, head - CONTEXT);
  const oldEnd = a.length - tail;
  const newEnd = b.length - tail;
  const upTo = Math.min(tail, CONTEXT);
  const lines = [
    ...a.slice(from, head).map((l) => ` ${l}`),
    ...a.slice(head, oldEnd).map((l) => `-${l}`),
    ...b.slice(head, newEnd).map((l) => `+${l}`),
    ...a.slice(oldEnd, oldEnd + upTo).map((l) => ` ${l}`),
  ];
  const oldCount = head - from + (oldEnd - head) + upTo;
  const newCount = head - from + (newEnd - head) + upTo;
  return [
    `--- a/${path}`,
    `+++ b/${path}`,
    `@@ -${from + 1},${oldCount} +${from + 1},${newCount} @@`,
    ...lines,
    "",
  ]
    .join("\n");
}

/** A text's lines (a final line ending adds no empty line). */
function linesOf(text: string): string[] {
  return (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
}
