/**
 * SHA-256 (FIPS 180-4) over bytes in place, for {@linkcode versionOf} of large files: WebCrypto's digest
 * takes a copy of its input (Deno: 50 MB more at the peak of an edit of a 50 MB file), this reads the bytes
 * where they are. Slower than the native digest, so only large inputs take it (private).
 *
 * @module
 */

/** The first `count` primes. */
function primes(count: number): number[] {
  const out: number[] = [];
  for (let n = 2; out.length < count; n++) if (out.every((p) => n % p !== 0)) out.push(n);
  return out;
}

/** The first 32 bits of the fractional part of `x`, as a signed 32-bit word. */
function fractionWord(x: number): number {
  return Math.floor((x - Math.floor(x)) * 0x100000000) | 0;
}

/** Round constants: the cube roots of the first 64 primes. */
const K = Int32Array.from(primes(64), (p) => fractionWord(Math.cbrt(p)));
/** Initial hash: the square roots of the first 8 primes. */
const INITIAL = Int32Array.from(primes(8), (p) => fractionWord(Math.sqrt(p)));

/** Fold the 64-byte block at `off` into the state `h` (`w`: the message schedule, reused). */
function compress(h: Int32Array, w: Int32Array, bytes: Uint8Array, off: number): void {
  for (let i = 0; i < 16; i++) {
    const j = off + i * 4;
    w[i] = (bytes[j]! << 24) | (bytes[j + 1]! << 16) | (bytes[j + 2]! << 8) | bytes[j + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15]!;
    const b = w[i - 2]!;
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let a = h[0]!, b = h[1]!, c = h[2]!, d = h[3]!, e = h[4]!, f = h[5]!, g = h[6]!, k = h[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (k + s1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    k = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  h[0] = (h[0]! + a) | 0;
  h[1] = (h[1]! + b) | 0;
  h[2] = (h[2]! + c) | 0;
  h[3] = (h[3]! + d) | 0;
  h[4] = (h[4]! + e) | 0;
  h[5] = (h[5]! + f) | 0;
  h[6] = (h[6]! + g) | 0;
  h[7] = (h[7]! + k) | 0;
}

/**
 * The SHA-256 digest of `bytes`, read in place (no copy of the input).
 *
 * @param bytes Any bytes.
 * @returns The 32-byte digest.
 */
export function sha256(bytes: Uint8Array): Uint8Array {
  const h = INITIAL.slice();
  const w = new Int32Array(64);
  const whole = bytes.length - (bytes.length % 64);
  for (let off = 0; off < whole; off += 64) compress(h, w, bytes, off);
  // The rest, a 1 bit, zeros, and the length in bits (big-endian, 64 bits) fill one or two last blocks.
  const rest = bytes.length - whole;
  const tail = new Uint8Array(rest < 56 ? 64 : 128);
  tail.set(bytes.subarray(whole));
  tail[rest] = 0x80;
  const bits = bytes.length * 8;
  const view = new DataView(tail.buffer);
  view.setUint32(tail.length - 8, Math.floor(bits / 0x100000000));
  view.setUint32(tail.length - 4, bits >>> 0);
  for (let off = 0; off < tail.length; off += 64) compress(h, w, tail, off);
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setInt32(i * 4, h[i]!);
  return out;
}
