/**
 * Test helpers for streamed edits: a request body the test writes piece by
 * piece (and can close or leave open), and a reader of server-sent events
 * that hands each frame over as it arrives.
 *
 * @module
 */

/** One server-sent event. */
export interface SseFrame {
  /** The `event:` name. */
  event: string;
  /** The `data:` JSON. */
  // deno-lint-ignore no-explicit-any
  data: any;
}

/** A request body written by the test as it goes. */
export interface SlowBody {
  /** The stream to pass as `body` (with `duplex: "half"`). */
  stream: ReadableStream<Uint8Array>;
  /** Send one piece. */
  send(text: string): void;
  /** End the body. */
  close(): void;
}

/**
 * A body whose pieces the test sends when it chooses.
 *
 * @returns The body.
 */
export function slowBody(): SlowBody {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const encoder = new TextEncoder();
  return {
    stream,
    send: (text) => controller.enqueue(encoder.encode(text)),
    close: () => controller.close(),
  };
}

/** Reads the frames of a `text/event-stream` response one at a time. */
export class SseReader {
  readonly #reader: ReadableStreamDefaultReader<string>;
  #buffer = "";
  /** Every frame read so far. */
  readonly frames: SseFrame[] = [];

  /** @param res The response. */
  constructor(res: Response) {
    this.#reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** The next frame, or null when the stream ends. */
  async next(): Promise<SseFrame | null> {
    for (;;) {
      const end = this.#buffer.indexOf("\n\n");
      if (end !== -1) {
        const block = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 2);
        const event = /^event: ?(.*)$/m.exec(block)?.[1];
        const data = block.split("\n").filter((l) => l.startsWith("data:")).map((l) =>
          l.replace(/^data: ?/, "")
        )
          .join("\n");
        if (event === undefined) continue;
        const frame = { event, data: JSON.parse(data) };
        this.frames.push(frame);
        return frame;
      }
      const { value, done } = await this.#reader.read();
      if (done) return null;
      this.#buffer += value;
    }
  }

  /** Read frames until one named `event` (returned), or null when the stream ends first. */
  async until(event: string): Promise<SseFrame | null> {
    for (let f = await this.next(); f !== null; f = await this.next()) if (f.event === event) return f;
    return null;
  }

  /** Stop reading. */
  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }
}
