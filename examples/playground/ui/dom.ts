/**
 * A few DOM helpers for the playground page (no framework).
 *
 * @module
 */
/// <reference lib="dom" />

/** A child for {@linkcode h}: a node, text, or nothing. */
export type Child = Node | string | number | null | undefined | false;

/** Attributes for {@linkcode h}: `on<event>` handlers, `dataset` entries (`data-*`), plain attributes. */
export type Props = Record<string, string | number | boolean | EventListener | null | undefined>;

/**
 * Create an element.
 *
 * @param tag Tag name.
 * @param props Attributes (`class`, `id`, `title`, `data-*`, ...) and `on<event>` listeners.
 * @param children Its children.
 * @returns The element.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === "function") el.addEventListener(k.slice(2).toLowerCase(), v);
    else if (k === "value" && "value" in el) (el as HTMLInputElement).value = String(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

/**
 * Append children (skipping empty ones).
 *
 * @param el The parent.
 * @param children Nodes or text.
 */
export function append(el: Element, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "number" ? String(c) : c);
  }
}

/**
 * Replace an element's children.
 *
 * @param el The parent.
 * @param children The new children.
 */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/**
 * The element with an id (the page's skeleton has them all).
 *
 * @param id Element id.
 * @returns The element.
 */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`Cannot find "#${id}" in the page`);
  return el as T;
}
