/**
 * The search engines a tool handler loads on first call (search_text, search_structural and the two
 * replacements built on them), as one module: bundlers make one lazy chunk of them. A chunk of its own, not
 * part of the text engines', because a search is the call made most often from a fresh process (`graver
 * grep`, `graver sg`, a server's first question) and edits nothing: it evaluates no edit parser, matcher or
 * applier (~5 ms of CPU of a cold `graver grep`). The loaders pick `search` by name, that is
 * `../search/mod.ts`.
 *
 * @module
 */
export * as search from "../search/mod.ts";
