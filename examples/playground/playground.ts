/**
 * The playground's model, independent of the DOM: one graver workspace over
 * a persistent backend (lightning-fs in the page), seeded with the sample
 * project, with checkpoints on, one agent session whose ledger survives a
 * reload, an event feed and a counter book. Every file operation is a tool
 * call through the workspace's one dispatch (`ws.call`); the page only adds
 * rendering (highlighting the bytes read_file returned).
 *
 * @module
 */
import type { Node, Parser } from "web-tree-sitter";
import {
  type Attributes,
  type Backend,
  BackendFs,
  createWorkspace,
  type StreamEvent,
  type TelemetrySink,
  type ToolResult,
  type WasmLoader,
  type Workspace,
} from "../../src/mod.ts";
import type { FileView } from "../../src/guards/mod.ts";
import { EventHub, type FeedEvent } from "../../src/surfaces/events.ts";
import { feedStream, type TextSource } from "../../src/surfaces/stream_feed.ts";
import { highlightSpans, type TokenSpan } from "./highlight.ts";
import { SAMPLE_FILES, SAMPLE_ROOT } from "./sample.ts";

/** Guard and compass modes the page lets the user switch. */
export interface PlaygroundSettings {
  /** The read guard (unread_range) for the session. */
  readGuard: "refuse" | "warn" | "off";
  /** The definition gate for the session. */
  gate: "refuse" | "warn" | "off";
  /** The compass router. */
  compass: "off" | "suggest" | "rewrite";
}

/** The settings a fresh playground starts with: every guard on, the compass suggesting. */
export const DEFAULT_SETTINGS: PlaygroundSettings = {
  readGuard: "refuse",
  gate: "refuse",
  compass: "suggest",
};

/** A key-value store for what survives a reload besides the files (`localStorage` in the page). */
export interface KeyValueStore {
  /** The stored string, or null. */
  getItem(key: string): string | null;
  /** Store a string. */
  setItem(key: string, value: string): void;
  /** Forget a key. */
  removeItem(key: string): void;
}

/** A backend, optionally with lightning-fs's `flush()`. */
export type PlaygroundBackend = Backend & { flush?(): Promise<void> };

/** Options of {@linkcode Playground.open}. */
export interface PlaygroundOptions {
  /** The persistent backend (one instance for the page's lifetime). */
  backend: PlaygroundBackend;
  /** Where the grammars' wasm comes from. */
  wasm: WasmLoader;
  /** Session id of the calls (default "playground"). */
  session?: string;
  /** Where the session's ledger and the settings are kept across reloads (default: nowhere). */
  store?: KeyValueStore;
}

/** One counter series: name, attributes, total. */
export interface CounterSeries {
  /** Counter name (`graver.*`). */
  name: string;
  /** Its attributes. */
  attributes: Attributes;
  /** The total. */
  value: number;
}

/** A telemetry sink that keeps every counter series, for the page's counter table. */
export class CounterBook implements TelemetrySink {
  readonly #series = new Map<string, CounterSeries>();

  /** Add to a series. */
  counter(name: string, value: number, attributes: Attributes): void {
    const key = `${name} ${JSON.stringify(Object.entries(attributes).sort(([a], [b]) => (a < b ? -1 : 1)))}`;
    const s = this.#series.get(key);
    if (s) s.value += value;
    else this.#series.set(key, { name, attributes: { ...attributes }, value });
  }

  /** Events are the feed's (the hub's), not counted here. */
  event(): void {}

  /** Every series, by name. */
  series(): CounterSeries[] {
    return [...this.#series.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}

const LEDGER_KEY = "graver-playground:ledger";
const SETTINGS_KEY = "graver-playground:settings";
/** Most events the feed keeps. */
const FEED_LIMIT = 200;

/** The playground: see the module doc. */
export class Playground {
  /** The session every call is made in. */
  readonly session: string;
  /** Live events (commits, refusals, compass decisions, guard triggers), newest last. */
  readonly feed: FeedEvent[] = [];
  /** Counter totals since the page loaded. */
  readonly counters: CounterBook = new CounterBook();
  readonly #options: PlaygroundOptions;
  readonly #hub: EventHub;
  readonly #listeners = new Set<(result: ToolResult | null) => void>();
  readonly #parsers = new Map<string, Promise<Parser>>();
  readonly #backend: PlaygroundBackend;
  #ws: Workspace | null = null;
  #settings: PlaygroundSettings;

  private constructor(options: PlaygroundOptions) {
    this.#options = options;
    this.#backend = options.backend;
    this.session = options.session ?? "playground";
    this.#settings = { ...DEFAULT_SETTINGS, ...readJson(options.store, SETTINGS_KEY) };
    this.#hub = new EventHub({ forward: this.counters });
    this.#hub.subscribe((e) => {
      this.feed.push(e);
      if (this.feed.length > FEED_LIMIT) this.feed.splice(0, this.feed.length - FEED_LIMIT);
    });
  }

  /**
   * Open the playground: the backend, the sample project when the root is
   * absent, then the workspace (with the session's saved ledger).
   *
   * @param options Backend, wasm, session, store.
   * @returns The open playground.
   */
  static async open(options: PlaygroundOptions): Promise<Playground> {
    const pg = new Playground(options);
    await pg.#seed();
    await pg.#openWorkspace();
    return pg;
  }

  /** The open workspace. */
  get workspace(): Workspace {
    if (!this.#ws) throw new Error("Cannot use the playground: it is not open");
    return this.#ws;
  }

  /** The current guard and compass settings. */
  get settings(): PlaygroundSettings {
    return { ...this.#settings };
  }

  /**
   * Be told after every call (with its result) and every reset (null).
   *
   * @param listener The callback.
   * @returns A function that stops it.
   */
  onChange(listener: (result: ToolResult | null) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * One tool call in the playground's session, through `ws.call`, and the
   * session's ledger saved. (An applied commit is already in IndexedDB: the
   * commit flushes lightning-fs before it answers.)
   *
   * @param tool Tool name.
   * @param args Its arguments.
   * @param options `dryRun`: preview only.
   * @returns The result.
   */
  async call(
    tool: string,
    args: Record<string, unknown>,
    options: { dryRun?: boolean } = {},
  ): Promise<ToolResult> {
    const result = await this.workspace.call(tool, args, {
      session: this.session,
      ...(options.dryRun ? { dryRun: true } : {}),
    });
    this.#options.store?.setItem(LEDGER_KEY, JSON.stringify(this.workspace.exportSession(this.session)));
    for (const l of this.#listeners) l(result);
    return result;
  }

  /**
   * Stream a model's response into `apply_edits` in the session (`ws.stream`), as it arrives from `source`:
   * each event goes to `onEvent` as it is decided, and the edit is committed all or nothing once the source
   * ends — the path the served surfaces take (`feedStream`).
   *
   * @param source Where the response's text comes from, piece by piece.
   * @param onEvent Called with each event as it is decided.
   * @returns The result, as a call's.
   */
  async streamApply(source: TextSource, onEvent: (event: StreamEvent) => void): Promise<ToolResult> {
    const stream = this.workspace.stream({
      tool: "apply_edits",
      dispatch: { session: this.session },
      onEvent,
    });
    const result = await feedStream(stream, source);
    this.#options.store?.setItem(LEDGER_KEY, JSON.stringify(this.workspace.exportSession(this.session)));
    for (const l of this.#listeners) l(result);
    return result;
  }

  /**
   * What the session's ledger says about a file (read guard state).
   *
   * @param path Relative path.
   * @returns The ledger's view.
   */
  ledgerView(path: string): FileView {
    return this.workspace.ledger(this.session).view(path);
  }

  /**
   * Highlight text read from a file (the bytes read_file returned), by the file's grammar.
   *
   * @param language Language id (read_file's `data.language`), or null.
   * @param text The text.
   * @returns The spans (none without a grammar).
   */
  async highlight(language: string | null, text: string): Promise<TokenSpan[]> {
    const grammars = this.workspace.grammars;
    if (!language || !grammars) return [];
    let parser = this.#parsers.get(language);
    if (!parser) this.#parsers.set(language, parser = grammars.parser(language));
    const tree = (await parser).parse(text);
    if (!tree) return [];
    try {
      return highlightSpans(tree.rootNode as Node);
    } finally {
      tree.delete();
    }
  }

  /**
   * Switch the guards and the compass: a new workspace over the same backend
   * with the session's ledger carried over.
   *
   * @param settings The new settings (merged into the current ones).
   */
  async configure(settings: Partial<PlaygroundSettings>): Promise<void> {
    this.#settings = { ...this.#settings, ...settings };
    this.#options.store?.setItem(SETTINGS_KEY, JSON.stringify(this.#settings));
    const ledger = this.#ws?.exportSession(this.session);
    await this.#ws?.close();
    await this.#openWorkspace(ledger);
    for (const l of this.#listeners) l(null);
  }

  /** Empty the store (files, checkpoints, ledger) and seed the sample project again. */
  async reset(): Promise<void> {
    await this.#ws?.close();
    this.#options.store?.removeItem(LEDGER_KEY);
    await removeTree(BackendFs.wrap(this.#backend), SAMPLE_ROOT);
    await this.#seed();
    await this.#openWorkspace(null);
    this.feed.length = 0;
    for (const l of this.#listeners) l(null);
  }

  /** Write the sample project under the root when the root is absent (the embedder loading a project). */
  async #seed(): Promise<void> {
    const fs = BackendFs.wrap(this.#backend);
    if ((await fs.kind(SAMPLE_ROOT)) !== null) return;
    for (const [rel, text] of Object.entries(SAMPLE_FILES)) {
      const path = `${SAMPLE_ROOT}/${rel}`;
      await fs.mkdirp(path.slice(0, path.lastIndexOf("/")));
      await fs.write(path, new TextEncoder().encode(text));
    }
    await this.#backend.flush?.();
  }

  async #openWorkspace(ledger?: unknown): Promise<void> {
    const s = this.#settings;
    this.#ws = await createWorkspace({
      backend: this.#backend,
      root: SAMPLE_ROOT,
      // One grammar registry for the page: a reconfigured workspace reuses the loaded wasm.
      ...(this.#ws?.grammars ? { grammars: this.#ws.grammars } : { wasm: this.#options.wasm }),
      telemetry: this.#hub,
      checkpoints: true,
      readGuard: s.readGuard,
      definitionGate: s.gate,
      compass: { mode: s.compass },
    });
    const saved = ledger === undefined ? readJson(this.#options.store, LEDGER_KEY) : ledger;
    if (saved) {
      try {
        this.#ws.importSession(this.session, saved);
      } catch {
        // A ledger from another graver version: start the session afresh.
      }
    }
  }
}

/** Remove a directory and everything under it (the page's reset, below any tool: it drops the history too). */
async function removeTree(fs: BackendFs, path: string): Promise<void> {
  const kind = await fs.kind(path);
  if (kind === "dir") {
    for (const name of await fs.list(path)) await removeTree(fs, `${path}/${name}`);
    await fs.removeDir(path);
  } else if (kind !== null) await fs.remove(path);
}

function readJson(store: KeyValueStore | undefined, key: string): Record<string, never> | null {
  const raw = store?.getItem(key);
  if (!raw) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}
