/**
 * Newline scans of a text (private): how many line feeds lie in a range, and where the lines after them start.
 * These are what placing a block in a large file spends most of its time on (the line number of a hit, the
 * line starts up to it), so they run as a few SIMD instructions per 16 characters in a tiny WebAssembly module
 * built here, where the runtime lets code compile WebAssembly (not in workerd, nor under a CSP without
 * `wasm-unsafe-eval`); elsewhere, and for text that is not ASCII, a loop of `indexOf` gives the same answers.
 *
 * @module
 */

/** Characters scanned per step (the text is copied into the module's memory one chunk at a time). */
const CHUNK = 32768;
/** Bytes of the input area: a chunk as UTF-8 (at most 3 bytes per UTF-16 unit) and 16 bytes of zeros. */
const IN_BYTES = 3 * CHUNK + 16;

/** The module's two functions over its memory, or null when WebAssembly cannot be compiled here. */
interface Scanner {
  /** The input area (the module's memory from 0). */
  input: Uint8Array;
  /** Where `starts` writes, as 32-bit integers. */
  output: Int32Array;
  /** Line feeds in bytes [0, len) (len rounded up to 16; the bytes past it are zero). */
  count: (len: number) => number;
  /** Writes base + i + 1 for each line feed at byte i in [0, len) to the output; returns how many. */
  starts: (len: number, base: number, out: number) => number;
}

let scanner: Scanner | null | undefined;

// The module, assembled from its instructions (WebAssembly binary format, SIMD proposal opcodes).
const I32 = 0x7f;
const V128 = 0x7b;
const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  br: (l: number) => [0x0c, l],
  brIf: (l: number) => [0x0d, l],
  get: (i: number) => [0x20, i],
  set: (i: number) => [0x21, i],
  i32: (v: number) => [0x41, ...sleb(v)],
  eqz: [0x45],
  geU: [0x4f],
  ctz: [0x68],
  popcnt: [0x69],
  add: [0x6a],
  sub: [0x6b],
  and: [0x71],
  shl: [0x74],
  store: [0x36, 2, 0], // i32.store align=4 offset=0
  load128: [0xfd, 0x00, 0, 0], // v128.load align=1 offset=0
  splat8: [0xfd, 0x0f], // i8x16.splat
  eq8: [0xfd, 0x23], // i8x16.eq
  bitmask8: [0xfd, 0x64], // i8x16.bitmask
};

function sleb(v: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (b & 0x40) === 0) || (v === -1 && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
}

function uleb(v: number): number[] {
  const out: number[] = [];
  do {
    const b = v & 0x7f;
    v >>>= 7;
    out.push(v === 0 ? b : b | 0x80);
  } while (v !== 0);
  return out;
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

function bytesOf(s: string): number[] {
  return [...uleb(s.length), ...[...s].map((c) => c.charCodeAt(0))];
}

/**
 * For p = 0, 16, … while p < len: the bitmask of the line feeds among bytes p..p+15 is pushed, then `body` runs
 * (and must consume it). `p`, `len` and `nl` are local indexes (`nl` a v128 local).
 */
function eachBlock(p: number, len: number, nl: number, body: number[]): number[] {
  return [
    ...op.i32(10),
    ...op.splat8,
    ...op.set(nl),
    ...op.block,
    ...op.loop,
    ...op.get(p),
    ...op.get(len),
    ...op.geU,
    ...op.brIf(1),
    ...op.get(p),
    ...op.load128,
    ...op.get(nl),
    ...op.eq8,
    ...op.bitmask8,
    ...body,
    ...op.get(p),
    ...op.i32(16),
    ...op.add,
    ...op.set(p),
    ...op.br(0),
    ...op.end,
    ...op.end,
  ];
}

/** count(len): params len(0); locals p(1), n(2), nl(3). n += popcount(mask) per block. */
const COUNT = [
  ...eachBlock(1, 0, 3, [...op.popcnt, ...op.get(2), ...op.add, ...op.set(2)]),
  ...op.get(2),
  ...op.end,
];

/**
 * starts(len, base, out): params len(0), base(1), out(2); locals p(3), k(4), mask(5), nl(6). For each set bit
 * of the mask, lowest first: out[k++] = base + p + ctz(mask) + 1; mask &= mask - 1.
 */
const STARTS = [
  ...eachBlock(3, 0, 6, [
    ...op.set(5),
    ...op.block,
    ...op.loop,
    ...op.get(5),
    ...op.eqz,
    ...op.brIf(1),
    ...op.get(2),
    ...op.get(4),
    ...op.i32(2),
    ...op.shl,
    ...op.add,
    ...op.get(1),
    ...op.get(3),
    ...op.add,
    ...op.get(5),
    ...op.ctz,
    ...op.add,
    ...op.i32(1),
    ...op.add,
    ...op.store,
    ...op.get(4),
    ...op.i32(1),
    ...op.add,
    ...op.set(4),
    ...op.get(5),
    ...op.get(5),
    ...op.i32(1),
    ...op.sub,
    ...op.and,
    ...op.set(5),
    ...op.br(0),
    ...op.end,
    ...op.end,
  ]),
  ...op.get(4),
  ...op.end,
];

/** The whole module: memory "m" of 4 pages, functions "count" and "starts". */
function moduleBytes(): Uint8Array<ArrayBuffer> {
  const body = (locals: number[][], code: number[]) => {
    const b = [...vec(locals), ...code];
    return [...uleb(b.length), ...b];
  };
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, vec([[0x60, 1, I32, 1, I32], [0x60, 3, I32, I32, I32, 1, I32]])),
    ...section(3, vec([[0], [1]])),
    ...section(5, vec([[0x00, 4]])),
    ...section(
      7,
      vec([[...bytesOf("m"), 0x02, 0], [...bytesOf("count"), 0x00, 0], [...bytesOf("starts"), 0x00, 1]]),
    ),
    ...section(
      10,
      vec([body([[2, I32], [1, V128]], COUNT), body([[3, I32], [1, V128]], STARTS)]),
    ),
  ]);
}

/** The compiled scanner, made on first use; null where WebAssembly (or its SIMD) is not available. */
function getScanner(): Scanner | null {
  if (scanner !== undefined) return scanner;
  scanner = null;
  try {
    if (typeof WebAssembly !== "object") return null;
    const bytes = moduleBytes();
    if (!WebAssembly.validate(bytes)) return null;
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes));
    const memory = instance.exports["m"] as WebAssembly.Memory;
    scanner = {
      input: new Uint8Array(memory.buffer, 0, IN_BYTES),
      output: new Int32Array(memory.buffer, IN_BYTES, CHUNK),
      count: instance.exports["count"] as (len: number) => number,
      starts: instance.exports["starts"] as (len: number, base: number, out: number) => number,
    };
  } catch {
    // Code generation disallowed (workerd, a strict CSP): the indexOf loops below give the same answers.
  }
  return scanner;
}

const ENCODER = new TextEncoder();

/** Copy text[from, to) (at most {@linkcode CHUNK} units) into the input area; null when it is not ASCII. */
function load(s: Scanner, text: string, from: number, to: number): number | null {
  const { read, written } = ENCODER.encodeInto(text.slice(from, to), s.input);
  if (read !== to - from) return null;
  s.input.fill(0, written, written + 16);
  return written === read ? written : -written;
}

let disabled = false;

/** A character past Latin-1: V8 then stores the whole string with two bytes per unit, and copying it out costs more. */
const WIDE_RE = /[\u0100-\uffff]/;

/**
 * The scan state for one text: whether the fast scanner is worth using on it. Not for a string V8 stores with
 * two bytes per unit (it holds a character past U+00FF; a one-byte string answers this at once): copying its
 * chunks out costs more than the plain loop saves. Pass the object to {@linkcode countNewlines} and
 * {@linkcode appendLineStarts}, which turn it off for good once a chunk is not ASCII.
 *
 * @param text The text.
 * @returns `{ fast }`.
 */
export function scanState(text: string): { fast: boolean } {
  return { fast: fastNewlines() && !WIDE_RE.test(text) };
}

/** Whether the fast scanner is in use here (tests: both ways must give the same answers). */
export function fastNewlines(): boolean {
  return !disabled && getScanner() !== null;
}

/**
 * Turn the fast scanner off (or back on) in this process, e.g. to check that the plain loops give the same
 * answers (tests).
 *
 * @param on Whether to use it where the runtime allows.
 */
export function useFastNewlines(on: boolean): void {
  disabled = !on;
}

/**
 * How many line feeds lie in `text[from, to)`.
 *
 * @param text The text.
 * @param range `from`: the first UTF-16 offset; `to`: the end (exclusive).
 * @param options `fast: false` forces the plain loop; set to false here once the text proves not ASCII, so
 * that a caller keeping the object skips the fast scan on that text from then on.
 * @returns The count.
 */
export function countNewlines(
  text: string,
  range: { from: number; to: number },
  options: { fast?: boolean } = {},
): number {
  const { from, to } = range;
  const s = options.fast === false || disabled ? null : getScanner();
  let n = 0;
  let at = from;
  while (s !== null && at < to) {
    const end = Math.min(to, at + CHUNK);
    const len = load(s, text, at, end);
    if (len === null) break;
    // A line feed is one byte in UTF-8 too, so a chunk that is not ASCII counts the same.
    n += s.count(Math.abs(len));
    at = end;
    if (len < 0) {
      // Not ASCII: transcoding costs more than the plain loop, from here on and in later calls on this text.
      options.fast = false;
      break;
    }
  }
  for (let i = text.indexOf("\n", at); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** A growable list of offsets (line starts), as 32-bit integers. */
export interface Offsets {
  /** The offsets in `[0, length)`; the rest is room to grow. */
  data: Int32Array;
  /** How many there are. */
  length: number;
}

function room(out: Offsets, more: number): void {
  if (out.length + more <= out.data.length) return;
  const next = new Int32Array(Math.max(out.length + more, out.data.length * 2, 1024));
  next.set(out.data.subarray(0, out.length));
  out.data = next;
}

/**
 * Append to `out` the offset after each line feed in `text[from, to)` (where the next line starts), in order.
 *
 * @param text The text.
 * @param range `from`: the first UTF-16 offset; `to`: the end (exclusive); `out`: where the offsets go.
 * @param options `fast: false` forces the plain loop; set to false here once the text proves not ASCII, so
 * that a caller keeping the object skips the fast scan on that text from then on.
 */
export function appendLineStarts(
  text: string,
  range: { from: number; to: number; out: Offsets },
  options: { fast?: boolean } = {},
): void {
  const { from, to, out } = range;
  const s = options.fast === false || disabled ? null : getScanner();
  let at = from;
  while (s !== null && at < to) {
    const end = Math.min(to, at + CHUNK);
    const len = load(s, text, at, end);
    // Offsets in bytes are offsets in UTF-16 units only for ASCII: the plain loop from here on, and in later
    // calls on this text.
    if (len === null || len < 0) {
      options.fast = false;
      break;
    }
    const k = s.starts(len, at, IN_BYTES);
    room(out, k);
    out.data.set(s.output.subarray(0, k), out.length);
    out.length += k;
    at = end;
  }
  for (let i = text.indexOf("\n", at); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) {
    room(out, 1);
    out.data[out.length++] = i + 1;
  }
}

/**
 * Append one offset to `out`.
 *
 * @param out The list.
 * @param value The offset.
 */
export function appendOffset(out: Offsets, value: number): void {
  room(out, 1);
  out.data[out.length++] = value;
}
