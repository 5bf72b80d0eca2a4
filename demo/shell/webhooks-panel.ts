/**
 * `<demo-webhooks>`: the webhook outbox (`GET /sandbox/webhook-deliveries`): each delivery's
 * event type, whom it is about (the payload's user), status, attempts and target URL, with its
 * payload behind a disclosure that says it opens (credentials redacted). The seed points
 * Tic-Tac-Toe's webhook events at a sink on this origin, so authorizing the activity shows
 * APPLICATION_AUTHORIZED here. Read again when the platform announces new events.
 */
import { LitElement, css, html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { PlatformElement } from '../../src/components/platform-element';
import { AnnouncementController } from './announcements';
import { redact } from './event-journal';
import { errorMessage } from './errors';
import { icon } from './icons';
import { sharedStyles } from './styles';

/** Whom a delivery is about, from its payload's user (APPLICATION_AUTHORIZED, APPLICATION_DEAUTHORIZED...). */
export function about(payload: unknown): string {
  const user = (payload as { event?: { data?: { user?: { username?: string; global_name?: string | null } } } })?.event
    ?.data?.user;
  if (!user?.username) return '';
  return user.global_name ? `${user.global_name} (@${user.username})` : `@${user.username}`;
}

interface Delivery {
  id: string;
  event_type: string;
  url: string;
  status: string;
  attempts: number;
  payload: unknown;
}

/** The webhook deliveries panel. */
export class DemoWebhooks extends LitElement {
  static override properties = {
    deliveries: { state: true },
    failure: { state: true },
    loading: { state: true },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: block; }
    li { border-bottom: 1px solid var(--line); }
    summary { cursor: pointer; display: grid; grid-template-columns: auto minmax(0, 1fr) auto; gap: 0.15rem 0.6rem; padding: 0.45rem 0.25rem; list-style: none; align-items: baseline; }
    summary::-webkit-details-marker { display: none; }
    summary:hover { background: var(--hover); }
    .chevron { grid-row: 1 / span 2; transition: transform 0.15s; color: var(--ink-muted); align-self: start; margin-top: 0.2rem; }
    details[open] .chevron { transform: rotate(90deg); }
    .what { display: flex; gap: 0.5rem; flex-wrap: wrap; align-items: baseline; min-width: 0; }
    .detail { grid-column: 2 / -1; display: flex; gap: 0.6rem; flex-wrap: wrap; font-size: 0.8rem; }
    .url { overflow-wrap: anywhere; }
    .show { font-size: 0.78rem; color: var(--link); white-space: nowrap; }
    .status { font-size: 0.75rem; font-weight: 600; padding: 0 0.4rem; border-radius: 999px; border: 1px solid currentColor; }
    .status.delivered { color: var(--ok); }
    .status.failed { color: var(--danger); }
    pre { margin: 0 0 0.5rem 1.6rem; padding: 0.5rem; overflow: auto; max-height: 16rem; }
  `,
  ];

  declare deliveries: Delivery[] | null;
  declare failure: string | null;
  declare loading: boolean;
  #soon: ReturnType<typeof setTimeout> | undefined;
  /** The deliveries whose payload is open, by id: kept when the list is read again. */
  readonly #open = new Set<string>();
  // The outbox delivers just after the write that made the event: read a moment later.
  readonly #announcements = new AnnouncementController(this, () => {
    clearTimeout(this.#soon);
    this.#soon = setTimeout(() => void this.reload(), 300);
  });

  constructor() {
    super();
    this.deliveries = null;
    this.failure = null;
    this.loading = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.reload();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#soon);
  }

  /** Reads the outbox again. */
  async reload(): Promise<void> {
    this.loading = true;
    try {
      const sandbox = (document.querySelector('pp-platform') as PlatformElement).sandbox;
      this.deliveries = (await sandbox.webhookDeliveries()).deliveries as Delivery[];
      this.failure = null;
    } catch (error) {
      this.failure = errorMessage(error);
    } finally {
      this.loading = false;
    }
  }

  override render() {
    return html`
      <!-- Not a region of its own: the developer tools' panel around it already bears this name. -->
      <section class="card stack">
        <div class="row" style="justify-content: space-between">
          <h3 id="webhooks-title">Webhook deliveries</h3>
          <button type="button" @click=${() => this.reload()} ?disabled=${this.loading}>Refresh</button>
        </div>
        ${this.failure ? html`<p class="error" role="alert">Reading the webhook deliveries failed: ${this.failure}</p>` : ''}
        ${
          this.deliveries === null
            ? html`<p class="muted" role="status">Reading the outbox…</p>`
            : this.deliveries.length === 0
              ? html`<p class="muted" role="status">No deliveries yet. Webhook events (APPLICATION_AUTHORIZED, ENTITLEMENT_CREATE, APPLICATION_DEAUTHORIZED…) go to an application's webhook events URL: Tic-Tac-Toe's is a sink in this browser, so start it in the Game Room and authorize it to see APPLICATION_AUTHORIZED arrive.</p>`
              : html`<ul aria-label="Webhook deliveries">${repeat(
                  this.deliveries,
                  (d) => d.id,
                  (
                    d,
                  ) => html`<li><details ?open=${this.#open.has(d.id)} @toggle=${(e: Event) => this.#toggle(d.id, (e.target as HTMLDetailsElement).open)}>
                <summary>
                  <span class="chevron" aria-hidden="true">${icon('play')}</span>
                  <span class="what"><strong>${d.event_type}</strong>${about(d.payload) ? html`<span>${about(d.payload)}</span>` : nothing}</span>
                  <span class="show">${this.#open.has(d.id) ? 'Hide payload' : 'Show payload'}</span>
                  <span class="detail"><span class="status ${d.status}">${d.status}</span><span class="muted">${d.attempts} attempt${d.attempts === 1 ? '' : 's'}</span><span class="muted url">${d.url}</span></span>
                </summary>
                <pre tabindex="0">${JSON.stringify(redact(d.payload), null, 2)}</pre>
              </details></li>`,
                )}</ul>`
        }
      </section>
    `;
  }

  #toggle(id: string, open: boolean): void {
    if (open === this.#open.has(id)) return;
    if (open) this.#open.add(id);
    else this.#open.delete(id);
    this.requestUpdate();
  }
}

customElements.define('demo-webhooks', DemoWebhooks);
