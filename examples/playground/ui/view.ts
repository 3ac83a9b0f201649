/**
 * The playground page's controller: binds the skeleton in index.html to a
 * {@linkcode Playground}. Every action is a tool call through it (and so
 * through the workspace's dispatch); edits are previewed as a dry run first,
 * then applied with the "Apply" button of the result pane.
 *
 * @module
 */
/// <reference lib="dom" />
import type { ToolResult } from "../../../src/mod.ts";
import type { Playground, PlaygroundSettings } from "../playground.ts";
import { SAMPLE_RESPONSES } from "../sample.ts";
import { byId, fill, h } from "./dom.ts";
import { bindStreamReplay } from "./stream_replay.ts";
import {
  type CheckpointRow,
  renderCheckpoints,
  renderCode,
  renderCounters,
  renderFeed,
  renderLedger,
  renderResult,
} from "./render.ts";

/** One entry of the outline tool's answer. */
interface OutlineSymbol {
  name_path: string;
  kind: string;
  start_line: number;
  end_line: number;
  children?: OutlineSymbol[];
}

/** One match of search_text or search_structural, as the search box lists it. */
interface SearchMatch {
  path: string;
  line: number;
  text: string;
}

/** A call previewed and waiting for "Apply". */
interface Proposal {
  label: string;
  tool: string;
  args: Record<string, unknown>;
}

const STATE_MARK: Record<string, string> = {
  never_read: "unread",
  partial_read: "partial",
  fully_read: "read",
  model_authored: "authored",
  stale: "stale",
};

/** The page controller. */
export class PlaygroundView {
  readonly #pg: Playground;
  #path: string | null = null;
  #symbol: OutlineSymbol | null = null;
  #pending: Proposal | null = null;
  #busy = false;

  /** @param pg The open playground. */
  constructor(pg: Playground) {
    this.#pg = pg;
    pg.onChange(() => this.#renderInspectors());
    for (const key of ["readGuard", "gate", "compass"] as const) {
      const select = byId<HTMLSelectElement>(`set-${key}`);
      select.value = pg.settings[key];
      select.addEventListener("change", () =>
        this.#run(async () => {
          await pg.configure({ [key]: select.value } as Partial<PlaygroundSettings>);
          this.#status(`${key} set to ${select.value}`);
        }));
    }
    byId("reset").addEventListener("click", () =>
      this.#run(async () => {
        await pg.reset();
        this.#path = null;
        this.#symbol = null;
        fill(byId("result"));
        await this.refresh();
        this.#status("Sample project restored");
      }));
    const examples = byId<HTMLSelectElement>("examples");
    for (const [name] of Object.entries(SAMPLE_RESPONSES)) {
      examples.append(h("option", { value: name }, name));
    }
    examples.addEventListener("change", () => {
      const text = SAMPLE_RESPONSES[examples.value];
      if (text !== undefined) byId<HTMLTextAreaElement>("response").value = text;
    });
    byId("preview-response").addEventListener("click", () => {
      const text = byId<HTMLTextAreaElement>("response").value;
      this.#run(() => this.#propose("apply_edits", "apply_edits", { text }));
    });
    this.#bindSearch();
    bindStreamReplay(pg, {
      run: (fn) => this.#run(fn),
      open: (path) => this.open(path),
      show: (label, result) => this.#show(label, result),
      refresh: () => this.refresh(),
    });
    byId("undo").addEventListener("click", () =>
      this.#run(async () => {
        const res = await pg.call("checkpoint_undo", {});
        this.#show("Undo (checkpoint_undo)", res);
        await this.refresh();
      }));
    byId("rename").addEventListener("click", () => {
      const s = this.#symbol;
      const to = byId<HTMLInputElement>("rename-to").value.trim();
      if (!s || !this.#path || !to) return;
      this.#run(() =>
        this.#propose(`Rename ${s.name_path} to ${to}`, "edit_rename_symbol", {
          path: this.#path!,
          target: s.name_path,
          new_name: to,
        })
      );
    });
    byId("replace").addEventListener("click", () => {
      const s = this.#symbol;
      if (!s || !this.#path) return;
      this.#run(() =>
        this.#propose(`Replace ${s.name_path}`, "replace_symbol", {
          path: this.#path!,
          name_path: s.name_path,
          new_text: byId<HTMLTextAreaElement>("replace-text").value,
        })
      );
    });
    byId("remove").addEventListener("click", () => {
      const s = this.#symbol;
      if (!s || !this.#path) return;
      this.#run(() =>
        this.#propose(`Remove ${s.name_path}`, "remove_symbol", { path: this.#path!, name_path: s.name_path })
      );
    });
  }

  /**
   * The search box: text (search_text) or code (search_structural) across the project; each match opens its
   * file; "Preview" proposes the replacement of every match (edit_replace_text / edit_rewrite_structural),
   * applied as one commit from the result pane like any other edit.
   */
  #bindSearch(): void {
    const pattern = () => byId<HTMLInputElement>("search-pattern").value;
    const code = () => byId<HTMLSelectElement>("search-kind").value === "code";
    byId("search").addEventListener("click", () =>
      this.#run(async () => {
        if (!pattern()) return;
        const tool = code() ? "search_structural" : "search_text";
        const res = await this.#pg.call(tool, { pattern: pattern(), max_results: 50 });
        const matches = res.ok ? res.data["matches"] as SearchMatch[] ?? [] : [];
        fill(
          byId("search-results"),
          ...matches.map((m) =>
            h(
              "li",
              { "data-path": m.path, "data-line": String(m.line) },
              h("button", {
                onclick: () => this.#run(() => this.open(m.path)),
              }, `${m.path}:${m.line}`),
              h("code", {}, ` ${(m.text.split("\n")[0] ?? "").trim().slice(0, 80)}`),
            )
          ),
        );
        if (!res.ok) fill(byId("search-results"), h("li", { class: "empty" }, res.error.message));
        else if (matches.length === 0) fill(byId("search-results"), h("li", { class: "empty" }, "No match"));
        // What the search says of itself (a pattern read as an ERROR node, files left out) comes first.
        if (res.ok) {
          byId("search-results").prepend(...res.warnings.map((w) => h("li", { class: "warning" }, w)));
        }
        this.#status(`${tool}: ${matches.length} match${matches.length === 1 ? "" : "es"}`);
      }));
    byId("search-rewrite").addEventListener("click", () => {
      if (!pattern()) return;
      const replacement = byId<HTMLInputElement>("search-replace").value;
      this.#run(() =>
        code()
          ? this.#propose("Rewrite every match", "edit_rewrite_structural", {
            pattern: pattern(),
            rewrite: replacement,
          })
          : this.#propose("Replace every match", "edit_replace_text", { pattern: pattern(), replacement })
      );
    });
  }

  /** Re-read everything shown: files, the open file, its outline, checkpoints, the inspectors. */
  async refresh(): Promise<void> {
    await this.#renderFile();
    await this.#renderFiles(); // after the read, so the open file's ledger state is current
    await this.#renderCheckpoints();
    this.#renderInspectors();
  }

  /**
   * Open a file: read it (through read_file, which the ledger records), highlight it, outline it.
   *
   * @param path Relative path.
   */
  async open(path: string): Promise<void> {
    this.#path = path;
    this.#symbol = null;
    this.#renderSymbol();
    await this.refresh();
  }

  /** Run one UI action at a time, reporting a thrown error (a bug: tool refusals are results). */
  #run(fn: () => Promise<void>): void {
    if (this.#busy) return;
    this.#busy = true;
    document.body.dataset["busy"] = "true";
    fn().catch((err) => this.#status(`Error: ${err instanceof Error ? err.message : err}`)).finally(() => {
      this.#busy = false;
      delete document.body.dataset["busy"];
    });
  }

  #status(text: string): void {
    byId("status").textContent = text;
  }

  async #propose(label: string, tool: string, args: Record<string, unknown>): Promise<void> {
    const res = await this.#pg.call(tool, args, { dryRun: true });
    this.#pending = res.ok && res.status === "dry_run" ? { label, tool, args } : null;
    this.#show(`Preview ${label}`, res);
    // A refusal may still have changed what the session has seen (an unread range shown to it).
    await this.#renderFiles();
  }

  async #applyPending(): Promise<void> {
    const p = this.#pending;
    if (!p) return;
    this.#pending = null;
    const res = await this.#pg.call(p.tool, p.args);
    this.#show(p.label, res);
    await this.refresh();
  }

  #show(label: string, res: ToolResult): void {
    fill(
      byId("result"),
      renderResult(label, res, {
        apply: () => this.#run(() => this.#applyPending()),
        suggest: (tool, args) => this.#run(() => this.#propose(`suggested ${tool}`, tool, args)),
      }),
    );
    this.#status(`${res.tool}: ${res.ok ? res.status : res.error.code}`);
  }

  async #renderFiles(): Promise<void> {
    const res = await this.#pg.call("list_files", { recursive: true });
    const entries = res.ok ? res.data["entries"] as string[] : [];
    const items = entries.map((entry) => {
      const dir = entry.endsWith("/");
      const rel = dir ? entry.slice(0, -1) : entry;
      const depth = rel.split("/").length - 1;
      const name = rel.slice(rel.lastIndexOf("/") + 1);
      if (dir) return h("li", { class: "dir", style: `--depth:${depth}` }, `${name}/`);
      const state = this.#pg.ledgerView(rel).state;
      return h(
        "li",
        { class: rel === this.#path ? "file open" : "file", style: `--depth:${depth}`, "data-path": rel },
        h("button", { onclick: () => this.#run(() => this.open(rel)) }, name),
        h("span", { class: `state ${state}`, title: `ledger: ${state}` }, STATE_MARK[state] ?? state),
      );
    });
    fill(byId("files"), ...items);
  }

  async #renderFile(): Promise<void> {
    const path = this.#path;
    if (!path) {
      fill(byId("code-head"), "Pick a file");
      fill(byId("code"));
      fill(byId("outline"));
      return;
    }
    const read = await this.#pg.call("read_file", { path, numbered: false });
    if (!read.ok) {
      fill(byId("code-head"), `${path}: ${read.error.message}`);
      fill(byId("code"));
      fill(byId("outline"));
      this.#path = null;
      return;
    }
    const text = read.data["content"] as string;
    const language = read.data["language"] as string | null;
    const version = String(read.data["version"]);
    fill(
      byId("code-head"),
      h("b", { id: "open-path" }, path),
      ` ${language ?? "plain text"} · ${read.data["total_lines"]} lines · ${read.data["eol"]} · `,
      h("code", { title: version }, version.slice(0, 12)),
    );
    const spans = await this.#pg.highlight(language, text);
    const s = this.#symbol;
    fill(byId("code"), renderCode(text, spans, s ? { start: s.start_line, end: s.end_line } : undefined));
    const outline = language ? await this.#pg.call("outline", { path }) : null;
    const symbols = outline?.ok ? outline.data["symbols"] as OutlineSymbol[] : [];
    fill(byId("outline"), ...symbols.map((sym) => this.#outlineItem(sym)));
    if (s && !hasSymbol(symbols, s.name_path)) {
      // Renamed or removed: drop the selection.
      this.#symbol = null;
      this.#renderSymbol();
    }
    if (outline && !outline.ok) fill(byId("outline"), h("li", { class: "empty" }, outline.error.message));
  }

  #outlineItem(sym: OutlineSymbol): HTMLElement {
    const name = sym.name_path.slice(sym.name_path.lastIndexOf("/") + 1);
    return h(
      "li",
      { class: sym === this.#symbol || sym.name_path === this.#symbol?.name_path ? "selected" : "" },
      h(
        "button",
        { "data-name-path": sym.name_path, onclick: () => this.#run(() => this.#select(sym)) },
        h("span", { class: "kind" }, sym.kind),
        " ",
        name,
        h("span", { class: "lines" }, ` ${sym.start_line}–${sym.end_line}`),
      ),
      sym.children?.length ? h("ul", {}, ...sym.children.map((c) => this.#outlineItem(c))) : null,
    );
  }

  async #select(sym: OutlineSymbol): Promise<void> {
    this.#symbol = sym;
    const found = await this.#pg.call("find_symbol", {
      path: this.#path!,
      name_path: sym.name_path,
      include_body: true,
      max_results: 1,
    });
    const match = found.ok ? (found.data["matches"] as { body?: string }[])[0] : undefined;
    this.#renderSymbol(match?.body ?? "");
    await this.#renderFile();
    document.querySelector(`#code .line[data-line="${sym.start_line}"]`)?.scrollIntoView({
      block: "nearest",
    });
  }

  #renderSymbol(body = ""): void {
    const s = this.#symbol;
    byId("symbol-panel").toggleAttribute("hidden", !s);
    fill(
      byId("symbol"),
      s
        ? h("span", {}, h("b", {}, s.name_path), ` (${s.kind}, lines ${s.start_line}–${s.end_line})`)
        : "Pick a symbol in the outline",
    );
    if (!s) return;
    byId<HTMLInputElement>("rename-to").value = s.name_path.slice(s.name_path.lastIndexOf("/") + 1);
    byId<HTMLTextAreaElement>("replace-text").value = body;
  }

  async #renderCheckpoints(): Promise<void> {
    const res = await this.#pg.call("checkpoint_list", {});
    const rows = res.ok ? res.data["checkpoints"] as CheckpointRow[] : [];
    fill(
      byId("checkpoints"),
      ...renderCheckpoints(
        rows,
        (id) => this.#run(() => this.#propose(`Restore ${id.slice(0, 7)}`, "checkpoint_restore", { id })),
      ),
    );
  }

  #renderInspectors(): void {
    fill(byId("ledger"), this.#path ? renderLedger(this.#pg.ledgerView(this.#path)) : "Open a file");
    fill(byId("feed"), ...renderFeed(this.#pg.feed));
    fill(byId("counters"), ...renderCounters(this.#pg.counters.series()));
    const stats = this.#pg.workspace.compass.stats();
    byId("compass-stats").textContent =
      `compass: ${stats.suggested} suggested, ${stats.rewritten} rewritten, ${stats.fell_back} fell back`;
  }
}

function hasSymbol(symbols: OutlineSymbol[], namePath: string): boolean {
  return symbols.some((s) => s.name_path === namePath || hasSymbol(s.children ?? [], namePath));
}
