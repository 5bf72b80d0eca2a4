/**
 * `<demo-event-stream>`: the gateway payloads this page's sessions received and sent (the user's
 * and the bot's), newest first, filterable by name and session, each payload expandable. Credentials
 * never reach it: the journal redacts them before keeping anything.
 */
import { LitElement, css, html, nothing } from 'lit';
import type { EventJournal, JournalEntry } from './event-journal';
import { StateController } from './state-controller';
import { sharedStyles } from './styles';

/** How many matching entries are shown at once. */
const SHOWN_MAX = 200;
/** Opcodes of the connection's housekeeping, hidden unless asked for. */
const HOUSEKEEPING = new Set([1, 11]);

const TIME = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** The event stream panel. */
export class DemoEventStream extends LitElement {
  static override properties = {
    journal: { attribute: false },
    filter: { state: true },
    source: { state: true },
    heartbeats: { state: true },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: grid; gap: 0.6rem; min-height: 0; height: 100%; grid-template-rows: auto auto minmax(0, 1fr); grid-template-columns: minmax(0, 1fr); }
    .controls { display: flex; gap: 0.5rem; flex-wrap: wrap; align-items: end; }
    .controls label { display: grid; gap: 0.15rem; font-size: 0.8rem; color: var(--ink-muted); }
    .controls label.check { display: flex; gap: 0.35rem; align-items: center; color: var(--ink); font-size: 0.9rem; }
    ol { list-style: none; margin: 0; padding: 0; min-height: 12rem; overflow: auto; align-self: start; max-height: 100%; border: 1px solid var(--line); border-radius: 6px; }
    li { border-bottom: 1px solid var(--line); }
    summary { padding: 0.3rem 0.6rem; cursor: pointer; display: flex; gap: 0.6rem; flex-wrap: wrap; align-items: baseline; }
    summary .type { font-weight: 600; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.8rem; }
    summary .src { font-size: 0.75rem; padding: 0 0.35rem; border-radius: 4px; background: var(--paper-alt); }
    summary .sent { font-size: 0.75rem; padding: 0 0.35rem; border-radius: 4px; background: var(--accent-soft); color: var(--ink); }
    pre { margin: 0; padding: 0.5rem 0.75rem; border-radius: 0; overflow: auto; max-height: 20rem; }
    .empty { padding: 0.75rem; }
  `,
  ];

  declare journal: EventJournal | null;
  declare filter: string;
  declare source: string;
  declare heartbeats: boolean;
  readonly #changes = new StateController(this, () => this.journal);
  readonly #open = new Set<number>();

  constructor() {
    super();
    this.journal = null;
    this.filter = '';
    this.source = '';
    this.heartbeats = false;
  }

  override render() {
    const entries = this.journal?.entries ?? [];
    const sources = [...new Set(entries.map((e) => e.source))];
    const needle = this.filter.trim().toLowerCase();
    const matching = entries.filter(
      (e) =>
        (this.heartbeats || !HOUSEKEEPING.has(e.op)) &&
        (!this.source || e.source === this.source) &&
        (!needle ||
          e.type.toLowerCase().includes(needle) ||
          JSON.stringify(e.data ?? null)
            .toLowerCase()
            .includes(needle)),
    );
    const shown = matching.slice(-SHOWN_MAX).reverse();
    return html`
      <div class="controls">
        <label>Filter events<input type="search" .value=${this.filter} placeholder="e.g. LOBBY_MESSAGE" @input=${(e: Event) => (this.filter = (e.target as HTMLInputElement).value)} /></label>
        <label>Session<select @change=${(e: Event) => (this.source = (e.target as HTMLSelectElement).value)}>
          <option value="">All sessions</option>
          ${sources.map((s) => html`<option value=${s} ?selected=${s === this.source}>${s}</option>`)}
        </select></label>
        <label class="check"><input type="checkbox" .checked=${this.heartbeats} @change=${(e: Event) => (this.heartbeats = (e.target as HTMLInputElement).checked)} />Show heartbeats</label>
        <button type="button" @click=${() => this.journal?.clear()}>Clear</button>
      </div>
      <p class="muted" role="status">${matching.length} of ${entries.length} payloads${matching.length > SHOWN_MAX ? `, newest ${SHOWN_MAX} shown` : ''}. Tokens are never shown.</p>
      ${
        shown.length === 0
          ? html`<p class="empty muted">No payloads match.</p>`
          : html`<ol aria-label="Gateway payloads, newest first">${shown.map((e) => this.#entry(e))}</ol>`
      }
    `;
  }

  #entry(entry: JournalEntry) {
    const open = this.#open.has(entry.n);
    return html`<li>
      <details ?open=${open} @toggle=${(e: Event) => this.#toggle(entry.n, (e.target as HTMLDetailsElement).open)}>
        <summary>
          <span class="type">${entry.type}</span>
          <span class="src">${entry.source}</span>
          ${entry.direction === 'sent' ? html`<span class="sent">sent</span>` : nothing}
          ${entry.seq !== null ? html`<span class="muted">s=${entry.seq}</span>` : nothing}
          <time class="muted" datetime=${new Date(entry.at).toISOString()}>${TIME.format(entry.at)}</time>
        </summary>
        ${open ? html`<pre tabindex="0">${JSON.stringify(entry.data, null, 2)}</pre>` : nothing}
      </details>
    </li>`;
  }

  #toggle(n: number, open: boolean): void {
    if (open === this.#open.has(n)) return;
    if (open) this.#open.add(n);
    else this.#open.delete(n);
    this.requestUpdate();
  }
}

customElements.define('demo-event-stream', DemoEventStream);
