/**
 * The worker of the Deno match pool (`match_pool.ts`): its global scope serves the pool's batches
 * (`structural/search/match_worker.ts`).
 *
 * @module
 */
import { type MatchWorkerScope, serveMatches } from "../../structural/search/match_worker.ts";

serveMatches(self as unknown as MatchWorkerScope);
