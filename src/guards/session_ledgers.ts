/**
 * The ledgers of a workspace's sessions, by session id: created empty on
 * first use, exported and imported whole (`ws.exportSession` /
 * `ws.importSession`, the CLI's `.graver/sessions/ID.json`), forgotten on
 * request. The read guard keeps one.
 *
 * @module
 */
import { Ledger, type LedgerData } from "./ledger.ts";

/** The ledgers of a workspace's sessions, by id. */
export class SessionLedgers {
  #ledgers = new Map<string, Ledger>();

  /**
   * The ledger of a session (created empty on first use).
   *
   * @param id Session id.
   * @returns Its ledger.
   */
  get(id: string): Ledger {
    let l = this.#ledgers.get(id);
    if (!l) this.#ledgers.set(id, l = new Ledger());
    return l;
  }

  /**
   * Serialise a session's ledger.
   *
   * @param id Session id.
   * @returns JSON-safe data (an empty ledger for an unknown session).
   */
  export(id: string): LedgerData {
    return this.get(id).toJSON();
  }

  /**
   * Restore (replace) a session's ledger.
   *
   * @param id Session id.
   * @param data From {@linkcode SessionLedgers.export} (or `Ledger.toJSON`).
   */
  import(id: string, data: unknown): void {
    this.#ledgers.set(id, Ledger.from(data));
  }

  /** Forget a session. */
  delete(id: string): void {
    this.#ledgers.delete(id);
  }

  /** How many sessions have a ledger. */
  get size(): number {
    return this.#ledgers.size;
  }

  /**
   * Whether a session has a ledger (without creating one).
   *
   * @param id Session id.
   * @returns True when it has one.
   */
  has(id: string): boolean {
    return this.#ledgers.has(id);
  }
}
