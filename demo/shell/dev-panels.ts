/**
 * `<demo-dev-panels>`: the developer's side of the platform, one panel at a time: the gateway
 * event stream, the sandbox clock with its dated rules, the seeded fixtures with the reset,
 * the webhook outbox, and faults and rate limits on demand. Each panel has its own route (`#/dev/<panel>`).
 */
import { LitElement, css, html } from 'lit';
import type { DemoClient } from './demo-client';
import type { EventJournal } from './event-journal';
import { icon } from './icons';
import { sharedStyles } from './styles';
import './clock-panel';
import './faults-panel';
import './event-stream';
import './fixtures-panel';
import './webhooks-panel';
import './thermal-control';

/** The panels, in tab order. */
export const DEV_PANELS = [
  { id: 'events', label: 'Gateway events' },
  { id: 'clock', label: 'Clock and dated rules' },
  { id: 'fixtures', label: 'Fixtures and reset' },
  { id: 'webhooks', label: 'Webhook deliveries' },
  { id: 'faults', label: 'Faults and limits' },
] as const;

/** A panel's id. */
export type DevPanel = (typeof DEV_PANELS)[number]['id'];

/** The developer tools. */
export class DemoDevPanels extends LitElement {
  static override properties = {
    client: { attribute: false },
    journal: { attribute: false },
    panel: { type: String },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: grid; grid-template-rows: auto auto minmax(0, 1fr); grid-template-columns: minmax(0, 1fr); min-height: 0; height: 100%; }
    header { padding: 0.75rem 1rem 0; }
    /* The tabs wrap onto a second line on a narrow screen rather than run off its edge. */
    nav ul { display: flex; flex-wrap: wrap; gap: 0 0.25rem; padding: 0.5rem 1rem 0; border-bottom: 1px solid var(--line); }
    nav a { display: block; padding: 0.45rem 0.75rem; color: var(--ink-muted); text-decoration: none; border-bottom: 3px solid transparent; white-space: nowrap; }
    nav a[aria-current='page'] { color: var(--ink); border-bottom-color: var(--accent); font-weight: 600; }
    nav a:hover { color: var(--ink); }
    .panel { padding: 1rem; overflow: auto; min-height: 0; display: grid; grid-template-columns: minmax(0, 1fr); align-content: start; }
  `,
  ];

  declare client: DemoClient | null;
  declare journal: EventJournal | null;
  declare panel: DevPanel;

  constructor() {
    super();
    this.client = null;
    this.journal = null;
    this.panel = 'events';
  }

  override render() {
    const label = DEV_PANELS.find((p) => p.id === this.panel)?.label ?? '';
    return html`
      <header class="row"><h2>${icon('tools')} Developer tools</h2><demo-thermal-control .client=${this.client}></demo-thermal-control></header>
      <nav aria-label="Developer panels">
        <ul>${DEV_PANELS.map((p) => html`<li><a href=${`#/dev/${p.id}`} aria-current=${p.id === this.panel ? 'page' : 'false'}>${p.label}</a></li>`)}</ul>
      </nav>
      <section class="panel" aria-label=${label}>${this.#panel()}</section>
    `;
  }

  #panel() {
    switch (this.panel) {
      case 'clock':
        return html`<demo-clock-panel .client=${this.client}></demo-clock-panel>`;
      case 'fixtures':
        return html`<demo-fixtures .client=${this.client}></demo-fixtures>`;
      case 'webhooks':
        return html`<demo-webhooks></demo-webhooks>`;
      case 'faults':
        return html`<demo-faults-panel .client=${this.client}></demo-faults-panel>`;
      default:
        return html`<demo-event-stream .journal=${this.journal}></demo-event-stream>`;
    }
  }
}

customElements.define('demo-dev-panels', DemoDevPanels);
