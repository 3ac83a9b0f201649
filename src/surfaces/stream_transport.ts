/**
 * An MCP transport over a pair of web streams: newline-delimited JSON-RPC
 * in, newline-delimited JSON-RPC out — the MCP stdio transport, written
 * against `ReadableStream`/`WritableStream` so it runs wherever the adapter
 * can hand over the process's stdin and stdout as streams (Deno's
 * `Deno.stdin.readable`, Node's `Readable.toWeb(process.stdin)`, Bun's
 * `Bun.stdin.stream()`).
 *
 * @module
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

/** Longest line accepted (a JSON-RPC message), in UTF-16 code units: 16 Mi. */
const MAX_LINE = 16 * 1024 * 1024;

/**
 * Newline-delimited JSON-RPC over web streams (the MCP stdio framing).
 *
 * @example Two transports wired back to back
 * ```ts
 * import { StreamTransport } from "./stream_transport.ts";
 * import assert from "node:assert/strict";
 *
 * const pipe = new TransformStream<Uint8Array, Uint8Array>();
 * const sender = new StreamTransport(new ReadableStream(), pipe.writable);
 * const receiver = new StreamTransport(pipe.readable, new WritableStream());
 * const got = new Promise((resolve) => receiver.onmessage = resolve);
 * await receiver.start();
 * await sender.send({ jsonrpc: "2.0", method: "ping", id: 1 });
 * assert.deepEqual(await got, { jsonrpc: "2.0", method: "ping", id: 1 });
 * await sender.close();
 * await receiver.close();
 * ```
 */
export class StreamTransport implements Transport {
  /** Called with each message received. */
  onmessage?: (message: JSONRPCMessage) => void;
  /** Called on a malformed line or a stream error. */
  onerror?: (error: Error) => void;
  /** Called once when input ends or the transport is closed. */
  onclose?: () => void;

  readonly #input: ReadableStream<Uint8Array>;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  #reader: ReadableStreamDefaultReader<string> | undefined;
  #closed = false;
  #writes: Promise<void> = Promise.resolve();

  /**
   * Speak JSON-RPC lines over two byte streams.
   *
   * @param input Bytes in (stdin).
   * @param output Bytes out (stdout).
   */
  constructor(input: ReadableStream<Uint8Array>, output: WritableStream<Uint8Array>) {
    this.#input = input;
    this.#writer = output.getWriter();
  }

  /** Start reading; resolves at once (messages arrive through `onmessage`). */
  start(): Promise<void> {
    if (this.#reader) throw new TypeError("Cannot start a StreamTransport twice");
    // (Typed as a pair of streams: the DOM and Deno libs disagree on TextDecoderStream's writable side.)
    const decoder = new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>;
    this.#reader = this.#input.pipeThrough(decoder).getReader();
    void this.#read(this.#reader);
    return Promise.resolve();
  }

  async #read(reader: ReadableStreamDefaultReader<string>): Promise<void> {
    let buffer = "";
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let nl: number;
        while ((nl = buffer.indexOf("\n")) !== -1) {
          const line = buffer.slice(0, nl).replace(/\r$/, "");
          buffer = buffer.slice(nl + 1);
          if (line.trim() !== "") this.#deliver(line);
        }
        if (buffer.length > MAX_LINE) {
          buffer = "";
          this.onerror?.(new RangeError(`Cannot read a message longer than ${MAX_LINE} characters`));
        }
      }
    } catch (err) {
      if (!this.#closed) this.onerror?.(err instanceof Error ? err : new Error(String(err)));
    }
    await this.close();
  }

  #deliver(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line)) as JSONRPCMessage;
    } catch (err) {
      this.onerror?.(
        new SyntaxError(
          `Cannot read a JSON-RPC message: ${err instanceof Error ? err.message : String(err)}`,
        ),
      );
      return;
    }
    this.onmessage?.(message);
  }

  /** Write one message (one line); writes keep their order. */
  send(message: JSONRPCMessage): Promise<void> {
    const bytes = new TextEncoder().encode(JSON.stringify(message) + "\n");
    const write = this.#writes.then(() => this.#writer.write(bytes));
    this.#writes = write.catch(() => {});
    return write;
  }

  /** Stop reading, flush and close the output, call `onclose` once. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#reader?.cancel().catch(() => {});
    await this.#writes;
    await this.#writer.close().catch(() => {});
    this.onclose?.();
  }
}
