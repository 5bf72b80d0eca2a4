/**
 * `<demo-thermal-control>`: the thermal state of this tab's simulated device. A browser has no
 * thermal sensor, so the developer sets it here (`PUT /sandbox/users/{id}/device`) and the
 * activities this user runs hear THERMAL_STATE_UPDATE.
 */
import { LitElement, css, html, nothing } from 'lit';
import type { PlatformElement } from '../../src/components/platform-element';
import type { DemoClient } from './demo-client';
import { reportError } from './errors';
import { sharedStyles } from './styles';

const STATES = ['Nominal', 'Fair', 'Serious', 'Critical'] as const;

/** One select: the device's thermal state. */
export class DemoThermalControl extends LitElement {
  static override properties = { client: { attribute: false }, state: { state: true } };
  static override styles = [
    sharedStyles,
    css`:host { display: inline-flex; gap: 0.4rem; align-items: center; font-size: 0.85rem; }`,
  ];

  declare client: DemoClient | null;
  declare state: number;

  constructor() {
    super();
    this.client = null;
    this.state = 0;
  }

  override render() {
    if (!this.client) return nothing;
    return html`<label for="thermal">Device thermal state</label>
      <select id="thermal" .value=${String(this.state)} @change=${this.#change}>
        ${STATES.map((name, i) => html`<option value=${i} ?selected=${i === this.state}>${name}</option>`)}
      </select>`;
  }

  async #change(event: Event): Promise<void> {
    const state = Number((event.target as HTMLSelectElement).value) as 0 | 1 | 2 | 3;
    const platform = document.querySelector('pp-platform') as PlatformElement | null;
    if (!this.client || !platform) return;
    try {
      await platform.sandbox.setThermalState(this.client.user.id, state);
      this.state = state;
    } catch (error) {
      reportError(this, 'Setting the device thermal state', error);
    }
  }
}

customElements.define('demo-thermal-control', DemoThermalControl);
