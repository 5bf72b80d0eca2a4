/**
 * The RPC inspector panel: the session's {@link RpcLog} as a list, newest first, filtered by
 * kind and by command or event name; each entry opens to its payload, answer and timing, and
 * copies as JSON; the whole session exports as a file. Recording can be paused: then no frame
 * reports its messages at all (the wire tap has no watcher), which is what "closed" costs.
 */
import { html, nothing, render } from 'lit';
import { watchRpcWire } from '../../components/rpc-wire-tap';
import { isProxiedRequestRecord, PROXY_LOG_CHANNEL } from '../../wire/proxy-log';
import { RPC_LOG_KINDS, RpcLog, type RpcLogEntry, type RpcLogKind } from './rpc-log';

/** How many entries the list shows at most (the log and the export keep more). */
export const INSPECTOR_SHOWN_MAX = 300;

/** What the panel shows. */
export interface InspectorState {
  recording: boolean;
  kinds: Set<RpcLogKind>;
  text: string;
  /** The last thing the panel said (copied, exported). */
  notice: string;
}

const KIND_LABELS: Record<RpcLogKind, string> = {
  handshake: 'Handshakes',
  command: 'Commands',
  event: 'Events',
  close: 'Closes',
  proxy: 'Proxied requests',
};

/**
 * The inspector of this page's activity frames, rendered into `container`.
 * @example const inspector = new RpcInspector(section, (id) => names[id] ?? id); inspector.start();
 */
export class RpcInspector {
  readonly log = new RpcLog();
  readonly state: InspectorState = { recording: false, kinds: new Set(RPC_LOG_KINDS), text: '', notice: '' };
  #stopWire: (() => void) | null = null;
  #proxy: BroadcastChannel | null = null;
  #frame = 0;

  constructor(
    private readonly container: HTMLElement,
    /** A user's name for a user id (the list says who each message is for). */
    private readonly nameOf: (userId: string | null) => string,
  ) {
    this.log.onChange = () => this.#schedule();
  }

  /** Starts recording (the wire tap and the service worker's proxy log). */
  start(): void {
    if (this.state.recording) return;
    this.state.recording = true;
    this.#stopWire = watchRpcWire((record) => this.log.addWire(record));
    this.#proxy = new BroadcastChannel(PROXY_LOG_CHANNEL);
    this.#proxy.onmessage = (event) => isProxiedRequestRecord(event.data) && this.log.addProxied(event.data);
    this.render();
  }

  /** Stops recording; what was recorded stays. */
  stop(): void {
    this.state.recording = false;
    this.#stopWire?.();
    this.#stopWire = null;
    this.#proxy?.close();
    this.#proxy = null;
    this.render();
  }

  /** Renders now. */
  render(): void {
    const { state, log } = this;
    const shown = log.filtered(state).slice(-INSPECTOR_SHOWN_MAX).reverse();
    render(
      html`<div class="toolbar">
          <button type="button" aria-pressed=${state.recording ? 'true' : 'false'} @click=${() => (state.recording ? this.stop() : this.start())}>
            ${state.recording ? 'Pause recording' : 'Record'}
          </button>
          <button type="button" @click=${() => this.log.clear()}>Clear</button>
          <button type="button" @click=${() => this.#export()}>Export session</button>
          <label>Command or event <input type="search" .value=${state.text} @input=${(e: Event) => this.#filterText((e.target as HTMLInputElement).value)} /></label>
        </div>
        <fieldset class="kinds"><legend>Show</legend>
          ${RPC_LOG_KINDS.map(
            (kind) =>
              html`<label><input type="checkbox" name="kind" value=${kind} .checked=${state.kinds.has(kind)} @change=${(e: Event) => this.#toggleKind(kind, (e.target as HTMLInputElement).checked)} />${KIND_LABELS[kind]}</label>`,
          )}
        </fieldset>
        <p class="count">${shown.length} of ${log.entries.length} entries shown</p>
        <p class="count" role="status">${state.notice}</p>
        <ol class="rpc-log" tabindex="0" aria-label="RPC messages, newest first">${shown.map((e) => this.#entry(e))}</ol>`,
      this.container,
    );
  }

  #entry(e: RpcLogEntry) {
    const time =
      e.duration_ms === undefined ? '' : e.duration_ms === null ? 'pending' : `${e.duration_ms.toFixed(1)} ms`;
    const outcome = e.proxy ? String(e.proxy.status) : e.error ? `ERROR ${e.error.code}` : '';
    return html`<li data-kind=${e.kind} data-name=${e.name}>
      <details>
        <summary>
          <span class="n">#${e.n}</span> <span class="who">${this.nameOf(e.user_id)}</span>
          <span class="kind">${e.from === 'activity' ? '→' : '←'} ${e.kind}</span> <strong>${e.name}</strong>
          ${outcome ? html`<span class=${e.error ? 'bad' : 'ok'}>${outcome}</span>` : nothing} <span class="time">${time}</span>
        </summary>
        <button type="button" @click=${() => this.#copy(e)}>Copy as JSON</button>
        <pre>${JSON.stringify(details(e), null, 2)}</pre>
      </details>
    </li>`;
  }

  #filterText(text: string): void {
    this.state.text = text;
    this.render();
  }

  #toggleKind(kind: RpcLogKind, on: boolean): void {
    if (on) this.state.kinds.add(kind);
    else this.state.kinds.delete(kind);
    this.render();
  }

  async #copy(entry: RpcLogEntry): Promise<void> {
    const copied = await navigator.clipboard?.writeText(JSON.stringify(entry, null, 2)).then(
      () => true,
      () => false, // No clipboard permission (an unfocused page): say so rather than pretend.
    );
    this.state.notice = copied
      ? `entry #${entry.n} copied`
      : `entry #${entry.n} could not be copied (no clipboard access)`;
    this.render();
  }

  #export(): void {
    const url = URL.createObjectURL(new Blob([this.log.toJson()], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `rpc-session-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
    a.click();
    // The download has its own copy once started.
    setTimeout(() => URL.revokeObjectURL(url), 0);
    this.state.notice = `${this.log.entries.length} entries exported`;
    this.render();
  }

  #schedule(): void {
    if (this.#frame) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.render();
    });
  }
}

/** What an opened entry shows: its fields without the list's own. */
function details(e: RpcLogEntry): Record<string, unknown> {
  const { n: _n, kind: _k, name: _name, from: _from, ...rest } = e;
  return rest;
}
