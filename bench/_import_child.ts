/**
 * One fresh process of bench/start_cost.bench.ts: times `await import(MODULE)`
 * and prints the milliseconds (nothing is imported without an argument: the
 * cost of a trivial `deno run`).
 *
 *   deno run -A --config TREE/deno.json bench/_import_child.ts [MODULE_URL]
 *
 * @module
 */
const start = performance.now();
if (Deno.args[0]) await import(Deno.args[0]);
console.log((performance.now() - start).toFixed(2));
