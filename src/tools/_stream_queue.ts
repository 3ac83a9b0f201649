/**
 * A queue of events read by one async iterator (private): pushed as they are decided, read in order, ended
 * once closed.
 *
 * @module
 */

/** A queue of items read by one async iterator. */
export class EventQueue<T> {
  #items: T[] = [];
  #waiting: ((r: IteratorResult<T>) => void) | null = null;
  #closed = false;

  /** Add an item (ignored once closed). */
  push(item: T): void {
    if (this.#closed) return;
    if (this.#waiting) {
      const wake = this.#waiting;
      this.#waiting = null;
      wake({ value: item, done: false });
    } else this.#items.push(item);
  }

  /** No more items: the iterator ends after the ones queued. */
  close(): void {
    this.#closed = true;
    if (this.#waiting) this.#waiting({ value: undefined, done: true });
    this.#waiting = null;
  }

  /** The items, in order, until the queue is closed. */
  async *iterate(): AsyncIterableIterator<T> {
    let head = 0;
    while (true) {
      if (head < this.#items.length) {
        const next = this.#items[head++]!;
        if (head > 1024) {
          this.#items = this.#items.slice(head);
          head = 0;
        }
        yield next;
        continue;
      }
      if (this.#closed) return;
      const r = await new Promise<IteratorResult<T>>((resolve) => this.#waiting = resolve);
      if (r.done) return;
      yield r.value;
    }
  }
}
