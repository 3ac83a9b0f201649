/**
 * The sample project the playground seeds into IndexedDB on first load (and
 * again after "Reset"): a few small TypeScript and Python files to read,
 * patch and refactor.
 *
 * @module
 */

/** Backend path of the playground's workspace root. */
export const SAMPLE_ROOT = "/project";

/** Path (relative to the root) -> contents. */
export const SAMPLE_FILES: Readonly<Record<string, string>> = {
  "README.md": [
    "# Sample shop",
    "",
    "A tiny project to try graver on: paste a model's edits, rename a symbol, undo.",
    "",
  ].join("\n"),
  "src/cart.ts": [
    'import { formatPrice } from "./money.ts";',
    "",
    "/** One line of a cart. */",
    "export interface Item {",
    "  name: string;",
    "  price: number;",
    "  quantity: number;",
    "}",
    "",
    "/** A shopping cart. */",
    "export class Cart {",
    "  readonly items: Item[] = [];",
    "",
    "  add(item: Item): void {",
    "    this.items.push(item);",
    "  }",
    "",
    "  total(): number {",
    "    let sum = 0;",
    "    for (const item of this.items) {",
    "      sum += item.price * item.quantity;",
    "    }",
    "    return sum;",
    "  }",
    "",
    "  summary(): string {",
    "    return `${this.items.length} items, ${formatPrice(this.total())}`;",
    "  }",
    "}",
    "",
  ].join("\n"),
  "src/money.ts": [
    "/** Format an amount in cents as dollars. */",
    "export function formatPrice(cents: number): string {",
    "  return `$${(cents / 100).toFixed(2)}`;",
    "}",
    "",
    "/** Apply a percentage discount. */",
    "export function discount(cents: number, percent: number): number {",
    "  return Math.round(cents * (1 - percent / 100));",
    "}",
    "",
  ].join("\n"),
  "src/main.ts": [
    'import { Cart } from "./cart.ts";',
    'import { discount, formatPrice } from "./money.ts";',
    "",
    "const cart = new Cart();",
    'cart.add({ name: "tea", price: 450, quantity: 2 });',
    'cart.add({ name: "cake", price: 300, quantity: 1 });',
    "console.log(cart.summary());",
    "console.log(formatPrice(discount(cart.total(), 10)));",
    "",
  ].join("\n"),
  "tools/report.py": [
    "def report(rows):",
    '    """Print one line per row."""',
    "    for name, amount in rows:",
    '        print(f"{name}: {amount}")',
    "",
    "",
    "def total(rows):",
    "    return sum(amount for _, amount in rows)",
    "",
  ].join("\n"),
};

/** Model responses to try in the "Apply a model response" panel, by name. */
export const SAMPLE_RESPONSES: Readonly<Record<string, string>> = {
  "SEARCH/REPLACE (indentation drifted)": [
    "The loop can be a reduce:",
    "",
    "src/cart.ts",
    "```ts",
    "<<<<<<< SEARCH",
    "let sum = 0;",
    "for (const item of this.items) {",
    "  sum += item.price * item.quantity;",
    "}",
    "return sum;",
    "=======",
    "return this.items.reduce((sum, item) => sum + item.price * item.quantity, 0);",
    ">>>>>>> REPLACE",
    "```",
    "",
  ].join("\n"),
  "unified diff": [
    "--- a/src/main.ts",
    "+++ b/src/main.ts",
    "@@ -5,4 +5,5 @@",
    ' cart.add({ name: "tea", price: 450, quantity: 2 });',
    ' cart.add({ name: "cake", price: 300, quantity: 1 });',
    '+cart.add({ name: "jam", price: 250, quantity: 3 });',
    " console.log(cart.summary());",
    " console.log(formatPrice(discount(cart.total(), 10)));",
    "",
  ].join("\n"),
  "Codex apply_patch": [
    "*** Begin Patch",
    "*** Update File: tools/report.py",
    "@@ def report(rows):",
    "     for name, amount in rows:",
    '-        print(f"{name}: {amount}")',
    '+        print(f"{name:<10} {amount:>8}")',
    "*** End Patch",
    "",
  ].join("\n"),
  "a definition removed as text (the gate refuses)": [
    "src/money.ts",
    "<<<<<<< SEARCH",
    "/** Apply a percentage discount. */",
    "export function discount(cents: number, percent: number): number {",
    "  return Math.round(cents * (1 - percent / 100));",
    "}",
    "=======",
    ">>>>>>> REPLACE",
    "",
  ].join("\n"),
};

/**
 * The model response the "Replay as a stream" control types in, token by token: three SEARCH/REPLACE
 * blocks over two files; the second is written against code that is not there (a stale block), which the
 * stream refuses as soon as its search part closes. {@linkcode STREAM_RESPONSE_FRESH} is the same response
 * without it.
 */
export const STREAM_RESPONSE: string = [
  "Prices get a thousands separator, the discount is clamped, and the cart prints its total:",
  "",
  "src/money.ts",
  "<<<<<<< SEARCH",
  "  return `$${(cents / 100).toFixed(2)}`;",
  "=======",
  '  return `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;',
  ">>>>>>> REPLACE",
  "",
  "src/money.ts",
  "<<<<<<< SEARCH",
  "  return cents - cents * percent;",
  "=======",
  "  return Math.round(cents * (1 - Math.min(percent, 100) / 100));",
  ">>>>>>> REPLACE",
  "",
  "src/main.ts",
  "<<<<<<< SEARCH",
  "console.log(cart.summary());",
  "=======",
  "console.log(cart.summary());",
  'console.log("total", formatPrice(cart.total()));',
  ">>>>>>> REPLACE",
  "",
].join("\n");

/** {@linkcode STREAM_RESPONSE} without its stale block: every block lands. */
export const STREAM_RESPONSE_FRESH: string = STREAM_RESPONSE.replace(
  /src\/money\.ts\n<<<<<<< SEARCH\n {2}return cents - cents \* percent;\n[^]*?>>>>>>> REPLACE\n\n/,
  "",
);
