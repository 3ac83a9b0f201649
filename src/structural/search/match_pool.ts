/**
 * A pool of workers that parse and match files for a structural search, so that a search over many files
 * uses more than one core: each worker loads the tree-sitter runtime and the grammars it needs from the wasm
 * the main thread hands it (a compiled `WebAssembly.Module` where the runtime can post one), compiles each
 * pattern once, keeps its own parse cache keyed by version, and answers a batch of files with their sites as
 * plain data. A file always goes to the same worker (by its path), so a warm search finds its tree there.
 *
 * How workers are made is the runtime's business (an adapter hands a `spawn`); everything here is web
 * standard. The pool never waits on what it cannot get: files go to a worker only once it is ready (a search
 * that starts the pool is matched on the main thread meanwhile); a worker that fails, crashes or does not
 * answer in time is ended and its files are answered "unavailable", which the caller matches on the main
 * thread; and idle workers are ended after {@linkcode MatchPoolOptions.idleMs}, so a pool never keeps a
 * process alive for long. It gains only where its workers get cores of their own: on a machine whose cores
 * are busy, they parse no sooner than the main thread would (docs/benchmarks.md).
 *
 * Messages to a worker: `{ type: "init", runtime }`, `{ type: "grammar", language, wasm }` (once per language,
 * before its first batch), `{ type: "match", id, language, query, files, outline }` (`outline`: each file with
 * sites outlined too), `{ type: "outline", id, language, files }` (each file's symbols), `{ type: "clear" }`
 * (free the cached trees). From it: `{ type: "ready" }`, `{ type: "done", id, results }` with one `{ sites }`
 * (and `symbols`, asked) or `{ failed }` per file.
 *
 * @module
 */
import type { WasmInput, WasmLoader } from "../../syntax/grammars.ts";
import { GRAMMARS } from "../../syntax/grammars.ts";

/** What a worker looks like to the pool: the web `Worker` shape (Deno and browsers), or an adapter's wrapper. */
export interface MatchWorker {
  /** Send a message (structured clone). */
  postMessage(message: unknown): void;
  /** Receives the worker's messages. */
  onmessage: ((event: MessageEvent) => void) | null;
  /** Receives an error the worker did not catch (it is then ended). */
  onerror: ((event: ErrorEvent) => void) | null;
  /** End the worker now. */
  terminate(): void;
}

/** The query a worker compiles: what `PatternMatcher.compile` takes. */
export interface MatchQuery {
  /** The code pattern. */
  pattern?: string;
  /** Or an ast-grep rule object. */
  rule?: Record<string, unknown>;
  /** The rewrite template. */
  rewrite?: string;
  /** The rewrite's new metavariables (ast-grep's `transform`). */
  transform?: Record<string, unknown>;
  /** The sub-rules a `rewrite` transformation applies (ast-grep's `rewriters`). */
  rewriters?: unknown[];
  /** Where the replaced span widens to (ast-grep's FixConfig `expandStart` / `expandEnd`). */
  expandStart?: Record<string, unknown>;
  expandEnd?: Record<string, unknown>;
}

/** One file to match. */
export interface MatchFile {
  /** Path relative to the root (the worker's parse-cache key). */
  path: string;
  /** The text (BOM dropped). */
  text: string;
  /** Its version. */
  version: string;
}

/** Options of {@linkcode MatchPool}. */
export interface MatchPoolOptions {
  /** Start one worker running `serveMatches` of `match_worker.ts` (`new Worker(url, { type: "module" })` in Deno). */
  spawn: () => MatchWorker;
  /** The wasm the workers load (the same loader as the workspace's grammars). */
  wasm: WasmLoader;
  /** How many workers (default 2). */
  size?: number;
  /** End the workers after this many ms without work (default 5000); the next search starts them again. */
  idleMs?: number;
  /** A batch unanswered after this many ms, plus one per 10,000 characters, ends its worker (default 10,000). */
  timeoutMs?: number;
  /**
   * Characters of candidate text a search parses on its own thread before it starts workers that are not
   * running (default `POOL_START_CHARS` of `pattern_matcher.ts`, 100,000). A one-shot command, whose workers
   * start cold, waits longer: a search over by then never pays for starting them.
   */
  startChars?: number;
}

/** Answered for a file the pool cannot match (no worker ready, or the worker failed): match it on this thread. */
export class PoolUnavailable extends Error {
  /** @param reason Why. */
  constructor(reason: string) {
    super(`The match pool cannot take the file: ${reason}`);
    this.name = "PoolUnavailable";
  }
}

/** Files in one message: each message costs a fixed time (about 0.15 ms in Deno), so files travel in batches. */
const BATCH_CHARS = 32_000;
/** Batches in flight per worker: the next one is on its way while the worker parses. */
const DEPTH = 2;
/** Queries whose answers the pool remembers (a session pages through a search, or repeats it). */
const QUERIES_REMEMBERED = 4;
/** Sites remembered per query at most (a pattern that matches everywhere is not kept). */
const SITES_REMEMBERED = 200_000;
/** Files whose outline the pool keeps (a search asks them of the files it matched, maybe ahead of its page). */
const OUTLINES_REMEMBERED = 4096;

/**
 * What a worker does with a batch: match the query (and outline each file with sites: `matchOutline`), or list
 * each file's symbols (depth first).
 */
type Op = "match" | "matchOutline" | "outline";

/** One file waiting for its worker's answer. */
interface Waiting {
  file: MatchFile;
  resolve(sites: unknown[]): void;
  reject(err: Error): void;
}

/** A batch sent and not answered. */
interface Batch {
  op: Op;
  files: Waiting[];
  timer: ReturnType<typeof setTimeout>;
}

/** One worker's slot: its state, what it has been sent, what waits for it. */
interface Slot {
  worker: MatchWorker | null;
  ready: boolean;
  /** Settles when the worker is ready or gone. */
  started: Promise<void>;
  /** Settle {@linkcode Slot.started}. */
  settle: () => void;
  /** Ends a worker that does not get ready in time. */
  startTimer?: ReturnType<typeof setTimeout>;
  /** Languages whose grammar it has been sent (settled once posted). */
  languages: Map<string, Promise<void>>;
  /** Files queued for the next batch, by operation, language and query (a batch has one of each). */
  queue: { key: string; op: Op; language: string; query: MatchQuery; files: Waiting[] }[];
  inFlight: Map<number, Batch>;
}

/** The key of a query in one language. */
function queryKey(language: string, query: MatchQuery): string {
  return `${language}\0${JSON.stringify(query)}`;
}

/** A stable small hash of a path: which worker it goes to. */
function slotOf(path: string, size: number): number {
  let h = 2166136261;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 16777619);
  return (h >>> 0) % size;
}

/**
 * A pool of parse-and-match workers (see the module's doc).
 *
 * @example
 * ```ts ignore
 * const pool = new MatchPool({ spawn: () => new Worker(url, { type: "module" }), wasm: createWasmLoader() });
 * pool.warm(); // start the workers
 * const sites = await pool.match("javascript", { pattern: "return $X" }, { path, text, version });
 * pool.close();
 * ```
 */
export class MatchPool {
  /** How many workers. */
  readonly size: number;
  /** {@linkcode MatchPoolOptions.startChars}, if given. */
  readonly startChars: number | undefined;
  readonly #options: MatchPoolOptions;
  readonly #slots: Slot[];
  /** Compiled wasm by language ("" for the runtime), compiled once on this thread and posted to each worker. */
  readonly #wasm = new Map<string, Promise<WasmInput>>();
  #nextId = 1;
  /** The workers' answers of the last few queries: query key -> path -> the version matched and its sites. */
  /** Outlines asked of the workers, by path: the version asked and the answer, pending or not. */
  readonly #outlines = new Map<string, { version: string; symbols: Promise<unknown[]> }>();
  readonly #answers = new Map<
    string,
    { files: Map<string, { version: string; sites: unknown[] }>; sites: number }
  >();
  #idle: ReturnType<typeof setTimeout> | undefined;
  /** Workers ended for failing (crash, error, time out) since the pool was made. */
  failures = 0;
  /** Files the workers matched since the pool was made. */
  matched = 0;

  /** @param options How to start a worker, the wasm, the size and the limits. */
  constructor(options: MatchPoolOptions) {
    this.#options = options;
    this.size = Math.max(1, options.size ?? 2);
    this.startChars = options.startChars;
    this.#slots = Array.from({ length: this.size }, () => ({
      worker: null,
      ready: false,
      started: Promise.resolve(),
      settle: () => {},
      languages: new Map<string, Promise<void>>(),
      queue: [],
      inFlight: new Map(),
    }));
  }

  /**
   * Start every worker not running (a search calls this first, without waiting: its files go to workers as
   * they get ready).
   *
   * @returns Settles when every worker is ready or has failed to start.
   */
  warm(): Promise<void> {
    this.#slots.forEach((slot) => {
      if (slot.worker === null) this.#start(slot);
    });
    this.#armIdle();
    return Promise.all(this.#slots.map((s) => s.started)).then(() => {});
  }

  /** How many workers are ready now. */
  get ready(): number {
    return this.#slots.filter((s) => s.ready).length;
  }

  /** Whether the worker of `path` is ready now (else the caller matches on its own thread). */
  accepts(path: string): boolean {
    return this.#slots[slotOf(path, this.size)]!.ready;
  }

  /**
   * The sites a worker gave for this file at this version and this query, if the pool still remembers them
   * (the {@linkcode QUERIES_REMEMBERED} queries a worker was asked last): a warm search, or the next page of
   * one, asks no worker.
   *
   * @param language The file's language.
   * @param query The pattern or rule (and rewrite).
   * @param file The file's path and version.
   * @returns The sites, or undefined.
   */
  answered(
    language: string,
    query: MatchQuery,
    file: { path: string; version: string },
  ): unknown[] | undefined {
    const known = this.#answers.get(queryKey(language, query))?.files.get(file.path);
    return known?.version === file.version ? known.sites : undefined;
  }

  /**
   * The sites of a file, from its worker.
   *
   * @param language The file's language.
   * @param query The pattern or rule (and rewrite).
   * @param file The file.
   * @param options `outline`: the worker outlines the file too when it has sites, in the same answer, and
   *   {@linkcode MatchPool.outline} then answers from it (a search names each match's enclosing symbol).
   * @returns The sites as `PatternMatcher`'s programs give them.
   * @throws PoolUnavailable when no worker can answer: match the file on this thread.
   */
  match(
    language: string,
    query: MatchQuery,
    file: MatchFile,
    options: { outline?: boolean } = {},
  ): Promise<unknown[]> {
    const key = queryKey(language, query);
    // The query asked last goes last: the one asked longest ago is forgotten first.
    const answers = this.#answers.get(key) ?? { files: new Map(), sites: 0 };
    this.#answers.delete(key);
    if (this.#answers.size >= QUERIES_REMEMBERED) this.#answers.delete(this.#answers.keys().next().value!);
    this.#answers.set(key, answers);
    const remembered = answers;
    const op = options.outline === true ? "matchOutline" : "match";
    return this.#enqueue({ op, language, query }, file).then((sites) => {
      if (remembered.sites + sites.length > SITES_REMEMBERED) return sites;
      const before = remembered.files.get(file.path)?.sites.length ?? 0;
      remembered.files.set(file.path, { version: file.version, sites });
      remembered.sites += sites.length - before;
      return sites;
    });
  }

  /**
   * A file's symbols, depth first (`flattenSymbols` of its outline), from its worker (which parses the file
   * unless it holds its tree: it usually does, having matched it). The answers of the last
   * {@linkcode OUTLINES_REMEMBERED} files asked are kept (a search may ask ahead of the page that needs them).
   *
   * @param language The file's language.
   * @param file The file.
   * @returns The symbols as plain data (each with its children left out).
   * @throws PoolUnavailable when no worker can answer, or the file has no outline there.
   */
  outline(language: string, file: MatchFile): Promise<unknown[]> {
    const known = this.#outlines.get(file.path);
    if (known?.version === file.version) return known.symbols;
    const symbols = this.#enqueue({ op: "outline", language, query: {} }, file);
    symbols.catch(() =>
      this.#outlines.get(file.path)?.symbols === symbols && this.#outlines.delete(file.path)
    );
    this.#rememberOutline(file, symbols);
    return symbols;
  }

  /** Remember a file's outline at its version (the least recently asked forgotten past the bound). */
  #rememberOutline(file: MatchFile, symbols: Promise<unknown[]>): void {
    this.#outlines.delete(file.path);
    if (this.#outlines.size >= OUTLINES_REMEMBERED) {
      this.#outlines.delete(this.#outlines.keys().next().value!);
    }
    this.#outlines.set(file.path, { version: file.version, symbols });
  }

  /** Queue a file for its worker's next batch of this operation. */
  #enqueue(what: { op: Op; language: string; query: MatchQuery }, file: MatchFile): Promise<unknown[]> {
    const slot = this.#slots[slotOf(file.path, this.size)]!;
    if (!slot.ready) return Promise.reject(new PoolUnavailable("its worker is not ready"));
    clearTimeout(this.#idle);
    this.#idle = undefined;
    const key = `${what.op}\0${queryKey(what.language, what.query)}`;
    return new Promise((resolve, reject) => {
      let group = slot.queue.find((g) => g.key === key);
      if (group === undefined) slot.queue.push(group = { key, ...what, files: [] });
      group.files.push({ file, resolve, reject });
      if (slot.inFlight.size < DEPTH) queueMicrotask(() => this.#flush(slot));
    });
  }

  /** Free the trees every running worker caches, and forget their answers and outlines: the next search parses again. */
  clear(): void {
    this.#answers.clear();
    this.#outlines.clear();
    for (const slot of this.#slots) slot.worker?.postMessage({ type: "clear" });
  }

  /** End every worker; files waiting are answered unavailable. The pool starts again on {@linkcode warm}. */
  close(): void {
    clearTimeout(this.#idle);
    this.#idle = undefined;
    for (const slot of this.#slots) this.#end(slot, "the pool was closed");
  }

  /** Spawn a slot's worker and send it the runtime. */
  #start(slot: Slot): void {
    let worker: MatchWorker;
    try {
      worker = this.#options.spawn();
    } catch {
      return; // no worker: this thread matches
    }
    slot.worker = worker;
    slot.started = new Promise((resolve) => slot.settle = resolve);
    worker.onmessage = (event: MessageEvent) => this.#receive(slot, worker, event.data);
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault?.();
      this.#fail(slot, worker, `the worker failed (${event.message})`);
    };
    // A worker that never says ready (its modules do not load, the runtime hangs) is ended like a silent one.
    const limit = this.#options.timeoutMs ?? 10_000;
    slot.startTimer = setTimeout(() => this.#fail(slot, worker, `not ready in ${limit} ms`), limit);
    this.#wasmOf("")
      .then((runtime) => slot.worker === worker && worker.postMessage({ type: "init", runtime }))
      .catch((err) => this.#fail(slot, worker, `the tree-sitter runtime could not be sent (${String(err)})`));
  }

  /** A message from a slot's worker. */
  #receive(slot: Slot, worker: MatchWorker, m: { type: string; id?: number; results?: unknown[] }): void {
    if (slot.worker !== worker) return;
    if (m.type === "ready") {
      clearTimeout(slot.startTimer);
      slot.ready = true;
      slot.settle();
      return;
    }
    const batch = slot.inFlight.get(m.id!);
    if (m.type !== "done" || batch === undefined) return;
    clearTimeout(batch.timer);
    slot.inFlight.delete(m.id!);
    batch.files.forEach((w, i) => {
      const r = m.results?.[i] as { sites?: unknown[]; symbols?: unknown[]; failed?: string } | undefined;
      if (r?.sites) {
        if (batch.op !== "outline") this.matched++;
        if (r.symbols) this.#rememberOutline(w.file, Promise.resolve(r.symbols));
        w.resolve(r.sites);
      } else w.reject(new PoolUnavailable(r?.failed ?? "the worker gave no answer"));
    });
    this.#flush(slot);
    this.#armIdle();
  }

  /** Send a slot's next batch (one language and query, up to {@linkcode BATCH_CHARS}) if it has room. */
  #flush(slot: Slot): void {
    const worker = slot.worker;
    if (worker === null || !slot.ready || slot.inFlight.size >= DEPTH || slot.queue.length === 0) return;
    const group = slot.queue[0]!;
    let chars = 0;
    let n = 0;
    while (n < group.files.length && (n === 0 || chars < BATCH_CHARS)) {
      chars += group.files[n++]!.file.text.length;
    }
    // A short batch goes only to an idle worker: files trickling in from the walk travel together while the
    // worker parses (each message costs its fixed time on both sides), and the rest goes when it answers.
    if (chars < BATCH_CHARS && slot.inFlight.size > 0) return;
    const files = group.files.splice(0, n);
    if (group.files.length === 0) slot.queue.shift();
    const id = this.#nextId++;
    const limit = (this.#options.timeoutMs ?? 10_000) + chars / 10_000;
    const timer = setTimeout(() => this.#fail(slot, worker, `no answer in ${Math.round(limit)} ms`), limit);
    slot.inFlight.set(id, { op: group.op, files, timer });
    void this.#send(slot, worker, { id, op: group.op, language: group.language, query: group.query, files });
    if (slot.queue.length > 0) this.#flush(slot);
  }

  /**
   * Post a batch, its language's grammar first when the worker has not got it (batches of that language wait
   * for it). A grammar that cannot be loaded answers the batch's files unavailable; the worker stays.
   */
  async #send(
    slot: Slot,
    worker: MatchWorker,
    batch: { id: number; op: Op; language: string; query: MatchQuery; files: Waiting[] },
  ): Promise<void> {
    const { id, language, query } = batch;
    let sent = slot.languages.get(language);
    if (sent === undefined) {
      sent = this.#wasmOf(language).then((wasm) => {
        if (slot.worker === worker) worker.postMessage({ type: "grammar", language, wasm });
      });
      slot.languages.set(language, sent);
      sent.catch(() => slot.languages.get(language) === sent && slot.languages.delete(language));
    }
    try {
      await sent;
      if (slot.worker !== worker) return;
      const files = batch.files.map((w) => w.file);
      const type = batch.op === "outline" ? "outline" : "match";
      worker.postMessage({ type, id, language, query, files, outline: batch.op === "matchOutline" });
    } catch (err) {
      const answered = slot.inFlight.get(id);
      if (answered === undefined) return;
      clearTimeout(answered.timer);
      slot.inFlight.delete(id);
      const unavailable = new PoolUnavailable(`the ${language} grammar could not be sent (${String(err)})`);
      for (const w of answered.files) w.reject(unavailable);
      this.#flush(slot);
      this.#armIdle();
    }
  }

  /** The wasm of a language ("" for the runtime), compiled once where the runtime allows it. */
  #wasmOf(language: string): Promise<WasmInput> {
    let wasm = this.#wasm.get(language);
    if (wasm === undefined) {
      const loader = this.#options.wasm;
      const entry = GRAMMARS[language];
      const input = language === ""
        ? loader.runtime()
        : entry
        ? loader.grammar(language, entry)
        : Promise.reject(new TypeError(`no grammar "${language}"`));
      wasm = input.then(async (w) => {
        if (w instanceof Uint8Array) {
          try {
            return await WebAssembly.compile(w as Uint8Array<ArrayBuffer>);
          } catch {
            return w; // a runtime that does not compile from bytes here: the worker does
          }
        }
        return w;
      });
      wasm.catch(() => this.#wasm.delete(language));
      this.#wasm.set(language, wasm);
    }
    return wasm;
  }

  /** End a failing worker: everything it holds or waits for is answered unavailable. */
  #fail(slot: Slot, worker: MatchWorker, reason: string): void {
    if (slot.worker !== worker) return;
    this.failures++;
    this.#end(slot, reason);
  }

  /** End a slot's worker and answer its files unavailable. */
  #end(slot: Slot, reason: string): void {
    clearTimeout(slot.startTimer);
    slot.worker?.terminate();
    slot.worker = null;
    slot.ready = false;
    slot.settle();
    slot.languages.clear();
    const err = new PoolUnavailable(reason);
    for (const batch of slot.inFlight.values()) {
      clearTimeout(batch.timer);
      for (const w of batch.files) w.reject(err);
    }
    slot.inFlight.clear();
    for (const group of slot.queue) for (const w of group.files) w.reject(err);
    slot.queue = [];
  }

  /** Whether a worker has files in flight or queued. */
  #busy(): boolean {
    return this.#slots.some((s) => s.inFlight.size > 0 || s.queue.length > 0);
  }

  /** End the workers once nothing is in flight for {@linkcode MatchPoolOptions.idleMs}. */
  #armIdle(): void {
    if (this.#busy()) return;
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      this.#idle = undefined;
      for (const slot of this.#slots) this.#end(slot, "the pool was idle");
    }, this.#options.idleMs ?? 5_000);
  }
}
