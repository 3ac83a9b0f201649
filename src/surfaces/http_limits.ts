/**
 * The HTTP surface's default limits, apart from the app so that a caller
 * that only shows them (the CLI's `--help`) does not load hono.
 *
 * @module
 */

/** Default request body limit: 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES: number = 4 * 1024 * 1024;

/** Default per-request time limit: 60 s. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Default time to receive a whole request body: 10 s (a slow or stalled body is answered 408). */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

/** Default most named sessions a server holds: 1,000 (one more drops the least recently used). */
export const DEFAULT_MAX_SESSIONS = 1_000;

/** Default idle time after which a named session is dropped: 30 minutes. */
export const DEFAULT_SESSION_IDLE_MS: number = 30 * 60 * 1000;

/** Default time `graver serve` gives its shutdown after SIGINT/SIGTERM before it ends the process: 10 s. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

/**
 * How long past the request time limit `graver serve` lets its event loop stay blocked before it ends the
 * process (for a supervisor to restart it): 10 s.
 */
export const STALL_MARGIN_MS = 10_000;

/** Between the events of `POST /v1/stream/:tool`, an SSE keep-alive comment this often (ms). */
export const DEFAULT_STREAM_KEEP_ALIVE_MS = 15_000;
