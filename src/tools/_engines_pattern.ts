/**
 * The engines of a structural search and rewrite (search_structural, edit_rewrite_structural), as one module:
 * bundlers make one lazy chunk of them. A chunk of their own, not the structural engines', because a
 * structural search is a call a fresh process makes often (`graver sg`, a server's first question) and needs
 * only the pattern matcher and the fit of a rewritten site: it evaluates no rename, extract, inline, move or
 * signature engine (~28 ms of a one-shot `graver sg` in Deno). The loaders pick `patternSearch` and `siteFit`
 * by name, that is `../structural/search/pattern_matcher.ts` and `../structural/edit/site_fit.ts`.
 *
 * @module
 */
export * as patternSearch from "../structural/search/pattern_matcher.ts";
export * as siteFit from "../structural/edit/site_fit.ts";
