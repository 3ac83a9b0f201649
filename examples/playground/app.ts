/**
 * The playground page's entry (bundled for the browser by serve.ts): graver
 * runs here, in the page — tree-sitter grammars as WASM fetched from the
 * server, files and checkpoints in IndexedDB through lightning-fs.
 *
 * @module
 */
/// <reference lib="dom" />
import { createIndexedDbBackend, createWasmLoader } from "../../src/adapters/browser/mod.ts";
import { Playground } from "./playground.ts";
import { PlaygroundView } from "./ui/view.ts";

/** IndexedDB database of the playground's files (and its shadow checkpoint repository). */
const DATABASE = "graver-playground";

try {
  const pg = await Playground.open({
    backend: createIndexedDbBackend(DATABASE),
    wasm: createWasmLoader({ baseUrl: new URL("/", location.href) }),
    store: localStorage,
  });
  const view = new PlaygroundView(pg);
  const last = localStorage.getItem("graver-playground:open");
  await view.open(last ?? "src/cart.ts");
  // Remember the open file for the next load.
  pg.onChange(() => {
    const open = document.getElementById("open-path")?.textContent;
    if (open) localStorage.setItem("graver-playground:open", open);
  });
  document.getElementById("status")!.textContent = "graver is running in this page";
  document.body.dataset["ready"] = "true";
} catch (err) {
  const message = err instanceof Error ? `${err.message}\n${err.stack ?? ""}` : String(err);
  document.getElementById("status")!.textContent = `Cannot start graver: ${message}`;
  document.body.dataset["ready"] = "failed";
  throw err;
}
